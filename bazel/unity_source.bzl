"""unity_source: several C++ sources compiled as one translation unit.

A competition's three test files include the same heavy headers (GoogleTest,
absl::Status with Cord, <filesystem>); parsing them is most of each compile.
Compiled as one unit they are parsed once: the cold build of a competition's
tests takes half the compile time (docs/performance.md).

The generated file is the sources in order, each after a `#line 1 "path"`, so
compiler diagnostics and GoogleTest's failure locations name the real file and
line. The sources must be able to share one unit: each keeps its names in its
own namespace (the competitions use `mlebench::<file stem>`), and none may
leave a macro or a file-scope `using` behind for the next.
"""

def _unity_source_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".cc")
    args = ctx.actions.args()
    args.add(out)
    args.add_all(ctx.files.srcs)
    ctx.actions.run_shell(
        outputs = [out],
        inputs = ctx.files.srcs,
        arguments = [args],
        command = 'out="$1"; shift; for f in "$@"; do ' +
                  'printf \'#line 1 "%s"\\n\' "$f"; cat "$f"; printf \'\\n\'; done > "$out"',
        mnemonic = "UnitySource",
        progress_message = "Joining %d sources into %s" % (len(ctx.files.srcs), out.short_path),
    )
    return [DefaultInfo(files = depset([out]))]

unity_source = rule(
    implementation = _unity_source_impl,
    doc = "Writes `<name>.cc`: the `srcs` joined into one translation unit, " +
          "with #line directives naming each original file.",
    attrs = {
        "srcs": attr.label_list(
            allow_files = [".cc"],
            mandatory = True,
            doc = "The C++ sources, in the order they are joined.",
        ),
    },
)
