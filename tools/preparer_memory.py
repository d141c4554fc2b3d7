#!/usr/bin/env python3
"""Peak memory of every competition's preparer, measured on tiled synthetic data.

Each competition's synthetic raw download (//competitions/<id>:raw) is
enlarged by *tiling*: the body of every table file is repeated k times (CSV and
TSV bodies after their header line, text and JSON-lines files whole, the
records of a JSON array and of every list of records in a top-level JSON
object), inside ZIP archives too (the archive is rewritten); every other file
(images, audio, Parquet, 7z, tar, BSON, ...) is hard-linked. Ids are renamed in
each copy: the values of columns (or JSON keys) named like ids whose values are
mostly distinct (numbers shifted by a power of ten, text suffixed "x<j>"), and
a file whose path names such an id is linked once per copy under the renamed
path. A preparer that still refuses the tiled data (a fixed upstream split, ids
inside other ids or paths) is reported by the row's status, not fitted.

The preparer (//competitions/<id>:prepare) runs on the raw data tiled by k=1 and
by each k that makes the tables about --sizes bytes (capped by --max_files and
--max_other_bytes); /usr/bin/time gives its peak RSS. The tool fits
peak = base + slope * (bytes of the tiled tables) by least squares and writes
one TSV row per competition:

  id  status  factors  tiled_bytes_k1  peaks_KiB  wall_s  base_MiB  slope

Each run's files are removed after it. `--table A.tsv,B.tsv` prints the
Markdown table of docs/performance.md ("Preparers' memory") from such rows (a
later file's row replaces an earlier one's) and the real sizes in
tools/preparer_memory_real_sizes.tsv.

  tools/preparer_memory.py [--ids ID,...] [--sizes 30e6] [--work DIR] > out.tsv
  tools/preparer_memory.py --table out.tsv

Run from the repository root after
  ./bazelw build //competitions/<id>:raw //competitions/<id>:prepare ...
(the tool builds them itself unless --no_build).
"""

import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

TABLE_SUFFIXES = (".csv", ".tsv", ".txt", ".jsonl", ".json")
# Column names that may hold ids; such a column holds ids when most of its
# values are distinct (a class label column repeats its few values).
ID_NAME = re.compile(r"(^|[^a-z])(id|ids|key|uid|uuid|image|file|filename|name|token|"
                     r"path|sample|study|patient|case|series|code)($|[^a-z])|id$|_id|Id",
                     re.IGNORECASE)
ID_DISTINCT = 0.3


def is_table(name):
  return name.lower().endswith(TABLE_SUFFIXES)


def csv_dialect(name):
  return "excel-tab" if name.lower().endswith(".tsv") else "excel"


def records_of(name, data):
  """(header, rows) of each record list in a table file; rows are lists or dicts."""
  lower = name.lower()
  text = data.decode("utf-8", errors="surrogateescape")
  if lower.endswith((".csv", ".tsv")):
    rows = list(csv.reader(io.StringIO(text, newline=""), dialect=csv_dialect(name)))
    return [(rows[0], rows[1:])] if rows else []
  if lower.endswith(".json"):
    try:
      doc = json.loads(text)
    except ValueError:
      return []
    lists = [doc] if isinstance(doc, list) else (
        [v for v in doc.values() if isinstance(v, list)] if isinstance(doc, dict) else [])
    return [(None, [r for r in l if isinstance(r, dict)]) for l in lists]
  if lower.endswith(".jsonl"):
    rows = []
    for line in text.splitlines():
      try:
        r = json.loads(line)
      except ValueError:
        continue
      if isinstance(r, dict):
        rows.append(r)
    return [(None, rows)]
  return []


class Ids:
  """The ids of a raw download and their renaming in the j-th copy."""

  def __init__(self):
    self.names = set()   # column names that hold ids
    self.values = set()  # their values, as text
    self.modulus = 1

  def scan(self, name, data):
    for header, rows in records_of(name, data):
      columns = {}
      for row in rows:
        items = zip(header, row) if header is not None else row.items()
        for key, value in items:
          if isinstance(value, (str, int)) and not isinstance(value, bool) and ID_NAME.search(str(key)):
            columns.setdefault(key, []).append(str(value))
      for key, values in columns.items():
        if values and len(set(values)) >= ID_DISTINCT * len(values):
          self.names.add(key)
          self.values.update(v for v in values if v)

  def finish(self):
    digits = [abs(int(v)) for v in self.values if v.lstrip("-").isdigit()]
    self.modulus = 10 ** len(str(max(digits))) if digits else 1

  def rename(self, value, j):
    if j == 0 or value not in self.values:
      return value
    if value.lstrip("-").isdigit():
      number = int(value)
      renamed = str(number + (j if number >= 0 else -j) * self.modulus)
      return renamed.zfill(len(value)) if value.startswith("0") else renamed
    return "%sx%d" % (value, j)

  def rename_path(self, path, j):
    parts = path.split("/")
    for i, part in enumerate(parts):
      stem, dot, rest = part.partition(".")
      if part in self.values:
        parts[i] = self.rename(part, j)
      elif stem in self.values:
        parts[i] = self.rename(stem, j) + dot + rest
    return "/".join(parts)


def tile_bytes(name, data, k, ids):
  """The table file `name` with its records repeated k times, ids renamed per copy."""
  lower = name.lower()
  if k == 1:
    return data

  def renamed(row, j):
    if isinstance(row, dict):
      return {key: (type(v)(ids.rename(str(v), j)) if key in ids.names and
                    isinstance(v, (str, int)) and not isinstance(v, bool) else v)
              for key, v in row.items()}
    return row

  if lower.endswith(".json"):
    try:
      doc = json.loads(data)
    except ValueError:
      return data

    def tiled(records):
      if records and all(isinstance(r, dict) for r in records):
        return [renamed(r, j) for j in range(k) for r in records]
      return records

    if isinstance(doc, list):
      doc = tiled(doc)
    elif isinstance(doc, dict):
      doc = {key: tiled(v) if isinstance(v, list) else v for key, v in doc.items()}
    return json.dumps(doc).encode()
  if lower.endswith(".jsonl"):
    out = []
    lines = data.decode("utf-8", errors="surrogateescape").splitlines()
    for j in range(k):
      for line in lines:
        try:
          r = json.loads(line)
        except ValueError:
          out.append(line)
          continue
        out.append(json.dumps(renamed(r, j)) if isinstance(r, dict) else line)
    return ("\n".join(out) + "\n").encode("utf-8", errors="surrogateescape")
  if lower.endswith((".csv", ".tsv")):
    text = data.decode("utf-8", errors="surrogateescape")
    rows = list(csv.reader(io.StringIO(text, newline=""), dialect=csv_dialect(name)))
    if not rows:
      return data
    header, body = rows[0], rows[1:]
    columns = [i for i, key in enumerate(header) if key in ids.names]
    terminator = "\r\n" if "\r\n" in text[:text.find("\n") + 1] else "\n"
    out = io.StringIO()
    writer = csv.writer(out, dialect=csv_dialect(name), lineterminator=terminator)
    # The header line as it was (quoting included), then the records.
    out.write(text[:text.find("\n") + 1])
    for j in range(k):
      for row in body:
        if columns and j:
          row = list(row)
          for i in columns:
            if i < len(row):
              row[i] = ids.rename(row[i], j)
        writer.writerow(row)
    return out.getvalue().encode("utf-8", errors="surrogateescape")
  body = data if data.endswith(b"\n") or not data else data + b"\n"
  return body * k


def zip_members(path):
  with zipfile.ZipFile(path) as z:
    for info in z.infolist():
      if not info.is_dir():
        yield info, z


def scan_ids(raw):
  ids = Ids()
  for root, _, files in os.walk(raw):
    for f in files:
      path = os.path.join(root, f)
      if is_table(f):
        with open(path, "rb") as fin:
          ids.scan(f, fin.read())
      elif f.lower().endswith(".zip"):
        try:
          for info, z in zip_members(path):
            if is_table(info.filename):
              ids.scan(info.filename, z.read(info))
        except zipfile.BadZipFile:
          pass
  ids.finish()
  return ids


def tile_zip(src, dst, k, ids):
  with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
    written = set()
    for info in zin.infolist():
      data = zin.read(info)
      names = [info.filename]
      if info.is_dir():
        names = [ids.rename_path(info.filename, j) for j in range(k)]
      elif is_table(info.filename):
        data = tile_bytes(info.filename, data, k, ids)
      else:
        names = [ids.rename_path(info.filename, j) for j in range(k)]
      for name in names:
        if name in written:
          continue
        written.add(name)
        out = zipfile.ZipInfo(name, date_time=info.date_time)
        out.compress_type = zipfile.ZIP_DEFLATED if data else zipfile.ZIP_STORED
        out.external_attr = info.external_attr
        zout.writestr(out, data, compresslevel=1)


def table_bytes(raw):
  """Bytes of the table files that tiling enlarges (uncompressed, for ZIP members)."""
  total = 0
  for root, _, files in os.walk(raw):
    for f in files:
      path = os.path.join(root, f)
      if is_table(f):
        total += os.path.getsize(path)
      elif f.lower().endswith(".zip"):
        try:
          total += sum(i.file_size for i, _ in zip_members(path) if is_table(i.filename))
        except zipfile.BadZipFile:
          pass
  return total


def other_files_and_bytes(raw):
  """Files and bytes that tiling copies (under new names where they name ids)."""
  files, size = 0, 0
  for root, _, names in os.walk(raw):
    for f in names:
      path = os.path.join(root, f)
      if is_table(f):
        continue
      if f.lower().endswith(".zip"):
        try:
          members = [i for i, _ in zip_members(path) if not is_table(i.filename)]
          files += len(members)
          size += sum(i.compress_size for i in members)
          continue
        except zipfile.BadZipFile:
          pass
      files += 1
      size += os.path.getsize(path)
  return files, size


def tile_tree(raw, out, k, ids):
  for root, _, files in os.walk(raw):
    rel = os.path.relpath(root, raw)
    for f in files:
      src = os.path.join(root, f)
      rel_file = os.path.normpath(os.path.join(rel, f))
      # A table named by an id (one notebook of many) is copied per id, below.
      named_by_id = ids.rename_path(rel_file, 1) != rel_file
      if k > 1 and is_table(f) and not named_by_id:
        dst = os.path.join(out, rel_file)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(src, "rb") as fin:
          data = fin.read()
        with open(dst, "wb") as fout:
          fout.write(tile_bytes(f, data, k, ids))
        continue
      if k > 1 and f.lower().endswith(".zip"):
        dst = os.path.join(out, rel_file)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        try:
          tile_zip(src, dst, k, ids)
          continue
        except zipfile.BadZipFile:
          pass
      # Any other file: linked once per copy under its renamed path (the
      # same path when it names no id).
      for j in range(k):
        dst = os.path.join(out, ids.rename_path(rel_file, j))
        if os.path.exists(dst):
          continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        os.link(src, dst)


def run_preparer(prepare, cid, raw, work):
  """(peak RSS KiB, wall s, error or None) of one preparer run."""
  args = [prepare, "--competition", cid, "--raw", raw, "--public",
          os.path.join(work, "public"), "--private", os.path.join(work, "private"),
          "--scratch", os.path.join(work, "scratch")]
  # /usr/bin/time measures the peak: a child forked from this process would
  # inherit its high-water mark across exec (Linux keeps it in ru_maxrss).
  measure = os.path.join(work, "peak_kib")
  start = time.monotonic()
  with tempfile.TemporaryFile() as log:
    code = subprocess.run(["/usr/bin/time", "-o", measure, "-f", "%M"] + args,
                          stdout=log, stderr=log).returncode
    wall = time.monotonic() - start
    error = None
    if code != 0:
      log.seek(0)
      lines = [l for l in log.read().decode(errors="replace").splitlines()
               if l.strip() and not l.startswith("Command exited")]
      error = (lines[-1] if lines else "exit %d" % code)[:300]
  with open(measure) as f:
    peak = int(f.read().split()[-1])
  return peak, wall, error


def fit(xs, ys):
  n = len(xs)
  mx, my = sum(xs) / n, sum(ys) / n
  sxx = sum((x - mx) ** 2 for x in xs)
  if sxx == 0:
    return my, 0.0
  slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
  return my - slope * mx, slope


def read_table_file(raw, spec):
  """(name, bytes) of the file a real-sizes row names: PATH, ZIP!MEMBER or FILE#key."""
  path, _, key = spec.partition("#")
  path, _, member = path.partition("!")
  if member:
    with zipfile.ZipFile(os.path.join(raw, path)) as z:
      return member, z.read(member), key
  with open(os.path.join(raw, path), "rb") as f:
    return path, f.read(), key


def count_records(raw, spec):
  name, data, key = read_table_file(raw, spec)
  if key:
    return len(json.loads(data)[key])
  if name.lower().endswith((".csv", ".tsv")):
    return max(0, len(records_of(name, data)[0][1]))
  return data.count(b"\n")


def human(n):
  for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
    if abs(n) < 1024 or unit == "TiB":
      return ("%.0f %s" if unit in ("B", "KiB") else "%.1f %s") % (n, unit)
    n /= 1024.0


def write_table(results, real_sizes, bin_dir):
  """docs/performance.md's table, from measurement TSVs and the real sizes."""
  rows = {}
  for path in results:
    with open(path) as f:
      for line in f.read().splitlines()[1:]:
        fields = line.split("\t")
        # A later file's row replaces an earlier one's (reruns after fixes).
        rows[fields[0]] = fields
  real = {}
  with open(real_sizes) as f:
    for line in f.read().splitlines():
      if line.startswith("#") or line.startswith("id\t") or not line.strip():
        continue
      cid, spec, count, source = line.split("\t")
      real[cid] = (spec, count, source)
  print("| competition | tables at k=1 | k measured | peak RSS at each k | fit: base + slope x table bytes "
        "| real dominant table (source) | estimate at real size |")
  print("| --- | ---: | --- | --- | --- | --- | ---: |")
  with open("competitions/competitions.tsv") as f:
    ids = [line.split("\t")[0] for line in f.read().splitlines()[1:] if line]
  for cid in sorted(ids, key=str.lower):
    if cid not in rows:
      print("| %s | - | - | - | not measured | %s | - |" % (
          cid, "unknown" if cid not in real else real[cid][1]))
      continue
    _, status, factors, unit, peaks, _, base, slope = rows[cid]
    unit, base, slope = int(unit), float(base), float(slope)
    peak_text = " / ".join(human(int(p) * 1024) for p in peaks.split(",") if p)
    if status == "ok":
      fit_text = "%.0f MiB + %.1f x" % (base, slope)
    else:
      # "fails at k=K: prepare: CODE: ID: reason", shortened to the reason.
      head, _, reason = status.partition(": ")
      reason = reason.replace("prepare: ", "").replace(cid + ": ", "")
      reason = re.sub(r"/\S*/(preparer_memory\.\w+/)", "", reason)
      fit_text = "%s: %s" % (head, reason[:110] + ("..." if len(reason) > 110 else ""))
    real_text, estimate = "unknown", ""
    if cid in real:
      spec, count, source = real[cid]
      if count.endswith(" GB"):
        # The whole download's size, taken as the tables' bytes.
        real_bytes = float(count[:-3]) * 1e9
        real_text = "all files: %s (%s)" % (count, source)
      else:
        raw = os.path.join(bin_dir, "competitions", cid, "raw")
        synthetic = count_records(raw, spec)
        real_bytes = unit * int(count) / synthetic
        real_text = "%s: %s rows (%s); x%.0f the synthetic %s" % (
            spec, "{:,}".format(int(count)), source, int(count) / synthetic,
            "{:,}".format(synthetic))
      if status == "ok":
        estimate = human(base * 2**20 + max(slope, 0.0) * real_bytes)
    print("| %s | %s | %s | %s | %s | %s | %s |" % (cid, human(unit), factors, peak_text, fit_text,
                                                  real_text, estimate or "-"))


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--ids", default="", help="comma-separated ids (default: all)")
  parser.add_argument("--sizes", default="30e6",
                      help="tiled sizes in bytes, besides k=1: k = size / bytes at k=1")
  parser.add_argument("--max_factor", type=int, default=100000)
  parser.add_argument("--max_files", type=int, default=60000,
                      help="cap on k * (files besides the tables)")
  parser.add_argument("--max_other_bytes", type=float, default=1.5e9,
                      help="cap on k * (bytes besides the tables)")
  parser.add_argument("--work", default=os.environ.get("TMPDIR", "/tmp"))
  parser.add_argument("--no_build", action="store_true")
  parser.add_argument("--table", default="",
                      help="comma-separated measurement TSVs: print the Markdown table instead")
  parser.add_argument("--real_sizes", default="tools/preparer_memory_real_sizes.tsv")
  flags = parser.parse_args()
  if flags.table:
    bin_dir = subprocess.run(["./bazelw", "info", "bazel-bin"], check=True, text=True,
                             capture_output=True).stdout.strip()
    write_table(flags.table.split(","), flags.real_sizes, bin_dir)
    return

  with open("competitions/competitions.tsv") as f:
    ids = [line.split("\t")[0] for line in f.read().splitlines()[1:] if line]
  if flags.ids:
    wanted = flags.ids.split(",")
    unknown = set(wanted) - set(ids)
    if unknown:
      sys.exit("unknown ids: %s" % ", ".join(sorted(unknown)))
    ids = wanted
  sizes = [float(x) for x in flags.sizes.split(",")]
  if not flags.no_build:
    targets = [t for cid in ids for t in
               ("//competitions/%s:raw" % cid, "//competitions/%s:prepare" % cid)]
    subprocess.run(["./bazelw", "build"] + targets, check=True, stdout=sys.stderr)
  bin_dir = subprocess.run(["./bazelw", "info", "bazel-bin"], check=True, text=True,
                           capture_output=True).stdout.strip()

  print("id\tstatus\tfactors\ttiled_bytes_k1\tpeaks_KiB\twall_s\tbase_MiB\tslope")
  for cid in ids:
    raw = os.path.join(bin_dir, "competitions", cid, "raw")
    prepare = os.path.join(bin_dir, "competitions", cid, "prepare")
    unit = table_bytes(raw)
    ids = scan_ids(raw)
    other_files, other_bytes = other_files_and_bytes(raw)
    cap = min(flags.max_factor, max(1, flags.max_files // max(other_files, 1)),
              max(1, int(flags.max_other_bytes // max(other_bytes, 1))))
    used = sorted({1} | {min(cap, max(1, round(size / max(unit, 1)))) for size in sizes})
    xs, peaks, walls, status = [], [], [], "ok"
    for k in used:
      work = tempfile.mkdtemp(prefix="preparer_memory.", dir=flags.work)
      try:
        tiled = os.path.join(work, "raw")
        tile_tree(raw, tiled, k, ids)
        peak, wall, error = run_preparer(prepare, cid, tiled, work)
      finally:
        shutil.rmtree(work)
      if error:
        status = "fails at k=%d: %s" % (k, error.replace("\t", " "))
        break
      xs.append(unit * k)
      peaks.append(peak)
      walls.append(wall)
      print("%s k=%d: %d KiB, %.1f s" % (cid, k, peak, wall), file=sys.stderr, flush=True)
    base, slope = fit(xs, [p * 1024.0 for p in peaks]) if len(xs) >= 2 else (0.0, 0.0)
    if len(xs) < 2 and status == "ok":
      status = "one size only"
    print("\t".join([cid, status, ",".join(str(k) for k in used[:len(xs)]), str(unit),
                     ",".join(str(p) for p in peaks), ",".join("%.1f" % w for w in walls),
                     "%.1f" % (base / 2**20), "%.3f" % slope]), flush=True)


if __name__ == "__main__":
  main()
