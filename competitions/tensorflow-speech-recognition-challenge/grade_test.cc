#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// As prepare writes it: the labels are the training folder names, including
// words outside the ten commands and "_background_noise_".
constexpr std::string_view kAnswers =
    "fname,label\n"
    "clip_00000000.wav,yes\n"
    "clip_00000001.wav,bed\n"
    "clip_00000002.wav,_background_noise_\n"
    "clip_00000003.wav,no\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(SpeechGradeTest, Registered) { EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID); }

TEST(SpeechGradeTest, PerfectInAnyRowOrder) {
  EXPECT_EQ(*Grade("fname,label\nclip_00000003.wav,no\nclip_00000001.wav,bed\n"
                   "clip_00000000.wav,yes\nclip_00000002.wav,_background_noise_\n"),
            1.0);
  // Extra columns are ignored.
  EXPECT_EQ(*Grade("fname,label,score\nclip_00000000.wav,yes,1\nclip_00000001.wav,bed,1\n"
                   "clip_00000002.wav,_background_noise_,1\nclip_00000003.wav,no,1\n"),
            1.0);
}

TEST(SpeechGradeTest, HandComputedAccuracy) {
  // Kaggle's own classes ("unknown", "silence") never match the folder names
  // upstream uses as answers.
  EXPECT_EQ(*Grade("fname,label\nclip_00000000.wav,yes\nclip_00000001.wav,unknown\n"
                   "clip_00000002.wav,silence\nclip_00000003.wav,no\n"),
            0.5);
  // The sample submission: all "silence".
  EXPECT_EQ(*Grade("fname,label\nclip_00000000.wav,silence\nclip_00000001.wav,silence\n"
                   "clip_00000002.wav,silence\nclip_00000003.wav,silence\n"),
            0.0);
  // Case matters.
  EXPECT_EQ(*Grade("fname,label\nclip_00000000.wav,Yes\nclip_00000001.wav,bed\n"
                   "clip_00000002.wav,_background_noise_\nclip_00000003.wav,No\n"),
            0.5);
  // Numbers never equal word labels (more than two labels: no type error).
  EXPECT_EQ(*Grade("fname,label\nclip_00000000.wav,1\nclip_00000001.wav,2\n"
                   "clip_00000002.wav,3\nclip_00000003.wav,4\n"),
            0.0);
}

TEST(SpeechGradeTest, MissingLabelsAreInvalid) {
  // A missing label among strings: numpy cannot sort NaN with str inside
  // sklearn's type_of_target (TypeError); a leading one makes the target
  // "unknown" (ValueError).
  ExpectInvalid(Grade("fname,label\nclip_00000000.wav,yes\nclip_00000001.wav,bed\n"
                      "clip_00000002.wav,\nclip_00000003.wav,no\n"),
                "accuracy_score rejects");
  ExpectInvalid(Grade("fname,label\nclip_00000000.wav,\nclip_00000001.wav,bed\n"
                      "clip_00000002.wav,up\nclip_00000003.wav,no\n"),
                "accuracy_score rejects");
}

TEST(SpeechGradeTest, StructuralChecksInUpstreamOrder) {
  // Length before columns.
  ExpectInvalid(Grade("fname,label\nclip_00000000.wav,yes\n"), "same length");
  ExpectInvalid(Grade("fname,label\nclip_00000000.wav,yes\nclip_00000001.wav,bed\n"
                      "clip_00000002.wav,no\nclip_00000003.wav,no\nclip_00000004.wav,no\n"),
                "same length");
  ExpectInvalid(Grade("fname,word\na,yes\nb,no\nc,no\nd,no\n"), "must have a `label` column");
  ExpectInvalid(Grade("file,label\na,yes\nb,no\nc,no\nd,no\n"), "must have a `fname` column");
  ExpectInvalid(Grade(""), "same length");
}

TEST(SpeechGradeTest, IdsMustMatch) {
  ExpectInvalid(Grade("fname,label\nclip_00000000.wav,yes\nclip_00000001.wav,bed\n"
                      "clip_00000002.wav,no\nclip_00000009.wav,no\n"),
                "do not match");
  ExpectInvalid(Grade("fname,label\nclip_00000000.wav,yes\nclip_00000000.wav,bed\n"
                      "clip_00000002.wav,no\nclip_00000003.wav,no\n"),
                "do not match");
  ExpectInvalid(Grade("fname,label\nclip_00000000,yes\nclip_00000001,bed\n"
                      "clip_00000002,no\nclip_00000003,no\n"),
                "do not match");
}

TEST(SpeechGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"fname,word\na,yes\nb,no\n", "file,label\na,yes\nb,no\n"}) {
    absl::StatusOr<double> result = Grade("fname,label\na,yes\nb,no\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

}  // namespace
}  // namespace mlebench::grade_test
