"""@mlebench_competitions: competitions/competitions.tsv as Starlark.

The table (upstream's competition list: id, splits, metric, answers and sample
submission paths) is the one source of truth for which competitions exist. This
repository rule reads it and writes `@mlebench_competitions//:table.bzl` with

    COMPETITIONS = {"<id>": struct(splits, metric, answers, sample_submission), ...}

so that BUILD files never repeat a row. The rule reruns whenever the table
changes (it is read through its label). A malformed row fails the fetch with the
file, line and reason.
"""

_HEADER = ["competition_id", "splits", "upstream_metric", "answers_path", "sample_submission_path"]

def _parse(text):
    lines = text.split("\n")
    if not lines or lines[0].split("\t") != _HEADER:
        fail("competitions/competitions.tsv: the header must be %s" % "\\t".join(_HEADER))
    rows = {}
    for number, line in enumerate(lines[1:], start = 2):
        if line == "":
            continue
        fields = line.split("\t")
        where = "competitions/competitions.tsv:%d: " % number
        if len(fields) != len(_HEADER):
            fail(where + "%d fields, expected %d" % (len(fields), len(_HEADER)))
        competition_id, splits, metric, answers, sample_submission = fields
        if not competition_id or not metric or not answers or not sample_submission:
            fail(where + "an empty field")
        if competition_id in rows:
            fail(where + "%s is listed twice" % competition_id)
        if not answers.startswith(competition_id + "/"):
            fail(where + "the answers path must start with %s/" % competition_id)
        rows[competition_id] = struct(
            splits = [s for s in splits.split(",") if s],
            metric = metric,
            answers = answers,
            sample_submission = sample_submission,
        )
    return rows

def _mlebench_competitions_impl(rctx):
    rows = _parse(rctx.read(rctx.attr.table))
    out = [
        '"""Upstream\'s competitions, read from competitions/competitions.tsv by',
        '//bazel:competition_table_repository.bzl (generated; edit the table)."""',
        "",
        "COMPETITIONS = {",
    ]
    for competition_id in sorted(rows.keys()):
        row = rows[competition_id]
        out += [
            '    "%s": struct(' % competition_id,
            "        splits = [%s]," % ", ".join(['"%s"' % s for s in row.splits]),
            '        metric = "%s",' % row.metric,
            '        answers = "%s",' % row.answers,
            '        sample_submission = "%s",' % row.sample_submission,
            "    ),",
        ]
    out.append("}")
    rctx.file("table.bzl", content = "\n".join(out) + "\n")
    rctx.file("BUILD.bazel", content = 'exports_files(["table.bzl"])\n')

mlebench_competitions = repository_rule(
    implementation = _mlebench_competitions_impl,
    doc = "Writes @<name>//:table.bzl (COMPETITIONS) from the competition table.",
    attrs = {
        "table": attr.label(
            default = "//competitions:competitions.tsv",
            allow_single_file = True,
            doc = "The tab-separated competition table.",
        ),
    },
)
