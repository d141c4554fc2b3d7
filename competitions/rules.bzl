"""The rules behind mle_competition (//competitions:defs.bzl): one competition as a Bazel test.

For each competition, `mle_competition` wires four steps, each a cacheable
action whose inputs are exactly what it reads:

    raw data --prepare--> public/ + private/      (PreparedDataInfo)
    public/  --agent----> submission/ + log + run record (AgentRunInfo)
    submission/ + private/ + thresholds --grade--> report.json (CompetitionReportInfo)
    report.json + run record --test--> pass/fail by the gating policy, JUnit XML

The agent never sees private/. Grading depends on nothing but the grader
binary, the submission, the answers and the thresholds, so an unchanged
submission is never graded twice (local or remote action cache); the agent
and seed are added to the report by the test step, not the grade action.
"""

load("//tools:build_settings.bzl", "BuildSettingInfo")
load("//agent_runner:defs.bzl", "AgentInfo")
load("//base:baseline_libm.bzl", "BASELINE_LIBM_ATTRS", "baseline_libm_env")

GATING_POLICIES = ["none", "valid", "sample", "median", "bronze", "silver", "gold"]

# Our own tools (preparers, graders, the agent runner and its sandbox entry)
# are built in the target configuration, like the tests that run them on the
# same machine: one compile of each source serves both, where the exec
# configuration compiled every grader, preparer and generator a second time
# (a third of the cold build's compile time, docs/performance.md). The agent
# alone stays `cfg = "exec"`: it is the user's, for the agent exec group.

PreparedDataInfo = provider(
    doc = "A competition's prepared data, as the steps after it read it. It is either tree " +
          "artifacts (synthetic data, small; prepared_data) or prepared/ in a data dir, read " +
          "in place and represented in Bazel by a handle, a stat manifest of it (real data; " +
          "kaggle_data). Every field is set in both cases, so no consumer asks which.",
    fields = {
        "competition_id": "Upstream's competition id.",
        "public_dir": "Path of public/, the files the agent sees, as actions see it.",
        "private_dir": "Path of private/, the held-out answers, for grading only.",
        "public_inputs": "depset of Files: the inputs of an action that reads public/ (the " +
                         "tree, or the handle, so that it reruns when the data changes).",
        "private_inputs": "depset of Files: the inputs of an action that reads private/.",
        "dataset_flags": "Grader flags saying where the data came from: `--dataset synthetic` " +
                         "when known at analysis time, else `--dataset_file F`.",
        "runner_flags": "Extra agent-runner flags: real data is linked into the workspace, " +
                        "not copied.",
        "forbidden_dirs": "Directories the agent's files must never resolve into, beyond " +
                          "those the runner forbids itself: a real data dir, whole (its " +
                          "answers, raw downloads and zips).",
        "check_flags": "Extra competition-test flags, runfiles-relative: real data is read " +
                       "outside Bazel's view, so the test checks it is still what was graded.",
        "check_files": "depset of Files the competition test needs for check_flags.",
    },
)

AgentRunInfo = provider(
    doc = "The agent's runs on a competition, one per seed (--//agent_runner:seeds).",
    fields = {
        "runs": "list of struct(seed, index, submission_dir, log, record, artifacts), in " +
                "seed order (artifacts: the agent's code/ and logs/, kept for audits) " +
                "(index 0 is the first seed; outputs are under run-<index>/): " +
                "submission_dir is a tree artifact holding submission.csv (or empty when " +
                "the agent made none), log the agent's stdout and stderr, record the run " +
                "record JSON (exit status, budget, usage, what ended it).",
        "agent": "Label string of the agent.",
        "agent_digest": "File: the digest of the agent's files and environment.",
        "isolation": "The isolation the user asked for ('bwrap' or 'none'); the record says " +
                     "what the run really had, and the test fails a run without isolation " +
                     "unless 'none' was asked for.",
        "network_requested": "--//agent_runner:network as given ('auto', 'deny', " +
                             "'allowlist' or 'unconfined'); the test fails a run with the " +
                             "host's whole network unless 'unconfined' was asked for.",
    },
)

CompetitionResultInfo = provider(
    doc = "What a competition test reads: its graded reports, the runs behind them and the " +
          "sample submission's report (for what aggregates tests: split_reports).",
    fields = {
        "competition_id": "Upstream's competition id.",
        "agent": "Label string of the agent.",
        "seeds": "list of struct(seed, report, record): per seed, the graded report " +
                 "(File) and the run record (File).",
        "sample_report": "File: the sample submission's graded report.",
    },
)

CompetitionReportInfo = provider(
    doc = "A graded competition, one report per seed.",
    fields = {
        "reports": "list of struct(seed, report): the CompetitionReport JSON each grade " +
                   "action wrote, in the order of AgentRunInfo.runs.",
    },
)

def _prepared_data_impl(ctx):
    public = ctx.actions.declare_directory(ctx.label.name + "/public")
    private = ctx.actions.declare_directory(ctx.label.name + "/private")
    raw = ctx.files.raw
    if len(raw) != 1 or not raw[0].is_directory:
        fail("raw must provide exactly one directory (a synthetic_raw target)")
    ctx.actions.run(
        executable = ctx.executable.preparer,
        arguments = [
            "--competition",
            ctx.attr.competition_id,
            "--raw",
            raw[0].path,
            "--public",
            public.path,
            "--private",
            private.path,
        ],
        inputs = raw,
        outputs = [public, private],
        env = baseline_libm_env(ctx),
        mnemonic = "MlePrepare",
        progress_message = "Preparing %s data for %s" % (ctx.attr.dataset, ctx.attr.competition_id),
    )
    return [
        # As runfiles too, so that tests can take the prepared data as `data`.
        DefaultInfo(
            files = depset([public, private]),
            runfiles = ctx.runfiles(files = [public, private]),
        ),
        PreparedDataInfo(
            competition_id = ctx.attr.competition_id,
            public_dir = public.path,
            private_dir = private.path,
            public_inputs = depset([public]),
            private_inputs = depset([private]),
            dataset_flags = ["--dataset", ctx.attr.dataset],
            runner_flags = [],
            forbidden_dirs = [],
            check_flags = [],
            check_files = depset(),
        ),
    ]

prepared_data = rule(
    implementation = _prepared_data_impl,
    doc = "Runs a competition's preparer on its raw download: public/ and private/ trees.",
    attrs = dict({
        "competition_id": attr.string(mandatory = True, doc = "Upstream's competition id."),
        "raw": attr.label(
            mandatory = True,
            allow_files = True,
            doc = "A target whose single output is the raw download directory.",
        ),
        "preparer": attr.label(
            mandatory = True,
            executable = True,
            cfg = "target",
            doc = "The competition's prepare binary.",
        ),
        "dataset": attr.string(
            default = "synthetic",
            values = ["synthetic", "kaggle"],
            doc = "Where the raw data came from; recorded in reports.",
        ),
    }, **BASELINE_LIBM_ATTRS),
)

def _kaggle_data_impl(ctx):
    competition_dir = ctx.attr.data_dir + "/" + ctx.attr.competition_id
    handle = ctx.actions.declare_file(ctx.label.name + "/handle.txt")
    dataset_file = ctx.actions.declare_file(ctx.label.name + "/dataset.txt")
    prepared_dir = competition_dir + "/prepared"
    info = PreparedDataInfo(
        competition_id = ctx.attr.competition_id,
        public_dir = prepared_dir + "/public",
        private_dir = prepared_dir + "/private",
        public_inputs = depset([handle]),
        private_inputs = depset([handle, dataset_file]),
        dataset_flags = ["--dataset_file", dataset_file.path],
        runner_flags = ["--link_public"],
        forbidden_dirs = [ctx.attr.data_dir],
        check_flags = ["--data_handle", handle.short_path, "--prepared_dir", prepared_dir],
        check_files = depset([handle]),
    )
    if not ctx.file.scan:
        # No data for this competition: fail its build (and so its test) with
        # the reason, without failing the analysis of every other one.
        message = ("no data for %s in %s: expected %s/prepared/{public,private}, %s/raw/ or " +
                   "%s/%s.zip (just added? run `bazel sync --only=mlebench_data`)") % (
            ctx.attr.competition_id,
            ctx.attr.data_dir,
            competition_dir,
            competition_dir,
            competition_dir,
            ctx.attr.competition_id,
        )
        ctx.actions.run_shell(
            outputs = [handle, dataset_file],
            command = "echo \"$1\" >&2; exit 1",
            arguments = [message],
            mnemonic = "MlePrepare",
            progress_message = "Preparing real data of %s: missing" % ctx.attr.competition_id,
        )
        return [DefaultInfo(files = depset([handle, dataset_file])), info]

    args = [
        "--competition",
        ctx.attr.competition_id,
        "--data_dir",
        ctx.attr.data_dir,
        "--answers",
        ctx.attr.answers,
        "--sample_submission",
        ctx.attr.sample_submission,
        "--manifest",
        ctx.file.scan.path,
        "--handle_out",
        handle.path,
        "--dataset_out",
        dataset_file.path,
    ]
    inputs = [ctx.file.scan]
    if ctx.file.checksums:
        args += ["--checksums", ctx.file.checksums.path]
        inputs.append(ctx.file.checksums)

    # Writes <data_dir>/<id>/prepared/ in place (upstream's layout), hence no
    # sandbox; its declared outputs are only the handle and the dataset name.
    ctx.actions.run(
        executable = ctx.executable.preparer,
        arguments = args,
        inputs = inputs,
        outputs = [handle, dataset_file],
        env = baseline_libm_env(ctx),
        mnemonic = "MlePrepare",
        progress_message = "Preparing real data of %s in %s" % (ctx.attr.competition_id, competition_dir),
        execution_requirements = {"no-sandbox": "1"},
    )
    return [DefaultInfo(files = depset([handle, dataset_file])), info]

# What the two rules of real data share: where the answers and the sample
# submission are in prepared/, upstream's checksums, the preparer.
_REAL_DATA_ATTRS = {
        "answers": attr.string(
            mandatory = True,
            doc = "The answers file, relative to prepared/ (e.g. private/test.csv).",
        ),
        "sample_submission": attr.string(
            mandatory = True,
            doc = "The sample submission, relative to prepared/ (e.g. public/sample_submission.csv).",
        ),
        "checksums": attr.label(
            allow_single_file = [".yaml"],
            doc = "Optional upstream checksums.yaml the prepared files must match.",
        ),
        "preparer": attr.label(
            mandatory = True,
            executable = True,
            cfg = "target",
            doc = "The competition's prepare binary.",
        ),
}
_REAL_DATA_ATTRS.update(BASELINE_LIBM_ATTRS)

kaggle_data = rule(
    implementation = _kaggle_data_impl,
    doc = "A competition's real data in a data dir of upstream's layout, read in place: " +
          "prepared/ is taken as is when complete, else prepared from raw/ (or the Kaggle zip) " +
          "into it. Only a stat manifest and a handle enter Bazel, never the data itself " +
          "(see docs/architecture.md, \"Real data\").",
    attrs = dict(_REAL_DATA_ATTRS, **{
        "competition_id": attr.string(mandatory = True, doc = "Upstream's competition id."),
        "data_dir": attr.string(mandatory = True, doc = "Absolute path of the data dir."),
        "scan": attr.label(
            allow_single_file = True,
            doc = "The competition's scan from @mlebench_data (the prepare step's cache key); " +
                  "None when the data dir has no data for it.",
        ),
    }),
)

# What upstream's checksums.yaml covers: the files directly in public/ and
# private/ with these extensions (data_dir.h, VerifyUpstreamChecksums).
_CHECKSUMMED_EXTENSIONS = [".csv", ".json", ".jsonl", ".parquet", ".bson"]

def _failing_data_action(ctx, outputs, message):
    """Fails the build of these outputs (and so the competition's test) with message,
    without failing the analysis of every other competition."""
    ctx.actions.run_shell(
        outputs = outputs,
        command = "echo \"$1\" >&2; exit 1",
        arguments = [message],
        mnemonic = "MlePrepare",
        progress_message = "Looking for the real data of %s" % ctx.attr.competition_id,
    )

def _kaggle_content_data_impl(ctx):
    competition_id = ctx.attr.competition_id
    dataset_file = ctx.actions.declare_file(ctx.label.name + "/dataset.txt")
    competition_dir = ctx.attr.data_dir + "/" + competition_id
    checksum_args = []
    checksum_inputs = []
    if ctx.file.checksums:
        checksum_args = ["--checksums", ctx.file.checksums.path]
        checksum_inputs = [ctx.file.checksums]

    # Content mode keeps no handle: the data's files are the agent's and the
    # grader's inputs themselves, so Bazel reruns them exactly when those
    # change, and the competition test has nothing outside Bazel to re-check.
    common = dict(
        competition_id = competition_id,
        dataset_flags = ["--dataset_file", dataset_file.path],
        # The agent's data/ links to public/ (read-only under bubblewrap)
        # instead of copying it: real datasets reach hundreds of GB.
        runner_flags = ["--link_public"],
        # The data dir itself stays forbidden to the agent's files, as in
        # place: locally the inputs resolve into it.
        forbidden_dirs = [ctx.attr.data_dir],
        check_flags = [],
        check_files = depset(),
    )
    if ctx.attr.error or not ctx.attr.kind:
        message = ctx.attr.error or (
            ("no data for %s in %s: expected %s/prepared/{public,private}, %s/raw/ or " +
             "%s/%s.zip (just added? run `bazel sync --only=mlebench_data`)") % (
                competition_id,
                ctx.attr.data_dir,
                competition_dir,
                competition_dir,
                competition_dir,
                competition_id,
            )
        )
        public = ctx.actions.declare_directory(ctx.label.name + "/public")
        private = ctx.actions.declare_directory(ctx.label.name + "/private")
        _failing_data_action(ctx, [public, private, dataset_file], message)
        return [
            DefaultInfo(files = depset([dataset_file])),
            PreparedDataInfo(
                public_dir = public.path,
                private_dir = private.path,
                public_inputs = depset([public, dataset_file]),
                private_inputs = depset([private, dataset_file]),
                **common
            ),
        ]

    if ctx.attr.kind == "prepared":
        # Taken as is: the files are the inputs of everything downstream;
        # the check reads only what it must (answers, sample submission,
        # what checksums.yaml covers and the dataset marker), so that a
        # remote executor fetches no images to check some CSV files.
        label = ctx.attr.public.label
        prepared_dir = "%s/%s/prepared" % (label.workspace_root, label.package)
        public_files = ctx.files.public
        private_files = ctx.files.private
        checked = []
        for f in public_files + private_files:
            relative = f.path[len(prepared_dir) + 1:]
            parts = relative.split("/")
            if relative in [ctx.attr.answers, ctx.attr.sample_submission] or (
                len(parts) == 2 and
                [e for e in _CHECKSUMMED_EXTENSIONS if parts[1].endswith(e) and parts[1] != e]
            ):
                checked.append(f)
        ctx.actions.run(
            executable = ctx.executable.preparer,
            arguments = [
                "--competition",
                competition_id,
                "--prepared",
                prepared_dir,
                "--answers",
                ctx.attr.answers,
                "--sample_submission",
                ctx.attr.sample_submission,
                "--dataset_out",
                dataset_file.path,
            ] + checksum_args,
            inputs = checked + ctx.files.other + checksum_inputs,
            outputs = [dataset_file],
            env = baseline_libm_env(ctx),
            mnemonic = "MlePrepare",
            progress_message = "Checking the prepared real data of %s" % competition_id,
        )
        return [
            DefaultInfo(files = depset([dataset_file])),
            PreparedDataInfo(
                public_dir = prepared_dir + "/public",
                private_dir = prepared_dir + "/private",
                # The dataset file too: nothing runs on data that failed its
                # check.
                public_inputs = depset(public_files + [dataset_file]),
                private_inputs = depset(private_files + [dataset_file]),
                **common
            ),
        ]

    # A raw download (or the Kaggle zip alone) prepared into tree artifacts.
    public = ctx.actions.declare_directory(ctx.label.name + "/public")
    private = ctx.actions.declare_directory(ctx.label.name + "/private")
    label = ctx.attr.raw.label
    root = "%s/%s" % (label.workspace_root, label.package)
    if ctx.attr.kind == "raw":
        source = ["--raw", root + "/raw"]
    else:
        source = ["--raw_zip", "%s/%s.zip" % (root, competition_id)]
    ctx.actions.run(
        executable = ctx.executable.preparer,
        arguments = ["--competition", competition_id] + source + [
            "--public",
            public.path,
            "--private",
            private.path,
            "--dataset_out",
            dataset_file.path,
        ] + checksum_args,
        inputs = ctx.files.raw + checksum_inputs,
        outputs = [public, private, dataset_file],
        env = baseline_libm_env(ctx),
        mnemonic = "MlePrepare",
        progress_message = "Preparing real data of %s from its %s" % (
            competition_id,
            "raw files" if ctx.attr.kind == "raw" else "zip",
        ),
    )
    return [
        DefaultInfo(files = depset([public, private, dataset_file])),
        PreparedDataInfo(
            public_dir = public.path,
            private_dir = private.path,
            public_inputs = depset([public]),
            private_inputs = depset([private, dataset_file]),
            **common
        ),
    ]

kaggle_content_data = rule(
    implementation = _kaggle_content_data_impl,
    doc = "A competition's real data with its files as Bazel inputs " +
          "(--repo_env=MLEBENCH_DATA_INPUTS=content): hashed by Bazel, uploaded to a remote " +
          "CAS once, read by relative path where the action runs. prepared/ is checked and " +
          "taken as is, else raw/ (or the Kaggle zip) is prepared into tree artifacts; the " +
          "data dir is never written (see docs/architecture.md, \"Real data\").",
    attrs = dict(_REAL_DATA_ATTRS, **{
        "competition_id": attr.string(mandatory = True, doc = "Upstream's competition id."),
        "data_dir": attr.string(
            mandatory = True,
            doc = "Absolute path of the data dir, for messages and the agent's forbidden roots " +
                  "only: no action reads it.",
        ),
        "kind": attr.string(
            values = ["", "prepared", "raw", "zip"],
            doc = "What @mlebench_data//content/<id> holds (CONTENT in its config.bzl); empty " +
                  "without data.",
        ),
        "error": attr.string(doc = "Why the files cannot be inputs (CONTENT_ERRORS), if so."),
        "public": attr.label(allow_files = True, doc = "kind prepared: prepared/public's files."),
        "private": attr.label(allow_files = True, doc = "kind prepared: prepared/private's files."),
        "other": attr.label(
            allow_files = True,
            doc = "kind prepared: prepared/'s other files (the dataset marker).",
        ),
        "raw": attr.label(allow_files = True, doc = "kind raw or zip: raw/'s files, or the zip."),
    }),
)

# Rule kinds whose outputs hold, or are made from, a competition's answers.
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
_ANSWER_PACKAGE_ROOTS = ["competitions", "testdata"]

def _no_answers_in_agent_impl(target, ctx):
    package = target.label.package
    if target.label.workspace_name == "mlebench_data" and package.startswith("content/"):
        fail(("%s is in the dependencies of the agent: an agent must not depend on a " +
              "competition's real data files, which hold the answers. It gets the public " +
              "files in its workspace at run time (see docs/security.md).") % target.label)
    if target.label.workspace_name == "" and package.split("/")[0] in _ANSWER_PACKAGE_ROOTS:
        fail(("%s is in the dependencies of the agent: an agent must not depend on anything " +
              "under //competitions or //testdata (graders, preparers, synthetic-data " +
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
            agent.executable.root.path + "/testdata",
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
            default = "//tools:source_tree_marker.txt",
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

def _graded_report_impl(ctx):
    data = ctx.attr.data[PreparedDataInfo]
    reports = []
    for run in ctx.attr.run[AgentRunInfo].runs:
        # run-<i>.json, like the run's directory: an unchanged submission is
        # never regraded when other seeds are added or the seeds change.
        report = ctx.actions.declare_file("%s/run-%d.json" % (ctx.label.name, run.index))
        args = [
            "--competition",
            data.competition_id,
            "--submission",
            run.submission_dir.path + "/submission.csv",
            "--answers",
            data.private_dir + "/" + ctx.attr.answers,
            "--out",
            report.path,
            "--submission_path_label",
            run.submission_dir.short_path + "/submission.csv",
        ] + data.dataset_flags
        inputs = [run.submission_dir]
        if ctx.file.leaderboard:
            args += ["--leaderboard", ctx.file.leaderboard.path]
            inputs.append(ctx.file.leaderboard)
        else:
            args += ["--thresholds_csv", ctx.file._thresholds.path]
            inputs.append(ctx.file._thresholds)
        ctx.actions.run(
            executable = ctx.executable.grader,
            arguments = args,
            inputs = depset(inputs, transitive = [data.private_inputs]),
            outputs = [report],
            env = baseline_libm_env(ctx),
            mnemonic = "MleGrade",
            progress_message = "Grading %s (seed %d)" % (data.competition_id, run.seed),
        )
        reports.append(struct(seed = run.seed, report = report))
    return [
        DefaultInfo(files = depset([r.report for r in reports])),
        CompetitionReportInfo(reports = reports),
    ]

graded_report = rule(
    implementation = _graded_report_impl,
    doc = "Grades each seed's submission against the private answers, one action per seed.",
    attrs = dict({
        "data": attr.label(mandatory = True, providers = [PreparedDataInfo]),
        "run": attr.label(mandatory = True, providers = [AgentRunInfo]),
        "grader": attr.label(
            mandatory = True,
            executable = True,
            cfg = "target",
            doc = "The competition's grade binary.",
        ),
        "answers": attr.string(
            mandatory = True,
            doc = "Path of the answers file inside private/.",
        ),
        "leaderboard": attr.label(
            allow_single_file = [".csv"],
            doc = "Optional upstream leaderboard.csv; without it the embedded thresholds are used.",
        ),
        "_thresholds": attr.label(
            default = "//grading:medal_thresholds.csv",
            allow_single_file = True,
        ),
    }, **BASELINE_LIBM_ATTRS),
)

def _competition_test_impl(ctx):
    reports = ctx.attr.report[CompetitionReportInfo].reports
    run_info = ctx.attr.run[AgentRunInfo]
    policy = ctx.attr._gate[BuildSettingInfo].value
    checker = ctx.executable._checker
    check_flags = []
    check_files = depset()
    if ctx.attr.data:
        check_flags = ctx.attr.data[PreparedDataInfo].check_flags
        check_files = ctx.attr.data[PreparedDataInfo].check_files
    sample_report = ctx.attr.sample_report[CompetitionReportInfo].reports[0].report
    runs_manifest = ctx.actions.declare_file(ctx.label.name + "_runs.tsv")
    lines = []
    files = []
    for run, graded in zip(run_info.runs, reports):
        lines.append("\t".join([
            str(run.seed),
            graded.report.short_path,
            run.record.short_path,
            run.log.short_path,
            run.artifacts.short_path,
            run.submission_dir.short_path,
        ]))
        files += [graded.report, run.record, run.log, run.artifacts, run.submission_dir]
    ctx.actions.write(runs_manifest, "\n".join(lines) + "\n")
    script = ctx.actions.declare_file(ctx.label.name + "_test.sh")
    ctx.actions.write(
        output = script,
        is_executable = True,
        content = "\n".join([
            "#!/bin/sh",
            "# Generated by //competitions:rules.bzl; runs from the runfiles root.",
            "exec %s \\" % _shell_quote(checker.short_path),
            "  --competition %s \\" % _shell_quote(ctx.attr.competition_id),
            "  --runs %s \\" % _shell_quote(runs_manifest.short_path),
            "  --agent %s \\" % _shell_quote(run_info.agent),
            "  --isolation_requested %s \\" % _shell_quote(run_info.isolation),
            "  --network_requested %s \\" % _shell_quote(run_info.network_requested),
            "  --sample_report %s \\" % _shell_quote(sample_report.short_path),
        ] + [
            "  --baseline %s \\" % _shell_quote(f.short_path)
            for f in ctx.files._baseline
        ] + [
            "  --gate %s %s\"$@\"" % (
                policy,
                "".join([_shell_quote(flag) + " " for flag in check_flags]),
            ),
            "",
        ]),
    )
    if len(ctx.files._baseline) > 1:
        fail("--//competitions:baseline names %d files; name one grading report" %
             len(ctx.files._baseline))
    runfiles = ctx.runfiles(
        files = files + [runs_manifest, sample_report] + ctx.files._baseline,
        transitive_files = check_files,
    )
    runfiles = runfiles.merge(ctx.attr._checker[DefaultInfo].default_runfiles)
    return [
        DefaultInfo(executable = script, runfiles = runfiles),
        CompetitionResultInfo(
            competition_id = ctx.attr.competition_id,
            agent = run_info.agent,
            seeds = [
                struct(seed = run.seed, report = graded.report, record = run.record)
                for run, graded in zip(run_info.runs, reports)
            ],
            sample_report = sample_report,
        ),
    ]

def _split_reports_impl(ctx):
    results = [t[CompetitionResultInfo] for t in ctx.attr.tests]
    agents = {r.agent: True for r in results}
    if len(agents) > 1:
        fail("split_reports %s: tests of several agents: %s" % (ctx.label, ", ".join(agents)))
    out = ctx.actions.declare_directory(ctx.label.name)
    manifest = ctx.actions.declare_file(ctx.label.name + "_manifest.tsv")
    lines = []
    inputs = []
    for result in results:
        inputs.append(result.sample_report)
        for seed in result.seeds:
            lines.append("\t".join([
                result.competition_id,
                str(seed.seed),
                seed.report.path,
                seed.record.path,
                result.sample_report.path,
            ]))
            inputs += [seed.report, seed.record]
    ctx.actions.write(manifest, "\n".join(lines) + "\n")
    ctx.actions.run(
        executable = ctx.executable._tool,
        arguments = [
            "--agent",
            results[0].agent if results else "",
            "--manifest",
            manifest.path,
            "--out",
            out.path,
        ],
        inputs = inputs + [manifest],
        outputs = [out],
        mnemonic = "MleSplitReports",
        progress_message = "Collecting the reports of %s" % ctx.label,
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

def _split_summary_impl(ctx):
    reports = ctx.files.reports
    out = ctx.actions.declare_directory(ctx.label.name)
    ctx.actions.run(
        executable = ctx.executable._mlebench,
        arguments = ["aggregate"] + [r.path for r in reports] + [
            "--split",
            ctx.attr.split,
            "--output-dir",
            out.path,
        ] + (["--pad-missing"] if ctx.attr.pad_missing else []),
        inputs = reports,
        outputs = [out],
        mnemonic = "MleAggregate",
        progress_message = "Aggregating %s (upstream's leaderboard figures)" % ctx.label,
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

split_summary = rule(
    implementation = _split_summary_impl,
    doc = "Upstream's leaderboard figures for one split over its reports (`mlebench " +
          "aggregate`): summary.json (per agent: submission, valid, above median, gold, " +
          "silver, bronze, any medal - mean, SEM with ddof=1, 95% interval over complete " +
          "seeds), upstream-compatible grading reports per seed. A cached action: an " +
          "unchanged split is not aggregated again. What it prints is the console's table.",
    attrs = {
        "reports": attr.label(
            mandatory = True,
            doc = "The split's reports (a split_reports target).",
        ),
        "split": attr.string(mandatory = True, doc = "low, medium, high, split75, dev or all."),
        "pad_missing": attr.bool(
            default = False,
            doc = "Pad incomplete seeds with failing reports (upstream's --pad-missing) " +
                  "instead of leaving them out; the summary says it did.",
        ),
        "_mlebench": attr.label(
            default = "//tools:mlebench",
            executable = True,
            cfg = "exec",
        ),
    },
)

def _split_regression_test_impl(ctx):
    summary = ctx.files.summary[0]
    reports = ctx.files.reports[0]
    checker = ctx.executable._checker
    baseline = ctx.files._baseline
    if len(baseline) > 1:
        fail("--//competitions:baseline names %d files; name one grading report" % len(baseline))
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        output = script,
        is_executable = True,
        content = "\n".join([
            "#!/bin/sh",
            "# Generated by //competitions:rules.bzl; runs from the runfiles root.",
            "exec %s --split %s --competitions %s --summary %s --reports %s \\" % (
                _shell_quote(checker.short_path),
                _shell_quote(ctx.attr.split),
                _shell_quote(",".join(ctx.attr.competitions)),
                _shell_quote(summary.short_path + "/summary.json"),
                _shell_quote(reports.short_path),
            ),
            "  --max_regression %d %s" % (
                ctx.attr._max_regression[BuildSettingInfo].value,
                "--baseline " + _shell_quote(baseline[0].short_path) if baseline else "",
            ),
            "",
        ]),
    )
    runfiles = ctx.runfiles(files = [summary, reports] + baseline)
    runfiles = runfiles.merge(ctx.attr._checker[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

split_regression_test = rule(
    implementation = _split_regression_test_impl,
    test = True,
    doc = "Fails when a split's any-medal share (its split_summary) falls more than " +
          "--//competitions:max_regression points below --//competitions:baseline's, naming " +
          "the competitions whose medal dropped; passes, saying so, without a baseline.",
    attrs = {
        "split": attr.string(mandatory = True),
        "competitions": attr.string_list(mandatory = True, doc = "The split's competition ids."),
        "summary": attr.label(mandatory = True, doc = "The split's split_summary."),
        "reports": attr.label(mandatory = True, doc = "The split's split_reports."),
        "_baseline": attr.label(default = "//competitions:baseline", allow_files = True),
        "_max_regression": attr.label(default = "//competitions:max_regression"),
        "_checker": attr.label(
            default = "//competitions:split_regression",
            executable = True,
            cfg = "target",
        ),
    },
)

split_reports = rule(
    implementation = _split_reports_impl,
    doc = "The reports of a split's competition tests, one upstream-shaped grading report " +
          "per seed (seed-<N>_grading_report.json: what upstream's aggregation reads), " +
          "completed as each test completes them. A cached action: unchanged reports and " +
          "run records, no work.",
    attrs = {
        "tests": attr.label_list(
            mandatory = True,
            providers = [CompetitionResultInfo],
            doc = "The split's competition tests.",
        ),
        "_tool": attr.label(
            default = "//competitions:split_reports",
            executable = True,
            cfg = "exec",
        ),
    },
)

def _shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

competition_test = rule(
    implementation = _competition_test_impl,
    test = True,
    doc = "Reads the graded report of each seed, writes JUnit XML with one testcase per " +
          "seed (score, medal, thresholds, budget and usage as properties), copies the " +
          "reports, run records and logs into the test's undeclared outputs " +
          "(<id>.seed-<N>.*), prints one summary line per seed and passes when every seed " +
          "passes --//competitions:gate.",
    attrs = {
        "competition_id": attr.string(mandatory = True),
        "report": attr.label(mandatory = True, providers = [CompetitionReportInfo]),
        "run": attr.label(mandatory = True, providers = [AgentRunInfo]),
        "sample_report": attr.label(
            mandatory = True,
            providers = [CompetitionReportInfo],
            doc = "The sample submission's graded report (a graded_report of an agent_run " +
                  "with fixed_agent = the dummy): the score each seed is measured against.",
        ),
        "data": attr.label(
            providers = [PreparedDataInfo],
            doc = "The data the report was graded on; for real data, the test checks that " +
                  "the prepared files have not changed since.",
        ),
        "_gate": attr.label(default = "//competitions:gate"),
        "_baseline": attr.label(default = "//competitions:baseline", allow_files = True),
        "_checker": attr.label(
            default = "//competitions:check_report",
            executable = True,
            cfg = "target",
        ),
    },
)
