"""Writes the answers and a submission of one representative competition per
grader family, for tools/grading_speed_comparison.sh.

    make_data.py DATA_DIR SUBMISSION_DIR ROWS

Answers go where competitions/competitions.tsv says (DATA_DIR/<answers_path>),
the submission to SUBMISSION_DIR/<id>.csv, both written by pandas (what an
agent's program writes). The vision family's masks are costly for upstream
(a 101 x 101 array per row), so it gets ROWS / 50 rows; every other family, detection
included, gets ROWS. Same seed, same files.
"""
import csv
import os
import sys

import numpy as np
import pandas as pd

data_dir, sub_dir, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = np.random.default_rng(20261207)
answers_paths = {}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "competitions",
                       "competitions.tsv")) as f:
    for row in csv.DictReader(f, delimiter="\t"):
        answers_paths[row["competition_id"]] = row["answers_path"]


def put(cid, answers, submission):
    path = os.path.join(data_dir, answers_paths[cid])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    answers.to_csv(path, index=False)
    os.makedirs(sub_dir, exist_ok=True)
    submission.to_csv(os.path.join(sub_dir, cid + ".csv"), index=False)


def hex_ids(count, digits, suffix=""):
    # Distinct random ids of `digits` hex digits, in random order.
    values = rng.choice(16 ** min(digits, 13), size=count, replace=False)
    return np.array([f"{v:0{digits}x}{suffix}" for v in values])


def noisy_probability(truth, weight=0.3):
    return np.clip(truth * weight + rng.random(truth.shape) * (1 - weight), 0, 1)


def random_words(count, vocabulary, low, high):
    lengths = rng.integers(low, high + 1, count)
    picks = vocabulary[rng.integers(0, len(vocabulary), lengths.sum())]
    ends = np.cumsum(lengths)
    return [" ".join(picks[e - l:e]) for e, l in zip(ends, lengths)]


ids = hex_ids(n, 32, ".jpg")

# AUC, one column (11 competitions share roc_auc_by_id).
y = rng.integers(0, 2, n)
put("aerial-cactus-identification",
    pd.DataFrame({"id": ids, "has_cactus": y}),
    pd.DataFrame({"id": ids, "has_cactus": noisy_probability(y)}))

# AUC, mean over columns.
classes = ["healthy", "multiple_diseases", "rust", "scab"]
label = rng.integers(0, 4, n)
onehot = np.eye(4, dtype=int)[label]
image_ids = np.array([f"Test_{i}" for i in rng.permutation(n)])
put("plant-pathology-2020-fgvc7",
    pd.DataFrame({"image_id": image_ids, **{c: onehot[:, k] for k, c in enumerate(classes)}}),
    pd.DataFrame({"image_id": image_ids,
                  **{c: noisy_probability(onehot[:, k]) for k, c in enumerate(classes)}}))

# Log loss, multi-class one-hot.
label = rng.integers(0, 3, n)
onehot = np.eye(3, dtype=int)[label]
p = rng.random((n, 3)) + onehot
p /= p.sum(axis=1, keepdims=True)
tid = np.array([f"id{i:07d}" for i in rng.permutation(n)])
put("spooky-author-identification",
    pd.DataFrame({"id": tid, "EAP": onehot[:, 0], "HPL": onehot[:, 1], "MWS": onehot[:, 2]}),
    pd.DataFrame({"id": tid, "EAP": p[:, 0], "HPL": p[:, 1], "MWS": p[:, 2]}))

# Log loss, binary.
y = rng.integers(0, 2, n)
int_ids = rng.permutation(n) + 1
put("dogs-vs-cats-redux-kernels-edition",
    pd.DataFrame({"id": int_ids, "label": y}),
    pd.DataFrame({"id": int_ids, "label": np.clip(noisy_probability(y), 0.01, 0.99)}))

# MAP@k.
whales = np.array([f"w_{i:07x}" for i in range(5000)] + ["new_whale"])
truth = whales[rng.integers(0, len(whales), n)]
guesses = whales[rng.integers(0, len(whales), (n, 5))]
hit = rng.random(n) < 0.4
guesses[hit, rng.integers(0, 5, hit.sum())] = truth[hit]
put("whale-categorization-playground",
    pd.DataFrame({"Image": ids, "Id": truth}),
    pd.DataFrame({"Image": ids, "Id": [" ".join(g) for g in guesses]}))

# Accuracy.
cover = rng.integers(1, 8, n)
int_ids = rng.permutation(n) + 4000000
put("tabular-playground-series-dec-2021",
    pd.DataFrame({"Id": int_ids, "Elevation": rng.integers(1800, 3800, n),
                  "Soil_Type7": rng.integers(0, 2, n), "Cover_Type": cover}),
    pd.DataFrame({"Id": int_ids, "Cover_Type": np.where(rng.random(n) < 0.8, cover,
                                                         rng.integers(1, 8, n))}))

# Regression (RMSE).
seconds = rng.choice(10 ** 8, size=n, replace=False)
stamps = pd.to_datetime(1.2e9 + seconds, unit="s").strftime("%Y-%m-%d %H:%M:%S")
keys = np.array([f"{s}.{k:07d}" for s, k in zip(stamps, rng.integers(0, 10 ** 7, n))])
fare = np.round(rng.gamma(2.0, 6.0, n) + 2.5, 2)
put("new-york-city-taxi-fare-prediction",
    pd.DataFrame({"key": keys, "fare_amount": fare, "pickup_datetime": stamps + " UTC",
                  "pickup_longitude": np.round(rng.uniform(-74.05, -73.75, n), 6),
                  "pickup_latitude": np.round(rng.uniform(40.6, 40.9, n), 6),
                  "dropoff_longitude": np.round(rng.uniform(-74.05, -73.75, n), 6),
                  "dropoff_latitude": np.round(rng.uniform(40.6, 40.9, n), 6),
                  "passenger_count": rng.integers(1, 7, n)}),
    pd.DataFrame({"key": keys, "fare_amount": fare + rng.normal(0, 3, n)}))

# Quadratic weighted kappa.
codes = hex_ids(n, 12)
diagnosis = rng.integers(0, 5, n)
put("aptos2019-blindness-detection",
    pd.DataFrame({"id_code": codes, "diagnosis": diagnosis}),
    pd.DataFrame({"id_code": codes, "diagnosis": np.clip(diagnosis + rng.integers(-1, 2, n), 0, 4)}))

# Correlation.
phrase_ids = hex_ids(n, 16)
words = np.array(["battery", "cell", "voltage", "anode", "signal", "wireless", "frame", "gear"])
score = rng.integers(0, 5, n) * 0.25
put("us-patent-phrase-to-phrase-matching",
    pd.DataFrame({"id": phrase_ids, "anchor": random_words(n, words, 1, 3),
                  "target": random_words(n, words, 1, 3),
                  "context": np.array(["A47", "B60", "H01", "G06"])[rng.integers(0, 4, n)],
                  "score": score}),
    pd.DataFrame({"id": phrase_ids, "score": np.clip(score + rng.normal(0, 0.2, n), 0, 1)}))

# F1 (micro) over text labels.
species = np.array(["Black-grass", "Charlock", "Cleavers", "Common Chickweed", "Common wheat",
                    "Fat Hen", "Loose Silky-bent", "Maize", "Scentless Mayweed",
                    "Shepherds Purse", "Small-flowered Cranesbill", "Sugar beet"])
truth = species[rng.integers(0, len(species), n)]
files = hex_ids(n, 9, ".png")
put("plant-seedlings-classification",
    pd.DataFrame({"file": files, "species": truth}),
    pd.DataFrame({"file": files, "species": np.where(rng.random(n) < 0.7, truth,
                                                      species[rng.integers(0, len(species), n)])}))

# Text: Levenshtein distance.
atoms = np.array(list("CHNOS0123456789()/,-+="))
def inchi(count):
    lengths = rng.integers(40, 90, count)
    picks = atoms[rng.integers(0, len(atoms), lengths.sum())]
    ends = np.cumsum(lengths)
    return np.array(["InChI=1S/" + "".join(picks[e - l:e]) for e, l in zip(ends, lengths)])
truth = inchi(n)
guess = truth.copy()
change = rng.random(n) < 0.6
guess[change] = inchi(int(change.sum()))
image_ids = hex_ids(n, 12)
put("bms-molecular-translation",
    pd.DataFrame({"image_id": image_ids, "InChI": truth}),
    pd.DataFrame({"image_id": image_ids, "InChI": guess}))

# Text: word-set Jaccard.
vocabulary = np.array(["good", "bad", "happy", "sad", "day", "night", "love", "hate", "so",
                       "very", "not", "is", "the", "a", "it", "was", "fun", "work", "sleep"])
truth = random_words(n, vocabulary, 1, 8)
text_ids = hex_ids(n, 10)
guess = [t if r < 0.5 else s for t, s, r in
         zip(truth, random_words(n, vocabulary, 1, 8), rng.random(n))]
put("tweet-sentiment-extraction",
    pd.DataFrame({"textID": text_ids, "selected_text": truth}),
    pd.DataFrame({"textID": text_ids, "selected_text": guess}))

# Vision: IoU of run-length-encoded masks (fewer rows: see above).
m = max(n // 50, 1)
def masks(count):
    out = []
    for start, runs, empty in zip(rng.integers(1, 5000, count), rng.integers(1, 5, count),
                                  rng.random(count) < 0.3):
        if empty:
            out.append("")
            continue
        pairs, at = [], int(start)
        for _ in range(int(runs)):
            length = int(rng.integers(1, 200))
            if at + length > 101 * 101:
                break
            pairs += [at, length]
            at += length + int(rng.integers(1, 300))
        out.append(" ".join(map(str, pairs)))
    return np.array(out, dtype=object)
mask_ids = hex_ids(m, 10)
truth = masks(m)
guess = np.where(rng.random(m) < 0.5, truth, masks(m))
put("tgs-salt-identification-challenge",
    pd.DataFrame({"id": mask_ids, "rle_mask": truth}),
    pd.DataFrame({"id": mask_ids, "rle_mask": guess}))

# Detection: mean average precision of boxes at IoU > 0.5 (siim-covid19-detection, all ROWS
# rows: upstream's calculate_map is linear in them). Half the rows are studies ("<label> 1 0
# 0 1 1", only the label counts), half are images: "none 1 0 0 1 1" or one to three opacity
# boxes; the submission guesses labels and moves the boxes a little, with confidences.
m = n
studies = m // 2
study_labels = np.array(["negative", "typical", "indeterminate", "atypical"])
def corner_text(boxes):
    return " ".join(f"{v:.5f}" for v in boxes)
truth, guess = [], []
for k, label in enumerate(rng.integers(0, 4, studies)):
    truth.append(f"{study_labels[label]} 1 0 0 1 1")
    other = study_labels[rng.integers(0, 4)]
    first = study_labels[label] if rng.random() < 0.6 else other
    guess.append(f"{first} {rng.random():.4f} 0 0 1 1 {other} {rng.random() * 0.5:.4f} 0 0 1 1")
for count in rng.integers(0, 4, m - studies):
    if count == 0:
        truth.append("none 1 0 0 1 1")
        guess.append(f"none {rng.random():.4f} 0 0 1 1" if rng.random() < 0.7 else
                     f"opacity {rng.random() * 0.5:.4f} 100 100 900 1200")
        continue
    corners = rng.uniform(100, 2500, (count, 2))
    sizes = rng.uniform(300, 1500, (count, 2))
    boxes = np.hstack([corners, corners + sizes])
    truth.append(" ".join("opacity 1 " + corner_text(b) for b in boxes))
    moved = boxes + rng.normal(0, 80, boxes.shape)
    parts = [f"opacity {rng.random():.4f} " + corner_text(b) for b in moved]
    if rng.random() < 0.5:
        parts.append(f"opacity {rng.random() * 0.3:.4f} " + corner_text(boxes[0] + 700))
    if rng.random() < 0.3:
        parts.append(f"none {rng.random() * 0.3:.4f} 0 0 1 1")
    guess.append(" ".join(parts))
detection_ids = np.concatenate([np.char.add(hex_ids(studies, 12), "_study"),
                                np.char.add(hex_ids(m - studies, 12), "_image")])
order = rng.permutation(m)
put("siim-covid19-detection",
    pd.DataFrame({"id": detection_ids[order], "PredictionString": np.array(truth)[order]}),
    pd.DataFrame({"id": detection_ids[order], "PredictionString": np.array(guess)[order]}))
