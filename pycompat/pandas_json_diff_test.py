"""Reads hex-encoded doubles and UTF-8 strings from stdin and prints what
pandas' DataFrame.to_json(orient="records", lines=True) writes for them:
floats in a float64 column and inside lists of an object column, strings as
values and as column names."""
import sys

import pandas as pd

floats, strings = [], []
for line in sys.stdin:
    kind, payload = line.split()
    if kind == "f":
        floats.append(float.fromhex(payload))
    else:
        strings.append(bytes.fromhex(payload).decode("utf-8") if payload != "-" else "")
frame = pd.DataFrame({"x": floats, "l": [[v, -v] for v in floats]})
sys.stdout.write(frame.to_json(orient="records", lines=True))
sys.stdout.write(pd.DataFrame({"s": strings}).to_json(orient="records", lines=True))
sys.stdout.write(pd.DataFrame({s: [1] for s in list(dict.fromkeys(strings))[:50]}).to_json(orient="records", lines=True))
