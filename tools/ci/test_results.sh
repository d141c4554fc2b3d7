#!/usr/bin/env bash
# Prints "N passed, N failed" for the test targets of one Bazel invocation,
# read from its build event protocol JSON file (--build_event_json_file): one
# status per test target, its testSummary's overall status, or
# FAILED_TO_BUILD for a test target that got none. Only Bazel writes that
# file, and everything a test prints sits in it inside JSON strings, so no
# output of a test (an agent's text among it) can add a result, as lines
# scraped from the console could.
#
#   tools/ci/test_results.sh EVENTS.json
#
# Needs jq (bazel/debian_packages.txt). A file that cannot be read counts
# nothing.
set -uo pipefail
statuses="$(jq -rs '
  (map(select(.id.testSummary != null)
       | {key: .id.testSummary.label, value: .testSummary.overallStatus}) | from_entries) as $status
  | map(select(.id.targetConfigured != null and .configured.testSize != null)
        | .id.targetConfigured.label)
  | unique | .[] | $status[.] // "FAILED_TO_BUILD"' "$1")" || statuses=""
echo "$(grep -cx 'PASSED' <<<"$statuses") passed, $(grep -cvx -e 'PASSED' -e '' <<<"$statuses") failed"
