"""Build settings of this project (flags such as --//agent_runner:seed=3)."""

BuildSettingInfo = provider(
    doc = "The value of one of this project's build settings.",
    fields = {"value": "The setting's value."},
)

def _int_setting_impl(ctx):
    if ctx.build_setting_value < 0:
        fail("--%s must not be negative, got %d" % (ctx.label, ctx.build_setting_value))
    return [BuildSettingInfo(value = ctx.build_setting_value)]

int_setting = rule(
    implementation = _int_setting_impl,
    build_setting = config.int(flag = True),
    doc = "A non-negative integer build setting.",
)

def _string_setting_impl(ctx):
    value = ctx.build_setting_value
    if value not in ctx.attr.values:
        fail("--%s=%s: must be one of %s" % (ctx.label, value, ", ".join(ctx.attr.values)))
    return [BuildSettingInfo(value = value)]

string_setting = rule(
    implementation = _string_setting_impl,
    build_setting = config.string(flag = True),
    doc = "A string build setting restricted to a list of values.",
    attrs = {
        "values": attr.string_list(
            mandatory = True,
            doc = "The accepted values; anything else fails the build with a clear message.",
        ),
    },
)

def _string_list_setting_impl(ctx):
    return [BuildSettingInfo(value = ctx.build_setting_value)]

string_list_setting = rule(
    implementation = _string_list_setting_impl,
    build_setting = config.string_list(flag = True),
    doc = "A comma-separated list build setting (--//pkg:name=a,b). Bazel 4.2 keeps only " +
          "the last occurrence of a repeated Starlark flag, so a list is given in one.",
)

def _text_setting_impl(ctx):
    return [BuildSettingInfo(value = ctx.build_setting_value)]

text_setting = rule(
    implementation = _text_setting_impl,
    build_setting = config.string(flag = True),
    doc = "A free-form string build setting (e.g. a path).",
)

_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}

def parse_size(text, what):
    """Bytes of a size such as "512M", "4G" or "1073741824" (K, M, G, T: powers of 1024).

    Args:
      text: the size; "" means 0.
      what: names the setting or attribute in the error.

    Returns:
      The size in bytes (an int).
    """
    if text == "":
        return 0
    upper = text.upper()
    if upper.endswith("IB"):
        upper = upper[:-2]
    elif upper.endswith("B") and len(upper) > 1 and upper[-2] in "KMGT":
        upper = upper[:-1]
    unit = upper[-1] if upper[-1] in "KMGT" else ""
    digits = upper[:-1] if unit else upper
    if not digits or not digits.isdigit():
        fail("%s: %r is not a size (a whole number with an optional K, M, G or T, e.g. 4G)" %
             (what, text))
    return int(digits) * _SIZE_UNITS[unit]

def _size_setting_impl(ctx):
    value = parse_size(ctx.build_setting_value, "--%s" % ctx.label)
    if value and value < ctx.attr.minimum:
        fail(("--%s=%s is %d bytes, less than the least that makes sense, %d; sizes are " +
              "bytes unless they end in K, M, G or T (did you mean %sM?)") %
             (ctx.label, ctx.build_setting_value, value, ctx.attr.minimum, ctx.build_setting_value))
    return [BuildSettingInfo(value = value)]

size_setting = rule(
    implementation = _size_setting_impl,
    build_setting = config.string(flag = True),
    doc = "A size in bytes, written as a whole number with an optional K, M, G or T " +
          "(powers of 1024; KB, KiB and lower case too): 512M, 4G. Its BuildSettingInfo " +
          "value is the number of bytes; empty is 0.",
    attrs = {
        "minimum": attr.int(
            default = 0,
            doc = "The least non-zero value accepted (bytes); less fails the build.",
        ),
    },
)

def _optional_count_setting_impl(ctx):
    text = ctx.build_setting_value
    if text == "":
        return [BuildSettingInfo(value = None)]
    if not text.isdigit():
        fail("--%s=%s: must be a whole number (or empty for the default)" % (ctx.label, text))
    return [BuildSettingInfo(value = int(text))]

optional_count_setting = rule(
    implementation = _optional_count_setting_impl,
    build_setting = config.string(flag = True),
    doc = "A non-negative whole number, or empty (the default) for \"not set\": its " +
          "BuildSettingInfo value is then None, and whoever reads it uses its own default.",
)
