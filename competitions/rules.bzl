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

The steps' rules are in three files: data_rules.bzl (prepare: prepared_data,
kaggle_data, kaggle_content_data), agent_run.bzl (the agent: agent_run and the
no_answers_in_agent aspect) and this one (grade and test: graded_report,
competition_test; the splits: split_reports, split_summary,
split_regression_test); providers.bzl has what they pass on.
"""

load("//bazel:build_settings.bzl", "BuildSettingInfo")
load("//base:baseline_libm.bzl", "BASELINE_LIBM_ATTRS", "baseline_libm_env")
load(
    "//competitions:providers.bzl",
    "AgentRunInfo",
    "CompetitionReportInfo",
    "CompetitionResultInfo",
    "PreparedDataInfo",
)

# Our own tools (preparers, graders, the agent runner and its sandbox entry)
# are built in the target configuration, like the tests that run them on the
# same machine: one compile of each source serves both, where the exec
# configuration compiled every grader, preparer and generator a second time
# (a third of the cold build's compile time, docs/performance.md). The agent
# alone stays `cfg = "exec"`: it is the user's, for the agent exec group.

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
        executable = ctx.executable._aggregate,
        arguments = [r.path for r in reports] + [
            "--competitions",
            ctx.file._competitions.path,
            "--split",
            ctx.attr.split,
            "--output-dir",
            out.path,
        ] + (["--pad-missing"] if ctx.attr.pad_missing else []),
        inputs = reports + [ctx.file._competitions],
        outputs = [out],
        mnemonic = "MleAggregate",
        progress_message = "Aggregating %s (upstream's leaderboard figures)" % ctx.label,
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

split_summary = rule(
    implementation = _split_summary_impl,
    doc = "Upstream's leaderboard figures for one split over its reports (what `mlebench " +
          "aggregate` writes, by //grading:aggregate_main): summary.json (per agent: submission, valid, above median, gold, " +
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
        "_aggregate": attr.label(
            default = "//grading:aggregate_main",
            executable = True,
            cfg = "exec",
        ),
        "_competitions": attr.label(
            default = "//competitions:competitions.tsv",
            allow_single_file = True,
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
