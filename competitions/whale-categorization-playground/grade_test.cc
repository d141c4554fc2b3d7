#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

constexpr std::string_view kAnswers =
    "Image,Id\n"
    "b.jpg,w_2\n"
    "a.jpg,w_1\n"
    "c.jpg,new_whale\n"
    "d.jpg,w_4\n";

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(WhaleGradeTest, Registered) { EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID); }

TEST(WhaleGradeTest, PerfectInAnyRowOrder) {
  EXPECT_EQ(*Grade("Image,Id\na.jpg,w_1\nb.jpg,w_2\nc.jpg,new_whale\nd.jpg,w_4\n"), 1.0);
  EXPECT_EQ(*Grade("Id,Image\nw_4 w_1,d.jpg\nnew_whale,c.jpg\nw_2 x,b.jpg\nw_1,a.jpg\n"), 1.0);
}

TEST(WhaleGradeTest, HandComputedScores) {
  // a at rank 2 (1/2), b repeated at ranks 1-2 (1), c past rank 5 (0), d at
  // rank 4 behind a repeat (1/4): (0.5 + 1 + 0 + 0.25) / 4.
  EXPECT_EQ(*Grade("Image,Id\n"
                   "a.jpg,new_whale w_1\n"
                   "b.jpg,w_2 w_2\n"
                   "c.jpg,w_1 w_2 w_3 w_4 w_5 new_whale\n"
                   "d.jpg,x x y w_4\n"),
            (0.5 + 1.0 + 0.0 + 0.25) / 4.0);
  // The sample submission's ranking: new_whale first.
  constexpr char kSample[] = "new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46";
  EXPECT_EQ(*Grade(std::string("Image,Id\na.jpg,") + kSample + "\nb.jpg," + kSample + "\nc.jpg," +
                   kSample + "\nd.jpg," + kSample + "\n"),
            0.25);
  // A missing prediction is the text "nan".
  EXPECT_EQ(*Grade("Image,Id\na.jpg,w_1\nb.jpg,\nc.jpg,new_whale\nd.jpg,w_4\n"), 0.75);
}

TEST(WhaleGradeTest, InvalidSubmissions) {
  // Exactly the two columns, then the row count, then the ids.
  ExpectInvalid(Grade("Image,Id,extra\na.jpg,w_1,1\n"), "must have 'Image' and 'Id' columns");
  ExpectInvalid(Grade("Image,id\na.jpg,w_1\n"), "must have 'Image' and 'Id' columns");
  ExpectInvalid(Grade("Image\na.jpg\n"), "must have 'Image' and 'Id' columns");
  ExpectInvalid(Grade(""), "must have 'Image' and 'Id' columns");
  ExpectInvalid(Grade("Image,Id\na.jpg,w_1\nb.jpg,w_2\nc.jpg,w_3\n"), "same number of rows");
  ExpectInvalid(Grade("Image,Id\na.jpg,w_1\nb.jpg,w_2\nc.jpg,w_3\nd.jpg,w_4\nd.jpg,w_4\n"),
                "same number of rows");
  ExpectInvalid(Grade("Image,Id\na.jpg,w_1\nb.jpg,w_2\nc.jpg,w_3\nx.jpg,w_4\n"),
                "different Image IDs");
  ExpectInvalid(Grade("Image,Id\na.jpg,w_1\na.jpg,w_2\nc.jpg,w_3\nd.jpg,w_4\n"),
                "different Image IDs");
  ExpectInvalid(Grade("Image,Id\na.jpg,w_1\n,w_2\nc.jpg,w_3\nd.jpg,w_4\n"), "different Image IDs");
}

TEST(WhaleGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers :
       {"Image,Id,x\na.jpg,w_1,1\n", "Image,Label\na.jpg,w_1\n", "Image,Id\na.jpg,w_1\na.jpg,w_1\n"}) {
    absl::StatusOr<double> result = Grade("Image,Id\na.jpg,w_1\na.jpg,w_1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
