"""Root file systems for agents: `debian_rootfs` and `local_rootfs`, repository rules.

An agent that brings its own system (its Python, its system libraries: what a
container image holds) names one as mle_agent's `rootfs`. In WORKSPACE:

    load("//agent_runner/rootfs:rootfs.bzl", "debian_rootfs", "local_rootfs")

    debian_rootfs(                    # made with Debian's mmdebstrap, once per machine
        name = "my_agent_rootfs",
        packages = ["python3", "python3-numpy"],
    )

    local_rootfs(                     # a directory, or a `docker export` archive
        name = "my_image_rootfs",
        path = "/srv/images/my-agent.tar",
    )

then `rootfs = "@my_agent_rootfs"` on an mle_agent (//agent_runner:defs.bzl). The
repository holds the system in rootfs/ and its manifest (rootfs.manifest,
agent_runner/rootfs.h), which is all Bazel sees of it: an input of the agent
action and of the agent's digest. See docs/agents.md, "Agents that bring a root
file system".
"""

_BUILD = """\
load("@//agent_runner:defs.bzl", "agent_rootfs")

agent_rootfs(
    name = "{name}",
    manifest = "rootfs.manifest",
    description = "{description}",
    visibility = ["//visibility:public"],
)
"""

def _finish(rctx, description):
    rctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % rctx.name)
    rctx.file("BUILD.bazel", _BUILD.format(name = rctx.name, description = description))

def _debian_rootfs_impl(rctx):
    script = rctx.path(Label("//agent_runner/rootfs:make_debian_rootfs.sh"))
    rctx.path(Label("//agent_runner/rootfs:rootfs_manifest.py"))  # watched: the script runs it
    mirror = rctx.os.environ.get("MLEBENCH_DEBIAN_MIRROR", rctx.attr.mirror)
    packages = ",".join(rctx.attr.packages)
    rctx.report_progress("making or finding the root file system %s (mmdebstrap)" % rctx.name)
    result = rctx.execute(
        [str(script), rctx.attr.suite, rctx.attr.variant, mirror, packages, rctx.name],
        timeout = 3600,
    )
    if result.return_code != 0:
        fail("cannot make the root file system %s:\n%s" % (rctx.name, result.stderr))
    made = result.stdout.strip()

    # The repository holds the system itself, as hard links to the machine's
    # copy (a copy where they cannot be made): the runner binds only
    # directories inside the agent's allowed roots (external repositories
    # among them).
    copied = rctx.execute(
        ["/bin/sh", "-c", 'cp -al "$1/rootfs" rootfs 2>/dev/null || { rm -rf rootfs; cp -a "$1/rootfs" rootfs; }' +
                          ' && cp "$1/rootfs.manifest" rootfs.manifest', "sh", made],
        timeout = 3600,
    )
    if copied.return_code != 0:
        fail("cannot copy the root file system %s into the repository %s: %s" % (
            made,
            rctx.name,
            copied.stderr,
        ))
    _finish(rctx, "Debian %s (%s) with %s, made by mmdebstrap" % (
        rctx.attr.suite,
        rctx.attr.variant,
        packages or "nothing else",
    ))

debian_rootfs = repository_rule(
    implementation = _debian_rootfs_impl,
    doc = "A Debian root file system for an agent, made with Debian's mmdebstrap " +
          "(agent_runner/rootfs/make_debian_rootfs.sh) once per machine and recipe in " +
          "${XDG_CACHE_HOME:-~/.cache}/mlebench/rootfs/<digest> and hard-linked (or copied) " +
          "into this repository's rootfs/, with its manifest. Its target `@<name>` is an " +
          "`agent_rootfs` for mle_agent's `rootfs`. --repo_env=MLEBENCH_DEBIAN_MIRROR=URL " +
          "takes the packages from another mirror.",
    attrs = {
        "suite": attr.string(default = "bookworm", doc = "The Debian release."),
        "variant": attr.string(
            default = "essential",
            values = ["essential", "apt", "minbase", "buildd", "required", "important", "standard"],
            doc = "mmdebstrap's variant: essential is Debian's Essential packages only " +
                  "(about 40 MB); the others add more.",
        ),
        "packages": attr.string_list(
            doc = "Packages to install besides the variant's (with their dependencies).",
        ),
        "mirror": attr.string(
            default = "http://deb.debian.org/debian",
            doc = "Where the packages come from.",
        ),
    },
    environ = ["HOME", "MLEBENCH_DEBIAN_MIRROR", "XDG_CACHE_HOME"],
)

def _local_rootfs_impl(rctx):
    path = rctx.path(rctx.attr.path)
    if not path.exists:
        fail("local_rootfs %s: %s does not exist" % (rctx.name, rctx.attr.path))
    manifest = rctx.path(Label("//agent_runner/rootfs:rootfs_manifest.py"))

    # Only what the sandbox binds, with the user's ownership: no device
    # nodes, nothing the user could not remove again.
    script = """
set -eu
src="$1"
mkdir rootfs
if [ -d "$src" ]; then
  for entry in usr bin sbin lib lib32 lib64 libx32 etc opt; do
    if [ -e "$src/$entry" ] || [ -L "$src/$entry" ]; then
      cp -R --preserve=mode,links,timestamps "$src/$entry" rootfs/
    fi
  done
else
  tar -x -p --no-same-owner -f "$src" -C rootfs --wildcards --no-wildcards-match-slash \\
    --exclude='dev/*' --exclude='./dev/*' --exclude='proc/*' --exclude='./proc/*' \\
    --exclude='sys/*' --exclude='./sys/*'
  for entry in rootfs/* rootfs/.[!.]*; do
    case "${entry#rootfs/}" in
      usr|bin|sbin|lib|lib32|lib64|libx32|etc|opt) ;;
      *) if [ -e "$entry" ] || [ -L "$entry" ]; then chmod -R u+rwX "$entry" 2>/dev/null || true; rm -rf "$entry"; fi ;;
    esac
  done
fi
/usr/bin/python3 -I -S "$2" rootfs > rootfs.manifest
"""
    result = rctx.execute(["/bin/sh", "-c", script, "sh", str(path), str(manifest)], timeout = 3600)
    if result.return_code != 0:
        fail("local_rootfs %s: cannot take %s: %s" % (rctx.name, rctx.attr.path, result.stderr))
    _finish(rctx, "the root file system of %s" % rctx.attr.path)

local_rootfs = repository_rule(
    implementation = _local_rootfs_impl,
    doc = "An agent's root file system from a directory or a tar archive on this machine, " +
          "e.g. a container image's, made with `docker export` or `podman export`. Its " +
          "usr, bin, sbin, lib*, etc and opt are copied into this repository's rootfs/, with " +
          "the user's ownership, and its manifest written. It is taken when the repository " +
          "is fetched: after changing it, `./bazelw sync --only=<name>`.",
    attrs = {
        "path": attr.string(
            mandatory = True,
            doc = "An absolute path: a directory, or a tar archive of one.",
        ),
    },
)
