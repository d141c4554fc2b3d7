#!/usr/bin/env bash
# The test of a cc_fuzz_test (bazel/fuzz/fuzz.bzl): runs its libFuzzer binary
# over the seed corpus, then mutates for --seconds; fails on any crash, leak,
# undefined behaviour, slow input or memory blow-up, leaving the input that
# caused it in the test's undeclared outputs and saying how to reproduce it.
#
#   run_fuzz_test.sh --fuzzer=PATH --seconds=N --timeout=S --rss_limit_mb=M
#       --max_len=L --label=TEST --fuzzer_label=FUZZER [--dict=PATH]
#       [--fuzzer_arg=ARG...] -- SEED...
#
# A --timeout or --rss_limit_mb of 0 passes no such flag (the fuzzer's own
# stands); each --fuzzer_arg goes to the fuzzer before libFuzzer's flags.
set -euo pipefail

fuzzer="" seconds="" timeout="" rss_limit_mb="" max_len="" label="" fuzzer_label="" dict=""
fuzzer_args=()
while (($#)); do
  case "$1" in
    --fuzzer=*) fuzzer="${1#*=}" ;;
    --seconds=*) seconds="${1#*=}" ;;
    --timeout=*) timeout="${1#*=}" ;;
    --rss_limit_mb=*) rss_limit_mb="${1#*=}" ;;
    --max_len=*) max_len="${1#*=}" ;;
    --label=*) label="${1#*=}" ;;
    --fuzzer_label=*) fuzzer_label="${1#*=}" ;;
    --dict=*) dict="${1#*=}" ;;
    --fuzzer_arg=*) fuzzer_args+=("${1#*=}") ;;
    --) shift; break ;;
    *) echo "run_fuzz_test.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

# Under `bazel test` both exist; elsewhere (bazel run) fall back to a
# temporary directory.
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
artifacts="${TEST_UNDECLARED_OUTPUTS_DIR:-$tmp/artifacts}"
mkdir -p "$artifacts"

# libFuzzer adds what it finds to its first corpus directory: a writable copy
# of the seeds, never the runfiles (or through them the source tree).
corpus="$tmp/corpus"
rm -rf "$corpus"
mkdir -p "$corpus"
n=0
for seed in "$@"; do
  # Names of their own (the seeds' directories may repeat file names).
  cp -- "$seed" "$corpus/seed-$n-${seed##*/}"
  n=$((n + 1))
done
echo "$label: $n seed inputs, then ${seconds} s of mutation"

# ASan's and UBSan's reports with file:line (the symbolizer is llvm-14's).
symbolizer=/usr/lib/llvm-14/bin/llvm-symbolizer
if [[ -x "$symbolizer" ]]; then export ASAN_SYMBOLIZER_PATH="$symbolizer"; fi
# (allocator_may_return_null stays ASan's default, 0, unless a harness's own
# __asan_default_options says otherwise.)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:handle_abort=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1"

flags=(
  "-artifact_prefix=$artifacts/"
  # The same sequence of mutations from run to run: a CI failure is the
  # code's, not the dice's (a longer budget explores a longer prefix).
  "-seed=1"
  "-print_final_stats=1"
)
((timeout > 0)) && flags+=("-timeout=$timeout")
((rss_limit_mb > 0)) && flags+=("-rss_limit_mb=$rss_limit_mb" "-malloc_limit_mb=$rss_limit_mb")
((max_len > 0)) && flags+=("-max_len=$max_len")
[[ -n "$dict" ]] && flags+=("-dict=$dict")
if ((seconds > 0)); then
  # At most 1,000 mutations a second of budget as well: a faster or idler
  # machine would otherwise run further along the same sequence than the
  # last run did and could meet an input no run has met, failing a change
  # that has nothing to do with it (it happened twice on 2026-12-07). Each CI
  # run repeats the same prefix; fuzzing for hours (docs) finds the new ones.
  flags+=("-max_total_time=$seconds" "-runs=$((seconds * 1000))")
else
  # The seeds only: -runs=0 runs the corpus and stops.
  flags+=("-runs=0")
fi

status=0
"$fuzzer" "${fuzzer_args[@]}" "${flags[@]}" "$corpus" || status=$?
if ((status == 0)); then
  exit 0
fi

echo >&2
echo "FUZZ FINDING in $label: the fuzzer exited with status $status (see its report above)." >&2
outputs="bazel-testlogs/${label#//}"
outputs="${outputs/://}/test.outputs/outputs.zip"
found=""
for f in "$artifacts"/*; do
  [[ -f "$f" ]] || continue
  found="${f##*/}"
  echo "  the input: $found ($(stat -c %s "$f") bytes) in $outputs" >&2
done
if [[ -n "$found" ]]; then
  cat >&2 <<EOF
To reproduce it under the sanitizers:
  unzip -o $outputs -d /tmp/fuzz_finding
  ./bazelw run $fuzzer_label -- /tmp/fuzz_finding/$found
Once fixed, add it to the seed corpus as a regression case.
EOF
else
  echo "  (no input was written: the seeds themselves, or the harness, failed)" >&2
fi
exit 1
