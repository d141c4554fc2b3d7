"""clang_toolchain: Debian's clang 14 as a second C++ toolchain, for the fuzz targets.

The project's C++ toolchain is GCC (@local_config_cc, Bazel's autoconfiguration
with CC=/usr/bin/gcc). libFuzzer comes with clang only, so the fuzz targets
(bazel/fuzz/fuzz.bzl) are built with clang through a transition that points
--crosstool_top at this repository; nothing else uses it, and every GCC action
stays as it was.

The repository is Bazel's own autoconfiguration (cc_autoconf_impl, the code
behind @local_config_cc) with the compiler overridden to clang-14, so it has the
same features, flags and include-directory detection as the GCC toolchain.

Cache keys: the Debian packages' versions that ./bazelw puts in every action's
environment (MLEBENCH_DEBIAN_PACKAGES) leave clang out, so that installing it
changes no GCC action's key. Clang's actions are keyed on its version here
instead: ./bazelw passes the installed versions of clang-14 and
libclang-rt-14-dev as --repo_env=MLEBENCH_CLANG_PACKAGES, a change of which
makes Bazel run this rule again, and the rule writes them, with
`clang-14 --version`, into extra_tools/clang_version.txt, which Bazel's
template puts among the toolchain's files (`compiler_deps`): an input of every
clang compile and link action.
"""

load("@bazel_tools//tools/cpp:cc_configure.bzl", "cc_autoconf_impl")

_CLANG = "/usr/bin/clang-14"

def _clang_toolchain_impl(repository_ctx):
    clang = repository_ctx.path(_CLANG)
    if not clang.exists:
        fail("%s is missing: the fuzz targets need Debian's clang-14 and " % _CLANG +
             "libclang-rt-14-dev (bazel/debian_packages.txt; ./bazelw installs them)")
    version = repository_ctx.execute([_CLANG, "--version"])
    if version.return_code != 0:
        fail("%s --version failed: %s" % (_CLANG, version.stderr))
    cc_autoconf_impl(repository_ctx, overriden_tools = {"gcc": _CLANG})
    repository_ctx.file(
        "extra_tools/clang_version.txt",
        "Debian packages: %s\n%s" % (
            repository_ctx.os.environ.get("MLEBENCH_CLANG_PACKAGES", "(not given by ./bazelw)"),
            version.stdout,
        ),
    )

clang_toolchain = repository_rule(
    implementation = _clang_toolchain_impl,
    doc = "Debian's clang-14 as a C++ toolchain (see the module docstring); " +
          "its entry point for --crosstool_top is `@<name>//:toolchain`.",
    environ = [
        "MLEBENCH_CLANG_PACKAGES",
        # What cc_autoconf_impl reads besides CC (which is overridden here).
        "BAZEL_CXXOPTS",
        "BAZEL_LINKOPTS",
        "BAZEL_LINKLIBS",
        "BAZEL_USE_CPP_ONLY_TOOLCHAIN",
        "CC_CONFIGURE_DEBUG",
        "CPLUS_INCLUDE_PATH",
    ],
    configure = True,
)
