#!/usr/bin/env bash
# Every package of the lower layers (base, formats, pycompat, grading,
# agent_runner) that declares a test ends with sanitizer_suite() (bazel/fuzz/
# sanitized_tests.bzl), and declares no test after it: a test there would be
# left out of CI's run under clang's ASan and UBSan without anyone noticing.
# Reads the source tree (the runfiles' WORKSPACE links into it).
set -euo pipefail
src="$(dirname "$(readlink -f WORKSPACE)")"
checked=0
problems=()
while IFS= read -r -d '' build; do
  package="${build#"$src"/}"
  package="${package%/BUILD.bazel}"
  # The unit tests sanitizer_suite() takes: cc_test and sh_test. (agent_test,
  # an agent's run through the pipeline, and cc_fuzz_test, with sanitizers of
  # its own, are not; a macro of cc_tests would need adding here.)
  tests="$(grep -nE '^(cc_test|sh_test)\(' "$build" || true)"
  [[ -n "$tests" ]] || continue
  checked=$((checked + 1))
  suite_line="$(grep -nE '^sanitizer_suite\(' "$build" | tail -n 1 | cut -d: -f1)"
  if [[ -z "$suite_line" ]]; then
    problems+=("//$package declares tests but never calls sanitizer_suite()")
    continue
  fi
  last_test="$(tail -n 1 <<<"$tests" | cut -d: -f1)"
  if ((last_test > suite_line)); then
    problems+=("//$package declares a test after sanitizer_suite() (line $last_test): move the call last")
  fi
done < <(find "$src/base" "$src/formats" "$src/pycompat" "$src/grading" "$src/agent_runner" \
  -name BUILD.bazel -print0)
if ((${#problems[@]})); then
  printf 'FAIL: %s\n' "${problems[@]}"
  exit 1
fi
if ((checked < 15)); then
  echo "FAIL: only $checked packages with tests found under $src: the search is broken"
  exit 1
fi
echo "PASS: $checked packages with tests, each ending with sanitizer_suite()"
