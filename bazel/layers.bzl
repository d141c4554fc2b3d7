"""The project's layers, lowest first: the one source of who may use whom.

    bazel           the build machinery every BUILD file loads: rules, build
                    settings, precompiled headers, fuzzing and sanitizer
                    configurations, repository rules, these layers
    base            tables, CSV, files, UTF-8, JSON text, flags, status macros
    formats         archives and file formats (zip, tar, 7z, Parquet, npy, ...)
    pycompat        Python, numpy, pandas and scikit-learn behaviour
    outcome         a grade's outcome (grading/outcome.*: what metrics return)
    metrics         the metrics, by family (grading/metrics/)
    grading         the grader framework, reports, medals, gating
    synthetic       the synthetic-data generators' framework, random source and
                    file writers (JPEG, PNG, WAV, DICOM, ...)
    agent_runner    the sandboxed agent run (uses base only)
    competitions/common    the preparer, grader and generator mains and their
                           precompiled headers
    competitions/families  code shared by a family of competitions
    competitions/<id>      one package per competition
    tools           the CLI and the whole-project tests

Both checks of the order are derived from LAYERS below, so they cannot
disagree:
- Bazel's visibility: each package's BUILD file sets
  `package(default_visibility = layer_visibility())`: the packages whose layer
  may use its own. A dependency on a layer that is not below fails the build.
- The include check (//bazel:layering_test, bazel/layering_check.py, which
  reads this table through the `layer_table` rule): no source file includes a
  header of a layer its own may not use.

Packages are found, not listed: @mlebench_packages (packages_repository.bzl,
made again by ./bazelw whenever a package comes or goes) holds every package of
the tree. A package belongs to the layer with the longest path that holds it;
a package in no layer fails its BUILD file's loading. A package with C++
sources of its own must call layer_sources(), or //bazel:layering_test does not
build: so a new package is checked the moment it exists.
"""

load("@mlebench_packages//:packages.bzl", "PACKAGES")

def _layer(name, paths, uses):
    return struct(name = name, paths = paths, uses = uses)

_BELOW_GRADING = ["base", "formats", "pycompat", "outcome", "metrics"]
_BELOW_COMPETITIONS = _BELOW_GRADING + ["grading", "synthetic", "agent_runner"]

# Lowest first. `paths`: directories (ending in "/") or file-name prefixes
# ("grading/outcome." is a layer of two files inside //grading); "" is the
# root package. `uses`: every layer it may use besides itself and "bazel",
# which every layer may use; only layers listed before it.
LAYERS = [
    _layer("bazel", ["", "bazel/", "third_party/"], []),
    _layer("base", ["base/"], []),
    _layer("formats", ["formats/"], ["base"]),
    _layer("pycompat", ["pycompat/"], ["base"]),
    _layer("outcome", ["grading/outcome."], []),
    _layer("metrics", ["grading/metrics/"], ["base", "pycompat", "outcome"]),
    _layer("grading", ["grading/"], _BELOW_GRADING),
    _layer("synthetic", ["synthetic/"], ["base", "formats", "pycompat"]),
    _layer("agent_runner", ["agent_runner/"], ["base"]),
    _layer("competitions_common", ["competitions/common/"], _BELOW_GRADING + ["grading", "synthetic"]),
    _layer("families", ["competitions/families/"], _BELOW_COMPETITIONS + ["competitions_common"]),
    _layer(
        "competition",
        ["competitions/"],
        _BELOW_COMPETITIONS + ["competitions_common", "families"],
    ),
    _layer(
        "tools",
        ["tools/"],
        _BELOW_COMPETITIONS + ["competitions_common", "families", "competition"],
    ),
]

def _check_order():
    seen = {}
    for layer in LAYERS:
        for used in layer.uses:
            if used not in seen:
                fail("bazel/layers.bzl: layer %s uses %s, which is not below it" %
                     (layer.name, used))
        seen[layer.name] = True

_check_order()

def _matches(path, prefix):
    if prefix == "":
        return path == ""
    return path.startswith(prefix)

def layer_of_path(path):
    """The layer (a struct of LAYERS) of a file or package path, or None.

    Args:
      path: a file's path from the workspace root, or a package's path with a
        trailing "/" ("" for the root package).
    """
    best = None
    best_length = -1
    for layer in LAYERS:
        for prefix in layer.paths:
            if _matches(path, prefix) and len(prefix) > best_length:
                best = layer
                best_length = len(prefix)
    return best

def _package_path(package):
    return package + "/" if package else ""

def _may_use(user, used):
    return used == user.name or used == "bazel" or used in user.uses

def _visibility_of(name):
    if all([_may_use(layer, name) for layer in LAYERS]):
        return ["//visibility:public"]

    # Each package whose layer may use `name`; a whole subtree as one
    # `__subpackages__` where every package in it, and every layer path below
    # it (a package to come), may use it.
    users = {}
    for package in PACKAGES:
        layer = layer_of_path(_package_path(package))
        if layer and _may_use(layer, name):
            users[package] = True
    visibility = []
    for package in PACKAGES:
        if package not in users:
            continue
        parent = package
        covered = False
        for _ in range(package.count("/") + 1):
            parent = parent.rpartition("/")[0] if "/" in parent else ""
            if parent and parent in users and _whole_subtree_uses(parent, users, name):
                covered = True
                break
        if covered:
            continue
        if package and _whole_subtree_uses(package, users, name):
            visibility.append("//%s:__subpackages__" % package)
        else:
            visibility.append("//%s:__pkg__" % package)
    return visibility

def _whole_subtree_uses(package, users, name):
    prefix = package + "/"
    for other in PACKAGES:
        if other.startswith(prefix) and other not in users:
            return False
    for layer in LAYERS:
        if _may_use(layer, name):
            continue
        for path in layer.paths:
            if path.startswith(prefix):
                return False
    return True

# Each layer's visibility, derived once when this file is loaded (Bazel loads
# a .bzl once), not again by every BUILD file that asks.
_VISIBILITY = {layer.name: _visibility_of(layer.name) for layer in LAYERS}

def layer_visibility(layer = None):
    """The visibility that lets exactly the layers that may use a layer see it.

    Args:
      layer: a layer's name; by default the layer of the package whose BUILD
        file calls this (for `package(default_visibility = ...)`).

    Returns:
      A visibility list: the packages (of the tree as it is now) whose layer
      may use it, or public for a layer that every layer may use.
    """
    if layer == None:
        package = native.package_name()
        found = layer_of_path(_package_path(package))
        if found == None:
            fail(("package //%s is in no layer of bazel/layers.bzl: add its path to " +
                  "the layer it belongs to") % package)
        layer = found.name
    if layer not in _VISIBILITY:
        fail("bazel/layers.bzl has no layer %s" % layer)
    return _VISIBILITY[layer]

def test_support_visibility():
    """The visibility of a test helper that the tests of any layer may use.

    The include check lets a test file include test helpers of any layer
    (base/testing, a grader's test helpers, synthetic/'s random source), so
    their targets are public; production code of a lower layer that includes
    one is still a violation there.
    """
    return ["//visibility:public"]

def layer_sources():
    """Declares `:sources`, the package's C++ sources for //bazel:layering_test.

    Every package with .cc, .h or .inc files of its own calls it (the test names
    `//<package>:sources` for each such package that @mlebench_packages finds).
    """
    native.filegroup(
        name = "sources",
        srcs = native.glob(["**/*.cc", "**/*.h", "**/*.inc"]),
        visibility = ["//bazel:__pkg__"],
    )

def _layer_table_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".json")
    ctx.actions.write(out, json.encode({
        "layers": [
            {"name": layer.name, "paths": layer.paths, "uses": layer.uses + ["bazel"]}
            for layer in LAYERS
        ],
        # For the test that holds the derived visibility against the table.
        "packages": PACKAGES,
        "visibility": _VISIBILITY,
    }))
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

layer_table = rule(
    implementation = _layer_table_impl,
    doc = "Writes LAYERS as JSON (`<name>.json`) for bazel/layering_check.py, with " +
          "the packages found and each layer's derived visibility.",
)
