#include "agent_runner/validation/validate_script.h"

#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::RunCommand;
using ::mlebench::testing::WriteFileOrFail;

// A stand-in validator that prints its arguments, one per line, and exits
// with the status its last argument's file name asks for.
constexpr char kFakeValidator[] =
    "#!/bin/sh\n"
    "for a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n"
    "case \"$(basename -- \"$6\")\" in invalid*) exit 1;; esac\n"
    "exit 0\n";

class ValidateScriptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Directory names with a space and a quote, as paths may have.
    dir_ = NewTempDir("validate script") / "it's here";
    validator_ = dir_ / "validate";
    WriteFileOrFail(validator_, kFakeValidator);
    ASSERT_EQ(chmod(validator_.c_str(), 0755), 0);
    absl::StatusOr<std::string> script = ValidateSubmissionScript(
        {.validator = validator_.string(),
         .competition_id = "spaceship-titanic",
         .sample_submission = (dir_ / "data" / "sample submission's.csv").string()});
    ASSERT_TRUE(script.ok()) << script.status();
    script_ = dir_ / "validate_submission.sh";
    WriteFileOrFail(script_, *script);
    ASSERT_EQ(chmod(script_.c_str(), 0555), 0);
  }

  fs::path dir_, validator_, script_;
};

TEST_F(ValidateScriptTest, PassesTheFileAndTheBakedInValuesExactly) {
  for (const std::string file :
       {"submission/submission.csv", "-n", "--sample", "a b'c\"$x`d`.csv", "*.csv"}) {
    SCOPED_TRACE(file);
    const testing::CommandResult result = RunCommand({script_.string(), file});
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(result.output, "[--competition]\n[spaceship-titanic]\n[--sample]\n[" +
                                 (dir_ / "data" / "sample submission's.csv").string() +
                                 "]\n[--]\n[" + file + "]\n");
  }
}

TEST_F(ValidateScriptTest, RunsTheValidatorThroughALoaderWhenGiven) {
  // On an agent's own root file system the host's loader runs it; any
  // program that runs the rest of its command line stands in for it here.
  absl::StatusOr<std::string> script = ValidateSubmissionScript(
      {.validator = validator_.string(),
       .competition_id = "spaceship-titanic",
       .sample_submission = (dir_ / "data" / "sample submission's.csv").string(),
       .loader = {"/usr/bin/nice", "-n0"}});
  ASSERT_TRUE(script.ok()) << script.status();
  EXPECT_NE(script->find("exec '/usr/bin/nice' '-n0' '" + dir_.parent_path().string()),
            std::string::npos)
      << *script;
  const fs::path through = dir_ / "through_loader.sh";
  WriteFileOrFail(through, *script);
  ASSERT_EQ(chmod(through.c_str(), 0555), 0);
  const testing::CommandResult result = RunCommand({through.string(), "invalid.csv"});
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("[invalid.csv]"), std::string::npos) << result.output;
}

TEST_F(ValidateScriptTest, ExitsWithTheValidatorsStatus) {
  EXPECT_EQ(RunCommand({script_.string(), "invalid.csv"}).exit_code, 1);
  EXPECT_EQ(RunCommand({"/bin/sh", script_.string(), "submission.csv"}).exit_code, 0);
}

TEST_F(ValidateScriptTest, UsageErrorsExitTwo) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{}, std::vector<std::string>{"a.csv", "b.csv"}}) {
    std::vector<std::string> argv = {script_.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    const testing::CommandResult result = RunCommand(argv);
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_NE(result.output.find("usage: "), std::string::npos) << result.output;
  }
}

TEST(ValidateSubmissionScriptTest, RejectsPathsItCannotBakeIn) {
  const ValidateScriptPaths good = {.validator = "/opt/v/validate",
                                    .competition_id = "spaceship-titanic",
                                    .sample_submission = "/w/data/sample_submission.csv"};
  EXPECT_TRUE(ValidateSubmissionScript(good).ok());
  ValidateScriptPaths relative = good;
  relative.validator = "validate";
  EXPECT_FALSE(ValidateSubmissionScript(relative).ok());
  ValidateScriptPaths line_break = good;
  line_break.sample_submission = "/w/data/a\nb.csv";
  EXPECT_FALSE(ValidateSubmissionScript(line_break).ok());
  ValidateScriptPaths nul = good;
  nul.competition_id = std::string("a\0b", 3);
  EXPECT_FALSE(ValidateSubmissionScript(nul).ok());
  ValidateScriptPaths empty = good;
  empty.competition_id = "";
  EXPECT_FALSE(ValidateSubmissionScript(empty).ok());
  ValidateScriptPaths loader = good;
  loader.loader = {"ld.so"};
  EXPECT_FALSE(ValidateSubmissionScript(loader).ok());
  loader.loader = {"/lib64/ld.so", ""};
  EXPECT_FALSE(ValidateSubmissionScript(loader).ok());
  loader.loader = {"/lib64/ld.so", "--library-path", "/a:/b"};
  EXPECT_TRUE(ValidateSubmissionScript(loader).ok());
}

TEST(ValidateSubmissionInstructionsTest, NamesTheScript) {
  EXPECT_NE(ValidateSubmissionInstructions("/w/validate_submission.sh")
                .find("`/w/validate_submission.sh FILE`"),
            std::string::npos);
}

}  // namespace
}  // namespace mlebench
