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
