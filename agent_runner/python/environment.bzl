"""Locked Python environments for agents: `python_environment`, a repository rule.

In WORKSPACE:

    load("//agent_runner/python:environment.bzl", "python_environment")

    python_environment(
        name = "my_agent_python",
        lock = "//my_agent:requirements.lock",
    )

then `environment = "@my_agent_python"` on an `mle_agent` (//agent_runner:defs.bzl).
The lock names exact versions and hashes (tools/python/update_lock.sh makes one
from a requirements.in). The environment is made once per machine, lock and
interpreter by make_environment.sh in the user's cache, and reused by every
checkout; the repository links to it. See docs/agents.md.
"""

_BUILD = """\
load("@//agent_runner:defs.bzl", "agent_environment")

agent_environment(
    name = "{name}",
    srcs = glob(["env/**"], exclude = ["env/.complete"]),
    marker = "env/.mlebench-environment-digest",
    description = "Python environment of {lock}",
    mount_point = "/opt/mlebench/python",
    path = ["bin"],
    visibility = ["//visibility:public"],
)
"""

def _python_environment_impl(rctx):
    lock = rctx.path(rctx.attr.lock)
    script = rctx.path(Label("//agent_runner/python:make_environment.sh"))
    rctx.path(Label("//agent_runner/python:check_lock.py"))  # watched: the script runs it
    rctx.report_progress("making or finding the locked Python environment of %s" % rctx.attr.lock)
    result = rctx.execute(
        [str(script), str(lock), str(rctx.attr.lock)],
        timeout = 3600,
    )
    if result.return_code != 0:
        fail("cannot make the Python environment %s from %s:\n%s" % (
            rctx.name,
            rctx.attr.lock,
            result.stderr,
        ))
    env = result.stdout.strip()

    # The repository holds the environment itself, as hard links to the
    # machine's copy (a copy where they cannot be made): the sandbox binds
    # only directories inside the agent's allowed roots (external
    # repositories among them), never one elsewhere on the host.
    copied = rctx.execute(
        ["/bin/sh", "-c", 'cp -al "$1" env 2>/dev/null || { rm -rf env; cp -a "$1" env; }', "sh", env],
        timeout = 3600,
    )
    if copied.return_code != 0:
        fail("cannot copy the Python environment %s into the repository %s: %s" % (
            env,
            rctx.name,
            copied.stderr,
        ))
    rctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % rctx.name)
    rctx.file("BUILD.bazel", _BUILD.format(name = rctx.name, lock = str(rctx.attr.lock)))

python_environment = repository_rule(
    implementation = _python_environment_impl,
    doc = "A locked Python environment (a virtual environment of Debian's /usr/bin/python3 " +
          "with exactly the lock's packages, installed from PyPI with hashes, wheels only), " +
          "made once per machine, lock and interpreter in " +
          "${XDG_CACHE_HOME:-~/.cache}/mlebench/agent-python/<digest> and hard-linked (or " +
          "copied) into this repository's env/. " +
          "Its target `@<name>` is an `agent_environment` for mle_agent's `environment`; inside " +
          "the sandbox it is mounted read-only at /opt/mlebench/python and its bin/ leads PATH.",
    attrs = {
        "lock": attr.label(
            mandatory = True,
            allow_single_file = True,
            doc = "A requirements lock: `name==version` lines with `--hash=sha256:...` for " +
                  "every file (tools/python/update_lock.sh makes one).",
        ),
    },
    environ = ["HOME", "MLEBENCH_PIP_INDEX_URL", "XDG_CACHE_HOME"],
)
