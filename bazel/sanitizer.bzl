"""without_asan: an executable built without --config=asan's AddressSanitizer.

`--config=asan` (.bazelrc) adds `-fsanitize=address` to every compile and link
through `--copt` and `--linkopt`. A static executable cannot take it:
//agent_runner:sandbox_entry is linked as a static PIE (so that it runs on any
system an agent's sandbox shows, and loads no library while still
privileged), and GCC's libasan does not work linked statically: a static-pie
`int main` with `-fsanitize=address` links (with a warning about dlopen) and
dies of a segmentation fault before main (GCC 12.2, measured). Its libraries
cannot simply be linked uninstrumented either: they are the same targets the
instrumented tests use, compiled once per configuration. (UBSan's runtime,
libubsan.a, does work in a static PIE, so --config=ubsan checks the entry as
it is.)

    without_asan(
        name = "sandbox_entry",
        binary = ":sandbox_entry_binary",
    )

builds `binary` (and everything it links) in the configuration of the build
minus AddressSanitizer's options, and provides it under this target's name, so
that `agent_runner/sandbox_entry` in a test's runfiles stays the same path.
Under --config=sanitizers (both sanitizers) it keeps UndefinedBehaviorSanitizer.
Outside those two configs the transition changes nothing (the configuration,
and so every output path and cache key, is the ordinary one).
"""

# What .bazelrc's asan config adds to --copt and --linkopt and must go
# (-fno-omit-frame-pointer and -g1 change no behaviour and may stay).
_ASAN_OPTIONS = ["-fsanitize=address"]

_COPT = "//command_line_option:copt"
_LINKOPT = "//command_line_option:linkopt"
_SANITIZER = "//bazel:sanitizer"
_CROSSTOOL_TOP = "//command_line_option:crosstool_top"

# The clang toolchain (WORKSPACE: clang_toolchain) of the fuzzers and the
# sanitized unit tests (bazel/fuzz/fuzz.bzl's configuration).
CLANG_CROSSTOOL_TOP = "@clang_toolchain//:toolchain"

def without_sanitizer_options(options):
    """OPTIONS (--copt or --linkopt values) less every -fsanitize* and -fno-sanitize* one."""
    return [o for o in options if not o.startswith("-fsanitize") and
                                  not o.startswith("-fno-sanitize")]

# What is left of each --//bazel:sanitizer value once AddressSanitizer goes.
_WITHOUT_ADDRESS = {
    "address": "none",
    "address+undefined": "undefined",
}

def _drop_asan(settings, attr):
    if str(settings[_CROSSTOOL_TOP]).endswith(CLANG_CROSSTOOL_TOP):
        # The clang sanitizer configuration (bazel/fuzz/fuzz.bzl: fuzzers and
        # sanitizer_suite's tests): clang's UBSan runtime does not work in a
        # static PIE either (a segmentation fault before main, clang 14,
        # measured), so every sanitizer option goes.
        return {
            _COPT: without_sanitizer_options(settings[_COPT]),
            _LINKOPT: without_sanitizer_options(settings[_LINKOPT]),
            _SANITIZER: "none",
        }
    if settings[_SANITIZER] not in _WITHOUT_ADDRESS:
        return {
            _COPT: settings[_COPT],
            _LINKOPT: settings[_LINKOPT],
            _SANITIZER: settings[_SANITIZER],
        }
    return {
        _COPT: [o for o in settings[_COPT] if o not in _ASAN_OPTIONS],
        _LINKOPT: [o for o in settings[_LINKOPT] if o not in _ASAN_OPTIONS],
        _SANITIZER: _WITHOUT_ADDRESS[settings[_SANITIZER]],
    }

_drop_asan_transition = transition(
    implementation = _drop_asan,
    inputs = [_COPT, _LINKOPT, _SANITIZER, _CROSSTOOL_TOP],
    outputs = [_COPT, _LINKOPT, _SANITIZER],
)

def _without_asan_impl(ctx):
    binary = ctx.attr.binary[0]
    source = binary[DefaultInfo].files_to_run.executable
    executable = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(
        output = executable,
        target_file = source,
        is_executable = True,
    )
    return [DefaultInfo(
        executable = executable,
        files = depset([executable]),
        runfiles = ctx.runfiles(files = [executable]).merge(binary[DefaultInfo].default_runfiles),
    )]

without_asan = rule(
    implementation = _without_asan_impl,
    doc = "`binary`, built without the AddressSanitizer of --config=asan " +
          "(see the module docstring).",
    attrs = {
        "binary": attr.label(
            mandatory = True,
            executable = True,
            cfg = _drop_asan_transition,
            doc = "The executable target to build without AddressSanitizer.",
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    executable = True,
)
