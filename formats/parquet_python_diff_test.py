"""The Python half of parquet_python_diff_test: pyarrow 17.0.0 and fastparquet
2024.5.0 (upstream's versions, from the reference environment) as writers of
files our reader must read, and as readers of files our writer wrote.

  python3 parquet_python_diff_test.py write DIR CASES SEED
      Writes DIR/<k>.parquet for k < CASES, each a random table written by
      pyarrow or fastparquet with random options, and DIR/<k>.expected: the
      table as pyarrow reads it back (pyarrow.parquet.read_table(...)
      .to_pandas(), which is what pd.read_parquet gives for a file without
      pandas metadata), and DIR/<k>.how: the writer and its options.
  python3 parquet_python_diff_test.py read DIR
      For each DIR/<k>.parquet, writes DIR/<k>.pyarrow and DIR/<k>.fastparquet:
      the file as each library reads it, or "raise <exception>".
  python3 parquet_python_diff_test.py fastparquet DIR LABEL
      For each DIR/<k>.frame (a DataFrame, see read_frame), writes
      DIR/<k>.LABEL.parquet with DataFrame.to_parquet(index=False,
      engine="fastparquet", ...) as upstream's preparers do; with LABEL
      "baseline", also DIR/<k>.ours.pyarrow and DIR/<k>.ours.fastparquet:
      DIR/<k>.ours.parquet (our writer's file of the same frame) as each
      library reads it.

Dump format, per column: "name <UTF-8 hex>", then
"col <int64|float64|bool|object> <n> <cell>..." with cells i:<int>
f:<float.hex()> b:<0|1> s:<UTF-8 hex> n (missing), the numpy kinds i/u ->
int64, f -> float64 (float32 widened), b -> bool, O -> object.
"""

import io
import math
import os
import random
import sys
import warnings

import fastparquet
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

warnings.simplefilter("ignore")


def cell(v):
    if v is None or (isinstance(v, float) and math.isnan(v) and not isinstance(v, np.floating)):
        return "n"
    if isinstance(v, (bool, np.bool_)):
        return f"b:{int(v)}"
    if isinstance(v, (int, np.integer)):
        return f"i:{int(v)}"
    if isinstance(v, (float, np.floating)):
        return f"f:{float(v).hex()}"
    if isinstance(v, bytes):
        return f"s:{v.hex()}"
    return f"s:{str(v).encode('utf-8').hex()}"


def dump(df):
    lines = []
    for name in df.columns:
        series = df[name]
        if not isinstance(series.dtype, np.dtype):
            # A nullable extension dtype (fastparquet reads an optional
            # BOOLEAN as "boolean"): its values as Python objects, pd.NA
            # missing, which is what pyarrow's object column holds.
            series = series.astype(object).where(series.notna(), None)
        kind = series.dtype.kind
        dtype = {"i": "int64", "u": "int64", "f": "float64", "b": "bool"}.get(kind, "object")
        if dtype == "float64":
            cells = [f"f:{float(v).hex()}" for v in series.to_numpy()]
        else:
            cells = [cell(v) for v in series.to_numpy(dtype=object)]
        lines.append(f"name {str(name).encode('utf-8').hex()}")
        lines.append(f"col {dtype} {len(cells)} " + " ".join(cells))
    return "\n".join(lines) + "\n"


WORDS = ["a", "bb", "", "é", "日本", "x y", "NaN", "None", "0", "\t", "long " * 20]


def random_table(rng, rows, for_fastparquet):
    """pyarrow arrays of the physical and logical types upstream's data uses
    (icecube: int16, int64, float64, bool; others: int32, float32, text)."""
    columns = {}
    for k in range(rng.randint(1, 6)):
        kind = rng.choice(["int16", "int32", "int64", "float32", "float64", "bool", "string"])
        nulls = rng.random() < 0.4 and not (for_fastparquet and kind in ("int16", "int32",
                                                                         "int64", "bool"))
        values = []
        for _ in range(rows):
            if nulls and rng.random() < 0.2:
                values.append(None)
            elif kind == "int16":
                values.append(rng.randint(-32768, 32767))
            elif kind == "int32":
                values.append(rng.randint(-2**31, 2**31 - 1))
            elif kind == "int64":
                values.append(rng.choice([rng.randint(-2**63, 2**63 - 1), rng.randint(0, 9)]))
            elif kind in ("float32", "float64"):
                v = rng.choice([rng.uniform(-1e6, 1e6), rng.randint(0, 3) / 4.0, math.inf,
                                -math.inf, 1e-310, -0.0])
                values.append(v)
            elif kind == "bool":
                values.append(rng.random() < 0.5)
            else:
                values.append(rng.choice(WORDS) + (str(rng.randint(0, 50)) if rng.random() < 0.5
                                                   else ""))
        columns[f"c{k}_{kind}"] = pa.array(values, type=getattr(pa, "utf8" if kind == "string"
                                                               else "bool_" if kind == "bool"
                                                               else kind)())
    return pa.table(columns)


def write(directory, cases, seed):
    rng = random.Random(seed)
    for k in range(cases):
        rows = rng.choice([0, 1, 2, 7, 100, 1000, rng.randint(0, 5000)])
        if k == 0:
            rows = 300_000  # a large file: many pages and row groups
        writer = "pyarrow" if k % 3 else "fastparquet"
        table = random_table(rng, rows, writer == "fastparquet")
        path = os.path.join(directory, f"{k}.parquet")
        compression = rng.choice(["none", "snappy", "gzip", "zstd"])
        if writer == "pyarrow":
            options = dict(
                compression=compression,
                use_dictionary=rng.random() < 0.5,
                data_page_version=rng.choice(["1.0", "2.0"]),
                row_group_size=rng.choice([None, 1, 64, 1000]),
                data_page_size=rng.choice([None, 64, 4096]),
                write_statistics=rng.random() < 0.5,
            )
            if rows > 10000:
                options["row_group_size"] = 65536
            pq.write_table(table, path, **options)
        else:
            df = table.to_pandas()
            options = dict(
                compression=None if compression == "none" else compression.upper(),
                row_group_offsets=rng.choice([50_000_000, 10, 1000]),
                stats=rng.random() < 0.5,
            )
            if rows > 10000:
                options["row_group_offsets"] = 65536
            fastparquet.write(path, df, write_index=False, **options)
        with open(os.path.join(directory, f"{k}.how"), "w") as f:
            f.write(f"{writer} rows={rows} {options}\n")
        with open(os.path.join(directory, f"{k}.expected"), "w") as f:
            f.write(dump(pq.read_table(path).to_pandas()))


def read(directory):
    for entry in sorted(os.listdir(directory)):
        if not entry.endswith(".parquet"):
            continue
        path = os.path.join(directory, entry)
        stem = path[: -len(".parquet")]
        for library, reader in (
            ("pyarrow", lambda p: pq.read_table(p).to_pandas()),
            ("fastparquet", lambda p: fastparquet.ParquetFile(p).to_pandas()),
        ):
            try:
                text = dump(reader(path))
            except Exception as e:  # noqa: BLE001 - any failure is an outcome
                text = f"raise {type(e).__name__} {e}\n"
            with open(f"{stem}.{library}", "w") as f:
                f.write(text)


def parse_cell(token):
    if token[0] == "i":
        return int(token[2:])
    if token[0] == "b":
        return token[2] == "1"
    return float.fromhex(token[2:])


def read_frame(path):
    """A frame file: "options <snappy|none> <row_group_offsets>", then per
    column "name <UTF-8 hex>", "dtype <numpy dtype>", "cells <n> <cell>..."
    (cells i:<int> f:<float.hex()> b:<0|1>). Returns the DataFrame (built as
    pandas builds one from a dict: one consolidated block per dtype) and the
    to_parquet keywords."""
    lines = open(path).read().split("\n")
    _, compression, offsets = lines[0].split(" ")
    columns = {}
    for k in range(1, len(lines) - 2, 3):
        name = bytes.fromhex(lines[k].split(" ")[1]).decode("utf-8")
        dtype = lines[k + 1].split(" ")[1]
        cells = lines[k + 2].split(" ")[2:]
        columns[name] = np.array([parse_cell(t) for t in cells], dtype=dtype)
    options = dict(compression=None if compression == "none" else compression,
                   row_group_offsets=int(offsets))
    return pd.DataFrame(columns), options


def fastparquet_write(directory, label):
    for entry in sorted(os.listdir(directory)):
        if not entry.endswith(".frame"):
            continue
        stem = os.path.join(directory, entry[: -len(".frame")])
        df, options = read_frame(stem + ".frame")
        df.to_parquet(f"{stem}.{label}.parquet", index=False, engine="fastparquet", **options)
        if label != "baseline":
            continue
        for library, reader in (
            ("pyarrow", lambda p: pq.read_table(p).to_pandas()),
            ("fastparquet", lambda p: fastparquet.ParquetFile(p).to_pandas()),
        ):
            try:
                text = dump(reader(stem + ".ours.parquet"))
            except Exception as e:  # noqa: BLE001 - any failure is an outcome
                text = f"raise {type(e).__name__} {e}\n"
            with open(f"{stem}.ours.{library}", "w") as f:
                f.write(text)


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "fastparquet":
        fastparquet_write(sys.argv[2], sys.argv[3])
    else:
        read(sys.argv[2])
