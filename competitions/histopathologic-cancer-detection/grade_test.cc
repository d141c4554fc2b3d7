#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr std::string_view kAnswers =
    "id,label\n"
    "f38a6374c348f90b587e046aac6079959adf3835,1\n"
    "c18f2d887b7ae4f6742ee445113fa1aef383ed77,0\n"
    "755db6279dae599ebb4d39a9123cce439965282d,1\n"
    "bc3f0c64fb968ff4a8bd33af6971ecae77c75e08,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr char kA[] = "f38a6374c348f90b587e046aac6079959adf3835";
constexpr char kB[] = "c18f2d887b7ae4f6742ee445113fa1aef383ed77";
constexpr char kC[] = "755db6279dae599ebb4d39a9123cce439965282d";
constexpr char kD[] = "bc3f0c64fb968ff4a8bd33af6971ecae77c75e08";

// A submission with scores for ids a, b, c, d (in that row order).
std::string Submission(std::string_view a, std::string_view b, std::string_view c,
                       std::string_view d) {
  return std::string("id,label\n") + kA + "," + std::string(a) + "\n" + kB + "," + std::string(b) +
         "\n" + kC + "," + std::string(c) + "\n" + kD + "," + std::string(d) + "\n";
}

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(HistopathologicGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(HistopathologicGradeTest, PerfectRankingInAnyRowOrder) {
  EXPECT_EQ(*Grade(Submission("0.9", "0.1", "0.8", "0.2")), 1.0);
  EXPECT_EQ(
      *Grade(std::string("id,label\n") + kD + ",0\n" + kC + ",0.7\n" + kB + ",0.3\n" + kA + ",1\n"),
      1.0);
}

TEST(HistopathologicGradeTest, HandComputedAreas) {
  // Positives a=0.4, c=0.6; negatives b=0.5, d=0.1: 3 of 4 pairs ordered.
  EXPECT_EQ(*Grade(Submission("0.4", "0.5", "0.6", "0.1")), 0.75);
  // A tie between a and b counts half.
  EXPECT_EQ(*Grade(Submission("0.5", "0.5", "0.6", "0.1")), 0.875);
  // The sample submission's constant 0 ranks nothing.
  EXPECT_EQ(*Grade(Submission("0", "0", "0", "0")), 0.5);
  EXPECT_EQ(*Grade(Submission("0", "1", "0", "1")), 0.0);
}

TEST(HistopathologicGradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade(Submission("0.9", "high", "0.8", "0.2")), "to be numeric");
  ExpectInvalid(Grade(Submission("1.01", "0.1", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "-0.5", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "", "0.8", "0.2")), "contains NaN");
  ExpectInvalid(Grade(Submission("0.9", "nan", "0.8", "0.2")), "contains NaN");
}

TEST(HistopathologicGradeTest, StructuralChecks) {
  ExpectInvalid(Grade(std::string("image,label\n") + kA + ",1\n"), "should have an id column");
  ExpectInvalid(Grade(std::string("id,prob\n") + kA + ",1\n"), "should have a label column");
  ExpectInvalid(Grade(std::string("id,label\n") + kA + ",1\n" + kB + ",0\n"),
                "same number of rows");
  ExpectInvalid(Grade(Submission("1", "0", "1", "0") + "deadbeef,0.5\n"), "same number of rows");
  ExpectInvalid(Grade(""), "should have an id column");
}

TEST(HistopathologicGradeTest, IdsMustMatch) {
  ExpectInvalid(
      Grade(std::string("id,label\n") + kA + ",1\n" + kA + ",0\n" + kC + ",1\n" + kD + ",0\n"),
      "same id values");
  ExpectInvalid(Grade(std::string("id,label\n") + kA + ",1\nx,0\n" + kC + ",1\n" + kD + ",0\n"),
                "same id values");
}

TEST(HistopathologicGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,label\na,1\nb,1\n", "id,target\na,1\nb,0\n"}) {
    absl::StatusOr<double> result = Grade("id,label\na,0.9\nb,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

// Upstream's grade() (prepare_for_auroc_metric, roc_auc_score), restated line
// for line, on pandas 2.2.2 and scikit-learn 1.5.1 of the reference
// environment, on random answers and submissions: tied and rounded scores,
// out-of-range, missing and text values, dropped, duplicated and foreign ids,
// one-class answers. Same score bit for bit, or invalid where upstream raises.
constexpr char kUpstreamGrade[] = R"py(
import math, random, sys
import numpy as np, pandas as pd

def read_csv(path):  # upstream's mlebench.utils.read_csv: round_trip floats
    try:
        return pd.read_csv(path, float_precision="round_trip")
    except pd.errors.EmptyDataError:
        return pd.DataFrame()

out, cases = sys.argv[1], int(sys.argv[2])
rng = random.Random(20261202)

def value_text(v):
    return "" if v is None else v if isinstance(v, str) else repr(v)

def write_case(case, answers_header, answer_rows, sub_header, sub_rows, grade):
    with open(f"{out}/{case}.ans.csv", "w") as f:
        f.write(answers_header + "\n" + "".join(",".join(r) + "\n" for r in answer_rows))
    with open(f"{out}/{case}.sub.csv", "w") as f:
        f.write(sub_header + "\n" + "".join(",".join(r) + "\n" for r in sub_rows))
    try:
        value = grade(read_csv(f"{out}/{case}.sub.csv"), read_csv(f"{out}/{case}.ans.csv"))
        return f"ok {float(value).hex()}"
    except Exception as e:  # upstream's grade_csv: any exception is an invalid submission
        return f"raise {type(e).__name__}"

def spoil(rows, id_of, make_id):
    """Upstream's typical submission faults, now and then: a row dropped or
    duplicated, an id changed; rows shuffled."""
    rows = list(rows)
    rng.shuffle(rows)
    r = rng.random()
    if r < 0.05 and len(rows) > 1:
        rows.pop()
    elif r < 0.1:
        rows.append(rows[0])
    elif r < 0.15:
        rows[0] = [make_id()] + rows[0][1:]
    return rows

def finish(scores):
    with open(f"{out}/scores.txt", "w") as f:
        f.write("\n".join(scores) + "\n")

from sklearn.metrics import roc_auc_score

def grade(submission, answers):
    id_col, target_col = "id", "label"
    if id_col not in submission.columns or target_col not in submission.columns:
        raise ValueError("missing column")
    if len(submission) != len(answers):
        raise ValueError("length")
    pd.to_numeric(submission[target_col])
    if submission[target_col].min() < 0 or submission[target_col].max() > 1:
        raise ValueError("range")
    submission = submission.sort_values(id_col)
    answers = answers.sort_values(id_col)
    if (submission[id_col].values != answers[id_col].values).any():
        raise ValueError("ids")
    return roc_auc_score(y_true=answers[target_col].to_numpy(),
                         y_score=submission[target_col].to_numpy())

def pred():
    r = rng.random()
    if r < 0.01: return "abc"
    if r < 0.02: return ""
    if r < 0.03: return rng.choice(["1.5", "-0.1"])
    if r < 0.3: return rng.choice(["0", "1", "0.5", "0.25"])
    return repr(round(rng.random(), rng.choice([1, 3, 17])))

scores = []
for case in range(int(cases)):
    n = rng.choice([2, 3, 10, 50, 400]) if case else 6000
    ids = ["%040x" % rng.getrandbits(160) for _ in range(n)]
    labels = [str(int(rng.random() < rng.choice([0.1, 0.4]))) for _ in ids]
    if case % 19 == 4:
        labels = ["1"] * n  # one class only: roc_auc_score raises
    subs = spoil([[i, pred()] for i in ids], 0, lambda: "%040x" % rng.getrandbits(160))
    scores.append(write_case(case, "id,label", [[i, l] for i, l in zip(ids, labels)],
                             "id,label", subs, grade))
finish(scores)
)py";

TEST(HistopathologicGradeTest, MatchesUpstreamOnTheReferenceEnvironment) {
  const testing::UpstreamGradeComparison counts =
      testing::CompareWithUpstreamGrade(kId, kUpstreamGrade, 200);
  EXPECT_GT(counts.scored, 50);
  EXPECT_GT(counts.raised, 20);
}

}  // namespace
}  // namespace mlebench::grade_test
