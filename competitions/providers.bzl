"""The providers of a competition's steps (competitions/rules.bzl has the whole picture)."""

GATING_POLICIES = ["none", "valid", "sample", "median", "bronze", "silver", "gold"]

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
