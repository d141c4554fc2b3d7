#include <cmath>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "competitions/google-quest-challenge/classes.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

using google_quest::kTargets;
using testing::ExpectInvalid;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// qa_ids of the answers, in file order; sorted they are 3, 17, 40, 88, 102.
const std::vector<std::string> kIds = {"88", "3", "102", "40", "17"};
// Every answers column, per row of kIds: in qa_id order 0, 1/3, 1/2, 2/3, 1.
const std::vector<std::string> kTruth = {"0.6666666666666666", "0.0", "1.0", "0.5",
                                         "0.3333333333333333"};

// A CSV with `columns` as header and cell(row, column) as values.
std::string Csv(const std::vector<std::string>& columns, size_t rows,
                const std::function<std::string(size_t, const std::string&)>& cell) {
  std::string csv = absl::StrCat(absl::StrJoin(columns, ","), "\n");
  for (size_t r = 0; r < rows; ++r) {
    std::vector<std::string> values;
    for (const std::string& c : columns) values.push_back(cell(r, c));
    absl::StrAppend(&csv, absl::StrJoin(values, ","), "\n");
  }
  return csv;
}

std::vector<std::string> Columns() {
  std::vector<std::string> columns = {"qa_id"};
  for (std::string_view t : kTargets) columns.emplace_back(t);
  return columns;
}

const std::string& Answers() {
  static const std::string* answers =
      new std::string(Csv(Columns(), 5, [](size_t r, const std::string& c) {
        return c == "qa_id" ? kIds[r] : kTruth[r];
      }));
  return *answers;
}

// A submission listing the rows in `ids` order, with prediction(row, column).
std::string Submission(const std::vector<std::string>& ids,
                       const std::function<std::string(size_t, const std::string&)>& prediction,
                       std::vector<std::string> columns = Columns()) {
  return Csv(columns, ids.size(), [&](size_t r, const std::string& c) {
    return c == "qa_id" ? ids[r] : prediction(r, c);
  });
}

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, Answers());
}

// Sorted-id order and a prediction per position in that order.
const std::vector<std::string> kSortedIds = {"3", "17", "40", "88", "102"};

TEST(GoogleQuestGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(GoogleQuestGradeTest, PerfectRankingInAnyOrderScoresOne) {
  // Any increasing function of the truth is perfect.
  // (numpy's corrcoef gives 1 - 2^-53 for some columns, as upstream.)
  EXPECT_NEAR(*Grade(Submission(kSortedIds,
                                [](size_t r, const std::string&) { return absl::StrCat(r * r); })),
              1.0, 1e-15);
  // Upstream's grade.py gives exactly this.
  EXPECT_EQ(*Grade(Submission(kSortedIds,
                              [](size_t r, const std::string&) { return absl::StrCat(r * r); })),
            0.9999999999999999);
  EXPECT_NEAR(*Grade(Submission(kIds, [](size_t r, const std::string&) { return kTruth[r]; })), 1.0,
              1e-15);
}

TEST(GoogleQuestGradeTest, HandComputedMeanOfColumns) {
  // The first column perfect, the other 29 reversed: (1 - 29) / 30.
  EXPECT_NEAR(*Grade(Submission(kSortedIds,
                                [](size_t r, const std::string& c) {
                                  return absl::StrCat(c == kTargets[0] ? r : 10 - r);
                                })),
              -28.0 / 30.0, 1e-15);
  EXPECT_EQ(*Grade(Submission(kSortedIds,
                              [](size_t r, const std::string& c) {
                                return absl::StrCat(c == kTargets[0] ? r : 10 - r);
                              })),
            -0.9333333333333332);  // upstream's value
  // Ties: predictions 0, 0, 1, 1, 1 have ranks 1.5, 1.5, 4, 4, 4; against
  // 1..5, Sxy = 7.5, Sxx = 7.5 and Syy = 10: rho = 7.5 / sqrt(75) in every
  // column.
  EXPECT_NEAR(*Grade(Submission(kSortedIds,
                                [](size_t r, const std::string&) { return r < 2 ? "0" : "1"; })),
              7.5 / std::sqrt(75.0), 1e-15);
  EXPECT_EQ(*Grade(Submission(kSortedIds,
                              [](size_t r, const std::string&) { return r < 2 ? "0" : "1"; })),
            0.8660254037844385);  // upstream's value
  // A linspace in file order (as the sample submission's): sorted by qa_id
  // the predictions rank (2, 5, 4, 1, 3) against the truth's 1..5:
  // Sxy = -2, Sxx = Syy = 10, rho = -0.2.
  EXPECT_NEAR(
      *Grade(Submission(kIds,
                        [](size_t r, const std::string&) {
                          return std::vector<std::string>{"0.0", "0.25", "0.5", "0.75", "1.0"}[r];
                        })),
      -0.2, 1e-15);
}

TEST(GoogleQuestGradeTest, UpstreamQuirksAreKept) {
  // Ids are never compared with the answers': other ids score by position.
  EXPECT_NEAR(*Grade(Submission({"1", "2", "3", "4", "5"},
                                [](size_t r, const std::string&) { return absl::StrCat(r); })),
              1.0, 1e-15);
  // Text ids sort as text ("102" < "17" < "3" < "88" < "x"), no error:
  // predictions (4, 1, 0, 3, 2) against the truth's order: rho = -0.2.
  EXPECT_NEAR(*Grade(Submission({"3", "17", "x", "88", "102"},
                                [](size_t r, const std::string&) { return absl::StrCat(r); })),
              -0.2, 1e-15);
  // A constant or NaN-holding column makes the mean NaN (not invalid).
  EXPECT_TRUE(std::isnan(*Grade(Submission(kSortedIds, [](size_t r, const std::string& c) {
    return c == kTargets[3] ? std::string("0.5") : absl::StrCat(r);
  }))));
  EXPECT_TRUE(std::isnan(*Grade(Submission(kSortedIds, [](size_t r, const std::string& c) {
    return c == kTargets[3] && r == 2 ? std::string() : absl::StrCat(r);
  }))));
  // Text is ranked as text ("a" < "b" < ...).
  EXPECT_NEAR(*Grade(Submission(kSortedIds,
                                [](size_t r, const std::string&) {
                                  return std::string(1, static_cast<char>('a' + r));
                                })),
              1.0, 1e-15);
}

TEST(GoogleQuestGradeTest, RejectsWrongColumns) {
  auto rank = [](size_t r, const std::string&) { return absl::StrCat(r); };
  std::vector<std::string> columns = Columns();
  columns[0] = "id";
  ExpectInvalid(Grade(Submission(kSortedIds, rank, columns)), "missing `qa_id`");
  columns = Columns();
  columns.erase(columns.begin() + 5);
  ExpectInvalid(Grade(Submission(kSortedIds, rank, columns)),
                "missing the following columns: question_fact_seeking");
  columns = Columns();
  columns.push_back("extra");
  ExpectInvalid(Grade(Submission(kSortedIds, rank, columns)), "has 31 columns, expected 30");
  ExpectInvalid(Grade(""), "missing `qa_id`");
}

TEST(GoogleQuestGradeTest, RejectsWrongLength) {
  auto rank = [](size_t r, const std::string&) { return absl::StrCat(r); };
  ExpectInvalid(Grade(Submission({"3", "17", "40", "88"}, rank)), "different lengths");
  ExpectInvalid(Grade(Submission({"3", "17", "40", "88", "102", "103"}, rank)),
                "different lengths");
  // One word in a column makes pandas read it all as text, which ranks (as
  // in scipy) rather than failing.
  EXPECT_TRUE(Grade(Submission(kSortedIds, [](size_t r, const std::string& c) {
                return c == kTargets[0] && r == 0 ? std::string("high") : absl::StrCat(r);
              })).ok());
}

TEST(GoogleQuestGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const std::string submission =
      Submission(kSortedIds, [](size_t r, const std::string&) { return absl::StrCat(r); });
  std::vector<std::string> columns = Columns();
  columns.push_back("extra");
  for (const std::string& answers :
       {Csv(columns, 5, [](size_t r, const std::string&) { return absl::StrCat(r); }),
        Csv(Columns(), 5, [](size_t r, const std::string&c) {
          return c == "qa_id" ? absl::StrCat(r) : std::string("x") + kTruth[r];
        })}) {
    absl::StatusOr<double> result = testing::GradeCsvText(kId, submission, answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
