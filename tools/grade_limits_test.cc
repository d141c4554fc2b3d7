// A real competition's grade binary (spaceship-titanic's: 212 answer rows of
// 14 columns, 19.5 kB) on submissions made to cost memory, as an agent
// writes them: each gets an invalid report that says which limit it broke,
// the action exits 0, and its memory stays far below what the submission
// asked for. The review's submission (a few MiB, a header of many columns,
// rows of one field each padded with missing values) took several GB.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::ReadFileOrEmpty;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::HasSubstr;

constexpr char kId[] = "spaceship-titanic";

struct Graded {
  int exit_code = -1;
  long peak_rss_kib = 0;
  std::string report;
};

Graded Grade(const fs::path& submission) {
  const fs::path data = fs::path("competitions") / kId / (std::string(kId) + "_data");
  const fs::path out = submission.parent_path() / "report.json";
  const std::vector<std::string> args = {
      (fs::path("competitions") / kId / "grade").string(),
      "--competition", kId,
      "--submission", submission.string(),
      "--answers", (data / "private" / "test.csv").string(),
      "--thresholds_csv", "grading/medal_thresholds.csv",
      "--out", out.string()};
  Graded graded;
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage;
  if (wait4(pid, &status, 0, &usage) != pid) return graded;
  graded.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  graded.peak_rss_kib = usage.ru_maxrss;
  graded.report = ReadFileOrEmpty(out);
  return graded;
}

// A header of `columns` names over `rows` rows of one field each.
std::string PaddedHeader(size_t columns, size_t rows) {
  std::string text;
  for (size_t c = 0; c < columns; ++c) absl::StrAppend(&text, c == 0 ? "" : ",", "c", c);
  text += "\n";
  for (size_t r = 0; r < rows; ++r) text += "1\n";
  return text;
}

TEST(GradeLimitsTest, SubmissionsMadeToCostMemoryAreInvalidAndCheap) {
  const fs::path dir = NewTempDir("grade_limits");
  struct Case {
    std::string name;
    std::string text;
    std::string reason;
  };
  for (const Case& c : std::vector<Case>{
           // The review's: 4 MiB, 100,000 columns over short rows. More bytes
           // than the answers allow: refused unread.
           {"review", PaddedHeader(100'000, 1'700'000), "bytes, more than the 1673728 bytes"},
           // Within the bytes, padded to ~140M cells: refused while counting.
           {"padded", PaddedHeader(20'000, 700'000), "submission is too large to grade: "},
           // A header of a million empty names: more columns than allowed.
           {"wide header", std::string(1'000'000, ',') + "\n1\n",
            "1000001 columns are more than the limit of 1080"},
       }) {
    SCOPED_TRACE(c.name);
    const fs::path submission = dir / c.name / "submission.csv";
    WriteFileOrFail(submission, c.text);
    const Graded graded = Grade(submission);
    EXPECT_EQ(graded.exit_code, 0);
    EXPECT_THAT(graded.report, HasSubstr("\"valid_submission\": false"));
    EXPECT_THAT(graded.report, HasSubstr(c.reason));
    // Padding alone would have built more than 100 million cells (4+ GB).
    EXPECT_LT(graded.peak_rss_kib, 128 * 1024) << graded.report;
  }
  // The sample submission is graded as always.
  const Graded sample = Grade(fs::absolute(fs::path("competitions") / kId /
                                           (std::string(kId) + "_data") / "public" /
                                           "sample_submission.csv"));
  EXPECT_EQ(sample.exit_code, 0);
  EXPECT_THAT(sample.report, HasSubstr("\"valid_submission\": true"));
}

}  // namespace
}  // namespace mlebench
