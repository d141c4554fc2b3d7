#!/usr/bin/python3
"""Makes (once per machine, lock and compiler) the Dolos installation of
`mlebench audit` and prints its directory. Called by the dolos_repository
repository rule (repository.bzl); usable by hand:

    /usr/bin/python3 tools/dolos/install_dolos.py tools/dolos/package-lock.json \
        tools/dolos/dolos_similarity.mjs

What it installs, from the npm registry (MLEBENCH_NPM_REGISTRY, default
https://registry.npmjs.org; the lock's "resolved" URLs are never used, so the
lock cannot send a download elsewhere):

  - the packages that @dodona/dolos-lib needs at run time, at the lock's exact
    versions, each tarball checked against the lock's sha512 integrity before
    anything in it is read; no package's install script is run, and no npm;
  - of @dodona/dolos-parsers (19 tree-sitter grammars, 318 MB of generated C)
    only the Python grammar: `mlebench audit` compares Python files, as
    upstream's plagiarism detector does;
  - not the build tools the lock also names (node-gyp and what only it needs),
    nan and tree-sitter-compat: the grammar and the runtime use Node-API
    (node-addon-api), and tree-sitter-compat only adapts grammars of the old
    V8 API; node-api-headers (Node-API's C headers) is used to compile.

The two native modules, tree-sitter's runtime and the Python grammar, are
compiled here with Debian's gcc and g++ from the sources in those tarballs, as
their binding.gyp files say (node-gyp is not used: it needs Node 22 or a
download of Node's headers, and Debian's libnode-dev conflicts with other
Node packages some machines have). The prebuilt binaries tree-sitter ships are
left out (they need a newer libstdc++ than Debian 12's). Node-API modules work
with any Node >= 18 (Debian 12's nodejs is 18).

The result is checked (the wrapper compares a file with itself and with an
unrelated one) before it is marked complete. It lives in
${XDG_CACHE_HOME:-~/.cache}/mlebench/dolos/<digest of the lock, this script,
the wrapper, the registry and the compilers>; a half-made one is never used
(.complete is written last, under a lock concurrent builds share).
"""

import base64
import fcntl
import hashlib
import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request

GCC = "/usr/bin/gcc"
GXX = "/usr/bin/g++"
NODE = "/usr/bin/node"
# Packages of the lock that are never installed, and why.
LEFT_OUT = {
    "node-gyp": "a build tool; the native modules are compiled here",
    "nan": "for grammars on the old V8 API; the Python grammar uses Node-API",
    "tree-sitter-compat": "adapts grammars of the old V8 API; a no-op for Node-API ones",
}
# The Python grammar of @dodona/dolos-parsers: the files kept of that package.
PARSERS = "@dodona/dolos-parsers"
PARSERS_KEEP = re.compile(r"^(package\.json|LICENSE[^/]*|python/(LICENSE|src/.*|bindings/node/.*))$")
NAME = re.compile(r"^(@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*$")
VERSION = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$")
MAX_TARBALL_BYTES = 64 << 20


def fail(message):
    print("install_dolos: " + message, file=sys.stderr)
    sys.exit(1)


def read_lock(path):
    """The lock's packages as {install path: entry}, checked."""
    with open(path, encoding="utf-8") as f:
        lock = json.load(f)
    if lock.get("lockfileVersion") != 3:
        fail("%s: lockfileVersion must be 3 (npm 9 or later; update_lock.sh)" % path)
    packages = lock.get("packages", {})
    root = packages.get("", {})
    if "@dodona/dolos-lib" not in root.get("dependencies", {}):
        fail("%s does not depend on @dodona/dolos-lib" % path)
    for where, entry in packages.items():
        if where == "":
            continue
        name = where.rsplit("node_modules/", 1)[-1]
        if not where.startswith("node_modules/") or not NAME.match(name):
            fail("%s: odd package path %r" % (path, where))
        if entry.get("link") or not VERSION.match(entry.get("version", "")):
            fail("%s: %s must be a registry package at an exact version" % (path, where))
        if not entry.get("integrity", "").startswith("sha512-"):
            fail("%s: %s has no sha512 integrity" % (path, where))
    return packages


def resolve(packages, parent, name):
    """Where npm's layout puts `name` as required from `parent` (an install path)."""
    base = parent
    while True:
        candidate = (base + "/" if base else "") + "node_modules/" + name
        if candidate in packages:
            return candidate
        if not base:
            return None
        cut = base.rfind("/node_modules/")
        base = base[:cut] if cut >= 0 else ""


def runtime_closure(packages):
    """The install paths needed at run time: the root's dependencies and theirs, less LEFT_OUT."""
    needed, todo = set(), [("", n) for n in packages[""]["dependencies"]]
    while todo:
        parent, name = todo.pop()
        if name in LEFT_OUT:
            continue
        where = resolve(packages, parent, name)
        if where is None:
            fail("the lock has no package %s (needed by %s)" % (name, parent or "the root"))
        if where in needed:
            continue
        needed.add(where)
        entry = packages[where]
        for dep in list(entry.get("dependencies", {})) + list(entry.get("optionalDependencies", {})):
            todo.append((where, dep))
    return sorted(needed)


def download(url, integrity):
    algorithm, _, expected = integrity.partition("-")
    last = None
    for attempt in range(3):
        try:
            with urllib.request.urlopen(url, timeout=60) as response:
                data = response.read(MAX_TARBALL_BYTES + 1)
            break
        except OSError as e:  # URLError is an OSError
            last = e
            time.sleep(1 + 2 * attempt)
    else:
        fail("cannot download %s: %s" % (url, last))
    if len(data) > MAX_TARBALL_BYTES:
        fail("%s is larger than %d bytes" % (url, MAX_TARBALL_BYTES))
    actual = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if actual != expected:
        fail("%s: %s digest %s, the lock says %s" % (url, algorithm, actual, expected))
    return data


def extract(data, dest, keep=None):
    """Unpacks an npm tarball's regular files (first path component dropped) into dest.

    Links, devices and absolute or upward names are refused; compiled
    binaries (*.node) and prebuilt directories are dropped; `keep` (a regular
    expression over the inner path) selects files.
    """
    count = 0
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar:
            parts = member.name.split("/")
            inner = "/".join(parts[1:])
            if member.isdir() or not inner:
                continue
            if not member.isfile():
                fail("%s: %s is not a regular file" % (dest, member.name))
            if member.name.startswith("/") or ".." in parts or "" in parts[1:]:
                fail("%s: odd name %r" % (dest, member.name))
            if inner.endswith(".node") or "prebuilds" in parts:
                continue
            if keep is not None and not keep.match(inner):
                continue
            target = os.path.join(dest, inner)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with tar.extractfile(member) as src, open(target, "wb") as out:
                shutil.copyfileobj(src, out)
            os.chmod(target, 0o755 if member.mode & 0o111 else 0o644)
            count += 1
    return count


def compile_module(out, sources, includes, defines, work):
    """Compiles C and C++ sources into the Node-API module `out` (as node-gyp's Release)."""
    objects, jobs = [], []
    for i, source in enumerate(sources):
        obj = os.path.join(work, "%d.o" % i)
        objects.append(obj)
        if source.endswith(".c"):
            command = [GCC, "-std=c11"]
        else:
            command = [GXX, "-std=c++17", "-fexceptions", "-fvisibility=hidden",
                       "-Wno-cast-function-type"]
        command += ["-O2", "-fPIC", "-w"] + ["-I" + i for i in includes] + ["-D" + d for d in defines]
        jobs.append(subprocess.Popen(command + ["-c", source, "-o", obj], stderr=subprocess.PIPE,
                                     env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"}))
        if len(jobs) >= (os.cpu_count() or 1):
            wait_all(jobs)
            jobs = []
    wait_all(jobs)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    link = subprocess.run([GXX, "-shared", "-o", out] + objects, stderr=subprocess.PIPE,
                          env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"})
    if link.returncode != 0:
        fail("cannot link %s:\n%s" % (out, link.stderr.decode(errors="replace")))


def wait_all(jobs):
    for job in jobs:
        _, err = job.communicate()
        if job.returncode != 0:
            fail("compile failed: %s\n%s" % (" ".join(job.args), err.decode(errors="replace")))


def build(modules, work):
    napi = [os.path.join(modules, "node-addon-api"), os.path.join(modules, "node-api-headers", "include")]
    # Node-API version 8 (Node >= 12.22, 14.17, 16, 18); C++ exceptions, as
    # node-addon-api's node_addon_api_except target sets.
    defines = ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "BUILDING_NODE_EXTENSION"]
    # tree-sitter's sources include <node_object_wrap.h>, a header of Node's
    # V8 API that they do not use (their classes wrap Napi::ObjectWrap); it
    # is not among Node-API's headers, so a stand-in gives what it would
    # have brought in and used: <cassert>.
    stub = os.path.join(work, "stub")
    os.makedirs(stub)
    with open(os.path.join(stub, "node_object_wrap.h"), "w") as f:
        f.write("/* Stand-in for Node's V8-API header, unused by tree-sitter's Node-API sources. */\n"
                "#include <cassert>\n")
    ts = os.path.join(modules, "tree-sitter")
    lib = os.path.join(ts, "vendor", "tree-sitter", "lib")
    os.makedirs(os.path.join(work, "ts"))
    compile_module(
        os.path.join(ts, "build", "Release", "tree_sitter_runtime_binding.node"),
        [os.path.join(lib, "src", "lib.c")] + sorted(
            os.path.join(ts, "src", f) for f in os.listdir(os.path.join(ts, "src")) if f.endswith(".cc")),
        napi + [stub, os.path.join(lib, "include"), os.path.join(lib, "src")],
        defines + ["_POSIX_C_SOURCE=200112L", "_DEFAULT_SOURCE"],
        os.path.join(work, "ts"))
    python = os.path.join(modules, PARSERS, "python")
    os.makedirs(os.path.join(work, "python"))
    compile_module(
        os.path.join(modules, PARSERS, "build", "Release", "tree_sitter_python_binding.node"),
        [os.path.join(python, "bindings", "node", "binding.cc"),
         os.path.join(python, "src", "parser.c"), os.path.join(python, "src", "scanner.c")],
        napi + [os.path.join(python, "src")], defines, os.path.join(work, "python"))


def self_test(modules, wrapper):
    code = "def f(values):\n    total = 0\n    for v in values:\n        if v > 0:\n" \
           "            total += v * v\n    return total\n\nprint(f([1, 2, 3]))\n" * 4
    other = "class A:\n    pass\n\nx = [A() for _ in range(3)]\nprint(len(x))\n"
    request = {"references": [{"text": code}, {"text": other}], "submitted": [{"text": code}]}
    result = subprocess.run([NODE, wrapper, modules], input=json.dumps(request).encode(),
                            capture_output=True, timeout=120, env={"PATH": "/usr/bin:/bin"})
    if result.returncode != 0:
        fail("the self-test failed:\n" + result.stderr.decode(errors="replace"))
    pairs = {p["reference"]: p for p in json.loads(result.stdout)["pairs"]}
    if pairs.get(0, {}).get("similarity") != 1 or not pairs.get(1, {}).get("similarity", 0) < 0.5:
        fail("the self-test gave unexpected similarities: %s" % result.stdout.decode())


def tool_version(path):
    out = subprocess.run([path, "--version"], capture_output=True, text=True)
    return out.stdout.splitlines()[0] if out.returncode == 0 and out.stdout else "none"


def main():
    if len(sys.argv) != 3:
        fail("usage: install_dolos.py PACKAGE_LOCK WRAPPER")
    lock_path, wrapper = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    for tool in (GCC, GXX, NODE):
        if not os.access(tool, os.X_OK):
            fail("no %s: install Debian's gcc, g++ and nodejs (bazel/debian_packages.txt)" % tool)
    registry = os.environ.get("MLEBENCH_NPM_REGISTRY", "https://registry.npmjs.org").rstrip("/")
    packages = read_lock(lock_path)
    digest = hashlib.sha256()
    for path in (lock_path, __file__, wrapper):
        with open(path, "rb") as f:
            digest.update(f.read())
    for part in (registry, tool_version(GCC), tool_version(GXX)):
        digest.update(part.encode() + b"\0")
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                         "mlebench", "dolos")
    final = os.path.join(cache, digest.hexdigest()[:16])
    if os.path.exists(os.path.join(final, ".complete")):
        print(final)
        return
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, ".lock"), "w") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        if os.path.exists(os.path.join(final, ".complete")):
            print(final)
            return
        started = time.monotonic()
        print("install_dolos: installing Dolos from %s into %s" % (registry, final), file=sys.stderr)
        shutil.rmtree(final, ignore_errors=True)
        partial = final + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        try:
            install(packages, registry, partial, wrapper)
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
        os.rename(partial, final)
        open(os.path.join(final, ".complete"), "w").close()
        print("install_dolos: done in %.1f s" % (time.monotonic() - started), file=sys.stderr)
    print(final)


def install(packages, registry, partial, wrapper):
    """Downloads, unpacks, builds and checks the installation in `partial`."""
    modules = os.path.join(partial, "node_modules")
    installed = {}
    for where in runtime_closure(packages):
        entry = packages[where]
        name = where.rsplit("node_modules/", 1)[-1]
        url = "%s/%s/-/%s-%s.tgz" % (registry, name, name.split("/")[-1], entry["version"])
        data = download(url, entry["integrity"])
        extract(data, os.path.join(partial, where), PARSERS_KEEP if name == PARSERS else None)
        installed[where[len("node_modules/"):]] = entry["version"]
    with tempfile.TemporaryDirectory() as work:
        build(modules, work)
    self_test(modules, wrapper)
    # Bazel 4 cannot take a file name with a space as an input.
    for root, dirs, files in os.walk(partial):
        for f in dirs + files:
            if " " in f:
                fail("a file name with a space: %s" % os.path.join(root, f))
    with open(os.path.join(partial, "dolos.json"), "w") as f:
        json.dump({"dolos_lib": installed["@dodona/dolos-lib"], "packages": installed,
                   "left_out": LEFT_OUT, "registry": registry,
                   "compilers": [tool_version(GCC), tool_version(GXX)]}, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
