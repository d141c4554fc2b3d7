#!/bin/sh
# Baseline agent: submits the competition's sample submission unchanged, which
# checks the plumbing (workspace, submission collection, grading) end to end.
data_dir="${MLEBENCH_DATA_DIR:-data}"
submission_dir="${MLEBENCH_SUBMISSION_DIR:-submission}"
# The runner names the competition's sample submission (its file name varies).
sample="${MLEBENCH_SAMPLE_SUBMISSION:-$data_dir/sample_submission.csv}"
if [ ! -f "$sample" ]; then
  echo "dummy: no sample submission at $sample" >&2
  exit 1
fi
case "$sample" in
  *.zip|*.7z)  # a few competitions only publish it archived (one file, a .csv
               # or, for billion-word-imputation, a .txt in CSV format): take it
    count="$(bsdtar -tf "$sample" | grep -vc '/$')"
    if [ "$count" != 1 ]; then
      echo "dummy: $sample holds $count files, expected one" >&2
      exit 1
    fi
    bsdtar -xOf "$sample" > "$submission_dir/submission.csv" || exit 1 ;;
  *) cp "$sample" "$submission_dir/submission.csv" || exit 1 ;;
esac
echo "dummy: copied $sample to $submission_dir/submission.csv"
