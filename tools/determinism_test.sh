#!/usr/bin/env bash
# Integration test: every generate, prepare and grade action writes the same
# bytes on any machine (docs/performance.md, "Same bytes on every machine").
#
#   determinism_test.sh SPLIT   (a split of competitions.tsv: low for
#                               //competitions:lite; or all)
#
# Copies this workspace into $TEST_TMPDIR and builds, with a nested Bazel, each
# competition's synthetic data, prepared data and graded sample submission
# (<id>_sample_report: the dummy agent's run) three times, each in a clean
# output base of its own (another output root, so other absolute paths) and
# as another machine:
#   2-cores            2 online CPUs, the CPU's own features;
#   1-core-no-fma      1 online CPU, and glibc shown no AVX2, FMA or AVX-512
#                      (--//base:glibc_tunables), as on a CPU without them;
#   8-cores            8 online CPUs (more than this machine may have).
# The CPU count is what glibc's get_nprocs() and so
# std::thread::hardware_concurrency() read: /sys/devices/system/cpu/online,
# replaced by bwrap for the whole nested Bazel (a probe action checks that an
# action sees it). Every SyntheticRaw, MlePrepare and MleGrade spawn must have
# been executed in each build (never a cache hit: nested_bazel.sh keeps them
# out of the disk cache, and each output base starts empty), and the digests
# of their outputs (Bazel's execution log, actualOutputs) must be the same
# file for file in all three.
set -euo pipefail

split="${1:?usage: determinism_test.sh SPLIT|all}"
source bazel/nested_bazel.sh
nested_workspace "$TEST_TMPDIR/ws"

logs="$TEST_TMPDIR/logs"
mkdir -p "$logs"
fail() { echo "FAIL: $*" >&2; exit 1; }

[[ -r /sys/devices/system/cpu/online ]] ||
  fail "no /sys/devices/system/cpu/online here: the CPU count cannot be varied"

# The competitions of the split (column 2 of competitions.tsv lists a
# competition's splits).
mapfile -t ids < <(awk -F"\t" -v wanted="$split" \
  'NR > 1 && (wanted == "all" || index("," $2 ",", "," wanted ","))' \
  competitions/competitions.tsv | cut -f1)
(( ${#ids[@]} > 0 )) || fail "no competition in split $split"
targets=()
for id in "${ids[@]}"; do targets+=("//competitions/$id:${id}_sample_report"); done

# What an action sees as the number of CPUs.
mkdir -p determinism_probe
cat > determinism_probe/BUILD.bazel <<'BUILD'
cc_binary(name = "hardware_concurrency", srcs = ["hardware_concurrency.cc"])
genrule(
    name = "cpus",
    outs = ["cpus.txt"],
    cmd = "$(location :hardware_concurrency) > $@",
    tools = [":hardware_concurrency"],
    # Run in each build, never taken from the disk cache.
    tags = ["no-remote-cache"],
)
BUILD
cat > determinism_probe/hardware_concurrency.cc <<'CC'
#include <cstdio>
#include <thread>
int main() { std::printf("%u\n", std::thread::hardware_concurrency()); }
CC

# Builds everything as a machine with `cpus` online CPUs (a list as the file
# writes it: "0", "0-1", "0-7") and --//base:glibc_tunables=`tunables`, in a
# new output root; its execution log is $logs/<name>.json.
build_as() {  # name, cpus, expected CPU count, tunables
  local name="$1" cpus="$2" count="$3" tunables="$4"
  echo "$cpus" > "$TEST_TMPDIR/online-$name"
  local start=$SECONDS
  bwrap --dev-bind / / --ro-bind "$TEST_TMPDIR/online-$name" /sys/devices/system/cpu/online -- \
    "${NESTED_BAZEL_COMMAND[@]}" --output_user_root="$TEST_TMPDIR/root-$name" --batch build \
    "${NESTED_BUILD_OPTIONS[@]}" --//base:glibc_tunables="$tunables" \
    --execution_log_json_file="$logs/$name.json" \
    "${targets[@]}" //determinism_probe:cpus >"$logs/$name.out" 2>&1 || {
      cat "$logs/$name.out"; fail "the build as $name failed"; }
  local seen
  seen="$(cat bazel-bin/determinism_probe/cpus.txt)"
  [[ "$seen" == "$count" ]] ||
    fail "$name: an action saw $seen CPUs (hardware_concurrency), not $count"
  echo "ok: $name: built in $((SECONDS - start)) s; actions saw $count CPUs"
}

# The steps under test, one line per output file: "path digest", sorted;
# fails unless every one of them ran (no cache hit) and succeeded, once per
# competition.
steps='select(.mnemonic == "SyntheticRaw" or .mnemonic == "MlePrepare" or .mnemonic == "MleGrade")'
digests() {  # name
  local log="$logs/$1.json" mnemonic got
  for mnemonic in SyntheticRaw MlePrepare MleGrade; do
    got="$(jq -s "[.[] | select(.mnemonic == \"$mnemonic\" and (.remoteCacheHit | not) and
                                (.exitCode // 0) == 0)] | length" "$log")"
    [[ "$got" == "${#ids[@]}" ]] ||
      fail "$1: $got $mnemonic spawns executed, not ${#ids[@]} (one per competition)"
  done
  jq -r "$steps | .progressMessage as \$action | .actualOutputs[] |
         \"\\(.path) \\(.digest.hash)\t\\(\$action)\"" "$log" | LC_ALL=C sort
}

build_as 2-cores 0-1 2 ""
build_as 1-core-no-fma 0 1 "glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4,-AVX512F,-AVX512CD,-AVX512DQ,-AVX512BW,-AVX512VL"
build_as 8-cores 0-7 8 ""

# The tunables reached the tools (which add their own masks to them).
jq -e -s '[.[] | select(.mnemonic == "MleGrade") | .environmentVariables[] |
           select(.name == "GLIBC_TUNABLES") | .value] | unique ==
          ["glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4,-AVX512F,-AVX512CD,-AVX512DQ,-AVX512BW,-AVX512VL"]' \
  "$logs/1-core-no-fma.json" >/dev/null || fail "1-core-no-fma: the grade actions had other tunables"

digests 2-cores > "$logs/2-cores.digests"
files="$(wc -l < "$logs/2-cores.digests")"
(( files >= 3 * ${#ids[@]} )) || fail "only $files output files"
for name in 1-core-no-fma 8-cores; do
  digests "$name" > "$logs/$name.digests"
  if ! diff <(cut -f1 "$logs/2-cores.digests") <(cut -f1 "$logs/$name.digests") \
      > "$logs/$name.diff"; then
    echo "FAIL: these outputs differ between 2-cores (<) and $name (>) (at most 20 shown):" >&2
    grep '^[<>]' "$logs/$name.diff" | head -n 20 >&2
    echo "in the outputs of:" >&2
    grep '^[<>]' "$logs/$name.diff" | cut -c3- | cut -d' ' -f1 | LC_ALL=C sort -u |
      LC_ALL=C join -o 2.2 -t$'\t' - <(sed 's/ [^\t]*\t/\t/' "$logs/2-cores.digests") | sort -u >&2
    fail "$(grep -c '^<' "$logs/$name.diff") output files differ"
  fi
  echo "ok: $name: the same $files output files as 2-cores, byte for byte"
done
echo "PASS: ${#ids[@]} competitions ($split): generate, prepare and grade give the same bytes" \
  "in three output bases, on 1, 2 and 8 CPUs, with and without FMA, AVX2 and AVX-512"
