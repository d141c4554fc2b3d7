"""Upstream's grade() for tensorflow2-question-answering (its
prepare_for_metric: twice as many rows as answers, fillna("") and astype(str),
both columns, the expected "<id>_long"/"<id>_short" set, unique ids; each
row's prediction parsed as "start:end" (two int()s), "YES", "NO" or empty and
marked against the first annotation's long answer or short answers and
yes/no answer; then f1_score(average="micro")), restated, on the reference
environment's pandas 2.2.2, numpy 1.26.4 and scikit-learn 1.5.1, with the
answers read as upstream's read_jsonl does. Cases: signed numeric example ids
(one containing "_long"), annotations without a long answer, with several or
no short answers, YES/NO answers; predictions right, wrong, empty, padded,
"nan"/"NA" (pandas reads them as missing), "12 : 34", "+3:4", "1_0:20",
spans past int64, "3:", "1:2:3", "yes", "1.5:3", all-number columns; foreign,
repeated, dropped and re-cased ids, missing columns, header-only and empty
files.
See //tools/upstream_grade:driver.py for the names this script is given."""
import json

from sklearn.metrics import f1_score

MIN_SCORED = 105
MIN_RAISED = 78

ID, TARGET = "example_id", "PredictionString"


def read_answers(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def grade(submission, answers):
    if len(submission) != 2 * len(answers):
        raise ValueError("length")
    submission.fillna("", inplace=True)
    submission = submission.astype(str)
    expected = [f"{a[ID]}{suffix}" for a in answers for suffix in ("_long", "_short")]
    if not {ID, TARGET}.issubset(submission.columns):
        raise ValueError("columns")
    if set(submission[ID]) != set(expected):
        raise ValueError("ids")
    if len(set(submission[ID])) != len(submission):
        raise ValueError("repeated ids")
    # Every cell is a str now, so the columns give what upstream's iterrows() rows do.
    rows = list(zip(submission[ID], submission[TARGET]))
    y_pred = [1 if text.strip() else 0 for _, text in rows]
    annotation_of = {a[ID]: a["annotations"][0] for a in answers}
    y_true = []
    for sample, text in rows:
        pred = text.strip()
        if ":" in pred and len(pred.split(":")) == 2:
            start, end = pred.split(":")
            pred = (int(start), int(end))
        elif pred not in ("YES", "NO", ""):
            raise ValueError("format")
        if sample.endswith("_long"):
            annotation = annotation_of[sample.split("_long")[0]]
            span = annotation["long_answer"]
            valid = []
            if span["start_token"] != -1:
                valid.append((int(span["start_token"]), int(span["end_token"])))
        elif sample.endswith("_short"):
            annotation = annotation_of[sample.split("_short")[0]]
            valid = [(int(s["start_token"]), int(s["end_token"]))
                     for s in annotation["short_answers"]]
            if annotation["yes_no_answer"] != "NONE":
                valid.append(annotation["yes_no_answer"])
        else:
            raise ValueError("suffix")
        y_true.append(int(pred in valid) if pred else int(bool(valid)))
    assert len(y_true) == len(y_pred)
    return f1_score(y_true=y_true, y_pred=y_pred, average="micro")


def annotation():
    if rng.random() < 0.3:
        long_answer = {"start_token": -1, "end_token": -1, "candidate_index": -1}
        shorts, yes_no = [], "NONE"
    else:
        start = rng.randint(0, 3000)
        end = start + rng.randint(1, 300)
        long_answer = {"start_token": start, "end_token": end,
                       "candidate_index": rng.randint(0, 50)}
        shorts = []
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            s = rng.randint(start, end - 1)
            shorts.append({"start_token": s, "end_token": rng.randint(s + 1, end)})
        yes_no = "NONE" if shorts or rng.random() < 0.5 else rng.choice(["YES", "NO"])
    return {"yes_no_answer": yes_no, "long_answer": long_answer, "short_answers": shorts,
            "annotation_id": rng.getrandbits(60)}


def guess(valid, odd):
    r = rng.random()
    if r < odd:
        return rng.choice(["nan", "NA", " 12:34 ", "12 : 34", "+3:4", "1_0:20", "3:", "1:2:3",
                           "yes", "1.5:3", "99999999999999999999:1", "-1:-1", "YES ", "x",
                           "\u0661\u0662:\uff13\uff14", "\u00a012:\u200334"])
    if r < 0.3:
        return ""
    if r < 0.75 and valid:
        v = rng.choice(valid)
        return v if isinstance(v, str) else f"{v[0]}:{v[1]}"
    if r < 0.85:
        return rng.choice(["YES", "NO"])
    s = rng.randint(0, 3000)
    return f"{s}:{s + rng.randint(1, 30)}"


def valid_answers(a):
    spans = [(a["long_answer"]["start_token"], a["long_answer"]["end_token"])]
    long_valid = spans if spans[0][0] != -1 else []
    short_valid = [(s["start_token"], s["end_token"]) for s in a["short_answers"]]
    if a["yes_no_answer"] != "NONE":
        short_valid.append(a["yes_no_answer"])
    return long_valid, short_valid


def make_case(k):
    n = rng.choice([1, 2, 3, 10, 50, 150]) if k % 50 else 1000
    ids = list(dict.fromkeys(str(rng.randint(-2 ** 63, 2 ** 63 - 1)) for _ in range(n)))
    if k % 23 == 4:
        ids[0] = "7_long3"  # upstream looks up the text before the first "_long"
    samples = [{ID: i, "question_text": "who", "document_text": "a b c",
                "annotations": [annotation()], "long_answer_candidates": []} for i in ids]
    odd = 0.04 if k % 3 == 0 else 0  # strange predictions, which mostly raise
    rows = []
    for s in samples:
        long_valid, short_valid = valid_answers(s["annotations"][0])
        rows.append([f"{s[ID]}_long", guess(long_valid, odd)])
        rows.append([f"{s[ID]}_short", guess(short_valid, odd)])
    if k % 13 == 3:
        rows = [[i, rng.choice(["5", "12", ""])] for i, _ in rows]  # numbers: "5" or "5.0"
    if k % 19 == 10:
        rows[0][0] = rows[-1][0]  # a repeated id in place of another
    rows = spoil(rows, lambda: rng.choice([f"{ids[0]}_LONG", ids[0], f"{ids[0]}_long_short"]))
    header = f"{ID},{TARGET}"
    if k % 17 == 6:
        header = rng.choice([f"{ID},prediction_string", f"id,{TARGET}"])
    answers = "".join(json.dumps(s) + "\n" for s in samples)
    if k % 29 == 7:
        return answers, rng.choice(["", f"{ID},{TARGET}\n"])
    return answers, csv_text(header, rows)
