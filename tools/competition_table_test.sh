#!/bin/sh
# Fails when competitions/competition_table.bzl was not regenerated after a
# change to competitions/competitions.tsv.
set -eu
expected="$TEST_TMPDIR/competition_table.bzl"
sh tools/gen_competition_table.sh competitions/competitions.tsv > "$expected"
if ! diff -u competitions/competition_table.bzl "$expected"; then
  echo "competition_table.bzl is stale: run" >&2
  echo "  tools/gen_competition_table.sh competitions/competitions.tsv > competitions/competition_table.bzl" >&2
  exit 1
fi
echo "competition_table.bzl matches competitions.tsv"
