"""Dolos for `mlebench audit`: `dolos_repository`, a repository rule.

In WORKSPACE:

    load("//tools/dolos:repository.bzl", "dolos_repository")

    dolos_repository(name = "mlebench_dolos")

Its target `@mlebench_dolos//:dolos` holds node_modules/ (@dodona/dolos-lib and
what it needs at run time, with tree-sitter's runtime and the Python grammar
compiled for this machine), dolos.json (what is installed) and STATUS. The
installation is made once per machine, lock and compiler by install_dolos.py
(from npm, every package checked against the lock's sha512) in
${XDG_CACHE_HOME:-~/.cache}/mlebench/dolos/<digest>, and reused by every
checkout; the repository links to it.

When it cannot be made (npm unreachable, no compiler), the repository is still
made, with STATUS saying why and no node_modules/: the rest of the project
builds, `mlebench audit` without references works, and with references it
prints that reason. After fixing it: `./bazelw sync --only=mlebench_dolos`.
"""

_BUILD = """\
filegroup(
    name = "dolos",
    srcs = glob(["STATUS", "dolos.json", "node_modules/**"]),
    visibility = ["//visibility:public"],
)
"""

def _dolos_repository_impl(rctx):
    lock = rctx.path(rctx.attr.lock)
    installer = rctx.path(Label("//tools/dolos:install_dolos.py"))
    wrapper = rctx.path(Label("//tools/dolos:dolos_similarity.mjs"))
    rctx.report_progress("making or finding the Dolos installation of %s" % rctx.attr.lock)
    result = rctx.execute(
        ["/usr/bin/python3", "-I", str(installer), str(lock), str(wrapper)],
        timeout = 1800,
    )
    status = "ok\n"
    if result.return_code != 0:
        status = "unavailable: install_dolos.py failed:\n" + result.stderr
    else:
        copied = rctx.execute(
            [
                "/bin/sh",
                "-c",
                'cp -al "$1/node_modules" node_modules 2>/dev/null || ' +
                '{ rm -rf node_modules; cp -a "$1/node_modules" node_modules; } && ' +
                'cp "$1/dolos.json" dolos.json',
                "sh",
                result.stdout.strip(),
            ],
            timeout = 600,
        )
        if copied.return_code != 0:
            status = "unavailable: cannot copy %s into the repository: %s" % (
                result.stdout.strip(),
                copied.stderr,
            )
    if status != "ok\n":
        # buildifier: disable=print
        print("Dolos (for `mlebench audit` with references) is not available: " + status)
    rctx.file("STATUS", status)
    rctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % rctx.name)
    rctx.file("BUILD.bazel", _BUILD)

dolos_repository = repository_rule(
    implementation = _dolos_repository_impl,
    doc = "Dolos (@dodona/dolos-lib) for `mlebench audit`, installed once per machine from " +
          "the lock with integrity checks by install_dolos.py and hard-linked (or copied) " +
          "into this repository's node_modules/. STATUS says `ok` or why it is unavailable.",
    attrs = {
        "lock": attr.label(
            default = "//tools/dolos:package-lock.json",
            allow_single_file = True,
            doc = "An npm package-lock.json (v3) made by update_lock.sh.",
        ),
    },
    environ = ["HOME", "MLEBENCH_NPM_REGISTRY", "XDG_CACHE_HOME"],
)
