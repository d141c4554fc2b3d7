#!/usr/bin/env bash
# Peak memory of icecube-neutrinos-in-deep-ice's preparer on synthetic raw data
# whose train_meta.parquet has ROWS rows (Kaggle's has ~131M; 13,100,000 is a
# tenth), written in row groups of ROW_GROUP_ROWS rows (0, the default: one
# row group, the reader's worst case). Builds the competition's generator,
# preparer and scale_train_meta with the pipeline's settings, generates into a
# fresh directory under WORK (default $TMPDIR or /tmp), runs the preparer
# under /usr/bin/time and prints its peak RSS and wall time; the files are
# removed afterwards. docs/performance.md, "Preparers' memory", has figures.
#
#   competitions/icecube-neutrinos-in-deep-ice/memory_at_scale.sh ROWS [ROW_GROUP_ROWS] [WORK]
set -euo pipefail
cd "$(dirname "$0")/../.."
rows=${1:?usage: memory_at_scale.sh ROWS [ROW_GROUP_ROWS] [WORK]}
groups=${2:-0}
work=$(mktemp -d "${3:-${TMPDIR:-/tmp}}/icecube_memory.XXXXXX")
trap 'rm -rf "$work"' EXIT
pkg=competitions/icecube-neutrinos-in-deep-ice
./bazelw build "//$pkg:raw_generator" "//$pkg:prepare" "//$pkg:scale_train_meta" >&2
bin=$(./bazelw info bazel-bin 2>/dev/null)/$pkg
id=icecube-neutrinos-in-deep-ice
"$bin/raw_generator" --competition "$id" --seed 0 --out "$work/raw" >&2
"$bin/scale_train_meta" --raw "$work/raw" --rows "$rows" --row_group_rows "$groups"
echo "train_meta.parquet: $(stat -c %s "$work/raw/train_meta.parquet") bytes"
/usr/bin/time -f 'prepare: peak RSS %M KiB, %e s wall, %U s user' \
  "$bin/prepare" --competition "$id" --raw "$work/raw" --public "$work/public" \
  --private "$work/private" --scratch "$work/scratch" >&2
du -sb "$work/public/train_meta.parquet" "$work/public/test_meta.parquet" \
  "$work/private/test.csv" "$work/public/sample_submission.csv"
