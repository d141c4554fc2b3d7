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
load("@mlebench_data//:config.bzl", "DATA_DIR", "REPO_DIR", "SCANNED", "UPSTREAM_FILES")

GATING_POLICIES = ["none", "valid", "median", "bronze", "silver", "gold"]

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
    doc = "One agent run on a competition.",
    fields = {
        "submission_dir": "Tree artifact holding submission.csv, or empty when the agent made none.",
        "log": "File: the agent's stdout and stderr.",
        "record": "File: the run record JSON (exit status, timed out, duration).",
        "agent": "Label string of the agent.",
        "seed": "The seed the agent ran with (int).",
        "isolation": "The isolation the user asked for ('bwrap' or 'none'); the record says " +
                     "what the run really had, and the test fails a run without isolation " +
                     "unless 'none' was asked for.",
    },
)

CompetitionReportInfo = provider(
    doc = "A graded competition.",
    fields = {
        "report": "File: the CompetitionReport JSON written by the grade action.",
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
    attrs = {
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
    },
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
        mnemonic = "MlePrepare",
        progress_message = "Preparing real data of %s in %s" % (ctx.attr.competition_id, competition_dir),
        execution_requirements = {"no-sandbox": "1"},
    )
    return [DefaultInfo(files = depset([handle, dataset_file])), info]

kaggle_data = rule(
    implementation = _kaggle_data_impl,
    doc = "A competition's real data in a data dir of upstream's layout, read in place: " +
          "prepared/ is taken as is when complete, else prepared from raw/ (or the Kaggle zip) " +
          "into it. Only a stat manifest and a handle enter Bazel, never the data itself " +
          "(see docs/architecture.md, \"Real data\").",
    attrs = {
        "competition_id": attr.string(mandatory = True, doc = "Upstream's competition id."),
        "data_dir": attr.string(mandatory = True, doc = "Absolute path of the data dir."),
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
        "scan": attr.label(
            allow_single_file = True,
            doc = "The competition's scan from @mlebench_data (the prepare step's cache key); " +
                  "None when the data dir has no data for it.",
        ),
        "preparer": attr.label(
            mandatory = True,
            executable = True,
            cfg = "target",
            doc = "The competition's prepare binary.",
        ),
    },
)

# Rule kinds whose outputs hold, or are made from, a competition's answers.
_ANSWER_RULE_KINDS = [
    "agent_run",
    "competition_test",
    "graded_report",
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
    if target.label.workspace_name == "" and package.split("/")[0] in _ANSWER_PACKAGE_ROOTS:
        fail(("%s is in the dependencies of the agent: an agent must not depend on anything " +
              "under //competitions or //testdata (graders, preparers, synthetic-data " +
              "generators, prepared data, runs, reports), which hold or can remake the " +
              "answers. Give the agent only its own code and data; it gets the public files " +
              "in its workspace at run time (see docs/security.md).") % target.label)
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

def _agent_run_impl(ctx):
    data = ctx.attr.data[PreparedDataInfo]
    agent = ctx.attr._agent[DefaultInfo].files_to_run
    seed = ctx.attr._seed[BuildSettingInfo].value
    time_limit = ctx.attr._time_limit_s[BuildSettingInfo].value
    isolation = ctx.attr._isolation[BuildSettingInfo].value
    network = ctx.attr._network[BuildSettingInfo].value
    submission = ctx.actions.declare_directory(ctx.label.name + "/submission")
    log = ctx.actions.declare_file(ctx.label.name + "/agent.log")
    record = ctx.actions.declare_file(ctx.label.name + "/run_record.json")
    ctx.actions.run(
        executable = ctx.executable._runner,
        arguments = [
            "--competition",
            data.competition_id,
            "--public",
            data.public_dir,
            "--description",
            ctx.file.description.path,
            "--agent",
            agent.executable.path,
            "--time_limit_s",
            str(time_limit),
            "--seed",
            str(seed),
            "--submission_out",
            submission.path,
            "--log_out",
            log.path,
            "--record_out",
            record.path,
            # Beside the execroot (in the output base), where `bazel clean`
            # never walks a tree the agent made; relative to the working
            # directory where that is no execroot (remote workers), so that
            # the action needs no writable /tmp. The runner deletes it
            # afterwards, or its janitor should the runner die.
            "--workspace",
            record.dirname + "/workspace",
            "--workspace_outside_execroot",
            "--sample_submission",
            ctx.attr.sample_submission,
            "--isolation",
            isolation,
            "--network",
            network,
            "--resource_limits",
            ctx.attr._resource_limits[BuildSettingInfo].value,
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
        ] + data.runner_flags,
        inputs = depset(
            [ctx.file.description, ctx.file._source_tree_marker],
            transitive = [data.public_inputs],
        ),
        tools = [agent, ctx.attr._sandbox_entry[DefaultInfo].files_to_run],
        outputs = [submission, log, record],
        mnemonic = "MleAgent",
        # The runner is the sandbox (bubblewrap, an unprivileged uid, cgroups):
        # Bazel's linux-sandbox would mount the cgroup file system read-only.
        execution_requirements = {"no-sandbox": "1"},
        progress_message = "Running agent %s on %s (seed %d)" % (
            ctx.attr._agent.label,
            data.competition_id,
            seed,
        ),
        exec_group = "agent",
    )
    return [
        DefaultInfo(
            files = depset([submission, log, record]),
            runfiles = ctx.runfiles(files = [submission, log, record]),
        ),
        AgentRunInfo(
            submission_dir = submission,
            log = log,
            record = record,
            agent = str(ctx.attr._agent.label),
            seed = seed,
            isolation = isolation,
        ),
    ]

agent_run = rule(
    implementation = _agent_run_impl,
    doc = "Runs the agent chosen with --//agent_runner:agent on a competition's public data, " +
          "inside one action in the `agent` exec group (route it to a GPU pool with " +
          "exec_properties = {\"agent.Pool\": ...} or --exec_properties).",
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
        "_time_limit_s": attr.label(default = "//agent_runner:time_limit_s"),
        "_isolation": attr.label(default = "//agent_runner:isolation"),
        "_network": attr.label(default = "//agent_runner:network"),
        "_runner": attr.label(
            default = "//agent_runner:run_agent",
            executable = True,
            cfg = "target",
        ),
    },
    exec_groups = {
        "agent": exec_group(),
    },
)

def _graded_report_impl(ctx):
    data = ctx.attr.data[PreparedDataInfo]
    run = ctx.attr.run[AgentRunInfo]
    report = ctx.actions.declare_file(ctx.label.name + ".json")
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
        mnemonic = "MleGrade",
        progress_message = "Grading %s" % data.competition_id,
    )
    return [
        DefaultInfo(files = depset([report])),
        CompetitionReportInfo(report = report),
    ]

graded_report = rule(
    implementation = _graded_report_impl,
    doc = "Grades an agent run's submission against the private answers.",
    attrs = {
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
    },
)

def _competition_test_impl(ctx):
    report = ctx.attr.report[CompetitionReportInfo].report
    run = ctx.attr.run[AgentRunInfo]
    policy = ctx.attr._gate[BuildSettingInfo].value
    checker = ctx.executable._checker
    check_flags = []
    check_files = depset()
    if ctx.attr.data:
        check_flags = ctx.attr.data[PreparedDataInfo].check_flags
        check_files = ctx.attr.data[PreparedDataInfo].check_files
    script = ctx.actions.declare_file(ctx.label.name + "_test.sh")
    ctx.actions.write(
        output = script,
        is_executable = True,
        content = "\n".join([
            "#!/bin/sh",
            "# Generated by //competitions:rules.bzl; runs from the runfiles root.",
            "exec %s \\" % _shell_quote(checker.short_path),
            "  --competition %s \\" % _shell_quote(ctx.attr.competition_id),
            "  --report %s \\" % _shell_quote(report.short_path),
            "  --run_record %s \\" % _shell_quote(run.record.short_path),
            "  --agent_log %s \\" % _shell_quote(run.log.short_path),
            "  --agent %s \\" % _shell_quote(run.agent),
            "  --seed %d \\" % run.seed,
            "  --isolation_requested %s \\" % _shell_quote(run.isolation),
            "  --gate %s %s\"$@\"" % (
                policy,
                "".join([_shell_quote(flag) + " " for flag in check_flags]),
            ),
            "",
        ]),
    )
    runfiles = ctx.runfiles(files = [report, run.record, run.log], transitive_files = check_files)
    runfiles = runfiles.merge(ctx.attr._checker[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

def _shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

competition_test = rule(
    implementation = _competition_test_impl,
    test = True,
    doc = "Reads a graded report, writes JUnit XML with score, medal and thresholds as " +
          "properties, copies the report into the test's undeclared outputs, prints one " +
          "summary line and passes or fails by --//competitions:gate.",
    attrs = {
        "competition_id": attr.string(mandatory = True),
        "report": attr.label(mandatory = True, providers = [CompetitionReportInfo]),
        "run": attr.label(mandatory = True, providers = [AgentRunInfo]),
        "data": attr.label(
            providers = [PreparedDataInfo],
            doc = "The data the report was graded on; for real data, the test checks that " +
                  "the prepared files have not changed since.",
        ),
        "_gate": attr.label(default = "//competitions:gate"),
        "_checker": attr.label(
            default = "//competitions:check_report",
            executable = True,
            cfg = "target",
        ),
    },
)
