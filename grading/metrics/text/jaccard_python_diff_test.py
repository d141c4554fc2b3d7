# Writes random text pairs and, for each, upstream's tweet-sentiment-extraction
# `jaccard` restated (its exact expression) plus the words of a.lower().split(),
# for jaccard_python_diff_test.cc. One line per pair:
#   hex(a) hex(b) score-or-"err" hex("\0".join(a.lower().split()))
import random, sys

def jaccard(str1, str2):
    a = set(str1.lower().split())
    b = set(str2.lower().split())
    c = a.intersection(b)
    return float(len(c)) / (len(a) + len(b) - len(c))

rng = random.Random(20240611)
# Characters that matter: ASCII, Python whitespace (and look-alikes that are
# not), capital sigma with cased and case-ignorable neighbours, special
# lower-case mappings, combining marks, emoji.
POOL = (list("aAbBcCzZ019 .,!?'`-_*") + ["\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f",
        "\x85", "\xa0", "\u1680", "\u2003", "\u2028", "\u3000", "\u200b", "\ufeff",
        "\u03a3", "\u03c3", "\u03c2", "\u0391", "\u039f", "\u0130", "\u0131", "\u00df",
        "\u1e9e", "\u0307", "\u0301", "\u00ad", "\u2019", "\u00b7", "\u02b0", "\u1f88",
        "\u2126", "\u212a", "\u0410", "\u0436", "\U0001F600", "\U00010400", "\u24b6", "\u2160",
        "\u00c9", "\u00e9", "\uff21"])
WORDS = ["good", "Good", "GOOD", "bad", "\u039f\u03a3", "\u03bf\u03c2", "caf\u00e9", "CAF\u00c9",
         "i`m", "day!", "\u0130stanbul", "istanbul"]

def random_code_point():
    while True:
        cp = rng.randrange(0x110000 if rng.random() < 0.3 else 0x3000)
        if not 0xD800 <= cp <= 0xDFFF:
            return chr(cp)

def random_text():
    kind = rng.random()
    n = int(rng.expovariate(1 / 6))
    if kind < 0.4:
        return "".join(rng.choice(POOL) for _ in range(n))
    if kind < 0.7:
        return rng.choice(["", " ", "  "]) + " ".join(rng.choice(WORDS) for _ in range(n))
    if kind < 0.9:
        return "".join(random_code_point() if rng.random() < 0.5 else rng.choice(POOL)
                       for _ in range(n))
    return rng.choice(["", " ", "\n", "\xa0", "\u3000 \t", "\u200b"])

with open(sys.argv[1], "w") as out:
    for _ in range(30000):
        a = random_text()
        b = a if rng.random() < 0.05 else random_text()
        try:
            score = repr(jaccard(a, b))
        except ZeroDivisionError:
            score = "err"
        words = "\0".join(a.lower().split())
        out.write(" ".join([a.encode().hex() or "-", b.encode().hex() or "-", score,
                            words.encode().hex() or "-"]) + "\n")
