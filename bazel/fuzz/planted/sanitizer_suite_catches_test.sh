#!/usr/bin/env bash
# sanitizer_suite must fail on what ASan and UBSan find: runs this package's
# suite (its one test, planted_faults_test) three ways, as `bazel test` would.
set -uo pipefail
suite=bazel/fuzz/planted/sanitized_tests.sh
label=//bazel/fuzz/planted:planted_faults_test

run() {  # FAULT: the suite's output in $out, its exit status in $status
  mkdir -p "$TEST_TMPDIR/$1"
  out="$(MLEBENCH_PLANTED_FAULT="$1" TEST_TMPDIR="$TEST_TMPDIR/$1" \
    TEST_UNDECLARED_OUTPUTS_DIR="$TEST_TMPDIR/$1/outputs" "$suite" 2>&1)"
  status=$?
}
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }

run none
((status == 0)) || fail "the suite failed without a planted fault (exit $status)"
grep -q "^PASSED $label" <<<"$out" || fail "no PASSED line for $label"

run heap
((status != 0)) || fail "a heap read out of bounds passed the suite"
grep -q "ERROR: AddressSanitizer: heap-buffer-overflow" <<<"$out" ||
  fail "no AddressSanitizer report for the heap read"
grep -q "^FAILED $label" <<<"$out" || fail "the failed test is not named"

run overflow
((status != 0)) || fail "a signed overflow passed the suite"
grep -q "runtime error: signed integer overflow" <<<"$out" || fail "no UBSan report for the overflow"
echo "PASS: the suite passes a clean run and fails on a heap overflow (ASan) and a signed overflow (UBSan)"
