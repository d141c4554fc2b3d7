"""@mlebench_packages: the packages of the source tree, found by walking it.

Its packages.bzl defines PACKAGES (every package, "" for the root) and
PACKAGES_WITH_SOURCES (those with C++ sources of their own), which
bazel/layers.bzl derives the layers' visibility from and //bazel:layering_test
its inputs. Bazel 4.2.3 cannot watch a directory tree, so ./bazelw passes the
digest of the list (bazel/find_packages.py --digest) as MLEBENCH_PACKAGE_LIST:
the repository is made again whenever a package comes or goes.
"""

def _workspace_packages_impl(rctx):
    root = rctx.path(Label("//:WORKSPACE")).dirname
    script = rctx.path(Label("//bazel:find_packages.py"))
    result = rctx.execute(["/usr/bin/python3", str(script), "--bzl", str(root)])
    if result.return_code != 0:
        fail("bazel/find_packages.py failed on %s:\n%s" % (root, result.stderr))
    rctx.file("packages.bzl", result.stdout)
    rctx.file("BUILD.bazel", 'exports_files(["packages.bzl"])\n')

workspace_packages = repository_rule(
    implementation = _workspace_packages_impl,
    environ = ["MLEBENCH_PACKAGE_LIST"],
    doc = "Writes packages.bzl with the source tree's packages (bazel/find_packages.py).",
)
