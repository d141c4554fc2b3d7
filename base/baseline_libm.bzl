"""The environment of the actions that run our generators, preparers and graders.

glibc's libm gives other last bits on a CPU with FMA than on one without
(base/baseline_libm.h); with this GLIBC_TUNABLES value every x86-64 runs the
same variants, so an action writes the same bytes on every machine. The tools
set it themselves when run by hand (UseBaselineLibm re-executes them); in an
action's environment it spares them that second start.
"""

load("//bazel:build_settings.bzl", "BuildSettingInfo")

# The same as kBaselineLibmTunable in base/baseline_libm.h (baseline_libm_test
# checks).
BASELINE_LIBM_TUNABLE = "glibc.cpu.hwcaps=-FMA,-FMA4"

# The attributes a rule adds to call baseline_libm_env.
BASELINE_LIBM_ATTRS = {
    "_glibc_tunables": attr.label(default = Label("//base:glibc_tunables")),
}

def baseline_libm_env(ctx):
    """The `env` of an action that runs a generator, preparer or grader.

    With --//base:glibc_tunables=T, GLIBC_TUNABLES is T: the tool adds the
    masks to it and restarts itself once to apply them. That is how
    tools/determinism_test.sh shows these actions a CPU without AVX-512 or
    FMA, without changing the keys of any other action (--action_env would
    change every compile's).
    """
    tunables = ctx.attr._glibc_tunables[BuildSettingInfo].value
    return {"GLIBC_TUNABLES": tunables if tunables else BASELINE_LIBM_TUNABLE}
