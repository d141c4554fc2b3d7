#include "base/command_line.h"

#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(ParseCommandLine, FlagsSwitchesPositionalsAndDashDash) {
  auto cl = ParseCommandLine({"grade", "--a", "1", "--b=2", "-v", "x", "--", "--not-a-flag"},
                             {"a", "b"}, {"v"});
  ASSERT_TRUE(cl.ok()) << cl.status();
  EXPECT_EQ(cl->Get("a"), "1");
  EXPECT_EQ(cl->Get("b"), "2");
  EXPECT_TRUE(cl->Has("v"));
  EXPECT_EQ(cl->Get("missing", "dflt"), "dflt");
  EXPECT_EQ(cl->positional, (std::vector<std::string>{"grade", "x"}));
  EXPECT_EQ(cl->after_dash_dash, (std::vector<std::string>{"--not-a-flag"}));
}

TEST(ParseCommandLine, ErrorsAreSpecific) {
  const auto message = [](const absl::StatusOr<CommandLine>& cl) {
    return cl.ok() ? std::string("ok") : std::string(cl.status().message());
  };
  EXPECT_EQ(message(ParseCommandLine({"--typo", "1"}, {"a"})), "unknown flag --typo");
  EXPECT_EQ(message(ParseCommandLine({"--a"}, {"a"})), "flag --a needs a value");
  EXPECT_EQ(message(ParseCommandLine({"--v=1"}, {}, {"v"})), "flag --v takes no value");
  EXPECT_EQ(message(ParseCommandLine({"--a", "1", "--a=2"}, {"a"})), "flag --a given twice");
  EXPECT_EQ(message(ParseCommandLine({"--v", "--v"}, {}, {"v"})), "flag --v given twice");
  auto cl = ParseCommandLine({"--a", "1"}, {"a", "b"});
  ASSERT_TRUE(cl.ok());
  EXPECT_EQ(RequireFlags(*cl, {"a", "b"}).message(), "missing flag --b");
  EXPECT_TRUE(RequireFlags(*cl, {"a"}).ok());
}

}  // namespace
}  // namespace mlebench
