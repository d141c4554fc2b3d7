#!/usr/bin/env bash
# The test of a sanitizer_suite (bazel/fuzz/sanitized_tests.bzl): runs each
# LABEL=PATH test binary (built by clang with ASan and UBSan) in turn, from the
# runfiles root, with a TEST_TMPDIR and outputs directory of its own, and
# fails if any fails, printing that test's log and how to rerun it alone.
#
#   run_sanitized_tests.sh LABEL=PATH...
set -uo pipefail

(($#)) || { echo "run_sanitized_tests.sh: no tests given" >&2; exit 2; }
tmp="${TEST_TMPDIR:?run it with bazel test}"
outputs="${TEST_UNDECLARED_OUTPUTS_DIR:-$tmp/outputs}"

# Reports with file:line (llvm-14's symbolizer); every finding fatal.
symbolizer=/usr/lib/llvm-14/bin/llvm-symbolizer
if [[ -x "$symbolizer" ]]; then export ASAN_SYMBOLIZER_PATH="$symbolizer"; fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1:print_summary=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1:print_summary=1"
# The suite is one test: none of its tests is a shard, and each writes its
# own XML (below), not the suite's.
unset TEST_TOTAL_SHARDS TEST_SHARD_INDEX TEST_SHARD_STATUS_FILE GTEST_OUTPUT

failed=()
n=0
for pair in "$@"; do
  label="${pair%%=*}"
  path="${pair#*=}"
  n=$((n + 1))
  dir="$tmp/$n"
  mkdir -p "$dir/tmp" "$outputs/$n"
  start=$SECONDS
  TEST_TMPDIR="$dir/tmp" TEST_UNDECLARED_OUTPUTS_DIR="$outputs/$n" \
    XML_OUTPUT_FILE="$dir/test.xml" TEST_TARGET="$label" \
    "./$path" >"$dir/log" 2>&1 </dev/null
  status=$?
  if ((status == 0)); then
    echo "PASSED $label ($((SECONDS - start)) s)"
  else
    echo "FAILED $label (exit $status, $((SECONDS - start)) s); its output:"
    sed 's/^/    /' "$dir/log"
    failed+=("$label")
  fi
  # Kept for a look after a run; removed when it passed, to stay small.
  if ((status == 0)); then rm -rf "$dir"; else cp "$dir/log" "$outputs/$n.log" 2>/dev/null; fi
done

if ((${#failed[@]})); then
  echo
  echo "${#failed[@]} of $n tests failed under clang's AddressSanitizer and UBSan: ${failed[*]}"
  echo "Rerun one alone, with the same build: ./bazelw test <this suite> --test_output=all, or"
  echo "under GCC's sanitizers: ./bazelw test --config=sanitizers ${failed[0]}"
  exit 1
fi
echo "all $n tests passed under clang's AddressSanitizer and UndefinedBehaviorSanitizer"
