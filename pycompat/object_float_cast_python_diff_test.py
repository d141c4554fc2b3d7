"""Strings and what Python's float() makes of them, for object_float_cast.

Run by object_float_cast_python_diff_test (a cc_test) as
  python3 object_float_cast_python_diff_test.py OUT_FILE
One case per line: "<UTF-8 hex of the string> <outcome>", the outcome being
"err" (ValueError), "nan", or float.hex() of the value (inf as "inf"/"-inf").
The cases: every Unicode decimal digit and whitespace character (the tables
the C++ code carries), then random strings over an alphabet of the characters
that matter to the grammar (digits, signs, point, exponent, underscores,
spaces of several kinds, letters of inf/nan, odd non-ASCII characters).
"""

import sys
import unicodedata

import numpy as np

rng = np.random.default_rng(20240612)
cases = []

for c in range(0x110000):
    ch = chr(c)
    if unicodedata.decimal(ch, None) is not None or ch.isspace() or 0x7F <= c <= 0xA0:
        cases += [ch, "1" + ch, ch + "5", " " + ch + ".5e" + ch]

ALPHABET = list("0123456789") * 3 + list("__..ee+-  ") + [
    "E", "\t", "\n", "\v", "\f", "\r", "\x1c", "\x7f", "\xa0", "\u3000", "\u2007", "\u0663",
    "\U0001D7D9", "\uff15", "i", "n", "f", "a", "t", "y", "I", "N", "F", "x", "\u00e9", ",",
]
WORDS = ["inf", "Infinity", "nan", "NaN", "-inf", "+nan", "iNfInItY", "infinit", "1e999",
         "-1e999", "1e-400", "4.9e-324", "2.2250738585072014e-308", "0.1", "1_000.000_1",
         "9007199254740993", "1.7976931348623157e308", "1.7976931348623159e308"]
for _ in range(30000):
    if rng.random() < 0.15:
        s = str(rng.choice(WORDS))
        if rng.random() < 0.5:
            s = str(rng.choice([" ", "\xa0", "\t", ""])) + s + str(rng.choice([" ", "_", "\u3000", ""]))
    else:
        n = int(rng.integers(0, 14))
        s = "".join(str(rng.choice(ALPHABET)) for _ in range(n))
    cases.append(s)

lines = []
for s in cases:
    try:
        v = float(s)
        if v != v:
            out = "nan"
        elif v in (float("inf"), float("-inf")):
            out = "inf" if v > 0 else "-inf"
        else:
            out = v.hex()
    except ValueError:
        out = "err"
    lines.append(f"{s.encode().hex()} {out}")

with open(sys.argv[1], "w", encoding="ascii") as f:
    f.write("\n".join(lines) + "\n")
