"""A plain py_binary agent on the standard library alone: it writes the
sample submission's rows with the most frequent label of train.csv. It shows
that a py_binary works as an agent without flags or toolchains of the user's
own (//agent_runner/agents/example:py_binary_test)."""

import collections
import csv
import os

data = os.environ["MLEBENCH_DATA_DIR"]
with open(os.path.join(data, "train.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
with open(os.environ["MLEBENCH_SAMPLE_SUBMISSION"], newline="") as f:
    sample = list(csv.reader(f))
header = sample[0]
target = header[1]
most_common = collections.Counter(row[target] for row in rows).most_common(1)[0][0]
out = os.path.join(os.environ["MLEBENCH_SUBMISSION_DIR"], "submission.csv")
with open(out, "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(header)
    for row in sample[1:]:
        writer.writerow([row[0], most_common])
print(f"py_agent: {len(sample) - 1} rows of {target} = {most_common}")
