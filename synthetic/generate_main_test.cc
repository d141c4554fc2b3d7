// Runs generate_main linked with fake_generator_for_test.cc.
#include <filesystem>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const char kBinary[] = "synthetic/fake_generate_for_test";

testing::CommandResult Generate(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {kBinary};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing::RunCommand(argv);
}

TEST(GenerateMainTest, CreatesTheOutputDirectoryAndRunsTheGenerator) {
  const fs::path out = testing::NewTempDir("gen") / "new" / "raw";
  testing::CommandResult result =
      Generate({"--competition", "fake-competition", "--seed", "5", "--out", out.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  absl::StatusOr<std::string> content = ReadFileToString(out / "seed.txt");
  ASSERT_TRUE(content.ok()) << content.status();
  EXPECT_EQ(*content, "5\n");
}

TEST(GenerateMainTest, AcceptsAnExistingEmptyDirectoryAndEqualsSyntax) {
  const fs::path out = testing::NewTempDir("gen");
  testing::CommandResult result = Generate(
      {"--competition=fake-competition", "--seed=18446744073709551615", "--out=" + out.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(*ReadFileToString(out / "seed.txt"), "18446744073709551615\n");
}

TEST(GenerateMainTest, RefusesANonEmptyDirectoryOrAFile) {
  const fs::path out = testing::NewTempDir("gen");
  ASSERT_TRUE(WriteStringToFile(out / "old.txt", "x").ok());
  testing::CommandResult result =
      Generate({"--competition", "fake-competition", "--seed", "1", "--out", out.string()});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_THAT(result.output, HasSubstr("is not empty"));
  EXPECT_FALSE(fs::exists(out / "seed.txt"));

  result = Generate(
      {"--competition", "fake-competition", "--seed", "1", "--out", (out / "old.txt").string()});
  EXPECT_NE(result.exit_code, 0);
  EXPECT_THAT(result.output, HasSubstr("not a directory"));
}

TEST(GenerateMainTest, ReportsBadArgumentsAndGeneratorErrors) {
  const std::string out = (testing::NewTempDir("gen") / "raw").string();
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--competition", "nope", "--seed", "1", "--out", out}, "no synthetic generator for 'nope'"},
      {{"--competition", "nope", "--seed", "1", "--out", out}, "fake-competition"},
      {{"--competition", "fake-competition", "--out", out}, "--seed"},
      {{"--competition", "fake-competition", "--seed", "-1", "--out", out}, "--seed"},
      {{"--competition", "fake-competition", "--seed", "x", "--out", out}, "--seed"},
      {{"--competition", "fake-competition", "--seed", "1"}, "--out"},
      {{"--competition", "fake-competition", "--seed", "1", "--out", out, "extra"}, "positional"},
      {{"--bogus", "1"}, "unknown flag"},
      {{"--competition", "fake-competition", "--seed", "13", "--out", out}, "unlucky seed"},
  };
  for (const Case& c : cases) {
    testing::CommandResult result = Generate(c.args);
    EXPECT_EQ(result.exit_code, 1) << c.message;
    EXPECT_THAT(result.output, HasSubstr(c.message));
  }
}

}  // namespace
}  // namespace mlebench
