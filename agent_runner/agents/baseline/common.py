"""Shared plumbing of the baseline agent: the run's context (environment),
logging, reading inputs (plain files and members of .zip/.7z archives), the
sample submission and writing the submission.

Only the standard library is imported at module level; numpy/pandas are
imported inside the functions that need them, so that a run pays only for
what its task uses.
"""
import csv
import io
import os
import time
import zipfile

_T0 = time.time()
MODEL_WRITTEN = False  # set once a handler has written its own submission


def log(msg):
    print(f"[baseline {time.time() - _T0:7.2f}s] {msg}", flush=True)


class Ctx:
    """Everything a handler needs to know about this run."""

    def __init__(self):
        env = os.environ
        self.data_dir = env["MLEBENCH_DATA_DIR"]
        self.submission_dir = env["MLEBENCH_SUBMISSION_DIR"]
        self.logs_dir = env.get("MLEBENCH_LOGS_DIR", "")
        self.code_dir = env.get("MLEBENCH_CODE_DIR", "")
        self.tmp = env.get("TMPDIR") or self.submission_dir
        self.cid = env["MLEBENCH_COMPETITION_ID"]
        self.sample_path = env["MLEBENCH_SAMPLE_SUBMISSION"]
        self.seed = int(env.get("MLEBENCH_SEED", "0") or 0)
        self.time_limit = float(env.get("MLEBENCH_TIME_LIMIT_S", "3600") or 3600)
        cpus = env.get("MLEBENCH_CPUS", "")
        self.cpus = int(cpus) if cpus.strip().isdigit() and int(cpus) > 0 else len(os.sched_getaffinity(0))
        # Internal deadline: 60% of the limit minus a margin for writing.
        self.deadline = _T0 + max(1.0, 0.6 * self.time_limit - min(15.0, 0.1 * self.time_limit))
        self.submission_path = os.path.join(self.submission_dir, "submission.csv")

    # ---- time -------------------------------------------------------------
    def left(self):
        """Seconds left before the internal deadline."""
        return self.deadline - time.time()

    def scale(self, n_rows, budget_rows):
        """How many rows to use: all of them unless there are more than
        budget_rows or the remaining time is short."""
        frac = min(1.0, max(0.05, self.left() / (0.6 * self.time_limit)))
        return int(min(n_rows, max(1000, budget_rows * frac)))

    def subsample(self, n_rows, budget_rows, what="rows"):
        """Evenly spaced indices of at most scale(n_rows, budget_rows) rows
        (deterministic; keeps the data's order)."""
        k = self.scale(n_rows, budget_rows)
        if k >= n_rows:
            return list(range(n_rows))
        log(f"large data: using {k} of {n_rows} training {what}")
        return [i * n_rows // k for i in range(k)]

    # ---- paths --------------------------------------------------------------
    def path(self, *parts):
        return os.path.join(self.data_dir, *parts)

    def exists(self, *parts):
        return os.path.exists(self.path(*parts))

    def listdir(self, *parts):
        p = self.path(*parts)
        return sorted(os.listdir(p)) if os.path.isdir(p) else []

    def walk_files(self, *parts, ext=None):
        """All files under a data sub-directory, sorted, as paths relative to it."""
        root = self.path(*parts)
        out = []
        for d, dirs, files in os.walk(root):
            dirs.sort()
            for f in sorted(files):
                if ext is None or f.lower().endswith(ext):
                    out.append(os.path.relpath(os.path.join(d, f), root))
        return sorted(out)


# ---- archives ---------------------------------------------------------------

def read_member(path, member=None):
    """Bytes of one file: a plain file, or a member of a .zip/.7z archive
    (the first regular member, sorted by name, if member is None)."""
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            names = sorted(n for n in z.namelist() if not n.endswith("/"))
            name = member if member is not None else names[0]
            return z.read(name)
    if path.endswith(".7z"):
        import py7zr  # only statoil-iceberg-classifier-challenge ships its data (and sample) as .7z
        with py7zr.SevenZipFile(path) as z:
            files = z.read([member] if member is not None else None)
        name = member if member is not None else sorted(files)[0]
        return files[name].read()
    with open(path, "rb") as f:
        return f.read()


def read_csv(path, member=None, **kw):
    """pandas.read_csv of a plain file or of a (zipped/7z) member."""
    import pandas as pd
    if path.endswith(".zip") or path.endswith(".7z"):
        return pd.read_csv(io.BytesIO(read_member(path, member)), **kw)
    return pd.read_csv(path, **kw)


# ---- sample submission and writing --------------------------------------------

def sample_bytes(ctx):
    return read_member(ctx.sample_path)


def read_sample(ctx, **kw):
    import pandas as pd
    return pd.read_csv(io.BytesIO(sample_bytes(ctx)), **kw)


def write_bytes_atomic(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def write_fallback(ctx):
    """Write the sample submission (extracted if archived) as submission.csv:
    always valid, so the run ends with a submission whatever happens next."""
    os.makedirs(ctx.submission_dir, exist_ok=True)
    write_bytes_atomic(ctx.submission_path, sample_bytes(ctx))


def _write_model(ctx, data):
    global MODEL_WRITTEN
    write_bytes_atomic(ctx.submission_path, data)
    MODEL_WRITTEN = True


def write_df(ctx, df, **kw):
    """Write a DataFrame as the submission (atomically)."""
    buf = io.StringIO()
    df.to_csv(buf, index=False, lineterminator="\n", **kw)
    _write_model(ctx, buf.getvalue().encode("utf-8"))
    log(f"wrote submission.csv: {len(df)} rows x {df.shape[1]} columns")


def write_rows(ctx, header, rows):
    """Write rows with the csv module (minimal quoting)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    _write_model(ctx, buf.getvalue().encode("utf-8"))
    log(f"wrote submission.csv: {len(rows)} rows")


class NoModel(Exception):
    """Raised by a handler that has nothing better than the sample layout.
    With keep_submission=True the handler has already written a submission
    derived from the sample (e.g. the sample's rows with a training prior);
    otherwise the sample submission itself is restored."""

    def __init__(self, what, keep_submission=False):
        super().__init__(what)
        self.keep_submission = keep_submission
