#!/usr/bin/env bash
# Integration test: the tests of the lower layers (base, formats, pycompat,
# grading, agent_runner) pass under AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer at once (.bazelrc's --config=sanitizers; docs/
# architecture.md, "Sanitizers"). A nested Bazel on a copy of the workspace,
# with the outer build's disk cache: after the first run on a machine, only
# what changed is compiled and tested again.
set -euo pipefail

source bazel/nested_bazel.sh
nested_workspace "$TEST_TMPDIR/ws"

packages=(//base/... //formats/... //pycompat/... //grading/... //agent_runner/...)
out="$TEST_TMPDIR/sanitizers.out"
status=0
"${NESTED_BAZEL[@]}" --batch test --config=sanitizers "${NESTED_BUILD_OPTIONS[@]}" \
  --keep_going --test_output=errors \
  --test_summary=terse "${packages[@]}" >"$out" 2>&1 || status=$?
# Bazel's own logs of what failed go with the test's outputs.
if [[ -n "${TEST_UNDECLARED_OUTPUTS_DIR:-}" ]]; then
  cp "$out" "$TEST_UNDECLARED_OUTPUTS_DIR/" || true
fi
if (( status != 0 )); then
  cat "$out"
  echo "FAIL: tests under --config=sanitizers failed (exit $status; see above)" >&2
  exit 1
fi
# The suites ran, and were built with both sanitizers: a pattern that matched
# nothing, or a config that lost its options, must not pass.
executed="$(sed -n 's/^INFO: Build completed successfully, .*//p; s/^Executed \([0-9]*\) out of \([0-9]*\) tests.*/\2/p' "$out" | tail -n 1)"
if [[ -z "$executed" || "$executed" -lt 100 ]]; then
  cat "$out"
  echo "FAIL: expected at least 100 tests under the sanitizers, found '${executed}'" >&2
  exit 1
fi
bin="$("${NESTED_BAZEL[@]}" --batch info --config=sanitizers bazel-bin 2>/dev/null)"
for symbol in __asan_init __ubsan_handle_; do
  if ! nm -D "$bin/base/csv_test" 2>/dev/null | grep -q "$symbol"; then
    echo "FAIL: $bin/base/csv_test does not call $symbol: not built with the sanitizers" >&2
    exit 1
  fi
done
echo "PASS: $executed tests under AddressSanitizer and UndefinedBehaviorSanitizer"
