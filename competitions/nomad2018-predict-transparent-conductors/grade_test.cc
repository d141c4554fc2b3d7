#include <cmath>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/csv.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "base/table.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// The private test.csv holds every column of Kaggle's train.csv; the grader
// reads only the two targets.
constexpr std::string_view kAnswers =
    "id,spacegroup,formation_energy_ev_natom,bandgap_energy_ev\n"
    "1,206,0.1,2.0\n"
    "2,33,0.25,1.0\n"
    "3,194,0.0,3.5\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr char kHeader[] = "id,formation_energy_ev_natom,bandgap_energy_ev\n";

const CompetitionGrader& Grader() { return testing::RegisteredGrader(kId); }

absl::StatusOr<double> Grade(std::string_view rows, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, std::string(kHeader) + std::string(rows), answers);
}

absl::StatusOr<double> GradeFile(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

using testing::ExpectInvalid;

TEST(NomadGradeTest, Registered) {
  EXPECT_EQ(Grader().id, MLEBENCH_COMPETITION_ID);
  EXPECT_NE(Grader().grade, nullptr);
}

TEST(NomadGradeTest, PerfectSubmission) {
  EXPECT_EQ(*Grade("1,0.1,2.0\n2,0.25,1.0\n3,0.0,3.5\n"), 0.0);
  // Columns in any order, ids not even needed.
  EXPECT_EQ(*GradeFile("bandgap_energy_ev,formation_energy_ev_natom\n2.0,0.1\n1.0,0.25\n3.5,0.0\n"),
            0.0);
}

TEST(NomadGradeTest, HandComputedScore) {
  // Formation energies exact; one bandgap of 1.0 instead of 3.5:
  // RMSLE = sqrt(log(4.5 / 2)^2 / 3), averaged with 0.
  const double d = std::log1p(3.5) - std::log1p(1.0);
  const double expected = (0.0 + std::sqrt((0.0 + 0.0 + d * d) / 3.0)) / 2.0;
  EXPECT_EQ(*Grade("1,0.1,2.0\n2,0.25,1.0\n3,0.0,1.0\n"), expected);
  // What upstream's grade.py gives for the same files.
  EXPECT_EQ(*Grade("1,0.1,2.0\n2,0.25,1.0\n3,0.0,1.0\n"), 0.23409538931324944);
  // The sample submission's constants.
  EXPECT_EQ(*Grade("1,0.1779,1.8892\n2,0.1779,1.8892\n3,0.1779,1.8892\n"), 0.2206179480154511);
}

TEST(NomadGradeTest, RowsArePairedByPositionNotById) {
  // The right predictions in another row order are scored as they stand.
  EXPECT_EQ(*Grade("3,0.0,3.5\n1,0.1,2.0\n2,0.25,1.0\n"), 0.3658791162843805);
  // Ids are never read.
  EXPECT_EQ(*Grade("7,0.1,2.0\n8,0.25,1.0\n9,0.0,3.5\n"), 0.0);
}

TEST(NomadGradeTest, PredictionsOfOtherDtypes) {
  // Integers are numbers; -0.0 is not negative.
  EXPECT_EQ(*Grade("1,0.1,2\n2,0.25,1\n3,-0.0,3\n"), 0.03400103367109218);
  // A bool column stays bool in sklearn 1.5's checks, so np.log1p computes
  // it in float16: upstream's score, not the one exact logs would give.
  EXPECT_EQ(*Grade("1,True,2\n2,False,1\n3,True,3\n"), 0.3060615519489965);
}

TEST(NomadGradeTest, InvalidPredictions) {
  ExpectInvalid(Grade("1,0.1,2.0\n2,-0.01,1.0\n3,0.0,3.5\n"),
                "cannot be used when targets contain negative values.");
  ExpectInvalid(Grade("1,0.1,2.0\n2,0.25,\n3,0.0,3.5\n"), "Input contains NaN.");
  ExpectInvalid(Grade("1,0.1,2.0\n2,0.25,x\n3,0.0,3.5\n"),
                "could not convert string to float: 'x'");
  ExpectInvalid(Grade("1,0.1,2.0\n2,inf,1.0\n3,0.0,3.5\n"), "infinity");
  // The formation column is scored first, so its problem is the one reported.
  ExpectInvalid(Grade("1,,2.0\n2,0.25,-1\n3,0.0,3.5\n"), "Input contains NaN.");
}

TEST(NomadGradeTest, StructuralChecks) {
  ExpectInvalid(GradeFile("id,bandgap_energy_ev\n1,2.0\n2,1.0\n3,3.5\n"),
                "Expected 'formation_energy_ev_natom' column in submission");
  ExpectInvalid(GradeFile("id,formation_energy_ev_natom\n1,2.0\n2,1.0\n3,3.5\n"),
                "Expected 'bandgap_energy_ev' column in submission");
  ExpectInvalid(Grade("1,0.1,2.0\n2,0.25,1.0\n"), "Expected 3 rows in submission, got 2");
  ExpectInvalid(Grade("1,0.1,2.0\n2,0.25,1.0\n3,0.0,3.5\n4,0.0,3.5\n"),
                "Expected 3 rows in submission, got 4");
  ExpectInvalid(Grade(""), "Expected 3 rows in submission, got 0");
  ExpectInvalid(GradeFile(""), "Expected 'formation_energy_ev_natom' column in submission");
}

TEST(NomadGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {
           std::string_view("id,bandgap_energy_ev\n1,1.0\n"),
           std::string_view("id,formation_energy_ev_natom\n1,1.0\n"),
           std::string_view("id,formation_energy_ev_natom,bandgap_energy_ev\n1,,1.0\n"),
           std::string_view("id,formation_energy_ev_natom,bandgap_energy_ev\n1,0.5,-1.0\n"),
           std::string_view("id,formation_energy_ev_natom,bandgap_energy_ev\n1,True,True\n"),
       }) {
    absl::StatusOr<double> result = Grade("1,0.1,2.0\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

}  // namespace
}  // namespace mlebench::grade_test
