#!/usr/bin/env bash
# Integration test: the project's precompiled headers are the same bytes in
# another checkout, so that a second clone takes every compile that uses one
# from the disk cache (bazel/precompiled_header.bzl).
#
# Copies this workspace twice into $TEST_TMPDIR, at paths of different
# lengths, and builds the six headers with a nested Bazel in each, in output
# bases of different path lengths. The second build differs from the first
# wherever a machine or a checkout could: no sandbox at all (the compiler
# runs in the execution root, whose path has the output base in it, instead
# of a sandbox directory), another soft stack size limit, and extra variables
# in the actions' environment. Each header must be compiled in both (never
# taken from a cache; checked in the execution logs), and each pair must be
# byte-identical.
set -euo pipefail

source bazel/nested_bazel.sh

HEADERS=(
  //base:library_pch
  //base/testing:test_pch
  //competitions/common:grader_pch
  //competitions/common:preparer_pch
  //competitions/common:generator_pch
  //competitions/common:code_test_pch
)
GCH=(
  base/library_pch.h.gch/pic.gch
  base/testing/test_pch.h.gch/pic.gch
  competitions/common/grader_pch.h.gch/pic.gch
  competitions/common/preparer_pch.h.gch/pic.gch
  competitions/common/generator_pch.h.gch/pic.gch
  competitions/common/code_test_pch.h.gch/pic.gch
)

logs="$TEST_TMPDIR/logs"
mkdir -p "$logs"
runfiles="$PWD"

# name, workspace, output base, extra build options...: builds the headers,
# none of them from the disk cache, and copies them to $logs/name/.
build_headers() {
  local name="$1" workspace="$2" output_base="$3"; shift 3
  (cd "$runfiles" && nested_workspace "$workspace")
  (
    cd "$workspace"
    "${NESTED_BAZEL[@]}" --output_base="$output_base" --batch build "${NESTED_BUILD_OPTIONS[@]}" \
      --modify_execution_info=CppPrecompileHeader=+no-remote-cache \
      --execution_log_json_file="$logs/$name.json" "$@" "${HEADERS[@]}" \
      >"$logs/$name.out" 2>&1
  ) || { cat "$logs/$name.out"; echo "FAIL: the $name build failed" >&2; exit 1; }
  # The header compiles that really ran (the log is a sequence of JSON
  # objects, one per spawn; a cache hit says so in its runner).
  local ran
  ran="$(/usr/bin/python3 - "$logs/$name.json" <<'PY'
import json, sys
text, decoder, at, ran = open(sys.argv[1]).read(), json.JSONDecoder(), 0, 0
while True:
    while at < len(text) and text[at].isspace():
        at += 1
    if at == len(text):
        break
    spawn, at = decoder.raw_decode(text, at)
    if (spawn.get("mnemonic") == "CppPrecompileHeader" and not spawn.get("remoteCacheHit")
            and "cache" not in spawn.get("runner", "")):
        ran += 1
print(ran)
PY
)"
  if [[ "$ran" != "${#HEADERS[@]}" ]]; then
    echo "FAIL: the $name build compiled $ran of the ${#HEADERS[@]} headers itself" >&2
    exit 1
  fi
  local gch
  for gch in "${GCH[@]}"; do
    mkdir -p "$logs/$name/$(dirname "$gch")"
    cp "$output_base/execroot/mlebench/bazel-out/k8-fastbuild/bin/$gch" "$logs/$name/$gch"
  done
}

build_headers first "$TEST_TMPDIR/ws" "$TEST_TMPDIR/out"
(
  ulimit -S -s 16384 2>/dev/null || true
  build_headers second "$TEST_TMPDIR/second-workspace-at-a-longer-path" \
    "$TEST_TMPDIR/second-output-base-at-a-longer-path" \
    --spawn_strategy=standalone --action_env=LANG=C.UTF-8 \
    --action_env=MLEBENCH_REPRODUCIBLE_TEST_PADDING="$(printf 'x%.0s' {1..300})"
)

failed=0
for gch in "${GCH[@]}"; do
  first="$(sha256sum <"$logs/first/$gch" | cut -c1-16)"
  second="$(sha256sum <"$logs/second/$gch" | cut -c1-16)"
  if [[ "$first" == "$second" ]]; then
    echo "ok: $gch: $first in both ($(stat -c %s "$logs/first/$gch") bytes)"
  else
    echo "FAIL: $gch: $first and $second ($(cmp -l "$logs/first/$gch" "$logs/second/$gch" |
      wc -l) bytes differ)" >&2
    failed=1
  fi
done
exit "$failed"
