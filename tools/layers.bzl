"""The project's layers, lowest first, and who may depend on each.

    base            tables, CSV, files, UTF-8, JSON text, flags, status macros
    formats         archives and file formats (zip, tar, 7z, Parquet, npy, ...)
    pycompat        Python, numpy, pandas and scikit-learn behaviour
    grading/metrics the metrics, by family
    grading         the grader framework, reports, medals, gating
    testdata/common the synthetic-data generators' framework and writers
    competitions    the preparer framework, families, one package per competition
    agent_runner    the sandboxed agent run (uses base only)
    tools           the CLI and the whole-project tests

A layer may use the layers above it in this list, never one below; each
layer's BUILD file sets its package's default visibility from here, so that a
dependency upwards fails the build, and //tools:layering_test checks the
#includes of the same packages. base is visible to everyone.
"""

_ABOVE_FORMATS = [
    "//formats:__subpackages__",
    "//pycompat:__subpackages__",
    "//grading:__subpackages__",
    "//testdata:__subpackages__",
    "//competitions:__subpackages__",
    "//tools:__subpackages__",
]

FORMATS_VISIBILITY = _ABOVE_FORMATS

PYCOMPAT_VISIBILITY = [
    "//pycompat:__subpackages__",
    "//grading:__subpackages__",
    "//testdata:__subpackages__",
    "//competitions:__subpackages__",
    "//tools:__subpackages__",
]

GRADING_VISIBILITY = [
    "//grading:__subpackages__",
    "//competitions:__subpackages__",
    "//tools:__subpackages__",
]

TESTDATA_VISIBILITY = [
    "//testdata:__subpackages__",
    "//competitions:__subpackages__",
    "//tools:__subpackages__",
]

COMPETITIONS_VISIBILITY = [
    "//competitions:__subpackages__",
    "//tools:__subpackages__",
]

AGENT_RUNNER_VISIBILITY = [
    "//agent_runner:__subpackages__",
    "//competitions:__subpackages__",
    "//tools:__subpackages__",
]
