#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "competitions/freesound-audio-tagging-2019/class_names.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

using freesound::ClassNames;
using testing::ExpectInvalid;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

std::string Header() { return absl::StrCat("fname,", absl::StrJoin(ClassNames(), ","), "\n"); }

// One CSV row: `fname`, then `fill` in every class column except those in
// `values` (class index -> text).
std::string Row(std::string_view fname, std::vector<std::pair<int, std::string>> values,
                std::string_view fill = "0") {
  std::vector<std::string> cells(ClassNames().size(), std::string(fill));
  for (const auto& [index, text] : values) cells[index] = text;
  return absl::StrCat(std::string(fname), ",", absl::StrJoin(cells, ","), "\n");
}

// Three clips: a.wav has classes 0 and 1, b.wav class 2, c.wav no label.
std::string Answers() {
  return Header() + Row("a.wav", {{0, "1"}, {1, "1"}}) + Row("b.wav", {{2, "1"}}) +
         Row("c.wav", {});
}

absl::StatusOr<double> Grade(std::string_view submission, const std::string& answers = Answers()) {
  return testing::GradeCsvText(kId, submission, answers);
}

TEST(FreesoundGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(FreesoundGradeTest, PerfectInAnyRowOrder) {
  EXPECT_EQ(*Grade(Header() + Row("c.wav", {{5, "0.9"}}) + Row("b.wav", {{2, "0.8"}}) +
                   Row("a.wav", {{0, "0.7"}, {1, "0.6"}})),
            1.0);
}

TEST(FreesoundGradeTest, HandComputedWithTies) {
  // a.wav: class 1 first (1/1), class 0 third (2/3) -> 5/6, weight 2;
  // b.wav: class 2 ties with the 79 others at 0 -> 1/80, weight 1.
  const absl::StatusOr<double> score =
      Grade(Header() + Row("a.wav", {{0, "0.5"}, {1, "0.9"}, {7, "0.7"}}) + Row("b.wav", {}) +
            Row("c.wav", {}));
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_DOUBLE_EQ(*score, (2 * (5.0 / 6) + 1.0 / 80) / 3);
  // The sample submission (all zeros): 2/80 for a.wav's labels, 1/80 for b.wav.
  EXPECT_DOUBLE_EQ(*Grade(Header() + Row("a.wav", {}) + Row("b.wav", {}) + Row("c.wav", {})),
                   (2 * (2.0 / 80) + 1.0 / 80) / 3);
}

TEST(FreesoundGradeTest, UnlabelledClipsAreSkipped) {
  // c.wav has no label: even a NaN there does not matter.
  EXPECT_EQ(*Grade(Header() + Row("a.wav", {{0, "0.7"}, {1, "0.6"}}) + Row("b.wav", {{2, "1"}}) +
                   Row("c.wav", {{3, ""}})),
            1.0);
}

TEST(FreesoundGradeTest, StructuralChecks) {
  ExpectInvalid(Grade(Header() + Row("a.wav", {}) + Row("b.wav", {})), "same length");
  std::string renamed = Answers();
  renamed.replace(0, 5, "clip_");
  ExpectInvalid(Grade(renamed), "'fname' column");
  std::string reordered = Header();
  reordered.replace(reordered.find("Accordion"), 9, "Accordeon");
  ExpectInvalid(Grade(reordered + Row("a.wav", {}) + Row("b.wav", {}) + Row("c.wav", {})),
                "classes do not match");
  // A missing class column.
  std::string short_header = absl::StrCat("fname,", absl::StrJoin(std::vector<std::string>(
      ClassNames().begin(), ClassNames().end() - 1), ","), "\n");
  ExpectInvalid(Grade(short_header + "a.wav" + std::string(79, ',') + "\n" + "b.wav" +
                      std::string(79, ',') + "\n" + "c.wav" + std::string(79, ',') + "\n"),
                "classes do not match");
  ExpectInvalid(Grade(""), "same length");
}

TEST(FreesoundGradeTest, IdsMustMatch) {
  ExpectInvalid(Grade(Header() + Row("a.wav", {}) + Row("b.wav", {}) + Row("d.wav", {})),
                "same ids");
  ExpectInvalid(Grade(Header() + Row("a.wav", {}) + Row("a.wav", {}) + Row("c.wav", {})),
                "same ids");
}

TEST(FreesoundGradeTest, ValuesMustBeFiniteNumbers) {
  ExpectInvalid(Grade(Header() + Row("a.wav", {{4, "high"}}) + Row("b.wav", {}) + Row("c.wav", {})),
                "converting submission values to float");
  ExpectInvalid(Grade(Header() + Row("a.wav", {{4, ""}}) + Row("b.wav", {}) + Row("c.wav", {})),
                "rejects");
  ExpectInvalid(Grade(Header() + Row("a.wav", {{4, "inf"}}) + Row("b.wav", {}) + Row("c.wav", {})),
                "rejects");
  // pd.to_numeric, unlike float(), takes no underscores or non-ASCII digits
  // (the reference environment raises ValueError "Unable to parse string").
  for (const char* text : {"1_0", "\xd9\xa3", "\xef\xbc\x91"}) {
    ExpectInvalid(Grade(Header() + Row("a.wav", {{4, text}}) + Row("b.wav", {}) + Row("c.wav", {})),
                  "converting submission values to float");
  }
}

TEST(FreesoundGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const std::string submission = Header() + Row("a.wav", {}) + Row("b.wav", {});
  for (const std::string& answers :
       {Header() + Row("a.wav", {}) + Row("b.wav", {}),
        std::string("fname,x\na.wav,1\nb.wav,0\n")}) {
    absl::StatusOr<double> result = Grade(submission, answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status()));
  }
}

}  // namespace
}  // namespace mlebench::grade_test
