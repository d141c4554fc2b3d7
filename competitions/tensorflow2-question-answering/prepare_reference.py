# Upstream's prepare() for tensorflow2-question-answering restated with
# pandas and scikit-learn (no tqdm or logging): chunks of 1000 lines, each
# split 90/10 with random_state 0, appended as JSON lines; then the gold and
# sample submissions.
import sys
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = (Path(p) for p in sys.argv[1:4])
tests = []
for df in pd.read_json(raw / "simplified-nq-train.jsonl", orient="records", lines=True,
                       chunksize=1000):
    df["example_id"] = df["example_id"].astype(str)
    train, test = train_test_split(df, test_size=0.1, random_state=0)
    keep = ["example_id", "question_text", "document_text", "long_answer_candidates"]
    with open(public / "simplified-nq-train.jsonl", "a") as f:
        f.write(train.to_json(orient="records", lines=True))
    with open(private / "test.jsonl", "a") as f:
        f.write(test.to_json(orient="records", lines=True))
    with open(public / "simplified-nq-test.jsonl", "a") as f:
        f.write(test.copy()[keep].to_json(orient="records", lines=True))
    tests.append(test.copy()[["example_id", "annotations"]])
rows = []
for _, sample in pd.concat(tests, ignore_index=True).iterrows():
    (a,) = sample["annotations"]
    if a["yes_no_answer"] != "NONE":
        short = a["yes_no_answer"]
    elif a["short_answers"]:
        short = f"{a['short_answers'][0]['start_token']}:{a['short_answers'][0]['end_token']}"
    else:
        short = ""
    rows.append({"example_id": f"{sample['example_id']}_short", "PredictionString": short})
    la = a["long_answer"]
    long = f"{la['start_token']}:{la['end_token']}" if la["start_token"] != -1 else ""
    rows.append({"example_id": f"{sample['example_id']}_long", "PredictionString": long})
gold = pd.DataFrame(rows)
gold.to_csv(private / "gold_submission.csv", index=False)
gold["PredictionString"] = ""
gold.to_csv(public / "sample_submission.csv", index=False)
