#!/bin/bash
# The regression gate fails as it should: the dummy agent against a baseline
# in which the competition had gold fails its test, naming the drop.
set -uo pipefail
out="$(XML_OUTPUT_FILE="$TEST_TMPDIR/junit.xml" competitions/baselines/dummy_drops.sh 2>&1)"
status=$?
echo "$out"
if [[ $status == 0 ]]; then echo "FAIL: a medal below the baseline's passed"; exit 1; fi
if [[ "$out" != *"medal dropped from gold in the baseline to none"* ]]; then
  echo "FAIL: the failure does not name the drop"; exit 1
fi
grep -q 'failure message="medal dropped from gold in the baseline to none' "$TEST_TMPDIR/junit.xml" ||
  { echo "FAIL: the JUnit XML does not say it"; exit 1; }
echo PASS
