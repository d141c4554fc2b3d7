"""Offline stand-in for rules_cc: forwards to Bazel's native C++ rules.

Debian's bazel-rules-cc 0.0.4 does not load under Bazel 4.2.3, so this small
repository provides the same load path. On Bazel 7+ with bzlmod, replace it
with `bazel_dep(name = "rules_cc", ...)`: no BUILD file has to change.
"""

def cc_library(**attrs):
    """Forwards to native.cc_library."""
    native.cc_library(**attrs)

def cc_binary(**attrs):
    """Forwards to native.cc_binary."""
    native.cc_binary(**attrs)

def cc_test(**attrs):
    """Forwards to native.cc_test."""
    native.cc_test(**attrs)

def cc_import(**attrs):
    """Forwards to native.cc_import."""
    native.cc_import(**attrs)

def cc_proto_library(**attrs):
    """Forwards to native.cc_proto_library."""
    native.cc_proto_library(**attrs)

def cc_toolchain(**attrs):
    """Forwards to native.cc_toolchain."""
    native.cc_toolchain(**attrs)

def cc_toolchain_suite(**attrs):
    """Forwards to native.cc_toolchain_suite."""
    native.cc_toolchain_suite(**attrs)
