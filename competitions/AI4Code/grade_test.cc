#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Upstream's answers: rows of train_orders.csv (notebook id, cell ids in
// their true order).
constexpr std::string_view kAnswers =
    "id,cell_order\n"
    "0009d135ece78d,ddfd239c c6cd22db 1372ae9b 90ed07ab\n"
    "0001daf4c2c76d,a1 b2 c3\n"
    "00015c83e2717b,x9\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(AI4CodeGradeTest, Registered) { EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID); }

TEST(AI4CodeGradeTest, PerfectSubmissionScoresOne) {
  EXPECT_EQ(*Grade("id,cell_order\n"
                   "00015c83e2717b,x9\n"
                   "0001daf4c2c76d,a1  b2 c3\n"
                   "0009d135ece78d,ddfd239c c6cd22db 1372ae9b 90ed07ab\n"),
            1.0);
}

TEST(AI4CodeGradeTest, HandComputedScore) {
  // 0009..: true cells at submitted positions (3, 2, 1, 0): 6 inversions;
  // 4 * 3 = 12. 0001..: (1, 0, 2): 1 inversion; 3 * 2 = 6. 0001c..: 0, 0.
  EXPECT_EQ(*Grade("id,cell_order,extra\n"
                   "0009d135ece78d,90ed07ab 1372ae9b c6cd22db ddfd239c,1\n"
                   "0001daf4c2c76d,b2 a1 c3,2\n"
                   "00015c83e2717b,x9,3\n"),
            1.0 - 4.0 * 7.0 / 18.0);
  // The sample-submission style: cells in another order.
  EXPECT_EQ(*Grade("id,cell_order\n"
                   "0009d135ece78d,ddfd239c c6cd22db 90ed07ab 1372ae9b\n"
                   "0001daf4c2c76d,a1 b2 c3\n"
                   "00015c83e2717b,x9\n"),
            1.0 - 4.0 / 18.0);
}

TEST(AI4CodeGradeTest, RepeatedSubmittedCellsLoseTheOtherCell) {
  // The submission repeats a1 and drops b2: b2 is not in its list.
  ExpectInvalid(Grade("id,cell_order\n"
                      "0009d135ece78d,ddfd239c c6cd22db 1372ae9b 90ed07ab\n"
                      "0001daf4c2c76d,a1 a1 c3\n"
                      "00015c83e2717b,x9\n"),
                "'b2' is not in list");
  ExpectInvalid(Grade("id,cell_order\n"
                      "0009d135ece78d,ddfd239c c6cd22db 1372ae9b 90ed07ab\n"
                      "0001daf4c2c76d,a1 b2 c4\n"
                      "00015c83e2717b,x9\n"),
                "'c3' is not in list");
}

TEST(AI4CodeGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("id,cell_order\n0009d135ece78d,a\n0001daf4c2c76d,b\n"), "same length");
  ExpectInvalid(Grade("id,order\n0009d135ece78d,a\n0001daf4c2c76d,b\n00015c83e2717b,x9\n"),
                "'id' and 'cell_order' columns");
  ExpectInvalid(Grade("notebook,cell_order\n0009d135ece78d,a\n0001daf4c2c76d,b\n"
                      "00015c83e2717b,x9\n"),
                "'id' and 'cell_order' columns");
  ExpectInvalid(Grade("id,cell_order\n0009d135ece78d,a\n0001daf4c2c76d,b\n00015c83e2717c,x9\n"),
                "same ids");
  ExpectInvalid(Grade("id,cell_order\n0009d135ece78d,a\n0001daf4c2c76d,b\n0001daf4c2c76d,x9\n"),
                "same ids");
  // Wrong number of cells in a notebook.
  ExpectInvalid(Grade("id,cell_order\n"
                      "0009d135ece78d,ddfd239c c6cd22db 1372ae9b\n"
                      "0001daf4c2c76d,a1 b2 c3\n"
                      "00015c83e2717b,x9\n"),
                "same length");
  // An empty order is "nan": one item, so the true cell x9 is not in it.
  ExpectInvalid(Grade("id,cell_order\n"
                      "0009d135ece78d,ddfd239c c6cd22db 1372ae9b 90ed07ab\n"
                      "0001daf4c2c76d,a1 b2 c3\n"
                      "00015c83e2717b,\n"),
                "'x9' is not in list");
}

TEST(AI4CodeGradeTest, NumericCellOrdersAreTheirPythonStr) {
  // A float column spells 7 as "7.0" (and a missing order as "nan").
  constexpr std::string_view answers = "id,cell_order\na,7.0 nan\nb,x y\n";
  EXPECT_EQ(*Grade("id,cell_order\nb,x y\na,nan 7.0\n", answers), 0.0);  // a: 1 inversion of 2 * 1; b: none
  ExpectInvalid(Grade("id,cell_order\nb,1\na,7\n", answers), "same length");
}

TEST(AI4CodeGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,order\na,x y\n", "notebook,cell_order\na,x y\n",
                                   "id,cell_order\na,x\n"}) {
    absl::StatusOr<double> result = Grade("id,cell_order\na,x\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers << ": " << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
