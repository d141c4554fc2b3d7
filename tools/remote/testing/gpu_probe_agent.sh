#!/bin/bash
# An agent that asks for a GPU (its mle_agent says gpus = 1): prints what it
# was given and what it can reach, then submits the sample submission.
here="${BASH_SOURCE[0]}.runfiles/mlebench/tools/remote/testing"
[ -d "$here" ] || here="$(dirname "${BASH_SOURCE[0]}")"
echo "probe: gpu devices: $(ls /dev | grep '^nvidia' | tr '\n' ' ')"
echo "probe: CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset}"
/bin/sh "$here/probe.sh" "$here/targets.txt" | sed 's/^/probe: run time: /'
sed 's/^/probe: build time: /' "$here/build_time_probe.txt"
sample="${MLEBENCH_SAMPLE_SUBMISSION:-data/sample_submission.csv}"
cp "$sample" "${MLEBENCH_SUBMISSION_DIR:-submission}/submission.csv"
