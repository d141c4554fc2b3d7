"""Usage: jigsaw_bias_auc_sklearn_diff_test.py <cases file> [seed]

Random cases for jigsaw_bias_auc_sklearn_diff_test: upstream's Jigsaw bias
score (overall AUC, per-identity subgroup / BPSN / BNSP AUCs, power means),
restated with pandas filters and scikit-learn's roc_auc_score, on labels,
scores and identity memberships that are already 0/1 (as upstream's grade
leaves them after thresholding) or, for scores, continuous.

Output, one case after another:
  case <n rows> <n identities>
  t <labels, 0/1, space-separated>
  s <scores, repr, space-separated>
  g <memberships of identity g, 0/1>     (one line per identity)
  r <repr of the score> | e <exception class name>
"""
import random
import sys
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score


def bias_score(toxic, score, identities, p=-5, w=0.25):
    names = [f"g{k}" for k in range(len(identities))]
    answers = pd.DataFrame({"id": range(len(toxic)), "toxicity": toxic})
    for name, member in zip(names, identities):
        answers[name] = member
    submission = pd.DataFrame({"id": range(len(toxic)), "toxicity": score})

    def auc(rows):
        kept = answers[rows]
        sub = submission[submission["id"].isin(kept["id"])]
        return roc_auc_score(kept["toxicity"], sub["toxicity"])

    overall = roc_auc_score(answers["toxicity"], submission["toxicity"])
    per_identity = []
    for name in names:
        inside = answers[name] == 1
        toxic_row = answers["toxicity"] == 1
        per_identity.append([
            auc(inside),
            auc((~toxic_row & inside) | (toxic_row & ~inside)),
            auc((toxic_row & inside) | (~toxic_row & ~inside)),
        ])
    means = [(sum([aucs[k] ** p for aucs in per_identity]) / len(names)) ** (1 / p)
             for k in range(3)]
    return w * overall + sum([w * m for m in means])


def main():
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    out = []
    sizes = [1, 2, 3, 4, 6, 10, 30, 100, 1000] * 25 + [10000, 100000]
    for n in sizes:
        groups = rng.choice([1, 2, 3, 9])
        toxic_rate = rng.choice([0.1, 0.3, 0.5])
        toxic = [1 if rng.random() < toxic_rate else 0 for _ in range(n)]
        kind = rng.random()
        if kind < 0.6:  # thresholded predictions, as upstream's grade has them
            score = [float(1 if rng.random() < (0.7 if t else 0.2) else 0) for t in toxic]
        elif kind < 0.9:
            score = [round(rng.random() * 0.5 + 0.4 * t, rng.choice([1, 2, 6])) for t in toxic]
        else:  # inverted: some AUCs are 0
            score = [float(1 - t) for t in toxic]
        identities = []
        for _ in range(groups):
            share = rng.choice([0.05, 0.2, 0.5])
            identities.append([1 if rng.random() < share else 0 for _ in range(n)])
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                result = "r " + repr(float(bias_score(toxic, score, identities)))
            except Exception as e:  # noqa: BLE001 - any raise is the outcome
                result = "e " + type(e).__name__
        out.append(f"case {n} {groups}")
        out.append("t " + " ".join(map(str, toxic)))
        out.append("s " + " ".join(map(repr, score)))
        out.extend("g " + " ".join(map(str, member)) for member in identities)
        out.append(result)
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")


main()
