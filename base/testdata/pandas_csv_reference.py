"""Reference dumps of CSV files as upstream mle-bench reads and writes them.

Usage: pandas_csv_reference.py LIST_FILE

LIST_FILE holds one CSV path per line. For each path this reads the file the
way upstream's mlebench.utils.read_csv does (pandas.read_csv with
float_precision="round_trip"; an empty DataFrame on EmptyDataError) and
prints a canonical dump that base/csv_pandas_diff_test.cc compares with
our reader's. A path ending in ".tsv" is read and written with sep="\t", as
upstream's prepare.py does for tab-separated files.

  FILE <index>
  ERROR <exception class>                        (when pandas raises), or
  SHAPE <columns> <rows>
  COL <hex of the UTF-8 name> <dtype>            (one per column)
  CELLS <cell> <cell> ...                        (one line per column)
  WRITE <hex of df.to_csv(index=False[, sep])> | WRITE SKIPPED
  END

A cell is "n" (missing), "b:True", "i:<int>", "f:<repr>" or "s:<hex>".
"""
import sys
import warnings

import numpy as np
import pandas as pd


def hexstr(s):
    return s.encode("utf-8").hex()


def cell(v):
    if v is None:
        return "n"
    if isinstance(v, (bool, np.bool_)):
        return "b:" + ("True" if v else "False")
    if isinstance(v, (int, np.integer)):
        return "i:%d" % int(v)
    if isinstance(v, (float, np.floating)):
        return "n" if np.isnan(v) else "f:" + repr(float(v))
    if isinstance(v, str):
        return "s:" + hexstr(v)
    return "?:" + type(v).__name__


def dump(index, path, out):
    out.append("FILE %d" % index)
    sep = "\t" if path.endswith(".tsv") else ","
    try:
        try:
            df = pd.read_csv(path, float_precision="round_trip", sep=sep)
        except pd.errors.EmptyDataError:
            df = pd.DataFrame()
    except Exception as e:  # ParserError, UnicodeDecodeError, ...
        out.append("ERROR " + type(e).__name__)
        out.append("END")
        return
    out.append("SHAPE %d %d" % (df.shape[1], df.shape[0]))
    has_cr = False
    for name in df.columns:
        col = df[name]
        dtype = str(col.dtype)
        values = col.tolist()
        if dtype == "uint64":
            # Our Table has no uint64 dtype: such columns stay exact, as text.
            dtype = "object"
            values = [str(v) for v in values]
        has_cr = has_cr or "\r" in name
        has_cr = has_cr or any(isinstance(v, str) and "\r" in v for v in values)
        out.append("COL %s %s" % (hexstr(name), dtype))
        out.append(" ".join(["CELLS"] + [cell(v) for v in values]))
    if has_cr:
        # Python < 3.11.9 (Debian has 3.11.2) does not quote a bare "\r";
        # upstream's Python 3.11 builds do (CPython gh-67044), and so do we.
        out.append("WRITE SKIPPED")
    else:
        out.append("WRITE " + hexstr(df.to_csv(index=False, sep=sep)))
    out.append("END")


def main():
    warnings.simplefilter("ignore")  # DtypeWarning for mixed chunks
    with open(sys.argv[1], encoding="utf-8") as f:
        paths = [line.rstrip("\n") for line in f if line.strip()]
    out = []
    for index, path in enumerate(paths):
        dump(index, path, out)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
