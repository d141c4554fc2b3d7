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
  EXPECT_FALSE(ParseCommandLine({"--typo", "1"}, {"a"}).ok());
  EXPECT_FALSE(ParseCommandLine({"--a"}, {"a"}).ok());
  EXPECT_FALSE(ParseCommandLine({"--v=1"}, {}, {"v"}).ok());
  auto cl = ParseCommandLine({"--a", "1"}, {"a", "b"});
  ASSERT_TRUE(cl.ok());
  EXPECT_FALSE(RequireFlags(*cl, {"a", "b"}).ok());
  EXPECT_TRUE(RequireFlags(*cl, {"a"}).ok());
}

}  // namespace
}  // namespace mlebench
