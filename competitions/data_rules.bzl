"""A competition's data: prepared from synthetic raw data (prepared_data) or
from the user's real Kaggle download, in place (kaggle_data) or as Bazel inputs
by content (kaggle_content_data). Each gives PreparedDataInfo; see
competitions/rules.bzl for the steps around them."""

load("//base:baseline_libm.bzl", "BASELINE_LIBM_ATTRS", "baseline_libm_env")
load("//competitions:providers.bzl", "PreparedDataInfo")

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
