"""Random pages for our C++ KuzushijiF1, with a numpy restatement of
upstream's kuzushiji_metric.py (score_page and kuzushiji_f1).

Run by kuzushiji_f1_diff_test as
  python3 kuzushiji_f1_diff_test.py OUT_FILE

Format, one case after another: "case <n>", then n lines "<preds> <truth>"
where each is "-" for a missing page or "h" + the UTF-8 hex of the string,
then "ok <float.hex()>" or "raise".
"""

import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")


def score_page(preds, truth):
    # Upstream's steps: whole-string counts for missing pages; otherwise
    # boxes in order, each taking the first unused matching point.
    if truth is None and preds is None:
        return 0, 0, 0
    if truth is None:
        return 0, len(preds.split(" ")) // 3, 0
    if preds is None:
        return 0, 0, len(truth.split(" ")) // 5
    t = truth.split(" ")
    if len(t) % 5:
        raise ValueError("Malformed solution string")
    label = np.array(t[0::5])
    xmin = np.array(t[1::5]).astype(float)
    ymin = np.array(t[2::5]).astype(float)
    xmax = xmin + np.array(t[3::5]).astype(float)
    ymax = ymin + np.array(t[4::5]).astype(float)
    p = preds.split(" ")
    if len(p) % 3:
        raise ValueError("Malformed prediction string")
    plabel = np.array(p[0::3])
    px = np.array(p[1::3]).astype(float)
    py = np.array(p[2::3]).astype(float)
    unused = np.ones(len(plabel)).astype(bool)
    tp = fn = 0
    for x0, x1, y0, y1, lab in zip(xmin, xmax, ymin, ymax, label):
        m = (x0 < px) & (x1 > px) & (y0 < py) & (y1 > py) & (plabel == lab) & unused
        if m.sum() == 0:
            fn += 1
        else:
            tp += 1
            unused[np.argmax(m)] = False
    return tp, int(unused.sum()), fn


def f1(pages):
    tp = fp = fn = 0
    for preds, truth in pages:
        a, b, c = score_page(preds, truth)
        tp, fp, fn = tp + a, fp + b, fn + c
    if tp + fp == 0 or tp + fn == 0:
        return 0.0
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    return (2 * precision * recall) / (precision + recall) if precision > 0 and recall > 0 else 0.0


LABELS = ["U+306F", "U+304C", "U+3044", "U+0031", "U+FF2F"]
ODD_NUMBERS = ["1_0", "nan", "inf", "-3", "+7.5", "1e1", "\t4", "x", "", "0x10", "１２"]


def page(rng, boxes, points, odd):
    truth = []
    for _ in range(boxes):
        truth += [str(rng.choice(LABELS)), str(int(rng.integers(0, 100))), str(int(rng.integers(0, 100))),
                  str(int(rng.integers(1, 40))), str(int(rng.integers(1, 40)))]
    preds = []
    for _ in range(points):
        if truth and rng.random() < 0.6:  # near a true box
            b = int(rng.integers(0, boxes)) * 5
            lab = truth[b] if rng.random() < 0.8 else str(rng.choice(LABELS))
            x = int(truth[b + 1]) + float(rng.uniform(-3, int(truth[b + 3]) + 3))
            y = int(truth[b + 2]) + float(rng.uniform(-3, int(truth[b + 4]) + 3))
            preds += [lab, repr(round(x, 1)), str(int(y))]
        else:
            preds += [str(rng.choice(LABELS)), str(int(rng.integers(0, 140))), str(int(rng.integers(0, 140)))]
    if odd and preds:
        preds[int(rng.integers(0, len(preds) // 3)) * 3 + int(rng.integers(1, 3))] = str(rng.choice(ODD_NUMBERS))
    if odd and rng.random() < 0.2 and preds:
        preds = preds[:-1]
    t = " ".join(truth) if boxes else None
    p = " ".join(preds) if points else None
    return p, t


def encode(s):
    return "-" if s is None else "h" + s.encode("utf-8").hex()


def main():
    rng = np.random.default_rng(20261129)
    sizes = [1, 2, 5, 3000] + [int(rng.integers(1, 60)) for _ in range(400)]
    lines = []
    for n in sizes:
        odd = rng.random() < 0.3
        pages = [page(rng, int(rng.integers(0, 12)), int(rng.integers(0, 14)), odd and rng.random() < 0.2)
                 for _ in range(n)]
        lines.append(f"case {n}")
        lines += [f"{encode(p)} {encode(t)}" for p, t in pages]
        try:
            lines.append(f"ok {float(f1(pages)).hex()}")
        except ValueError:
            lines.append("raise")
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
