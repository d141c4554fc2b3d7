"""Usage: kendall_tau_python_diff_test.py <cases file> [seed]

Random cases for kendall_tau_python_diff_test: upstream's AI4Code
kendall_tau (bisect-based inversion count, Python int arithmetic), restated
line for line below, on lists with repeated items, items missing from the
ground truth, lists of other lengths, and lists of 0 or 1 items.

Output, one case after another:
  case <number of list pairs>
  g <hex of each ground-truth item, space-separated>   (then)
  p <hex of each predicted item>                         (per pair)
  r <repr of the score> | e <exception class name>
"""
import random
import sys
from bisect import bisect


def kendall_tau(ground_truth, predictions):
    def count_inversions(a):
        inversions = 0
        sorted_so_far = []
        for i, u in enumerate(a):
            j = bisect(sorted_so_far, u)
            inversions += i - j
            sorted_so_far.insert(j, u)
        return inversions

    total_inversions = 0
    total_2max = 0
    for gt, pred in zip(ground_truth, predictions):
        ranks = [gt.index(x) for x in pred]
        total_inversions += count_inversions(ranks)
        n = len(gt)
        total_2max += n * (n - 1)
    return 1 - 4 * total_inversions / total_2max


def make_pair(rng, n):
    # Items are distinct hex ids, as in AI4Code, with the odd repeat or
    # non-ASCII item.
    items = [f"{rng.getrandbits(32):08x}" for _ in range(n)]
    if n and rng.random() < 0.1:
        items[rng.randrange(n)] = "\u00e9t\u00e9"
    if n > 1 and rng.random() < 0.1:
        items[rng.randrange(n)] = items[rng.randrange(n)]
    pred = list(items)
    style = rng.random()
    if style < 0.3:
        rng.shuffle(pred)
    elif style < 0.7:  # a few swaps: a good prediction
        for _ in range(rng.randint(0, 3)):
            if n > 1:
                i = rng.randrange(n - 1)
                pred[i], pred[i + 1] = pred[i + 1], pred[i]
    elif style < 0.75:
        pred.reverse()
    elif style < 0.8 and n:
        pred[rng.randrange(n)] = "missing"
    elif style < 0.85:
        pred = pred[: rng.randint(0, n)]
    return items, pred


def main():
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    plans = []
    for _ in range(300):
        pairs = rng.choice([1, 1, 2, 3, 10])
        plans.append([rng.choice([0, 1, 2, 3, 5, 10, 50]) for _ in range(pairs)])
    plans.append([100] * 1000)  # 1e5 items over many lists
    plans.append([20000])
    plans.append([1, 0, 1])  # division by zero
    out = []
    for sizes in plans:
        gts, preds = [], []
        for n in sizes:
            gt, pred = make_pair(rng, n)
            gts.append(gt)
            preds.append(pred)
        try:
            result = "r " + repr(kendall_tau(gts, preds))
        except Exception as e:  # noqa: BLE001 - any raise is the outcome
            result = "e " + type(e).__name__
        out.append(f"case {len(sizes)}")
        for gt, pred in zip(gts, preds):
            out.append("g " + " ".join(x.encode().hex() for x in gt))
            out.append("p " + " ".join(x.encode().hex() for x in pred))
        out.append(result)
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")


main()
