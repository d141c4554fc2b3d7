#include "grading/grade_fuzzing.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/table.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "grading/grader.h"
#include "grading/outcome.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::HasSubstr;

constexpr char kAnswers[] = "id,y\n1,0.5\n2,1.5\n";

// Scores a submission with a column y of as many rows as the answers.
absl::StatusOr<double> RowCountGrade(const Table& submission, const Table& answers) {
  if (submission.Find("y") == nullptr) return InvalidSubmission("no column y");
  if (submission.num_rows() != answers.num_rows()) return InvalidSubmission("wrong row count");
  return 1.0;
}
absl::StatusOr<double> BlamingGrade(const Table&, const Table&) {
  return absl::InternalError("the answers are broken");
}
absl::StatusOr<double> ReasonlessGrade(const Table&, const Table&) {
  return InvalidSubmission("");
}

struct Fixture {
  fs::path dir;
  std::string answers_file;
};

Fixture MakeFixture(std::string_view label) {
  Fixture f;
  f.dir = NewTempDir(label);
  f.answers_file = (f.dir / "answers.csv").string();
  WriteFileOrFail(f.answers_file, kAnswers);
  return f;
}

TEST(SubmissionFuzzerTest, AnyGradedReportIsNoFinding) {
  const Fixture f = MakeFixture("graded");
  const CompetitionGrader grader{.id = "toy", .grade = &RowCountGrade};
  absl::StatusOr<SubmissionFuzzer> fuzzer = SubmissionFuzzer::Create(grader, f.answers_file, f.dir);
  ASSERT_TRUE(fuzzer.ok()) << fuzzer.status();
  EXPECT_TRUE(fuzzer->Grade("id,y\n1,1\n2,2\n").ok());
  EXPECT_TRUE(fuzzer->Grade("id,z\n1,1\n").ok());  // invalid, with a reason
  EXPECT_TRUE(fuzzer->Grade(std::string("\"\0\xff,\n\n", 7)).ok());  // unreadable
  EXPECT_TRUE(fuzzer->Grade("").ok());
  // Beyond the limit on bytes: refused before it is read.
  EXPECT_TRUE(
      fuzzer->Grade(std::string(fuzzer->answers().limits.max_submission_bytes + 1, '\n')).ok());
}

TEST(SubmissionFuzzerTest, AnErrorThatBlamesTheAnswersIsAFinding) {
  const Fixture f = MakeFixture("blaming");
  const CompetitionGrader grader{.id = "toy", .grade = &BlamingGrade};
  absl::StatusOr<SubmissionFuzzer> fuzzer = SubmissionFuzzer::Create(grader, f.answers_file, f.dir);
  ASSERT_TRUE(fuzzer.ok()) << fuzzer.status();
  const absl::Status finding = fuzzer->Grade("id,y\n1,1\n2,2\n");
  EXPECT_THAT(finding.message(), HasSubstr("blames the answers"));
  EXPECT_THAT(finding.message(), HasSubstr("the answers are broken"));
}

TEST(SubmissionFuzzerTest, AnInvalidReportWithoutAReasonIsAFinding) {
  const Fixture f = MakeFixture("reasonless");
  const CompetitionGrader grader{.id = "toy", .grade = &ReasonlessGrade};
  absl::StatusOr<SubmissionFuzzer> fuzzer = SubmissionFuzzer::Create(grader, f.answers_file, f.dir);
  ASSERT_TRUE(fuzzer.ok()) << fuzzer.status();
  EXPECT_THAT(fuzzer->Grade("id,y\n1,1\n2,2\n").message(), HasSubstr("without a reason"));
}

TEST(SubmissionFuzzerTest, UnreadableAnswersFailCreation) {
  const Fixture f = MakeFixture("no_answers");
  const CompetitionGrader grader{.id = "toy", .grade = &RowCountGrade};
  EXPECT_FALSE(SubmissionFuzzer::Create(grader, (f.dir / "missing.csv").string(), f.dir).ok());
}

TEST(SubmissionFuzzerTest, SeedsAreTheSampleAndItsHostileVariants) {
  const Fixture f = MakeFixture("seeds");
  const CompetitionGrader grader{.id = "toy", .grade = &RowCountGrade};
  absl::StatusOr<SubmissionFuzzer> fuzzer = SubmissionFuzzer::Create(grader, f.answers_file, f.dir);
  ASSERT_TRUE(fuzzer.ok()) << fuzzer.status();
  const std::string sample = "id,y\n1,0\n2,0\n";
  WriteFileOrFail(f.dir / "sample.csv", sample);
  auto seeds = fuzzer->Seeds((f.dir / "sample.csv").string());
  ASSERT_TRUE(seeds.ok()) << seeds.status();
  ASSERT_GT(seeds->size(), 20u);
  EXPECT_EQ((*seeds)[0].second, sample);
  bool has_answers = false;
  for (const auto& [name, text] : *seeds) {
    EXPECT_TRUE(fuzzer->Grade(text).ok()) << name;
    has_answers |= text == kAnswers;
  }
  EXPECT_TRUE(has_answers);
  EXPECT_FALSE(fuzzer->Seeds((f.dir / "missing.csv").string()).ok());
}

TEST(CheckGradingCostTest, NamesEachLimitBroken) {
  const GradingLimits limits = GradingLimitsFor(1000, 100, 10);
  EXPECT_TRUE(CheckGradingCost({.peak_bytes = -1, .cpu_seconds = 0}, limits).ok());
  EXPECT_TRUE(CheckGradingCost({.peak_bytes = limits.memory_headroom_bytes,
                                .cpu_seconds = static_cast<double>(limits.cpu_seconds)},
                               limits)
                  .ok());
  const absl::Status memory =
      CheckGradingCost({.peak_bytes = limits.memory_headroom_bytes + 1}, limits);
  EXPECT_TRUE(absl::IsResourceExhausted(memory));
  EXPECT_THAT(memory.message(), HasSubstr("memory_headroom_bytes"));
  EXPECT_THAT(memory.message(), ::testing::Not(HasSubstr("cpu_seconds")));
  const absl::Status both = CheckGradingCost(
      {.peak_bytes = limits.memory_headroom_bytes + 1,
       .cpu_seconds = static_cast<double>(limits.cpu_seconds) + 0.5},
      limits);
  EXPECT_THAT(both.message(), HasSubstr("memory_headroom_bytes"));
  EXPECT_THAT(both.message(), HasSubstr("cpu_seconds"));
}

// Keeps an allocation from being optimised away.
void Touch(std::vector<char>& bytes) {
  for (size_t i = 0; i < bytes.size(); i += 4096) bytes[i] = static_cast<char>(i);
  asm volatile("" : : "r"(bytes.data()) : "memory");
}

TEST(HeapMeterTest, MeasuresTheMostHeldAtOnce) {
  if (!HeapMeter::Install()) GTEST_SKIP() << "no sanitizer allocator hooks in this build";
  HeapMeter::Start(int64_t{1} << 30);
  {
    std::vector<char> first(8 << 20);
    Touch(first);
  }
  {
    std::vector<char> second(4 << 20);
    Touch(second);
  }
  const int64_t peak = HeapMeter::Stop();
  EXPECT_GE(peak, 8 << 20);
  EXPECT_LT(peak, 12 << 20);  // the two were never held together
}

TEST(HeapMeterDeathTest, AnAllocationBeyondTheLimitEndsTheProcess) {
  if (!HeapMeter::Install()) GTEST_SKIP() << "no sanitizer allocator hooks in this build";
  EXPECT_DEATH(
      {
        HeapMeter::Start(1 << 20);
        std::vector<char> bytes(2 << 20);
        Touch(bytes);
      },
      "more than the grading limits allow");
}

}  // namespace
}  // namespace mlebench
