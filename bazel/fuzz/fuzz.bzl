"""cc_fuzz_test: a libFuzzer target of clang 14 with ASan and UBSan, and its CI test.

    load("//bazel/fuzz:fuzz.bzl", "cc_fuzz_test")

    cc_fuzz_test(
        name = "csv_fuzzer",
        srcs = ["csv_fuzzer.cc"],   # defines LLVMFuzzerTestOneInput
        deps = [":csv"],
    )

makes

  - `csv_fuzzer`: the fuzzer, an executable built with Debian's clang 14
    (@clang_toolchain, bazel/fuzz/clang_toolchain.bzl) with
    `-fsanitize=fuzzer,address,undefined`, every UBSan check fatal, and its
    libraries compiled the same way (the transition below). It takes
    libFuzzer's own arguments:

        # fuzz for an hour, new inputs kept in ~/fuzz/csv, seeds read too
        ./bazelw run //base:csv_fuzzer -- -max_total_time=3600 \\
            ~/fuzz/csv $PWD/base/csv_fuzzer_corpus
        # run one input (a crash the test reported, say) under the sanitizers
        ./bazelw run //base:csv_fuzzer -- $PWD/crash-0123abcd

    (`bazel run` starts it in its runfiles, so paths must be absolute.)
  - `csv_fuzzer_test`: a test of `./bazelw test //...` that runs the fuzzer
    over the seed corpus and then mutates for `seconds` (bazel/fuzz/
    run_fuzz_test.sh). Any crash, leak, undefined behaviour, input slower than
    `timeout_seconds`, or memory over `rss_limit_mb` (a single allocation over
    it included) fails it; the input that did is written to the test's
    undeclared outputs (bazel-testlogs/<package>/<name>_test/test.outputs/),
    never the source tree, and the log says how to reproduce it.

The seeds are the files under `<name>_corpus/` beside the BUILD file (made
from the unit tests' cases); a finding, once fixed, joins them as a regression
case.

GCC builds stay untouched: only the fuzzer and what it links are built in the
clang configuration (another output directory, `k8-fastbuild-ST-<hash>`), with
GCC's precompiled headers off there (`--//bazel:precompiled_headers=off`;
clang cannot read a GCC .gch).

CI's budget: `seconds` per target (default 10), or for every target at once
`--//bazel/fuzz:seconds=N` (0 runs the seeds only, then stops).
"""

load("@rules_cc//cc:defs.bzl", "cc_binary")
load("//bazel:build_settings.bzl", "BuildSettingInfo")
load("//bazel:sanitizer.bzl", "CLANG_CROSSTOOL_TOP", "without_sanitizer_options")

# Every file compiled for the fuzzer: instrumented for coverage (libFuzzer's
# -fsanitize=fuzzer-no-link), AddressSanitizer (LeakSanitizer with it) and
# UBSan, every UBSan finding fatal; -g1 for file:line in the reports.
FUZZ_COPTS = [
    "-fsanitize=fuzzer-no-link,address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
    "-g1",
]

# Every link in that configuration: the sanitizers' runtimes (UBSan's C++
# part too: Bazel links with `clang`, not `clang++`, which would leave out the
# vptr check's runtime), but not libFuzzer's main: the fuzzers add it
# themselves (FUZZER_LINKOPTS), the sanitized unit tests (sanitizer_suite in
# bazel/fuzz/sanitized_tests.bzl) have gtest's, and both take the same compiled
# libraries from the one configuration. The coverage hooks fuzzer-no-link
# compiles in are weak no-ops of the ASan runtime when libFuzzer is absent.
# GNU ld rather than the gold Bazel's autoconfiguration picks: gold warns of
# every ASan check routine it "cannot export" (a thousand lines a link).
FUZZ_LINKOPTS = [
    "-fsanitize=address,undefined",
    "-fsanitize-link-c++-runtime",
    "-fuse-ld=bfd",
]

# A fuzzer's own link: libFuzzer (its main and the coverage callbacks).
FUZZER_LINKOPTS = ["-fsanitize=fuzzer"]

_COPT = "//command_line_option:copt"
_LINKOPT = "//command_line_option:linkopt"
_CROSSTOOL_TOP = "//command_line_option:crosstool_top"
_HOST_CROSSTOOL_TOP = "//command_line_option:host_crosstool_top"
_FEATURES = "//command_line_option:features"
_STRIP = "//command_line_option:strip"
_PCH = "//bazel:precompiled_headers"
_SANITIZER = "//bazel:sanitizer"


def _to_clang(settings, attr):
    host = settings[_HOST_CROSSTOOL_TOP]
    return {
        _CROSSTOOL_TOP: CLANG_CROSSTOOL_TOP,
        # Tools built for the build itself (exec) stay on GCC: without this
        # Bazel would take their toolchain from --crosstool_top.
        _HOST_CROSSTOOL_TOP: host if host else settings[_CROSSTOOL_TOP],
        # --config=asan or ubsan (GCC's) on the same command line: this
        # configuration brings its own.
        _COPT: without_sanitizer_options(settings[_COPT]) + FUZZ_COPTS,
        _LINKOPT: without_sanitizer_options(settings[_LINKOPT]) + FUZZ_LINKOPTS,
        # GNU ld (FUZZ_LINKOPTS) knows no --start-lib, which Bazel passes
        # where the toolchain found gold.
        _FEATURES: settings[_FEATURES] + ["-supports_start_end_lib"],
        # The debug line tables of -g1 kept (fastbuild links with -Wl,-S):
        # the sanitizers' reports give file:line.
        _STRIP: "never",
        _PCH: "off",
        # What the targets that cannot take a sanitizer read
        # (bazel/sanitizer.bzl's without_asan, for the static sandbox entry).
        _SANITIZER: "address+undefined",
    }

clang_sanitizer_transition = transition(
    implementation = _to_clang,
    inputs = [_CROSSTOOL_TOP, _HOST_CROSSTOOL_TOP, _COPT, _LINKOPT, _FEATURES],
    outputs = [_CROSSTOOL_TOP, _HOST_CROSSTOOL_TOP, _COPT, _LINKOPT, _FEATURES, _STRIP, _PCH, _SANITIZER],
)

TRANSITION_ATTRS = {
    "_allowlist_function_transition": attr.label(
        default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
    ),
}

def _fuzzer_impl(ctx):
    binary = ctx.attr.binary[0]
    executable = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(
        output = executable,
        target_file = binary[DefaultInfo].files_to_run.executable,
        is_executable = True,
    )
    runfiles = ctx.runfiles(files = [executable] + ctx.files.data)
    for target in [binary] + ctx.attr.data:
        runfiles = runfiles.merge(target[DefaultInfo].default_runfiles)
    return [DefaultInfo(
        executable = executable,
        files = depset([executable]),
        runfiles = runfiles,
    )]

_fuzzer = rule(
    implementation = _fuzzer_impl,
    doc = "`binary` built in the clang fuzzing configuration, under this target's name " +
          "(`args`, for `bazel run`, may name `data`).",
    attrs = dict(
        TRANSITION_ATTRS,
        binary = attr.label(
            mandatory = True,
            executable = True,
            cfg = clang_sanitizer_transition,
        ),
        # In the target configuration (GCC): files the fuzzer reads, never
        # rebuilt with clang.
        data = attr.label_list(allow_files = True),
    ),
    executable = True,
)

def _fuzz_test_impl(ctx):
    override = ctx.attr._seconds[BuildSettingInfo].value
    seconds = ctx.attr.seconds if override == None else override
    fuzzer = ctx.attr.fuzzer[DefaultInfo].files_to_run.executable
    args = [
        "--fuzzer=" + fuzzer.short_path,
        "--seconds=%d" % seconds,
        "--timeout=%d" % ctx.attr.timeout_seconds,
        "--rss_limit_mb=%d" % ctx.attr.rss_limit_mb,
        "--max_len=%d" % ctx.attr.max_len,
        "--label=" + str(ctx.label),
        "--fuzzer_label=" + str(ctx.attr.fuzzer.label),
    ]
    args += ["--fuzzer_arg=" + ctx.expand_location(a, ctx.attr.data) for a in ctx.attr.fuzzer_args]
    if ctx.file.dict:
        args.append("--dict=" + ctx.file.dict.short_path)
    args.append("--")
    args += [f.short_path for f in ctx.files.corpus]
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        script,
        "#!/bin/bash\n# Generated by cc_fuzz_test (bazel/fuzz/fuzz.bzl).\n" +
        "exec %s %s \"$@\"\n" % (
            shell_quote(ctx.executable._runner.short_path),
            " ".join([shell_quote(a) for a in args]),
        ),
        is_executable = True,
    )
    runfiles = ctx.runfiles(
        files = [script, ctx.executable._runner] + ctx.files.corpus + ctx.files.data +
                ([ctx.file.dict] if ctx.file.dict else []),
    ).merge(ctx.attr.fuzzer[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

# TEXT as one word of a bash command line (single quotes).
def shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"

_fuzz_test = rule(
    implementation = _fuzz_test_impl,
    doc = "Runs a cc_fuzz_test's fuzzer over its seeds, then mutates for `seconds`.",
    attrs = {
        "fuzzer": attr.label(mandatory = True, executable = True, cfg = "target"),
        "corpus": attr.label_list(allow_files = True),
        "dict": attr.label(allow_single_file = True),
        "data": attr.label_list(allow_files = True),
        "fuzzer_args": attr.string_list(),
        "seconds": attr.int(mandatory = True),
        "timeout_seconds": attr.int(mandatory = True),
        "rss_limit_mb": attr.int(mandatory = True),
        "max_len": attr.int(mandatory = True),
        "_runner": attr.label(
            default = "//bazel/fuzz:run_fuzz_test.sh",
            allow_single_file = True,
            executable = True,
            cfg = "target",
        ),
        "_seconds": attr.label(default = "//bazel/fuzz:seconds"),
    },
    test = True,
)

def cc_fuzz_test(
        name,
        srcs,
        deps = [],
        copts = [],
        corpus = None,
        dict = None,
        seconds = 10,
        timeout_seconds = 10,
        rss_limit_mb = 2048,
        max_len = 0,
        data = [],
        fuzzer_args = [],
        size = "medium",
        tags = [],
        **kwargs):
    """A libFuzzer fuzzer `name` and its test `name`_test (see the module docstring).

    Args:
      name: the fuzzer's name; the test is `name` + "_test".
      srcs: the C++ sources; one defines
        `extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)`
        (and may define LLVMFuzzerInitialize). No `main`: libFuzzer has it.
      deps: the libraries it calls; they are compiled with clang and the
        sanitizers for the fuzzer only.
      copts: the sources' own compile options (say a -D that picks what a
        shared harness fuzzes).
      corpus: the seed inputs; default every file under `name`_corpus/.
      dict: an optional libFuzzer dictionary (`-dict=`): tokens the format
        knows (keywords, magic numbers) that mutation is unlikely to find.
      seconds: how long the test mutates after running the seeds, in seconds
        (CI's budget for this target); --//bazel/fuzz:seconds=N overrides it
        for every target.
      timeout_seconds: one input taking longer fails the test (`-timeout=`);
        0 passes none, leaving the fuzzer's own (libFuzzer's, or what its
        LLVMFuzzerInitialize sets).
      rss_limit_mb: the process's resident memory, and any one allocation,
        over this many MiB fails the test (`-rss_limit_mb=`,
        `-malloc_limit_mb=`); 0 passes none, as for timeout_seconds.
      max_len: the largest input mutation makes (`-max_len=`); 0: libFuzzer's
        own choice (the largest seed, at least 4096 bytes).
      data: files the fuzzer reads (built as usual, not with clang), in its
        runfiles and the test's.
      fuzzer_args: the fuzzer's own arguments, before libFuzzer's, in the
        test and in `bazel run`; `$(rootpath ...)` may name `data`.
      size: the test's size (its timeout: "medium" is 300 s).
      tags: the test's tags.
      **kwargs: passed to the test (e.g. `shard_count` is not supported;
        `flaky`, `visibility`).
    """
    if corpus == None:
        corpus = native.glob([name + "_corpus/**"])
    cc_binary(
        name = name + "_binary",
        srcs = srcs,
        deps = deps,
        copts = copts,
        linkopts = FUZZER_LINKOPTS,
        testonly = True,
        # Linked only through the transition below: in the ordinary GCC
        # configuration it has no main.
        tags = ["manual"],
        visibility = ["//visibility:private"],
    )
    _fuzzer(
        name = name,
        binary = ":" + name + "_binary",
        data = data,
        args = fuzzer_args,
        testonly = True,
        tags = ["manual"] if "manual" in tags else [],
    )
    _fuzz_test(
        name = name + "_test",
        fuzzer = ":" + name,
        corpus = corpus,
        dict = dict,
        data = data,
        fuzzer_args = fuzzer_args,
        seconds = seconds,
        timeout_seconds = timeout_seconds,
        rss_limit_mb = rss_limit_mb,
        max_len = max_len,
        size = size,
        # `fuzz` selects them (--test_tag_filters=fuzz) or leaves them out
        # (--config=sanitizers: they bring their own sanitizers).
        tags = tags + ["fuzz"],
        **kwargs
    )
