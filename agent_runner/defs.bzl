"""Declaring agents: `mle_agent`, `agent_environment` and their providers.

An agent is what `--//agent_runner:agent=LABEL` chooses. Any executable target
works; `mle_agent` adds what a plain executable cannot say: the environment it
runs on (a locked Python environment, mounted read-only in the sandbox without
a copy per run) and the resources it wants by default (CPUs, memory, GPUs,
processes). See docs/agents.md.

    load("//agent_runner:defs.bzl", "mle_agent")

    mle_agent(
        name = "my_agent",
        srcs = ["agent.py", "features.py"],
        main = "agent.py",
        environment = "@my_agent_python",
        cpus = 2,
        memory = "8G",
    )
"""

load("//tools:build_settings.bzl", "parse_size")

AgentEnvironmentInfo = provider(
    doc = "A directory of software an agent runs on, mounted read-only inside the sandbox.",
    fields = {
        "files": "depset of File: every file of the environment (inputs of the agent action).",
        "root": "string: the environment's directory in the execroot (what is mounted).",
        "mount_point": "string: the absolute path it is mounted at inside the sandbox.",
        "path": "list of string: directories inside it that lead the agent's PATH.",
        "digest": "File: a digest naming the environment's contents (lock and interpreter).",
        "description": "string: what the environment is, for logs and reports.",
    },
)

AgentInfo = provider(
    doc = "An agent declared with mle_agent: its environment and resource defaults. " +
          "Plain executable targets have none; the run then uses the flags' values, or " +
          "the machine's defaults.",
    fields = {
        "environment": "AgentEnvironmentInfo, or None.",
        "cpus": "int: CPU cores it wants by default (0: every core of the machine).",
        "memory_bytes": "int: RAM it wants by default (0: 80% of the machine's).",
        "gpus": "int: GPUs it wants by default.",
        "processes": "int: most processes and threads at once (0: 4096).",
    },
)

def _agent_environment_impl(ctx):
    digest = ctx.file.digest
    files = depset(ctx.files.srcs)
    if not ctx.attr.mount_point.startswith("/") or ctx.attr.mount_point.rstrip("/") == "":
        fail("mount_point must be an absolute path below /, got %r" % ctx.attr.mount_point)
    for entry in ctx.attr.path:
        if entry.startswith("/") or ".." in entry.split("/"):
            fail("path entries are relative to the environment, got %r" % entry)
    return [
        DefaultInfo(files = files, runfiles = ctx.runfiles(transitive_files = files)),
        AgentEnvironmentInfo(
            files = files,
            root = digest.dirname,
            mount_point = ctx.attr.mount_point,
            path = ctx.attr.path,
            digest = digest,
            description = ctx.attr.description,
        ),
    ]

agent_environment = rule(
    implementation = _agent_environment_impl,
    doc = "An environment for mle_agent: files under one directory, mounted read-only at " +
          "`mount_point` inside the sandbox. python_environment " +
          "(//agent_runner/python:environment.bzl) makes one from a lock file.",
    attrs = {
        "srcs": attr.label_list(
            allow_files = True,
            mandatory = True,
            doc = "Every file of the environment, all under the directory of `digest`.",
        ),
        "digest": attr.label(
            allow_single_file = True,
            mandatory = True,
            doc = "A file at the environment's root whose content names its contents; its " +
                  "directory is the environment's root.",
        ),
        "mount_point": attr.string(
            mandatory = True,
            doc = "Absolute path of the environment inside the sandbox.",
        ),
        "path": attr.string_list(
            doc = "Directories of the environment, relative to it, put first on PATH.",
        ),
        "description": attr.string(doc = "What the environment is."),
    },
)

def _launcher_for_main(ctx, environment):
    main = ctx.file.main
    if main == None:
        fail(("mle_agent %s: give `main` (a script run by the environment's python3) or " +
              "`binary` (an executable target)") % ctx.label)
    if environment == None:
        fail(("mle_agent %s: `main` needs an `environment` (e.g. a python_environment) " +
              "whose python3 runs it") % ctx.label)
    interpreter = environment.mount_point + "/bin/python3"
    return interpreter, main

def _runfiles_path(ctx, file):
    # Where a file is in the agent's runfiles tree: <workspace>/<short path>,
    # external files (short path ../repo/x) as repo/x.
    if file.short_path.startswith("../"):
        return file.short_path[3:]
    return ctx.workspace_name + "/" + file.short_path

def _mle_agent_impl(ctx):
    environment = None
    if ctx.attr.environment:
        environment = ctx.attr.environment[AgentEnvironmentInfo]
    if (ctx.attr.binary == None) == (ctx.file.main == None):
        fail("mle_agent %s: give exactly one of `main` and `binary`" % ctx.label)
    launcher = ctx.actions.declare_file(ctx.label.name)
    runfiles = ctx.runfiles(files = ctx.files.srcs + ctx.files.data)
    if ctx.attr.binary != None:
        target = ctx.attr.binary[DefaultInfo].files_to_run.executable
        runfiles = runfiles.merge(ctx.attr.binary[DefaultInfo].default_runfiles)
        runfiles = runfiles.merge(ctx.runfiles(files = [target]))
        command = '"$runfiles/%s"' % _runfiles_path(ctx, target)
    else:
        interpreter, main = _launcher_for_main(ctx, environment)
        runfiles = runfiles.merge(ctx.runfiles(files = [main]))
        command = '%s "$runfiles/%s"' % (interpreter, _runfiles_path(ctx, main))
    ctx.actions.write(
        output = launcher,
        is_executable = True,
        content = "\n".join([
            "#!/bin/sh",
            "# The launcher of mle_agent %s (//agent_runner:defs.bzl)." % ctx.label,
            # Its runfiles: where the runner says, else beside it, else the
            # runfiles tree it is in (as a data dependency of a test).
            'runfiles="${RUNFILES_DIR:-}"',
            'if [ -z "$runfiles" ]; then',
            '  case "$0" in',
            '    *.runfiles/*) runfiles="${0%%.runfiles/*}.runfiles" ;;',
            '    *) runfiles="$0.runfiles" ;;',
            '  esac',
            'fi',
            "export RUNFILES_DIR=\"$runfiles\"",
            "exec %s \"$@\"" % command,
            "",
        ]),
    )
    if ctx.attr.cpus < 0 or ctx.attr.gpus < 0 or ctx.attr.processes < 0:
        fail("mle_agent %s: cpus, gpus and processes must not be negative" % ctx.label)
    return [
        DefaultInfo(executable = launcher, runfiles = runfiles),
        AgentInfo(
            environment = environment,
            cpus = ctx.attr.cpus,
            memory_bytes = parse_size(ctx.attr.memory, "mle_agent %s: memory" % ctx.label),
            gpus = ctx.attr.gpus,
            processes = ctx.attr.processes,
        ),
    ]

mle_agent = rule(
    implementation = _mle_agent_impl,
    executable = True,
    doc = "An agent for --//agent_runner:agent: a script run by its environment's python3 " +
          "(`main`), or any executable target (`binary`), with the environment it needs " +
          "and the resources it wants by default. The --//agent_runner:cpus, :memory, " +
          ":gpus and :processes flags override the defaults for one build. See docs/agents.md.",
    attrs = {
        "main": attr.label(
            allow_single_file = True,
            doc = "The script the environment's python3 runs (with `environment`).",
        ),
        "srcs": attr.label_list(
            allow_files = True,
            doc = "The agent's other code (modules next to `main` import each other by name).",
        ),
        "binary": attr.label(
            executable = True,
            cfg = "target",
            doc = "Instead of `main`: an executable target (sh_binary, py_binary, cc_binary, " +
                  "...) that is the agent. A py_binary runs on the python3 first on PATH: the " +
                  "environment's, when there is one.",
        ),
        "data": attr.label_list(
            allow_files = True,
            doc = "Files the agent reads at run time (prompts, configuration, weights), in its " +
                  "runfiles. Never a competition's data: the agent gets that in its workspace.",
        ),
        "environment": attr.label(
            providers = [AgentEnvironmentInfo],
            doc = "The environment it runs on, e.g. `@my_python` made by python_environment.",
        ),
        "cpus": attr.int(
            default = 0,
            doc = "CPU cores it gets by default (a cpuset and CPU bandwidth); 0: every core.",
        ),
        "memory": attr.string(
            default = "",
            doc = "RAM it gets by default, e.g. \"8G\" (its /dev/shm counts); \"\": 80% of " +
                  "the machine's.",
        ),
        "gpus": attr.int(default = 0, doc = "GPUs it gets by default."),
        "processes": attr.int(
            default = 0,
            doc = "Most processes and threads at once by default; 0: 4096.",
        ),
    },
)

def _agent_digest_impl(ctx):
    agent = ctx.attr.agent
    files = agent[DefaultInfo].default_runfiles.files.to_list()
    executable = agent[DefaultInfo].files_to_run.executable
    entries = {}
    for file in files + [executable]:
        entries[_runfiles_path(ctx, file)] = file
    inputs = list(entries.values())
    lines = ["%s\t%s" % (name, entries[name].path) for name in sorted(entries)]
    if AgentInfo in agent and agent[AgentInfo].environment != None:
        environment = agent[AgentInfo].environment
        lines.append("environment %s\t%s" % (environment.mount_point, environment.digest.path))
        inputs.append(environment.digest)
    manifest = ctx.actions.declare_file(ctx.label.name + ".manifest")
    ctx.actions.write(manifest, "\n".join(lines) + "\n")
    out = ctx.actions.declare_file(ctx.label.name + ".txt")
    ctx.actions.run_shell(
        inputs = inputs + [manifest],
        outputs = [out],
        command = """set -eu
while IFS="$(printf '\\t')" read -r name path; do
  printf '%s  %s\\n' "$(sha256sum < "$path" | cut -c1-64)" "$name"
done < "$1" | LC_ALL=C sort | sha256sum | cut -c1-64 > "$2"
""",
        arguments = [manifest.path, out.path],
        mnemonic = "MleAgentDigest",
        progress_message = "Hashing the files of agent %s" % agent.label,
    )
    return [DefaultInfo(files = depset([out]))]

agent_digest = rule(
    implementation = _agent_digest_impl,
    doc = "A SHA-256 over the agent's executable and runfiles (each file's content and " +
          "runfiles path) and its environment's digest: what every report names the agent " +
          "by, besides its label, so that results of old and new code are never mixed.",
    attrs = {
        "agent": attr.label(mandatory = True, executable = True, cfg = "exec"),
    },
)
