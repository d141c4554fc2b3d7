#include <cmath>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

constexpr std::string_view kAnswers =
    "image,chain,hotel_id,timestamp\n"
    "b.jpg,3,200,2018-01-01 00:00:00\n"
    "a.jpg,3,100,2018-01-02 00:00:00\n"
    "c.jpg,5,300,2018-01-03 00:00:00\n"
    "d.jpg,5,400,2018-01-04 00:00:00\n";

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(HotelIdGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(HotelIdGradeTest, PerfectInAnyRowOrder) {
  EXPECT_EQ(*Grade("image,hotel_id\na.jpg,100\nb.jpg,200\nc.jpg,300\nd.jpg,400\n"), 1.0);
  EXPECT_EQ(*Grade("image,hotel_id\nd.jpg,400 1\nc.jpg,300\nb.jpg,200 7 8\na.jpg,100\n"), 1.0);
  // Extra columns are ignored.
  EXPECT_EQ(*Grade("hotel_id,x,image\n100,1,a.jpg\n200,1,b.jpg\n300,1,c.jpg\n400,1,d.jpg\n"), 1.0);
}

TEST(HotelIdGradeTest, HandComputedScores) {
  // a at rank 2 (1/2), b at rank 5 (1/5), c past rank 5 (0), d repeated
  // before its hit at rank 3 (1/3): (0.5 + 0.2 + 0 + 1/3) / 4.
  EXPECT_DOUBLE_EQ(*Grade("image,hotel_id\n"
                          "a.jpg,1 100\n"
                          "b.jpg,1 2 3 4 200\n"
                          "c.jpg,1 2 3 4 5 300\n"
                          "d.jpg,9 9 400\n"),
                   (0.5 + 0.2 + 0.0 + 1.0 / 3.0) / 4.0);
  // The sample submission's constant ids score 0.
  EXPECT_EQ(*Grade("image,hotel_id\na.jpg,36363 53586 18807 64314 60181\n"
                   "b.jpg,36363 53586 18807 64314 60181\nc.jpg,36363 53586 18807 64314 60181\n"
                   "d.jpg,36363 53586 18807 64314 60181\n"),
            0.0);
}

TEST(HotelIdGradeTest, LabelsCompareAsPandasStrText) {
  // A missing prediction makes the column float: every id is then "100.0"
  // and matches nothing, as in upstream; the missing one is "nan".
  EXPECT_EQ(*Grade("image,hotel_id\na.jpg,100\nb.jpg,200\nc.jpg,300\nd.jpg,\n"), 0.0);
  EXPECT_EQ(*Grade("image,hotel_id\na.jpg,\nb.jpg,\nc.jpg,\nd.jpg,\n"), 0.0);
  // Double spaces leave an empty label that takes a rank: a's hit is third.
  EXPECT_DOUBLE_EQ(*Grade("image,hotel_id\na.jpg,x  100\nb.jpg,200\nc.jpg,300\nd.jpg,400\n"),
                   (1.0 / 3.0 + 3.0) / 4.0);
}

TEST(HotelIdGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("name,hotel_id\na.jpg,100\n"), "missing `image` column");
  ExpectInvalid(Grade("image,hotel\na.jpg,100\n"), "missing `hotel_id` column");
  ExpectInvalid(Grade(""), "missing `image` column");
  // Ids are compared as sets before lengths.
  ExpectInvalid(Grade("image,hotel_id\na.jpg,100\nb.jpg,200\nc.jpg,300\n"), "different ids");
  ExpectInvalid(Grade("image,hotel_id\na.jpg,100\nb.jpg,200\nc.jpg,300\nx.jpg,400\n"),
                "different ids");
  ExpectInvalid(Grade("image,hotel_id\na.jpg,100\nb.jpg,200\nc.jpg,300\n,400\n"), "different ids");
  ExpectInvalid(Grade("image,hotel_id\na.jpg,100\nb.jpg,200\nc.jpg,300\nd.jpg,400\nd.jpg,400\n"),
                "different lengths");
}

TEST(HotelIdGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"image,label\na.jpg,1\n", "name,hotel_id\na.jpg,1\n",
                                   "image,hotel_id\na.jpg,1\na.jpg,1\n"}) {
    // Answers without a column, or with a repeated image id.
    absl::StatusOr<double> result = Grade("image,hotel_id\na.jpg,1\na.jpg,1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
