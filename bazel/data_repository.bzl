"""The `@mlebench_data` repository: where real data and upstream's files are.

Two environment variables, passed with `--repo_env` (or set in the shell
Bazel starts from), switch the build from synthetic data to real data:

  MLEBENCH_DATA_DIR   a data dir in upstream's layout
                      (<dir>/<id>/raw/..., <dir>/<id>/<id>.zip,
                      <dir>/<id>/prepared/{public,private}); every competition
                      then prepares from it, or takes its prepared data as is.
  MLEBENCH_REPO_DIR   a checkout of upstream's repository (openai/mle-bench);
                      each competition then uses its leaderboard.csv (medal
                      thresholds), description.md (what the agent reads) and
                      checksums.yaml (checked against the prepared data).

Nothing from either directory is copied into this repository: the data is
read in place by the build's actions, and upstream's files are symlinked into
the external repository, where Bazel hashes them like any other source file.

A third variable says how the actions get at the data:

  MLEBENCH_DATA_INPUTS  `in_place` (the default) or `content`.

In place, the data itself is never a Bazel input (terabytes would be hashed).
Instead, when this repository is fetched, each competition's data is
*scanned* (file names, sizes and mtimes; no reading) into scans/<id>.txt, the
cache key of its prepare step, and the actions read the data dir by its
absolute path, so every machine that runs them (remote executors included)
must see the data dir at that path. Bazel refetches this repository when a
variable changes, and on `bazel sync --only=mlebench_data`; in between, each
competition's test checks that prepared/ still matches what was graded and
fails, asking for that sync, when it does not.

By content, each competition's files become source files of the package
content/<id> of this repository (a symlink to what the prepare step reads:
prepared/ when it holds anything, else raw/, else the Kaggle zip, and one
label per file), so that Bazel hashes them, a remote executor gets them from
the CAS (uploaded once: a blob the CAS holds is never sent again) and the
actions read them by relative path in their input root. No data dir is
needed where the actions run. The file list is taken when this repository is
fetched (a changed file's bytes Bazel notices by itself; an added or removed
file needs the sync). A competition whose files Bazel cannot name (a name
with a control character, ':' or '\\', one that is not UTF-8, or not ASCII
while Bazel runs without a UTF-8 locale, or a file named BUILD or
BUILD.bazel) gets an error instead, which fails its own targets only. See
docs/architecture.md, "Real data".
"""

# MLEBENCH_DATA_INPUTS's values.
_IN_PLACE = "in_place"
_CONTENT = "content"

def _absolute_dir(rctx, variable):
    path = rctx.os.environ.get(variable, "")
    if path == "":
        return ""
    if not path.startswith("/"):
        fail("%s must be an absolute path, got %r" % (variable, path))
    if not rctx.path(path).exists:
        fail("%s=%s does not exist" % (variable, path))
    return path.rstrip("/") or "/"

def _listing(rctx, path):
    """Sorted 'relative path<TAB>size<TAB>mtime' lines of the files under path."""
    result = rctx.execute(["find", "-L", path, "-type", "f", "-printf", "%P\t%s\t%T@\n"])
    if result.return_code != 0:
        fail("cannot list %s: %s" % (path, result.stderr))
    return sorted([line for line in result.stdout.split("\n") if line])

def _scan(rctx, competition_dir):
    """The cache key of one competition's data: what its prepare step reads.

    prepared/ when it holds anything (it is then taken as is), else raw/ and
    the Kaggle zip. Stat only, no reading: cheap even for terabytes. None when
    there is no data.
    """
    prepared = rctx.path(competition_dir + "/prepared")
    if prepared.exists and prepared.readdir():
        return "prepared\n" + "".join([l + "\n" for l in _listing(rctx, str(prepared))])
    raw = rctx.path(competition_dir + "/raw")
    zip = rctx.path("%s/%s.zip" % (competition_dir, competition_dir.split("/")[-1]))
    if not raw.exists and not zip.exists:
        return None
    text = "raw\n"
    if raw.exists:
        text += "".join([l + "\n" for l in _listing(rctx, str(raw))])
    if zip.exists:
        text += "zip\n" + "".join([l + "\n" for l in _listing(rctx, str(zip))])
    return text

def _find(rctx, args):
    """Runs find in the C locale: (sorted output lines, or None; error text, or None)."""
    result = rctx.execute(["find"] + args, environment = {"LC_ALL": "C"})
    if result.return_code != 0:
        return None, (result.stderr.strip() or "find exited with %d" % result.return_code)
    return sorted([line for line in result.stdout.split("\n") if line]), None

# Prints, NUL-separated, the names under $1 that cannot be Bazel labels:
# control characters, ':' or '\\' (Bazel's rule for target names), a file named
# BUILD or BUILD.bazel (it would start a package of its own), and names that
# are not UTF-8 (Bazel 4 cannot open such files: "missing input file").
_UNNAMEABLE_SCRIPT = """
find -L "$1" -mindepth 1 '(' -name '*[[:cntrl:]:\\\\]*' -o -type f '(' -name BUILD -o \\
    -name BUILD.bazel ')' ')' -printf '%P\\0' || exit 2
find -L "$1" -mindepth 1 -printf '%P\\n' | LC_ALL=C.UTF-8 grep -axv '.*' | tr '\\n' '\\0'
exit 0
"""

# Prints, NUL-separated, the names under $1 with a byte outside printable
# ASCII.
_NON_ASCII_SCRIPT = """
find -L "$1" -mindepth 1 -printf '%P\\n' | LC_ALL=C grep -a '[^ -~]' | tr '\\n' '\\0'
exit 0
"""

def _utf8_locale(rctx):
    """Whether Bazel runs in a UTF-8 locale (as its environment says)."""
    env = rctx.os.environ
    locale = env.get("LC_ALL", "") or env.get("LC_CTYPE", "") or env.get("LANG", "")
    return "utf-8" in locale.lower() or "utf8" in locale.lower()

def _names(rctx, script, root):
    """The NUL-separated names script prints for root, sorted; or an error text."""
    result = rctx.execute(["/bin/sh", "-c", script, "sh", root], environment = {"LC_ALL": "C"})
    if result.return_code != 0:
        return None, "cannot list %s: %s" % (root, result.stderr.strip())
    return sorted({n: None for n in result.stdout.split("\0") if n}.keys()), None

def _shown(names):
    return ", ".join([repr(n) for n in names[:5]]) + (" and more" if len(names) > 5 else "")

def _unnameable(rctx, root):
    """Error text naming what under root Bazel cannot turn into labels, or None."""
    names, error = _names(rctx, _UNNAMEABLE_SCRIPT, root)
    if error:
        return error
    if not names and not _utf8_locale(rctx):
        # Bazel 4 opens files by Java's file name encoding, which follows the
        # locale it started in: without UTF-8, a non-ASCII name is a missing
        # input (or an internal error).
        names, error = _names(rctx, _NON_ASCII_SCRIPT, root)
        if error:
            return error
        if names:
            return ("%d file or directory name(s) under %s are not ASCII: %s. Bazel reads " +
                    "such names only when it runs in a UTF-8 locale, and its environment " +
                    "says none (LC_ALL, LC_CTYPE, LANG): run `bazel shutdown`, then Bazel " +
                    "again with e.g. LANG=C.UTF-8 in its environment; or rename them, or " +
                    "use MLEBENCH_DATA_INPUTS=in_place.") % (len(names), root, _shown(names))
    if not names:
        return None
    return ("%d file or directory name(s) under %s cannot be Bazel labels, which " +
            "MLEBENCH_DATA_INPUTS=content makes of every data file: %s. Labels may " +
            "not hold control characters, ':' or '\\', names must be UTF-8, and a file " +
            "named BUILD or BUILD.bazel would split the package. Rename them (then run " +
            "`bazel sync --only=mlebench_data`), or use MLEBENCH_DATA_INPUTS=in_place, " +
            "which reads the data dir by its path.") % (
        len(names),
        root,
        _shown(names),
    )

def _content_package(rctx, data_dir, competition_id):
    """Content mode: the package content/<id> for one competition's data.

    Returns struct(kind, error): kind is what the prepare step reads
    ("prepared", "raw" or "zip"; None without data), error a reason the
    competition's files cannot be inputs (or None).
    """
    competition_dir = "%s/%s" % (data_dir, competition_id)
    package = "content/%s" % competition_id
    prepared = rctx.path(competition_dir + "/prepared")
    raw = rctx.path(competition_dir + "/raw")
    zip_name = competition_id + ".zip"
    zip = rctx.path("%s/%s" % (competition_dir, zip_name))
    if prepared.exists and prepared.readdir():
        kind, entry = "prepared", "prepared"
    elif raw.exists:
        kind, entry = "raw", "raw"
    elif zip.exists:
        kind, entry = "zip", zip_name
    else:
        return struct(kind = None, error = None)
    root = "%s/%s" % (competition_dir, entry)
    error = None
    files = [entry]
    if kind != "zip":
        error = _unnameable(rctx, root)
        if not error:
            # Regular files, symlinks followed (a symlink's target's bytes are
            # the input); dangling symlinks, FIFOs and sockets are no data.
            listed, find_error = _find(rctx, ["-L", root, "-type", "f", "-printf", "%P\n"])
            if find_error:
                error = "cannot list %s: %s" % (root, find_error)
            else:
                files = ["%s/%s" % (entry, f) for f in listed]
    if error:
        rctx.file(
            package + "/BUILD.bazel",
            content = "# Generated by //bazel:data_repository.bzl: no labels (%s)\n" %
                      error.replace("\n", " "),
        )
        return struct(kind = kind, error = error)
    rctx.symlink(root, "%s/%s" % (package, entry))
    groups = {}
    if kind == "prepared":
        groups = {"public": [], "private": [], "other": []}
        for f in files:
            part = f.split("/")[1] if f.count("/") > 1 else ""
            groups[part if part in ["public", "private"] else "other"].append(f)
    else:
        groups = {"raw": files}
    lines = [
        "# Generated by //bazel:data_repository.bzl: the files of %s, one label each." % root,
        "# Only the competition's own package may read them (they hold the answers).",
        "package(default_visibility = [%r])" % ("@//competitions/%s:__pkg__" % competition_id),
        "",
    ]
    for name in sorted(groups):
        lines.append("filegroup(")
        lines.append("    name = %r," % name)
        lines.append("    srcs = [")
        lines.extend(["        %r," % f for f in groups[name]])
        lines.append("    ],")
        lines.append(")")
        lines.append("")
    # Bazel holds the names find printed as one char per byte; written back
    # byte for byte (not re-encoded as UTF-8), non-ASCII names stay the
    # files' names.
    rctx.file(package + "/BUILD.bazel", content = "\n".join(lines), legacy_utf8 = False)
    return struct(kind = kind, error = None)

def _mlebench_data_impl(rctx):
    data_dir = _absolute_dir(rctx, "MLEBENCH_DATA_DIR")
    repo_dir = _absolute_dir(rctx, "MLEBENCH_REPO_DIR")
    data_inputs = rctx.os.environ.get("MLEBENCH_DATA_INPUTS", "") or _IN_PLACE
    if data_inputs not in [_IN_PLACE, _CONTENT]:
        fail(("MLEBENCH_DATA_INPUTS must be %r (actions read the data dir by its path; the " +
              "default) or %r (the data files are Bazel inputs, for remote execution " +
              "without a shared data dir), got %r") % (_IN_PLACE, _CONTENT, data_inputs))
    exports = ["config.bzl"]
    upstream = []
    if repo_dir:
        competitions = repo_dir + "/mlebench/competitions"
        if not rctx.path(competitions).exists:
            fail("MLEBENCH_REPO_DIR=%s is not a checkout of openai/mle-bench (no %s)" %
                 (repo_dir, competitions))
        rctx.symlink(competitions, "upstream")
        for entry in rctx.path(competitions).readdir():
            for name in ["leaderboard.csv", "description.md", "checksums.yaml"]:
                if entry.get_child(name).exists:
                    upstream.append("%s/%s" % (entry.basename, name))
    scanned = []
    content = {}
    content_errors = {}
    if data_dir and data_inputs == _IN_PLACE:
        for entry in rctx.path(data_dir).readdir():
            text = _scan(rctx, str(entry))
            if text != None:
                rctx.file("scans/%s.txt" % entry.basename, content = text)
                scanned.append(entry.basename)
    elif data_dir:
        for entry in rctx.path(data_dir).readdir():
            package = _content_package(rctx, data_dir, entry.basename)
            if package.kind:
                scanned.append(entry.basename)
                content[entry.basename] = package.kind
            if package.error:
                content_errors[entry.basename] = package.error
    rctx.file("config.bzl", content = "\n".join([
        '"""Generated by //bazel:data_repository.bzl from the environment."""',
        "",
        "# MLEBENCH_DATA_DIR, or \"\" for synthetic data.",
        "DATA_DIR = %r" % data_dir,
        "# MLEBENCH_REPO_DIR, or \"\" for the embedded thresholds and our descriptions.",
        "REPO_DIR = %r" % repo_dir,
        "# Upstream's per-competition files present in REPO_DIR: \"<id>/<file>\".",
        "UPSTREAM_FILES = %r" % sorted(upstream),
        "# How actions get at the data: \"in_place\" (by DATA_DIR's path) or \"content\"",
        "# (its files are inputs, under content/<id>/; MLEBENCH_DATA_INPUTS).",
        "DATA_INPUTS = %r" % data_inputs,
        "# Competitions with data in DATA_DIR when this repository was last fetched.",
        "SCANNED = %r" % sorted(scanned),
        "# Content mode: what each competition's package content/<id> holds, the files of",
        "# \"prepared\" (filegroups public, private, other), \"raw\" or \"zip\" (filegroup raw).",
        "CONTENT = %r" % {k: content[k] for k in sorted(content)},
        "# Content mode: why a competition's files cannot be inputs (its targets fail with it).",
        "CONTENT_ERRORS = %r" % {k: content_errors[k] for k in sorted(content_errors)},
        "",
    ]))
    rctx.file("BUILD.bazel", content = "\n".join([
        "# Generated by //bazel:data_repository.bzl.",
        "package(default_visibility = [\"//visibility:public\"])",
        "",
        "exports_files(%r)" % (exports + ["upstream/" + f for f in sorted(upstream)] +
                               ["scans/%s.txt" % c for c in sorted(scanned)]),
        "",
    ]))

mlebench_data = repository_rule(
    implementation = _mlebench_data_impl,
    doc = "Reads MLEBENCH_DATA_DIR, MLEBENCH_DATA_INPUTS and MLEBENCH_REPO_DIR (see the " +
          "module docstring).",
    environ = ["MLEBENCH_DATA_DIR", "MLEBENCH_DATA_INPUTS", "MLEBENCH_REPO_DIR"],
    local = True,
)
