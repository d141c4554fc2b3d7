"""mle_competition: one competition, declared from its package.

A competition lives in competitions/<id>/ (the id is upstream's, taken from the
package name), with its row in competitions/competitions.tsv and these sources:

    grade.cc  grade_test.cc          upstream's grade.py and its tests
    prepare.cc  prepare_test.cc      upstream's prepare.py and its tests
    generate_raw.cc  generate_raw_test.cc
                                     the synthetic raw download and its tests
    description.md                   the task, in our own words
    upstream_grade.py                upstream's grade() restated in Python, with
                                     random cases (//tools/upstream_grade)

The three test files are one test, `code_test`, compiled as one translation
unit (//bazel:unity_source.bzl); each keeps its names in the namespace
`mlebench::<file stem>` (e.g. mlebench::prepare_test).

Its BUILD file is one `mle_competition(...)` call naming what those sources
depend on beyond the usual (see _GRADER_DEPS and friends below); everything else
is derived here. The sources see the id as the string macro
MLEBENCH_COMPETITION_ID, so it is written nowhere else.

The pipeline the macro wires (rules in //competitions:rules.bzl):

    raw data --prepare--> public/ + private/ --agent--> submission/
    submission/ + private/ + thresholds --grade--> report.json --test--> pass/fail
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library", "cc_test")
load("@mlebench_competitions//:table.bzl", "COMPETITIONS")
load(
    "@mlebench_data//:config.bzl",
    "CONTENT",
    "CONTENT_ERRORS",
    "DATA_DIR",
    "DATA_INPUTS",
    "REPO_DIR",
    "SCANNED",
    "UPSTREAM_FILES",
)
load("//competitions:agent_run.bzl", "agent_run")
load("//competitions:data_rules.bzl", "kaggle_content_data", "kaggle_data", "prepared_data")
load("//competitions:rules.bzl", "competition_test", "graded_report")
load("//agent_runner:defs.bzl", "agent_exec_properties")
load("//synthetic:defs.bzl", "synthetic_raw")
load("//bazel/fuzz:fuzz.bzl", "cc_fuzz_test")
load("//bazel:precompiled_header.bzl", "precompiled_header_copts", "precompiled_header_deps")
load("//bazel:unity_source.bzl", "unity_source")
load("//bazel:layers.bzl", "layer_sources")

# What every grader, preparer and generator (and their tests) depends on; a
# competition lists only what it needs beyond these.
_GRADER_DEPS = [
    "//base:status_macros",
    "//base:table",
    "//grading:grader",
    "@com_google_absl//:status",
    "@com_google_absl//:strings",
]
_PREPARER_DEPS = [
    "//base:status_macros",
    "//competitions/common:preparer",
    "@com_google_absl//:status",
]
_GENERATOR_DEPS = [
    "//base:status_macros",
    "//synthetic:synthetic",
    "@com_google_absl//:status",
]
_TEST_DEPS = [
    ":generator",
    ":grader",
    ":preparer",
    "//base:table",
    "//base/testing:test_util",
    "//competitions/common:prepare_test_util",
    "//grading:grader",
    "//grading:grader_testing",
    "//synthetic:synthetic_test_util",
    "@com_google_googletest//:gtest_main",
]

# The competitions' tests compile at -O0 (their precompiled header too): a
# test's own code is assertions and small tables, while what it tests, the
# competition's libraries, keeps the project's -O1. That makes the 82
# compiles of code_test_unity.cc a quarter shorter (docs/performance.md).
CODE_TEST_COPTS = ["-O0"]

# The precompiled header of each of the competition's targets
# (//competitions/common:BUILD.bazel; bazel/precompiled_header.bzl), and the
# copts that header was compiled with after --copt, which the target must
# pass too: most of a competition's compile time was parsing the same
# standard and absl headers.
_PRECOMPILED_HEADERS = {
    "grader": struct(label = "//competitions/common:grader_pch", copts = []),
    "preparer": struct(label = "//competitions/common:preparer_pch", copts = []),
    "generator": struct(label = "//competitions/common:generator_pch", copts = []),
    "code_test": struct(label = "//competitions/common:code_test_pch", copts = CODE_TEST_COPTS),
}

# A target with copts of its own (say -O2) compiles without the header: GCC
# takes a precompiled header built with other optimisation options without a
# word, and crashed on one (tabular-playground-series-may-2022's generator at
# -O2 on the -O1 header: an internal compiler error).
def _precompiled_header_deps(target, copts):
    return [] if copts != None else precompiled_header_deps(_PRECOMPILED_HEADERS[target].label)

def _precompiled_header_copts(target, copts):
    if copts != None:
        return copts
    header = _PRECOMPILED_HEADERS[target]
    return precompiled_header_copts(header.label) + header.copts

# The competition's own libraries and binaries are linked into the
# all-competition tools (//competitions:all_competitions) and used by the
# tools' tests; nothing else may depend on them.
_LIBRARY_VISIBILITY = ["//competitions:__pkg__", "//tools:__subpackages__"]

# How long each competition's grader fuzz test mutates in CI after its seeds
# (`./bazelw test //...`; --//bazel/fuzz:seconds=N overrides it): 82 of them
# share CI's two cores (docs/security.md, "Fuzzing the graders").
GRADE_FUZZ_SECONDS = 2

def _id_define(competition_id):
    return ['MLEBENCH_COMPETITION_ID=\\"%s\\"' % competition_id]

def mle_competition(
        grader_deps = [],
        preparer_deps = [],
        generator_deps = [],
        test_deps = [],
        generator = {},
        test = {},
        description = "description.md",
        synthetic_seed = 0,
        leaderboard = None,
        sample_submission = None,
        tags = [],
        **kwargs):
    """Declares a competition: its libraries, their tests and its Bazel test.

    Targets, in competitions/<id>/:
      grader, preparer, generator: cc_library (alwayslink), registering the
        competition's grader, preparer and synthetic generator;
      code_test: their tests (grade_test.cc, prepare_test.cc and
        generate_raw_test.cc), one binary compiled as one unit;
      grade, prepare, raw_generator: the binaries the pipeline runs;
      validate: what validate_submission.sh runs in the agent's sandbox;
      raw: the synthetic raw download (it holds the answers: visible to this
        package and //tools only, never to an agent);
      <id>_data, <id>_run, <id>_report: the prepared data, the agent's run and
        its graded report (visible to this package and //tools only);
      <id>: the competition test (`bazel test //competitions/<id>`);
      grade_fuzzer, grade_fuzzer_test: the grader under libFuzzer, ASan and
        UBSan against the synthetic answers, and its CI test (synthetic data
        only; grading/grade_fuzzing.h, bazel/fuzz/fuzz.bzl).

    With --repo_env=MLEBENCH_DATA_DIR=DIR (see //bazel:data_repository.bzl),
    `<id>_data` is the real data in DIR/<id>/ instead of `raw`, read in place
    (kaggle_data), or, with --repo_env=MLEBENCH_DATA_INPUTS=content, from its
    files as Bazel inputs (kaggle_content_data); with
    --repo_env=MLEBENCH_REPO_DIR=DIR, upstream's leaderboard.csv,
    description.md and checksums.yaml replace the embedded thresholds and our
    description, and prepared data is checked.

    Args:
      grader_deps: what grade.cc needs beyond _GRADER_DEPS.
      preparer_deps: what prepare.cc needs beyond _PREPARER_DEPS.
      generator_deps: what generate_raw.cc needs beyond _GENERATOR_DEPS.
      test_deps: what the three test files need beyond _TEST_DEPS.
      generator: more attributes of generator (e.g. copts).
      test: more attributes of code_test (e.g. data, size, shard_count).
      description: the task description in our own words (Markdown).
      synthetic_seed: the generator's seed for `raw` (the same seed gives
        byte-identical data).
      leaderboard: optional upstream leaderboard.csv for thresholds.
      sample_submission: the sample submission's path inside public/, for the
        few competitions where upstream's table points elsewhere (e.g. to
        private/, with a zipped copy in public/); default: from the table.
      tags: extra tags for the competition test; its splits are added.
      **kwargs: passed to the competition test (e.g. size, timeout).
    """
    package = native.package_name()
    if not package.startswith("competitions/") or package.count("/") != 1:
        fail("mle_competition belongs in competitions/<id>/BUILD.bazel, not in %s" % package)
    name = package[len("competitions/"):]
    if name not in COMPETITIONS:
        fail("%s is not an upstream competition id (see competitions/competitions.tsv)" % name)
    info = COMPETITIONS[name]
    prefix = name + "/prepared/private/"
    if not info.answers.startswith(prefix):
        fail("answers of %s are not under prepared/private/: %s" % (name, info.answers))
    public_prefix = name + "/prepared/public/"
    if sample_submission == None:
        if not info.sample_submission.startswith(public_prefix):
            fail(("upstream keeps the sample submission of %s outside prepared/public/ (%s): " +
                  "pass sample_submission = the agent-visible one") % (name, info.sample_submission))
        sample_submission = info.sample_submission[len(public_prefix):]

    # The competition's three libraries, each with the binary the pipeline
    # runs.
    defines = _id_define(name)
    for library, source, library_deps, library_args, binary, main in [
        ("grader", "grade", _GRADER_DEPS + grader_deps, {}, "grade", "//grading:grade_main"),
        ("preparer", "prepare", _PREPARER_DEPS + preparer_deps, {}, "prepare",
         "//competitions/common:prepare_main"),
        ("generator", "generate_raw", _GENERATOR_DEPS + generator_deps, generator,
         "raw_generator", "//synthetic:generate_main"),
    ]:
        library_args = dict(library_args)
        copts = library_args.pop("copts", None)
        cc_library(
            name = library,
            srcs = [source + ".cc"],
            deps = library_deps + _precompiled_header_deps(library, copts),
            copts = _precompiled_header_copts(library, copts),
            local_defines = defines,
            alwayslink = 1,
            visibility = _LIBRARY_VISIBILITY,
            **library_args
        )
        cc_binary(
            name = binary,
            deps = [":" + library, main],
            visibility = _LIBRARY_VISIBILITY,
        )

    # What an agent's validate_submission.sh runs in its sandbox: the grader
    # with the public sample submission standing in for the answers
    # (grading/public_validation.h), never the answers themselves. One
    # binary per competition, like `grade`, so that a change to another
    # competition's grader leaves it (and the agent runs it is mounted in)
    # unchanged.
    cc_binary(
        name = "validate",
        deps = [":grader", "//grading:validate_main"],
        visibility = _LIBRARY_VISIBILITY,
    )

    # Their tests, one binary: the three files share one compile of the
    # headers they all include, and one test start.
    unity_source(
        name = "code_test_unity",
        srcs = ["grade_test.cc", "prepare_test.cc", "generate_raw_test.cc"],
    )
    test = dict(test)
    test_copts = test.pop("copts", None)
    cc_test(
        name = "code_test",
        srcs = [":code_test_unity"],
        deps = _TEST_DEPS + test_deps + _precompiled_header_deps("code_test", test_copts),
        copts = _precompiled_header_copts("code_test", test_copts),
        local_defines = defines,
        # The nested-Bazel tests of //tools build it first (NESTED_BUILD_TARGETS).
        visibility = ["//tools:__pkg__"],
        **test
    )
    # Upstream's grade() restated in Python, with random cases
    # (//tools/upstream_grade: the grader-level differential test).
    native.filegroup(
        name = "upstream_grade",
        srcs = native.glob(["upstream_grade.py"]),
        visibility = ["//tools/upstream_grade:__pkg__"],
    )
    layer_sources()

    # The grader under libFuzzer (grading/grade_fuzzing.h): each input a
    # submission graded as the grade action grades it, against the synthetic
    # answers, held to the grading limits those answers set. Seeds: the
    # sample submission and its hostile variants (the harness writes them),
    # and the regression cases in grade_fuzzer_corpus/. Real answers are
    # large and not the code's to fuzz: none with MLEBENCH_DATA_DIR.
    if not DATA_DIR:
        # Where prepared_data's two directories (private/, public/) lie in
        # the runfiles.
        data_path = "competitions/%s/%s_data/" % (name, name)
        in_data = len(name + "/prepared/")
        cc_fuzz_test(
            name = "grade_fuzzer",
            srcs = [],
            deps = [":grader", "//grading:grade_fuzz_target"],
            corpus = native.glob(["grade_fuzzer_corpus/**"]),
            data = [":" + name + "_data"],
            fuzzer_args = [
                "--answers=" + data_path + info.answers[in_data:],
                "--sample=" + data_path + info.sample_submission[in_data:],
            ],
            seconds = GRADE_FUZZ_SECONDS,
            # The grading limits of these answers (grading_limits.h), which
            # the harness sets as libFuzzer's defaults, not fixed numbers.
            timeout_seconds = 0,
            rss_limit_mb = 0,
            tags = ["grade_fuzzer"],
        )

    # The raw download holds every label, the held-out answers included: only
    # this package and the tools' tests may depend on it, never an agent.
    synthetic_raw(
        name = "raw",
        competition_id = name,
        generator = ":raw_generator",
        seed = synthetic_seed,
        visibility = ["//tools:__pkg__"],
    )

    checksums = None
    if REPO_DIR:
        upstream = "@mlebench_data//:upstream/%s/" % name
        if name + "/leaderboard.csv" in UPSTREAM_FILES and leaderboard == None:
            leaderboard = upstream + "leaderboard.csv"
        if name + "/description.md" in UPSTREAM_FILES:
            description = upstream + "description.md"
        if name + "/checksums.yaml" in UPSTREAM_FILES:
            checksums = upstream + "checksums.yaml"

    # The prepared data, the run and the report hold or reveal the answers:
    # visible to the competition's own package and the tools' tests only, so
    # that no agent (nor its build actions) can name them.
    private_visibility = ["//tools:__pkg__"]
    prepared_prefix = name + "/prepared/"
    in_place = DATA_DIR and DATA_INPUTS == "in_place"
    if DATA_DIR and not in_place:
        # The data's files, one label each, in @mlebench_data//content/<id>
        # (none when they cannot be labels: the error says why).
        kind = CONTENT.get(name, "")
        files = "@mlebench_data//content/%s:" % name
        prepared = kind == "prepared" and name not in CONTENT_ERRORS
        raw = kind in ["raw", "zip"] and name not in CONTENT_ERRORS
        kaggle_content_data(
            name = name + "_data",
            competition_id = name,
            data_dir = DATA_DIR,
            kind = kind,
            error = CONTENT_ERRORS.get(name, ""),
            public = files + "public" if prepared else None,
            private = files + "private" if prepared else None,
            other = files + "other" if prepared else None,
            raw = files + "raw" if raw else None,
            answers = info.answers[len(prepared_prefix):],
            sample_submission = info.sample_submission[len(prepared_prefix):],
            checksums = checksums,
            preparer = ":prepare",
            visibility = private_visibility,
        )
    elif DATA_DIR:
        kaggle_data(
            name = name + "_data",
            competition_id = name,
            data_dir = DATA_DIR,
            answers = info.answers[len(prepared_prefix):],
            sample_submission = info.sample_submission[len(prepared_prefix):],
            checksums = checksums,
            scan = "@mlebench_data//:scans/%s.txt" % name if name in SCANNED else None,
            preparer = ":prepare",
            visibility = private_visibility,
        )
    else:
        prepared_data(
            name = name + "_data",
            competition_id = name,
            raw = ":raw",
            preparer = ":prepare",
            dataset = "synthetic",
            visibility = private_visibility,
        )
    agent_run(
        name = name + "_run",
        data = ":" + name + "_data",
        description = description,
        sample_submission = sample_submission,
        # validate_submission.sh in the agent's workspace runs it.
        validator = ":validate",
        # Pool=gpu for the agent action of a run that asks for GPUs: what a
        # remote executor routes by (docs/remote.md).
        exec_properties = agent_exec_properties(),
        visibility = private_visibility,
    )
    graded_report(
        name = name + "_report",
        data = ":" + name + "_data",
        run = ":" + name + "_run",
        grader = ":grade",
        answers = info.answers[len(prefix):],
        leaderboard = leaderboard,
        visibility = private_visibility,
    )
    # The sample submission, as the dummy agent submits it, graded on the same
    # answers: the score every agent is measured against. It does not depend
    # on the chosen agent, so it runs and is graded once.
    agent_run(
        name = name + "_sample_run",
        data = ":" + name + "_data",
        description = description,
        sample_submission = sample_submission,
        fixed_agent = "//agent_runner/agents:dummy",
        fixed_agent_digest = "//agent_runner/agents:dummy_digest",
        visibility = private_visibility,
    )
    graded_report(
        name = name + "_sample_report",
        data = ":" + name + "_data",
        run = ":" + name + "_sample_run",
        grader = ":grade",
        answers = info.answers[len(prefix):],
        leaderboard = leaderboard,
        visibility = private_visibility,
    )
    competition_test(
        name = name,
        competition_id = name,
        report = ":" + name + "_report",
        run = ":" + name + "_run",
        sample_report = ":" + name + "_sample_report",
        data = ":" + name + "_data",
        # With real data read in place, the test re-checks files outside
        # Bazel's view, so its result is never taken from the cache. (By
        # content, the files are inputs: Bazel knows when they change.)
        tags = tags + ["mlebench", "metric:" + info.metric] + info.splits +
               (["external"] if in_place else []),
        # Any package may run it for an agent of its own (agent_test); an
        # agent that depends on it fails the analysis (no_answers_in_agent).
        visibility = ["//visibility:public"],
        **kwargs
    )
