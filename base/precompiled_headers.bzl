"""The precompiled headers of the layers below competitions/ (bazel/precompiled_header.bzl).

A C++ target uses one by adding, for a library,

    copts = LIBRARY_PCH_COPTS,
    deps = LIBRARY_PCH_DEPS + [...],

and for a test or testonly library TEST_PCH_COPTS and TEST_PCH_DEPS. Most of a
compile here is parsing the standard library (C++20), absl::Status and, in
tests, GoogleTest; these are parsed once per build instead. A target with
copts of its own does without (GCC does not check that the options match).
The competitions have headers of their own (competitions/common/BUILD.bazel).
"""

load("//bazel:precompiled_header.bzl", "precompiled_header_copts", "precompiled_header_deps")

# What almost every source here includes.
STD_AND_ABSL_INCLUDES = [
    "<algorithm>",
    "<cmath>",
    "<cstdint>",
    "<filesystem>",
    "<map>",
    "<optional>",
    "<set>",
    "<string>",
    "<string_view>",
    "<system_error>",
    "<utility>",
    "<variant>",
    "<vector>",
    '"absl/status/status.h"',
    '"absl/status/statusor.h"',
    '"absl/strings/str_cat.h"',
    '"base/status_macros.h"',
]

LIBRARY_PCH_DEPS = precompiled_header_deps("//base:library_pch")
LIBRARY_PCH_COPTS = precompiled_header_copts("//base:library_pch")
TEST_PCH_DEPS = precompiled_header_deps("//base/testing:test_pch")
TEST_PCH_COPTS = precompiled_header_copts("//base/testing:test_pch")
