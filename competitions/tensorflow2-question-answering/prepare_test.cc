#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Lines in Kaggle's simplified-nq-train.jsonl layout: integer example ids of
// both signs, text with '/', quotes, escapes and non-ASCII characters, short
// answers, YES/NO answers and unanswered questions, and (every 97th line) no
// document_url, which pandas fills with null.
std::string RawTrainLine(int i) {
  const int64_t id = (i % 2 == 0 ? 1 : -1) * (int64_t{7000000000000000000} + 7919LL * i);
  const std::string yes_no = i % 7 == 3 ? "YES" : (i % 7 == 4 ? "NO" : "NONE");
  const bool answered = i % 5 != 0;
  const std::string long_answer =
      answered ? "{\"start_token\":" + std::to_string(i % 13) + ",\"candidate_index\":0," +
                     "\"end_token\":" + std::to_string(i % 13 + 20) + "}"
               : "{\"start_token\":-1,\"candidate_index\":-1,\"end_token\":-1}";
  const std::string short_answers = answered && yes_no == "NONE"
                                        ? "[{\"start_token\":" + std::to_string(i % 13 + 2) +
                                              ",\"end_token\":" + std::to_string(i % 13 + 4) +
                                              "},{\"start_token\":1,\"end_token\":2}]"
                                        : "[]";
  std::string line = "{\"document_text\":\"<P> doc " + std::to_string(i) +
                     " caf\\u00e9 \\\"q\\\" a/b \xce\xa3 </P>\",\"long_answer_candidates\":"
                     "[{\"start_token\":0,\"top_level\":true,\"end_token\":30}],"
                     "\"question_text\":\"who is " +
                     std::to_string(i) + "\",\"annotations\":[{\"yes_no_answer\":\"" + yes_no +
                     "\",\"long_answer\":" + long_answer + ",\"short_answers\":" + short_answers +
                     ",\"annotation_id\":" + std::to_string(1000 + i) + "}]";
  if (i % 97 != 5)
    line += ",\"document_url\":\"https://en.wikipedia.org/?t=" + std::to_string(i) + "\"";
  return line + ",\"example_id\":" + std::to_string(id) + "}\n";
}

std::string RawTrain(int lines) {
  std::string text;
  for (int i = 0; i < lines; ++i) text += RawTrainLine(i);
  return text;
}

fs::path MakeRaw(const std::string& train) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "simplified-nq-train.jsonl", train).ok());
  EXPECT_TRUE(
      WriteStringToFile(raw / "sample_submission.csv", "example_id,PredictionString\n").ok());
  return raw;
}

size_t CountLines(const fs::path& path) {
  const std::string text = *ReadFileToString(path);
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(Tensorflow2QuestionAnsweringPrepareTest, WritesUpstreamsFilesAndMatchesPandas) {
  // Three chunks: 1000, 1000 and 123 lines -> 100 + 100 + 13 test lines.
  const fs::path raw = MakeRaw(RawTrain(2123));
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("sample_submission.csv", "simplified-nq-test.jsonl",
                          "simplified-nq-train.jsonl"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir),
              ElementsAre("gold_submission.csv", "test.jsonl"));
  EXPECT_EQ(CountLines(dirs->private_dir / "test.jsonl"), 213u);
  EXPECT_EQ(CountLines(dirs->public_dir / "simplified-nq-test.jsonl"), 213u);
  EXPECT_EQ(CountLines(dirs->public_dir / "simplified-nq-train.jsonl"), 2123u - 213u);
  EXPECT_EQ(CountLines(dirs->public_dir / "sample_submission.csv"), 1u + 2 * 213u);

  const fs::path public_ref = testing::NewTempDir("public_ref");
  const fs::path private_ref = testing::NewTempDir("private_ref");
  testing::CommandResult result =
      testing::RunPythonFile("competitions/tensorflow2-question-answering/prepare_reference.py",
                             {raw.string(), public_ref.string(), private_ref.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(testing::ReadTree(dirs->public_dir), testing::ReadTree(public_ref));
  EXPECT_EQ(testing::ReadTree(dirs->private_dir), testing::ReadTree(private_ref));
}

TEST(Tensorflow2QuestionAnsweringPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RawTrain(45));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

TEST(Tensorflow2QuestionAnsweringPrepareTest, BadRawInputIsAnError) {
  const fs::path empty = testing::NewTempDir("raw_empty");
  EXPECT_FALSE(testing::RunPreparer(kId, empty).ok());        // no train file
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw("")).ok());  // no records
  absl::StatusOr<testing::PreparedDirs> bad =
      testing::RunPreparer(kId, MakeRaw(RawTrain(5) + "{oops\n"));
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("line 6"));
  // A last chunk of one line leaves sklearn an empty train set.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw(RawTrain(1001))).ok());
  // A blank line: pandas skips it, then upstream's line count check fails.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw(RawTrain(20) + "\n")).ok());
  // Two annotations on a test example fail upstream's assert.
  std::string two = RawTrain(20);
  for (std::string::size_type at = two.find("}],\"document_url\""); at != std::string::npos;
       at = two.find("}],\"document_url\"", at + 40)) {
    two.replace(at, 3, "},{\"yes_no_answer\":\"NONE\"}],");
  }
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw(two)).ok());
  // No example_id column.
  EXPECT_FALSE(
      testing::RunPreparer(kId, MakeRaw("{\"annotations\":[]}\n{\"annotations\":[]}\n")).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
