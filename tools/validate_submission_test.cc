// validate_submission.sh end to end, as an agent runs it: the script that
// agent_runner/validation/validate_script.h writes, the competitions' real
// validate binaries (//competitions/<id>:validate), the sample submissions
// as the agent's data/ holds them (a plain CSV, and billion-word-imputation's
// zipped one). One line on standard output, exit 0 / 1 / 2.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent_runner/validation/validate_script.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::CommandResult;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::ReadFileOrFail;
using ::mlebench::testing::RunCommand;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

// The script for competition `id` whose agent-visible sample is `sample`
// (in its prepared public/), written into a fresh directory.
fs::path WriteScript(const std::string& id, const std::string& sample) {
  const fs::path dir = NewTempDir(id);
  absl::StatusOr<std::string> script = ValidateSubmissionScript(
      {.validator = fs::absolute(fs::path("competitions") / id / "validate").string(),
       .competition_id = id,
       .sample_submission =
           fs::absolute(fs::path("competitions") / id / (id + "_data") / "public" / sample)
               .string()});
  EXPECT_TRUE(script.ok()) << script.status();
  const fs::path path = dir / "validate_submission.sh";
  WriteFileOrFail(path, script.value_or(""));
  EXPECT_EQ(chmod(path.c_str(), 0555), 0);
  return path;
}

// Runs the script on `file` under `timeout`, which ends a hang as a failure.
CommandResult Validate(const fs::path& script, const std::string& file) {
  return RunCommand({"/usr/bin/timeout", "60", script.string(), file});
}

TEST(ValidateSubmissionTest, AnswersInOneLineWithTheExitStatus) {
  const fs::path script = WriteScript("spaceship-titanic", "sample_submission.csv");
  const fs::path dir = NewTempDir("submissions");
  const std::string sample = ReadFileOrFail(
      "competitions/spaceship-titanic/spaceship-titanic_data/public/sample_submission.csv");
  WriteFileOrFail(dir / "submission.csv", sample);

  CommandResult result = Validate(script, (dir / "submission.csv").string());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, "Submission is valid.\n");

  // Relative to the caller's working directory, as upstream's script takes it.
  result = RunCommand(
      {"/bin/sh", "-c", "cd \"$1\" && \"$2\" submission.csv", "sh", dir.string(), script.string()});
  EXPECT_EQ(result.output, "Submission is valid.\n");

  WriteFileOrFail(dir / "short.csv",
                  sample.substr(0, sample.find('\n', sample.find('\n') + 1) + 1));
  result = Validate(script, (dir / "short.csv").string());
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_THAT(result.output, StartsWith("Submission is invalid: "));
  EXPECT_THAT(result.output, HasSubstr("1 rows instead of 212"));
  EXPECT_THAT(result.output, MatchesRegex("[^\n]*\n"));

  // Hostile files: a reason on one line, never a crash or a hang.
  WriteFileOrFail(dir / "binary.csv", std::string("\x00\xff\xfe\n\"", 5));
  fs::create_directory(dir / "directory.csv");
  ASSERT_EQ(mkfifo((dir / "fifo.csv").c_str(), 0600), 0);
  fs::create_symlink(dir / "submission.csv", dir / "link.csv");
  for (const auto& [file, expected] : std::vector<std::pair<std::string, std::string>>{
           {"binary.csv", "not a readable CSV"},
           {"directory.csv", "is a directory"},
           {"fifo.csv", "not a regular file"},
           {"missing.csv", "there is no file at"},
           // A reason quotes what the agent chose, escaped.
           {"missing\x1b[2J\n.csv", "missing\\x1b[2J\\n.csv"}}) {
    SCOPED_TRACE(file);
    result = Validate(script, (dir / file).string());
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_THAT(result.output, StartsWith("Submission is invalid: "));
    EXPECT_THAT(result.output, HasSubstr(expected));
    EXPECT_THAT(result.output, MatchesRegex("[^\n\x1b]*\n"));
  }
  result = Validate(script, (dir / "link.csv").string());
  EXPECT_EQ(result.output, "Submission is valid.\n");

  // Usage errors: exit 2, on standard error.
  result = RunCommand({script.string()});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("usage: "));
  result = RunCommand({"competitions/spaceship-titanic/validate", "--competition",
                       "spaceship-titanic", "--sample", "/nonexistent.csv", "x.csv"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("cannot open the sample submission /nonexistent.csv"));
  result = RunCommand({"competitions/spaceship-titanic/validate", "--competition",
                       "billion-word-imputation", "--sample", "/nonexistent.csv", "x.csv"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("no grader for 'billion-word-imputation'"));
}

TEST(ValidateSubmissionTest, ReadsAnArchivedSample) {
  // billion-word-imputation publishes its sample only zipped (as
  // test_v2.txt.zip); the dummy agent submits what is inside.
  const fs::path script = WriteScript("billion-word-imputation", "test_v2.txt.zip");
  const std::string dummy =
      "competitions/billion-word-imputation/billion-word-imputation_sample_run/run-0/"
      "submission/submission.csv";
  CommandResult result = Validate(script, dummy);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, "Submission is valid.\n");
  const fs::path dir = NewTempDir("billion");
  WriteFileOrFail(dir / "submission.csv", "id,sentence\n1,a\n");
  result = Validate(script, (dir / "submission.csv").string());
  EXPECT_EQ(result.exit_code, 1) << result.output;
}

}  // namespace
}  // namespace mlebench
