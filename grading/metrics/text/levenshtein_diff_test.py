"""Usage: levenshtein_diff_test.py <cases file> [seed]

Random text pairs for levenshtein_diff_test with their distance by
Levenshtein 0.25.1 (`Levenshtein.distance` on Python str, counting code
points), the library and version upstream's graders import.

Output, one pair a line:
  p h<hex of UTF-8 of a> h<hex of UTF-8 of b> <distance>
"""
import random
import sys

from Levenshtein import distance

ALPHABETS = [
    "ab",
    "abcdefghij ",
    "InChI=1S/CHNO()-,0123456789hbtms",
    "aé中😀\u0100\u00ff\U0010FFFF ",
    "".join(chr(c) for c in range(32, 127)),
]


def random_code_point(rng):
    while True:
        c = rng.randint(1, 0x10FFFF) if rng.random() < 0.5 else rng.randint(1, 0x7FF)
        if not 0xD800 <= c <= 0xDFFF:  # surrogates are not valid UTF-8
            return chr(c)


def random_text(rng, length):
    kind = rng.randrange(len(ALPHABETS) + 1)
    if kind == len(ALPHABETS):
        return "".join(random_code_point(rng) for _ in range(length))
    alphabet = ALPHABETS[kind]
    return "".join(rng.choice(alphabet) for _ in range(length))


def edited(rng, text):
    chars = list(text)
    for _ in range(rng.randint(0, 8)):
        op = rng.randrange(3)
        at = rng.randint(0, len(chars))
        if op == 0:
            chars.insert(at, random_code_point(rng) if rng.random() < 0.3 else rng.choice("abc"))
        elif chars and at < len(chars):
            if op == 1:
                del chars[at]
            else:
                chars[at] = rng.choice("xyz")
    return "".join(chars)


def random_length(rng):
    r = rng.random()
    if r < 0.5:
        return rng.randint(0, 70)
    if r < 0.8:
        return rng.randint(60, 300)
    return rng.randint(0, 2000)


def main():
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    lines = []
    pairs = [("", ""), ("", "a"), ("😀", ""), ("é", "e")]
    for _ in range(6000):
        a = random_text(rng, random_length(rng))
        b = edited(rng, a) if rng.random() < 0.5 else random_text(rng, random_length(rng))
        pairs.append((a, b))
    for a, b in pairs:
        lines.append(f"p h{a.encode().hex()} h{b.encode().hex()} {distance(a, b)}")
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(lines) + "\n")


main()
