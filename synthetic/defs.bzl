"""Rules that produce synthetic raw Kaggle downloads at build time."""

load("//base:baseline_libm.bzl", "BASELINE_LIBM_ATTRS", "baseline_libm_env")

def _synthetic_raw_impl(ctx):
    out = ctx.actions.declare_directory(ctx.label.name)
    ctx.actions.run(
        executable = ctx.executable.generator,
        arguments = [
            "--competition",
            ctx.attr.competition_id,
            "--seed",
            str(ctx.attr.seed),
            "--out",
            out.path,
        ],
        outputs = [out],
        env = baseline_libm_env(ctx),
        mnemonic = "SyntheticRaw",
        progress_message = "Generating synthetic raw data for %s" % ctx.attr.competition_id,
    )
    return [DefaultInfo(files = depset([out]))]

synthetic_raw = rule(
    implementation = _synthetic_raw_impl,
    doc = "Runs a competition's synthetic-data generator; the output is one directory " +
          "laid out like the competition's raw Kaggle download.",
    attrs = dict({
        "competition_id": attr.string(
            mandatory = True,
            doc = "Upstream's competition id.",
        ),
        "generator": attr.label(
            mandatory = True,
            executable = True,
            # Target configuration, like the tests that link the same
            # generator: one compile serves both (see //competitions:rules.bzl).
            cfg = "target",
            doc = "Binary taking --competition ID --seed N --out DIR.",
        ),
        "seed": attr.int(
            default = 0,
            doc = "Seed of the generator; the same seed gives byte-identical data.",
        ),
    }, **BASELINE_LIBM_ATTRS),
)
