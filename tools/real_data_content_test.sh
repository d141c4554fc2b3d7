#!/usr/bin/env bash
# Integration test of real data by content (--repo_env=MLEBENCH_DATA_INPUTS=
# content; docs/architecture.md, "Real data"): the data files are Bazel
# inputs, the actions read them by relative path, the data dir is never
# written.
#
# Copies this workspace into $TEST_TMPDIR and drives a nested Bazel against
# real_data_fixture's data dir (spaceship-titanic: prepared/ only, written by
# pandas, with upstream's checksums.yaml; aerial-cactus-identification: raw/
# only, plus a file whose name has spaces, parentheses, '#' and non-ASCII
# letters) and spooky-author-identification, whose raw/ holds a name Bazel
# cannot label. Steps:
#   1. cold: both tests pass; spaceship's prepared/ is checked and taken as
#      is, aerial's raw/ prepared into Bazel's outputs; the data dir is
#      byte for byte and mtime for mtime what it was; reports say kaggle;
#   2. nothing changed: no prepare, agent or grade spawn, and the tests come
#      from the cache (their inputs are the data: nothing to re-check);
#   3. a tampered answers file, no sync: Bazel sees the new bytes itself and
#      the check fails with upstream's checksum message; restored, it passes;
#   4. a data file removed, no sync: Bazel's missing-input error names it;
#      after `bazel sync`, the competition prepares again without it;
#   5. names Bazel cannot label fail that competition only, naming the file;
#      a competition without data fails naming where it looked;
#   6. a Bazel started without a UTF-8 locale (which cannot open non-ASCII
#      names) fails a competition with such a name, saying so.
set -euo pipefail

source bazel/nested_bazel.sh
source tools/testing/real_data_fixture.sh
nested_workspace "$TEST_TMPDIR/ws"

logs="$TEST_TMPDIR/logs"
data="$TEST_TMPDIR/data"
repo="$TEST_TMPDIR/upstream"
mkdir -p "$logs" "$data" "$repo"
# In a UTF-8 locale, as a user's shell has it: Bazel 4 opens files with
# non-ASCII names only then (step 6 runs without). And without TEST_TMPDIR,
# as a user runs it: Bazel takes it for a sign that it is under test and
# turns its internal bug reports into crashes, one of which a missing input
# of an external repository files (step 4: a user sees Bazel's message).
BAZEL=(/usr/bin/env -u TEST_TMPDIR LANG=C.UTF-8 "${NESTED_BAZEL[@]}")
trap '"${BAZEL[@]}" shutdown >/dev/null 2>&1 || true' EXIT
bazel_cmd() {  # command, name, args...
  local cmd="$1" name="$2"; shift 2
  local log=()
  [[ "$cmd" != sync ]] && log=("${NESTED_BUILD_OPTIONS[@]}" --execution_log_json_file="$logs/$name.json")
  "${BAZEL[@]}" "$cmd" "${log[@]}" "$@" >"$logs/$name.out" 2>&1
}
REAL=(--repo_env=MLEBENCH_DATA_DIR="$data" --repo_env=MLEBENCH_REPO_DIR="$repo"
      --repo_env=MLEBENCH_DATA_INPUTS=content)
TARGETS=(//competitions/spaceship-titanic //competitions/aerial-cactus-identification)
fail() { echo "FAIL: $*" >&2; exit 1; }
must_pass() {
  local name="$1"; shift
  bazel_cmd test "$name" "$@" || { cat "$logs/$name.out"; fail "bazel test failed in step $name"; }
}
must_fail() {  # step, expected output (grep -E), command, args...
  local name="$1" pattern="$2" cmd="$3"; shift 3
  if bazel_cmd "$cmd" "$name" "$@"; then cat "$logs/$name.out"; fail "step $name passed"; fi
  grep -qE "$pattern" "$logs/$name.out" || { cat "$logs/$name.out"; fail "step $name: no '$pattern'"; }
}
count() { grep -c "\"progressMessage\": \"$2" "$logs/$1.json" || true; }
expect() {  # step, message prefix, expected count
  local got; got="$(count "$1" "$2")"
  if [[ "$got" != "$3" ]]; then
    grep "\"progressMessage\"" "$logs/$1.json" >&2 || true
    fail "step $1: expected $3 spawns '$2', got $got"
  fi
  echo "ok: step $1: $3 x '$2'"
}
listing() { (cd "$data" && find . -printf '%p %s %T@\n' | sort); }

bazel_cmd build 0-raw //competitions/spaceship-titanic:raw //competitions/aerial-cactus-identification:raw \
  //competitions/spooky-author-identification:raw ||
  { cat "$logs/0-raw.out"; fail "cannot build the synthetic raw data"; }
bin="$("${BAZEL[@]}" info bazel-bin 2>/dev/null)"
real_data_fixture "$data" "$repo" "$bin"
odd="read me (v2) #1 – café.txt"
echo "not data" >"$data/aerial-cactus-identification/raw/$odd"
echo "not data either" >"$data/aerial-cactus-identification/raw/extra notes.txt"
mkdir -p "$data/spooky-author-identification"
cp -rL "$bin/competitions/spooky-author-identification/raw" "$data/spooky-author-identification/raw"
chmod -R u+w "$data"
echo "x" >"$data/spooky-author-identification/raw/bad:name.csv"
before="$(listing)"

must_pass 1-cold "${REAL[@]}" "${TARGETS[@]}"
expect 1-cold "Checking the prepared real data of spaceship-titanic" 1
expect 1-cold "Preparing real data of aerial-cactus-identification from its raw files" 1
expect 1-cold "Running agent" 4
expect 1-cold "Grading" 4
[[ "$(listing)" == "$before" ]] || fail "step 1: the data dir was modified"
grep -q "spaceship-titanic: took the prepared data as is (kaggle); checksums match" "$logs/1-cold.out" ||
  fail "step 1: spaceship-titanic's checksums were not verified"
for c in spaceship-titanic aerial-cactus-identification; do
  report="$bin/competitions/$c/${c}_report/run-0.json"
  grep -q '"dataset": "kaggle"' "$report" || { cat "$report"; fail "step 1: $c report is not kaggle"; }
done
# The prepare, agent and grade steps read the data by relative path: the
# files are their inputs, and no command line names the data dir but as a
# root forbidden to the agent's own files.
# (The execution log writes non-ASCII names encoded twice: the ASCII part.)
grep -qF "\"path\": \"external/mlebench_data/content/aerial-cactus-identification/raw/read me (v2) #1 " \
  "$logs/1-cold.json" || fail "step 1: '$odd' is not an input"
/usr/bin/python3 - "$logs/1-cold.json" "$data" <<'PY' || fail "step 1: an action reads the data dir by its path"
import json, sys
log, data = sys.argv[1], sys.argv[2]
text, decoder, pos, bad = open(log).read(), json.JSONDecoder(), 0, []
while pos < len(text):
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos == len(text):
        break
    spawn, pos = decoder.raw_decode(text, pos)
    args = spawn.get("commandArgs", [])
    for i, arg in enumerate(args):
        if data in arg and not (i > 0 and args[i - 1] == "--forbidden_roots"):
            bad.append("%s: %s" % (spawn.get("progressMessage"), arg))
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "ok: step 1: prepared/ checked as is, raw/ prepared outside the data dir, which is untouched"

must_pass 2-unchanged "${REAL[@]}" "${TARGETS[@]}"
expect 2-unchanged "Checking" 0
expect 2-unchanged "Preparing" 0
expect 2-unchanged "Running agent" 0
expect 2-unchanged "Grading" 0
[[ "$(grep -c "(cached) PASSED" "$logs/2-unchanged.out")" == 2 ]] ||
  { cat "$logs/2-unchanged.out"; fail "step 2: the tests ran again"; }
echo "ok: step 2: nothing ran again, the tests came from the cache"

answers="$data/spaceship-titanic/prepared/private/test.csv"
cp -p "$answers" "$TEST_TMPDIR/answers.bak"
echo "tampered" >>"$answers"
must_fail 3-tampered "does not match upstream's checksums.yaml: private/test.csv has md5" \
  test "${REAL[@]}" //competitions/spaceship-titanic
cp -p "$TEST_TMPDIR/answers.bak" "$answers"
must_pass 3-restored "${REAL[@]}" //competitions/spaceship-titanic
echo "ok: step 3: changed bytes are seen without a sync; tampered data fails its checksums"

rm "$data/aerial-cactus-identification/raw/extra notes.txt"
must_fail 4-removed "missing input file 'external/mlebench_data/content/aerial-cactus-identification/raw/extra notes.txt'" \
  test "${REAL[@]}" //competitions/aerial-cactus-identification
bazel_cmd sync 4-sync "${REAL[@]}" --only=mlebench_data || { cat "$logs/4-sync.out"; fail "step 4: sync failed"; }
must_pass 4-synced "${REAL[@]}" //competitions/aerial-cactus-identification
expect 4-synced "Preparing real data of aerial-cactus-identification" 1
echo "ok: step 4: a removed file is named until the sync, then the competition prepares without it"

must_fail 5-unlabelable "1 file or directory name\(s\) under $data/spooky-author-identification/raw cannot be Bazel labels.*\"bad:name.csv\"" \
  build "${REAL[@]}" //competitions/spooky-author-identification:spooky-author-identification_data
must_fail 5-missing "no data for denoising-dirty-documents in $data: expected $data/denoising-dirty-documents/prepared" \
  build "${REAL[@]}" //competitions/denoising-dirty-documents:denoising-dirty-documents_data
echo "ok: step 5: unusable names and missing data fail their competition, saying why"

"${BAZEL[@]}" shutdown >/dev/null 2>&1
BAZEL=(/usr/bin/env -u TEST_TMPDIR "${NESTED_BAZEL[@]}")
rm "$data/spooky-author-identification/raw/bad:name.csv"
echo "x" >"$data/spooky-author-identification/raw/naïve.csv"
must_fail 6-no-utf8 "1 file or directory name\(s\) under $data/spooky-author-identification/raw are not ASCII: .*Bazel reads such names only when it runs in a UTF-8 locale" \
  build "${REAL[@]}" //competitions/spooky-author-identification:spooky-author-identification_data
echo "ok: step 6: without a UTF-8 locale, non-ASCII names fail their competition, saying why"
echo "PASS"
