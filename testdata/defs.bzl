"""Rules that produce synthetic raw Kaggle downloads at build time."""

load("@rules_cc//cc:defs.bzl", "cc_binary")

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
        mnemonic = "SyntheticRaw",
        progress_message = "Generating synthetic raw data for %s" % ctx.attr.competition_id,
    )
    return [DefaultInfo(files = depset([out]))]

synthetic_raw = rule(
    implementation = _synthetic_raw_impl,
    doc = "Runs a competition's synthetic-data generator; the output is one directory " +
          "laid out like the competition's raw Kaggle download.",
    attrs = {
        "competition_id": attr.string(
            mandatory = True,
            doc = "Upstream's competition id.",
        ),
        "generator": attr.label(
            mandatory = True,
            executable = True,
            cfg = "exec",
            doc = "Binary taking --competition ID --seed N --out DIR.",
        ),
        "seed": attr.int(
            default = 0,
            doc = "Seed of the generator; the same seed gives byte-identical data.",
        ),
    },
)

def synthetic_dataset(name, competition_id, generator_lib, seed = 0):
    """Declares `<name>_generator` (a binary) and `name` (the generated raw directory).

    Args:
      name: name of the raw-data target, conventionally "raw".
      competition_id: upstream's competition id.
      generator_lib: cc_library (alwayslink) that registers the competition's generator.
      seed: generator seed.
    """
    cc_binary(
        name = name + "_generator",
        deps = [
            generator_lib,
            "//testdata/common:generate_main",
        ],
    )
    synthetic_raw(
        name = name,
        competition_id = competition_id,
        generator = ":" + name + "_generator",
        seed = seed,
        # The raw download holds every label, the held-out answers included:
        # only the competitions (which prepare it) and the tools' tests may
        # depend on it, never an agent.
        visibility = [
            "//competitions:__subpackages__",
            "//testdata:__subpackages__",
            "//tools:__pkg__",
        ],
    )
