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

load("//bazel:build_settings.bzl", "parse_size")

AgentEnvironmentInfo = provider(
    doc = "A directory of software an agent runs on, mounted read-only inside the sandbox.",
    fields = {
        "files": "depset of File: every file of the environment (inputs of the agent action).",
        "root": "string: the environment's directory in the execroot (what is mounted).",
        "mount_point": "string: the absolute path it is mounted at inside the sandbox.",
        "path": "list of string: directories inside it that lead the agent's PATH.",
        "digest": "File: the SHA-256 of the environment's files (names and contents).",
        "description": "string: what the environment is, for logs and reports.",
    },
)

AgentRootfsInfo = provider(
    doc = "An agent's own root file system: a directory whose usr, bin, sbin, lib*, etc " +
          "and opt the sandbox shows instead of the host's system (agent_runner/rootfs.h).",
    fields = {
        "manifest": "File: its manifest (every entry's type, mode, size and SHA-256 or " +
                    "link target): what the build knows of it, an input of the agent action.",
        "root": "string: the directory in the execroot (the manifest's path less .manifest).",
        "description": "string: what the system is, for logs and reports.",
    },
)

AgentInfo = provider(
    doc = "An agent declared with mle_agent: its environment and resource defaults. " +
          "Plain executable targets have none; the run then uses the flags' values, or " +
          "the machine's defaults.",
    fields = {
        "environment": "AgentEnvironmentInfo, or None.",
        "rootfs": "AgentRootfsInfo, or None: the system it runs on instead of the host's.",
        "cpus": "int: CPU cores it wants by default (0: every core of the machine).",
        "memory_bytes": "int: RAM it wants by default (0: 80% of the machine's).",
        "gpus": "int: GPUs it wants by default.",
        "processes": "int: most processes and threads at once (0: 4096).",
        "network": "string: the network it needs: \"deny\" (none) or \"allowlist\" " +
                   "(the hosts of --//agent_runner:allowed_hosts, through a proxy).",
        "secrets": "list of string: the environment variables it needs as secrets; a run " +
                   "fails the analysis unless --//agent_runner:secret names each.",
    },
)

# Where environments are mounted: under /opt/mlebench only, one plain name
# deep, so that no environment can shadow a system directory (/etc, /usr,
# ...) the sandbox entry or the agent's tools rely on.
_MOUNT_PREFIX = "/opt/mlebench/"
_NAME_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789_-"
_PATH_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./"

def _check_mount_point(mount_point, where):
    name = mount_point[len(_MOUNT_PREFIX):] if mount_point.startswith(_MOUNT_PREFIX) else ""
    if not name or not all([c in _NAME_CHARACTERS for c in name.elems()]) or name[0] in "-_":
        fail(("%s: mount_point must be %s<name>, the name of lower-case letters, digits, - " +
              "and _, got %r") % (where, _MOUNT_PREFIX, mount_point))

def _check_path_entry(entry, where):
    if (not entry or entry.startswith("/") or ".." in entry.split("/") or
        not all([c in _PATH_CHARACTERS for c in entry.elems()])):
        fail(("%s: path entries are relative directories inside the environment (letters, " +
              "digits, _ - . /), got %r") % (where, entry))

def _digest_action(ctx, name, entries, mnemonic, message):
    """A File holding the SHA-256 of `entries` (a list of (name, File)) by digest_files.sh."""
    manifest = ctx.actions.declare_file(name + ".manifest")
    ctx.actions.write(manifest, "".join(["%s\t%s\n" % (n, f.path) for n, f in entries]))
    out = ctx.actions.declare_file(name + ".sha256")
    ctx.actions.run(
        executable = ctx.executable._digest_files,
        arguments = [manifest.path, out.path],
        inputs = [f for _, f in entries] + [manifest],
        outputs = [out],
        mnemonic = mnemonic,
        progress_message = message,
    )
    return out

def _agent_environment_impl(ctx):
    where = "agent_environment %s" % ctx.label
    _check_mount_point(ctx.attr.mount_point, where)
    for entry in ctx.attr.path:
        _check_path_entry(entry, where)
    root = ctx.file.marker.dirname
    entries = []
    for file in ctx.files.srcs:
        if not file.path.startswith(root + "/"):
            fail("%s: %s is not under the environment's root %s (the marker's directory)" % (
                where,
                file.path,
                root,
            ))
        entries.append((file.path[len(root) + 1:], file))
    files = depset(ctx.files.srcs + [ctx.file.marker])
    # What the environment holds, by content: never the text of a file the
    # environment's author chose.
    digest = _digest_action(
        ctx,
        ctx.label.name + "_environment",
        entries,
        "MleEnvironmentDigest",
        "Hashing the environment %s" % ctx.label,
    )
    return [
        DefaultInfo(files = files, runfiles = ctx.runfiles(transitive_files = files)),
        AgentEnvironmentInfo(
            files = files,
            root = root,
            mount_point = ctx.attr.mount_point,
            path = ctx.attr.path,
            digest = digest,
            description = ctx.attr.description,
        ),
    ]

agent_environment = rule(
    implementation = _agent_environment_impl,
    doc = "An environment for mle_agent: files under one directory, mounted read-only at " +
          "`mount_point` (under /opt/mlebench/) inside the sandbox. python_environment " +
          "(//agent_runner/python:environment.bzl) makes one from a lock file. The runner " +
          "mounts it only when its directory lies in the agent's allowed roots (the source " +
          "tree, external repositories) and holds nothing that looks like answers.",
    attrs = {
        "srcs": attr.label_list(
            allow_files = True,
            mandatory = True,
            doc = "Every file of the environment, all under the directory of `marker`.",
        ),
        "marker": attr.label(
            allow_single_file = True,
            mandatory = True,
            doc = "A file at the environment's root: its directory is what is mounted.",
        ),
        "mount_point": attr.string(
            mandatory = True,
            doc = "Where it is mounted inside the sandbox: /opt/mlebench/<name>.",
        ),
        "path": attr.string_list(
            doc = "Directories of the environment, relative to it, put first on PATH.",
        ),
        "description": attr.string(doc = "What the environment is."),
        "_digest_files": attr.label(
            default = "//agent_runner:digest_files",
            executable = True,
            cfg = "exec",
        ),
    },
)

def _agent_rootfs_impl(ctx):
    manifest = ctx.file.manifest
    if not manifest.path.endswith(".manifest"):
        fail("agent_rootfs %s: the manifest's name must be <directory>.manifest, got %s" % (
            ctx.label,
            manifest.basename,
        ))
    return [
        DefaultInfo(files = depset([manifest])),
        AgentRootfsInfo(
            manifest = manifest,
            root = manifest.path[:-len(".manifest")],
            description = ctx.attr.description,
        ),
    ]

agent_rootfs = rule(
    implementation = _agent_rootfs_impl,
    doc = "A root file system for mle_agent's `rootfs`: the directory beside `manifest` " +
          "(`rootfs.manifest` stands for `rootfs/`). debian_rootfs and local_rootfs " +
          "(//agent_runner/rootfs:rootfs.bzl) make one as a repository. Bazel sees only the " +
          "manifest (a Debian system's absolute and dangling symlinks are no Bazel inputs); " +
          "the runner checks the directory against it before every run, and binds it only " +
          "when it lies in the agent's allowed roots and holds nothing that looks like answers.",
    attrs = {
        "manifest": attr.label(
            allow_single_file = True,
            mandatory = True,
            doc = "<dir>.manifest, beside <dir>, made by agent_runner/rootfs/rootfs_manifest.py.",
        ),
        "description": attr.string(doc = "What the system is."),
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
            rootfs = ctx.attr.rootfs[AgentRootfsInfo] if ctx.attr.rootfs else None,
            cpus = ctx.attr.cpus,
            memory_bytes = parse_size(ctx.attr.memory, "mle_agent %s: memory" % ctx.label),
            gpus = ctx.attr.gpus,
            processes = ctx.attr.processes,
            network = ctx.attr.network,
            secrets = ctx.attr.secrets,
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
        "rootfs": attr.label(
            providers = [AgentRootfsInfo],
            doc = "Its own root file system, e.g. `@my_rootfs` made by debian_rootfs or " +
                  "local_rootfs (//agent_runner/rootfs:rootfs.bzl): its usr, bin, sbin, lib*, " +
                  "etc and opt replace the host's in the sandbox. It must have /bin/sh (the " +
                  "launcher is a shell script).",
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
        "secrets": attr.string_list(
            doc = "Environment variables the agent needs as secrets (an API key). The user " +
                  "hands each over with --//agent_runner:secret=NAME (the agent never gets " +
                  "a variable it was not given explicitly); a run without one fails the " +
                  "analysis with the flag to set. docs/agents.md, \"Secrets\".",
        ),
        "network": attr.string(
            default = "deny",
            values = ["deny", "allowlist"],
            doc = "The network the agent needs. \"deny\": none at all. \"allowlist\" " +
                  "(agents that call a model API): only the hosts the user names with " +
                  "--//agent_runner:allowed_hosts, through an HTTP(S) proxy at " +
                  "127.0.0.1:3128 that logs every request; the build fails when none " +
                  "is named. --//agent_runner:network overrides it.",
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
    pairs = [(name, entries[name]) for name in sorted(entries)]
    if AgentInfo in agent and agent[AgentInfo].environment != None:
        environment = agent[AgentInfo].environment
        # Where and how it is mounted (checked characters: no tab, no newline)
        # and what it holds, by content.
        settings = ctx.actions.declare_file(ctx.label.name + "_environment_settings.txt")
        ctx.actions.write(settings, "mount_point %s\npath %s\n" % (
            environment.mount_point,
            ":".join(environment.path),
        ))
        pairs.append(("environment settings", settings))
        pairs.append(("environment contents", environment.digest))
    if AgentInfo in agent and agent[AgentInfo].rootfs != None:
        # Every entry's type, mode, size and content (SHA-256) or target.
        pairs.append(("rootfs manifest", agent[AgentInfo].rootfs.manifest))
    out = _digest_action(
        ctx,
        ctx.label.name,
        pairs,
        "MleAgentDigest",
        "Hashing the files of agent %s" % agent.label,
    )
    return [DefaultInfo(files = depset([out]))]

agent_digest = rule(
    implementation = _agent_digest_impl,
    doc = "A SHA-256 over the agent's executable and runfiles (each file's content and " +
          "runfiles path, tree artifacts file by file), its environment (mount point, " +
          "PATH entries, every file's content) and its root file system's manifest (every " +
          "file's content by its SHA-256): what every report names the agent by, " +
          "besides its label, so that results of old and new code are never mixed.",
    attrs = {
        "agent": attr.label(mandatory = True, executable = True, cfg = "exec"),
        "_digest_files": attr.label(
            default = "//agent_runner:digest_files",
            executable = True,
            cfg = "exec",
        ),
    },
)

def agent_exec_properties():
    """The agent action's platform properties, for a remote executor to route it by.

    The agent action runs in the exec group `agent`, or `agent_gpu` when its
    budget (--//agent_runner:gpus or the agent's own `gpus`) asks for GPUs
    (competitions/rules.bzl). `agent_gpu` carries `Pool: gpu`, which replaces
    the execution platform's `Pool: cpu` (//tools/remote:remote_cpu): such runs
    go to the cluster's gpu pool, every other action to its cpu pool
    (docs/remote.md). Locally, platform properties mean nothing.

    Returns:
      A dict for a rule's exec_properties.
    """
    return {"agent_gpu.Pool": "gpu"}
