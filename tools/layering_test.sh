#!/bin/sh
# Runs tools/layering_check.py over every source file in the runfiles, then
# over a file that includes a higher layer, which must be rejected.
set -eu
files=$(find base formats pycompat grading testdata competitions agent_runner tools \
  -name '*.cc' -o -name '*.h' 2>/dev/null | sort)
count=$(echo "$files" | wc -l)
if [ "$count" -lt 800 ]; then
  echo "only $count source files in the runfiles: the data list misses packages" >&2
  exit 1
fi
# shellcheck disable=SC2086
/usr/bin/python3 tools/layering_check.py $files

bad="$TEST_TMPDIR/bad"
mkdir -p "$bad/base"
printf '#include "grading/grader.h"\n' > "$bad/base/upward.cc"
if (cd "$bad" && /usr/bin/python3 "$OLDPWD/tools/layering_check.py" base/upward.cc); then
  echo "FAIL: an include of grading/ from base/ was accepted" >&2
  exit 1
fi
echo "ok: an upward include is rejected"
