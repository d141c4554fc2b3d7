#!/bin/sh
cp data/sample_submission.csv submission/submission.csv
