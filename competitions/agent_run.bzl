"""The agent's step: agent_run (the sandboxed run of the agent on the public
data, AgentRunInfo) and the aspect no_answers_in_agent that keeps the answers
out of the agent's dependency graph; see competitions/rules.bzl for the steps
around it."""

load("//bazel:build_settings.bzl", "BuildSettingInfo")
load("//agent_runner:defs.bzl", "AgentInfo")
load("//competitions:providers.bzl", "AgentRunInfo", "PreparedDataInfo")

_ANSWER_RULE_KINDS = [
    "agent_run",
    "competition_test",
    "graded_report",
    "kaggle_content_data",
    "kaggle_data",
    "prepared_data",
    "synthetic_raw",
]

# Packages an agent may not depend on at all: the competitions (graders,
# preparers, their data) and the synthetic-data generators, which would let an
# agent make the raw download, answers included, again from its seed.
_ANSWER_PACKAGE_ROOTS = ["competitions", "synthetic"]

def _no_answers_in_agent_impl(target, ctx):
    package = target.label.package
    if target.label.workspace_name == "mlebench_data" and package.startswith("content/"):
        fail(("%s is in the dependencies of the agent: an agent must not depend on a " +
              "competition's real data files, which hold the answers. It gets the public " +
              "files in its workspace at run time (see docs/security.md).") % target.label)
    if target.label.workspace_name == "" and package.split("/")[0] in _ANSWER_PACKAGE_ROOTS:
        fail(("%s is in the dependencies of the agent: an agent must not depend on anything " +
              "under //competitions or //synthetic (graders, preparers, synthetic-data " +
              "generators, prepared data, runs, reports), which hold or can remake the " +
              "answers. Give the agent only its own code and data; it gets the public files " +
              "in its workspace at run time (see docs/security.md).") % target.label)
    # Platform properties choose where an action runs remotely: a target of
    # the agent's could send its build actions to the GPU pool, outside the
    # agent runner's grant. The agent action itself is routed by its budget.
    exec_properties = getattr(ctx.rule.attr, "exec_properties", None)
    if exec_properties:
        fail(("%s is in the dependencies of the agent and sets exec_properties %s: an " +
              "agent's targets may not choose where their actions run (remote pools, " +
              "docs/remote.md); the agent's run asks for GPUs through its budget " +
              "(mle_agent's gpus, --//agent_runner:gpus).") % (target.label, exec_properties))
    if ctx.rule.kind in _ANSWER_RULE_KINDS:
        fail(("%s (a %s) is in the dependencies of the agent: an agent must not depend " +
              "on a competition's raw or prepared data, runs or reports, which hold the " +
              "answers. Give the agent only its own code and data; it gets the public files " +
              "in its workspace at run time (see docs/security.md).") % (target.label, ctx.rule.kind))
    return []

no_answers_in_agent = aspect(
    implementation = _no_answers_in_agent_impl,
    attr_aspects = ["*"],
    doc = "Fails analysis when an agent's dependency graph (data, deps, srcs, tools, ...) " +
          "reaches a target that holds a competition's answers.",
)

def _budget(ctx, info):
    """The run's budget: the flags where set, else the agent's defaults (0: the machine's)."""
    if ctx.attr.fixed_agent:
        # The flags are for the chosen agent, not for a fixed one.
        return struct(
            cpus = info.cpus if info else 0,
            memory_bytes = info.memory_bytes if info else 0,
            gpus = info.gpus if info else 0,
            processes = info.processes if info else 0,
        )
    cpus = ctx.attr._cpus[BuildSettingInfo].value
    memory = ctx.attr._memory[BuildSettingInfo].value
    gpus = ctx.attr._gpus[BuildSettingInfo].value
    processes = ctx.attr._processes[BuildSettingInfo].value
    return struct(
        cpus = cpus if cpus != None else (info.cpus if info else 0),
        memory_bytes = memory if memory else (info.memory_bytes if info else 0),
        gpus = gpus if gpus != None else (info.gpus if info else 0),
        processes = processes if processes != None else (info.processes if info else 0),
    )

def _network(ctx, agent_target, info, requested):
    """The network a run gets: --//agent_runner:network, or with `auto` the
    agent's own `network`; with allowlist, the hosts of
    --//agent_runner:allowed_hosts (the action's command line, so that another
    allow-list is another run) and the egress gateway of
    --//agent_runner:egress_gateway, if any (runs with another network never
    get it: their actions stay the same with and without one)."""
    if requested == "allow":
        fail("--//agent_runner:network=allow is gone: the host's whole network is now " +
             "named `unconfined` (no gate accepts its runs unless asked); `allowlist` " +
             "reaches only the hosts of --//agent_runner:allowed_hosts")
    if ctx.attr.fixed_agent:
        # The sample submission's run needs no network, whatever the flags.
        return struct(mode = "deny", allowed_hosts = [], egress_gateway = "")
    mode = requested
    if requested == "auto":
        mode = info.network if info else "deny"
    hosts = [h.strip() for h in ctx.attr._allowed_hosts[BuildSettingInfo].value if h.strip()]
    for host in hosts:
        if "/" in host or "@" in host:
            fail(("--//agent_runner:allowed_hosts: '%s' is not host[:port]: name the host " +
                  "and port only, e.g. api.openai.com or 127.0.0.1:8000 (no scheme, path " +
                  "or user)") % host)
    if mode != "allowlist":
        return struct(mode = mode, allowed_hosts = [], egress_gateway = "")
    if not hosts:
        fail(("agent %s runs with network allowlist, but --//agent_runner:allowed_hosts " +
              "names no host: name the API it calls, e.g. " +
              "--//agent_runner:allowed_hosts=api.openai.com (in user.bazelrc; " +
              "docs/agents.md, \"Network\")") % agent_target.label)
    gateway = ctx.attr._egress_gateway[BuildSettingInfo].value
    if gateway and not gateway.startswith("/"):
        fail("--//agent_runner:egress_gateway must be an absolute path (the gateway's Unix " +
             "socket on the machine that runs the agent), got '%s'" % gateway)
    return struct(mode = mode, allowed_hosts = hosts, egress_gateway = gateway)

def _agent_run_impl(ctx):
    data = ctx.attr.data[PreparedDataInfo]
    agent_target = ctx.attr.fixed_agent or ctx.attr._agent
    agent = agent_target[DefaultInfo].files_to_run
    info = agent_target[AgentInfo] if AgentInfo in agent_target else None
    environment = info.environment if info else None
    first_seed = ctx.attr._seed[BuildSettingInfo].value
    seeds = ctx.attr._seeds[BuildSettingInfo].value
    agent_digest = ctx.file._agent_digest
    if ctx.attr.fixed_agent:
        # One run, seed 0, whatever the flags: e.g. the sample submission.
        first_seed, seeds = 0, 1
        agent_digest = ctx.file.fixed_agent_digest
    if seeds < 1:
        fail("--//agent_runner:seeds must be at least 1, got %d" % seeds)
    time_limit = ctx.attr._time_limit_s[BuildSettingInfo].value
    isolation = ctx.attr._isolation[BuildSettingInfo].value
    network_requested = ctx.attr._network[BuildSettingInfo].value
    network = _network(ctx, agent_target, info, network_requested)
    resource_limits = ctx.attr._resource_limits[BuildSettingInfo].value
    budget = _budget(ctx, info)
    common = [
        "--competition",
        data.competition_id,
        "--public",
        data.public_dir,
        "--description",
        ctx.file.description.path,
        "--agent",
        agent.executable.path,
        "--agent_label",
        str(agent_target.label),
        "--agent_digest_file",
        agent_digest.path,
        "--time_limit_s",
        str(time_limit),
        "--sample_submission",
        ctx.attr.sample_submission,
        "--isolation",
        isolation,
        "--network",
        network.mode,
        "--resource_limits",
        resource_limits,
        "--cpus",
        str(budget.cpus),
        "--gpus",
        str(budget.gpus),
        "--sandbox_entry",
        ctx.executable._sandbox_entry.path,
        # What the agent's files may resolve into: its own configuration's
        # outputs, external repositories and the source tree; never the
        # outputs of the competitions and data generators in its
        # configuration, nor a data dir. (The runner forbids the output
        # base it runs in, and anything that looks like an output base,
        # a disk cache or prepared data, itself: docs/security.md.)
        "--allowed_roots",
        agent.executable.root.path + ":external",
        "--forbidden_roots",
        ":".join([
            agent.executable.root.path + "/competitions",
            agent.executable.root.path + "/synthetic",
        ] + data.forbidden_dirs),
        "--source_tree_marker",
        ctx.file._source_tree_marker.path,
    ]
    if resource_limits == "on":
        common += ["--memory_bytes", str(budget.memory_bytes), "--pids", str(budget.processes)]
    if network.allowed_hosts:
        common += ["--allowed_hosts", ",".join(network.allowed_hosts)]
    if network.egress_gateway:
        common += ["--egress_gateway", network.egress_gateway]
    secrets = [s.strip() for s in ctx.attr._secret[BuildSettingInfo].value if s.strip()]
    missing = [s for s in (info.secrets if info else []) if s not in secrets]
    if missing and not ctx.attr.fixed_agent:
        fail(("agent %s needs the secret(s) %s: hand them over with " +
              "--//agent_runner:secret=%s (one comma-separated flag; the values come from " +
              "./bazelw's environment or --//agent_runner:secrets_file; docs/agents.md, " +
              "\"Secrets\")") % (agent_target.label, ", ".join(missing), ",".join(secrets + missing)))
    secrets_file = ctx.attr._secrets_file[BuildSettingInfo].value
    validator = None
    if ctx.attr.validator and ctx.attr._validate_submission[BuildSettingInfo].value == "on":
        validator = ctx.attr.validator[DefaultInfo].files_to_run
        common += ["--validator", validator.executable.path]
    if secrets and not ctx.attr.fixed_agent:
        # Names only: the values are read when the agent starts, never part
        # of the action's key, command line or any log.
        common += ["--secrets", ",".join(secrets)]
        if secrets_file:
            common += ["--secrets_file", secrets_file]
    inputs = [ctx.file.description, ctx.file._source_tree_marker, agent_digest]
    transitive_inputs = [data.public_inputs]
    if environment:
        common += [
            "--environment",
            environment.root,
            "--environment_mount",
            environment.mount_point,
            "--environment_path",
            ":".join(environment.path),
            "--environment_digest_file",
            environment.digest.path,
        ]
        inputs.append(environment.digest)
        transitive_inputs.append(environment.files)
    rootfs = info.rootfs if info else None
    if rootfs:
        # The directory itself is no input (rootfs.h): its manifest stands for
        # it, and the runner checks the one against the other.
        common += ["--rootfs", rootfs.root, "--rootfs_manifest", rootfs.manifest.path]
        inputs.append(rootfs.manifest)

    # What a remote executor can route by, and what `bazel aquery` and the
    # execution log show (docs/agents.md, "Budgets"); Bazel 4 keeps only
    # execution requirements with known prefixes, such as requires-. The
    # runner's own admission keeps local runs within the machine.
    requirements = {
        # The runner is the sandbox (bubblewrap, an unprivileged uid, cgroups):
        # Bazel's linux-sandbox would mount the cgroup file system read-only.
        "no-sandbox": "1",
        "requires-cpus:%d" % budget.cpus: "",
        "requires-memory-bytes:%d" % budget.memory_bytes: "",
        "requires-gpus:%d" % budget.gpus: "",
    }
    if budget.gpus > 0:
        requirements["requires-gpu"] = ""
    runs = []
    outputs = []
    for index in range(seeds):
        seed = first_seed + index
        # One directory per run, named by its place (run-0 has the first
        # seed), whatever the number of seeds: raising --//agent_runner:seeds
        # leaves the actions of the runs already made unchanged, so they come
        # from the cache; and a new --//agent_runner:seed whose submissions do
        # not change is not graded again (the grade action's inputs and
        # outputs keep their paths).
        prefix = "%s/run-%d/" % (ctx.label.name, index)
        submission = ctx.actions.declare_directory(prefix + "submission")
        log = ctx.actions.declare_file(prefix + "agent.log")
        record = ctx.actions.declare_file(prefix + "run_record.json")
        # The agent's code/ and logs/, for audits (capped; KEPT.txt says
        # what was left out).
        artifacts = ctx.actions.declare_directory(prefix + "artifacts")
        ctx.actions.run(
            executable = ctx.executable._runner,
            arguments = common + [
                "--seed",
                str(seed),
                "--submission_out",
                submission.path,
                "--log_out",
                log.path,
                "--record_out",
                record.path,
                "--artifacts_out",
                artifacts.path,
                # Beside the execroot (in the output base), where `bazel clean`
                # never walks a tree the agent made; relative to the working
                # directory where that is no execroot (remote workers), so that
                # the action needs no writable /tmp. The runner deletes it
                # afterwards, or its janitor should the runner die.
                "--workspace",
                record.dirname + "/workspace",
                "--workspace_outside_execroot",
            ] + data.runner_flags,
            inputs = depset(inputs, transitive = transitive_inputs),
            tools = [agent, ctx.attr._sandbox_entry[DefaultInfo].files_to_run] +
                    ([validator] if validator else []),
            outputs = [submission, log, record, artifacts],
            mnemonic = "MleAgent",
            execution_requirements = requirements,
            progress_message = "Running agent %s on %s (seed %d)" % (
                agent_target.label,
                data.competition_id,
                seed,
            ),
            # Routes a run that asks for GPUs to a GPU pool (the target's
            # exec_properties give agent_gpu Pool=gpu: agent_exec_properties).
            exec_group = "agent_gpu" if budget.gpus > 0 else "agent",
        )
        runs.append(struct(
            seed = seed,
            index = index,
            submission_dir = submission,
            log = log,
            record = record,
            artifacts = artifacts,
        ))
        outputs += [submission, log, record, artifacts]
    return [
        DefaultInfo(
            files = depset(outputs),
            runfiles = ctx.runfiles(files = outputs),
        ),
        AgentRunInfo(
            runs = runs,
            agent = str(agent_target.label),
            agent_digest = agent_digest,
            isolation = isolation,
            network_requested = network_requested,
        ),
    ]

agent_run = rule(
    implementation = _agent_run_impl,
    doc = "Runs the agent chosen with --//agent_runner:agent on a competition's public data, " +
          "once per seed (--//agent_runner:seed and :seeds), each run one action in the " +
          "`agent` exec group, or `agent_gpu` when the budget asks for GPUs (the " +
          "target's exec_properties route it: Pool=gpu, docs/remote.md), with the budget of " +
          "--//agent_runner:cpus, :memory, :gpus and :processes or the agent's defaults.",
    attrs = {
        "data": attr.label(
            mandatory = True,
            providers = [PreparedDataInfo],
            doc = "The competition's prepared_data target; only its public/ tree is an input.",
        ),
        "description": attr.label(
            mandatory = True,
            allow_single_file = [".md"],
            doc = "The task description, in our own words, copied to data/description.md.",
        ),
        "sample_submission": attr.string(
            default = "sample_submission.csv",
            doc = "Path of the sample submission inside public/ (MLEBENCH_SAMPLE_SUBMISSION); " +
                  "a .zip holding one CSV is allowed.",
        ),
        "_agent": attr.label(
            default = "//agent_runner:agent",
            executable = True,
            cfg = "exec",
            aspects = [no_answers_in_agent],
        ),
        "fixed_agent": attr.label(
            executable = True,
            cfg = "exec",
            aspects = [no_answers_in_agent],
            doc = "Runs this agent instead of the chosen one, once (seed 0) with its own " +
                  "defaults as its budget, whatever the flags: the sample submission's run.",
        ),
        "fixed_agent_digest": attr.label(
            allow_single_file = True,
            doc = "The agent_digest of fixed_agent.",
        ),
        "_sandbox_entry": attr.label(
            default = "//agent_runner:sandbox_entry",
            executable = True,
            cfg = "target",
        ),
        "_source_tree_marker": attr.label(
            default = "//bazel:source_tree_marker.txt",
            allow_single_file = True,
        ),
        "_resource_limits": attr.label(default = "//agent_runner:resource_limits"),
        "_seed": attr.label(default = "//agent_runner:seed"),
        "_seeds": attr.label(default = "//agent_runner:seeds"),
        "_cpus": attr.label(default = "//agent_runner:cpus"),
        "_memory": attr.label(default = "//agent_runner:memory"),
        "_gpus": attr.label(default = "//agent_runner:gpus"),
        "_processes": attr.label(default = "//agent_runner:processes"),
        "_agent_digest": attr.label(
            default = "//agent_runner:agent_digest",
            allow_single_file = True,
        ),
        "_time_limit_s": attr.label(default = "//agent_runner:time_limit_s"),
        "_isolation": attr.label(default = "//agent_runner:isolation"),
        "_network": attr.label(default = "//agent_runner:network"),
        "_allowed_hosts": attr.label(default = "//agent_runner:allowed_hosts"),
        "_egress_gateway": attr.label(default = "//agent_runner:egress_gateway"),
        "_secret": attr.label(default = "//agent_runner:secret"),
        "_validate_submission": attr.label(default = "//agent_runner:validate_submission"),
        "validator": attr.label(
            executable = True,
            # Run in the agent's sandbox, like the agent and the sandbox entry.
            cfg = "target",
            doc = "The competition's validate binary (//competitions/<id>:validate): " +
                  "validate_submission.sh in the agent's workspace runs it (public data " +
                  "only; docs/agents.md, \"Checking a submission\"). An input of the " +
                  "agent action, unless --//agent_runner:validate_submission=off.",
        ),
        "_secrets_file": attr.label(default = "//agent_runner:secrets_file"),
        "_runner": attr.label(
            default = "//agent_runner:run_agent",
            executable = True,
            cfg = "target",
        ),
    },
    exec_groups = {
        "agent": exec_group(),
        "agent_gpu": exec_group(),
    },
)
