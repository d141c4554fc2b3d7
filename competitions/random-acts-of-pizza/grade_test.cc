#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// Reddit post ids; t3_a and t3_c got a pizza.
constexpr std::string_view kAnswers =
    "request_id,requester_received_pizza\n"
    "t3_i8iy4,1\n"
    "t3_1mfqi0,0\n"
    "t3_lclka,1\n"
    "t3_w5491,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

// A submission scoring t3_i8iy4, t3_1mfqi0, t3_lclka, t3_w5491 (CSV fields).
std::string Submission(std::string_view a, std::string_view b, std::string_view c,
                       std::string_view d) {
  return "request_id,requester_received_pizza\nt3_i8iy4," + std::string(a) + "\nt3_1mfqi0," +
         std::string(b) + "\nt3_lclka," + std::string(c) + "\nt3_w5491," + std::string(d) + "\n";
}

using testing::ExpectInvalid;

TEST(RandomActsOfPizzaGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(RandomActsOfPizzaGradeTest, PerfectRankingInAnyRowOrder) {
  EXPECT_EQ(*Grade(Submission("0.9", "0.1", "0.8", "0.2")), 1.0);
  EXPECT_EQ(*Grade("requester_received_pizza,request_id,extra\n0.3,t3_w5491,x\n0.31,t3_lclka,y\n"
                   "0,t3_1mfqi0,z\n1,t3_i8iy4,w\n"),
            1.0);
  EXPECT_EQ(*Grade(kAnswers), 1.0);
}

TEST(RandomActsOfPizzaGradeTest, HandComputedAreas) {
  // Positives 0.4, 0.6; negatives 0.5, 0.1: 3 of 4 pairs ordered.
  EXPECT_EQ(*Grade(Submission("0.4", "0.5", "0.6", "0.1")), 0.75);
  // One tie (0.5 vs 0.5) counts half: 3.5 / 4.
  EXPECT_EQ(*Grade(Submission("0.5", "0.5", "0.6", "0.1")), 0.875);
  // Positives 0.2, 0.3 against negatives 0.25, 0.9: 1 of 4.
  EXPECT_EQ(*Grade(Submission("0.2", "0.25", "0.3", "0.9")), 0.25);
  // The sample submission: every score 0.
  EXPECT_EQ(*Grade(Submission("0", "0", "0", "0")), 0.5);
  EXPECT_EQ(*Grade(Submission("False", "True", "False", "True")), 0.0);
}

TEST(RandomActsOfPizzaGradeTest, ScoresMustBeNumericProbabilities) {
  ExpectInvalid(Grade(Submission("0.9", "yes", "0.8", "0.2")), "to be numeric");
  ExpectInvalid(Grade(Submission("1.01", "0.1", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "-1e-9", "0.8", "0.2")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("-inf", "0", "1", "0")), "between 0 and 1");
  ExpectInvalid(Grade(Submission("0.9", "", "0.8", "0.2")), "contains NaN");
  ExpectInvalid(Grade(Submission("NaN", "NaN", "NaN", "NaN")), "contains NaN");
}

TEST(RandomActsOfPizzaGradeTest, StructuralChecksInUpstreamOrder) {
  ExpectInvalid(Grade("id,requester_received_pizza\nt3_i8iy4,0.5\n"),
                "should have an request_id column");
  ExpectInvalid(Grade("request_id,pizza\nt3_i8iy4,0.5\n"),
                "should have a requester_received_pizza column");
  ExpectInvalid(Grade("request_id,requester_received_pizza\nt3_i8iy4,0.5\n"),
                "same number of rows");
  ExpectInvalid(Grade(Submission("0.9", "0.1", "0.8", "0.2") + "t3_extra,0.5\n"),
                "same number of rows");
  ExpectInvalid(Grade(""), "should have an request_id column");
}

TEST(RandomActsOfPizzaGradeTest, IdsMustMatch) {
  std::string unknown = Submission("0.9", "0.1", "0.8", "0.2");
  unknown.replace(unknown.find("t3_w5491"), 8, "t3_xxxxx");
  ExpectInvalid(Grade(unknown), "same request_id values");
  std::string repeated = Submission("0.9", "0.1", "0.8", "0.2");
  repeated.replace(repeated.find("t3_w5491"), 8, "t3_i8iy4");
  ExpectInvalid(Grade(repeated), "same request_id values");
  std::string blank = Submission("0.9", "0.1", "0.8", "0.2");
  blank.replace(blank.find("t3_lclka"), 8, "");
  ExpectInvalid(Grade(blank), "same request_id values");
  // Ids are case-sensitive.
  std::string upper = Submission("0.9", "0.1", "0.8", "0.2");
  upper.replace(upper.find("t3_lclka"), 8, "T3_LCLKA");
  ExpectInvalid(Grade(upper), "same request_id values");
}

TEST(RandomActsOfPizzaGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  const std::string submission = "request_id,requester_received_pizza\na,0.9\nb,0.1\n";
  for (std::string_view answers :
       {"request_id,requester_received_pizza\na,1\nb,1\n", "request_id,label\na,1\nb,0\n",
        "id,requester_received_pizza\na,1\nb,0\n",
        "request_id,requester_received_pizza\na,1\nb,maybe\n"}) {
    absl::StatusOr<double> result = Grade(submission, answers);
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
    id_col, target_col = "request_id", "requester_received_pizza"
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
    if r < 0.03: return rng.choice(["1.5", "-0.1", "True"])
    if r < 0.3: return rng.choice(["0", "1", "0.5", "0.25"])
    return repr(round(rng.random(), rng.choice([1, 3, 17])))

scores = []
for case in range(int(cases)):
    n = rng.choice([2, 3, 10, 50, 400]) if case else 6000
    ids = [f"t3_{rng.getrandbits(30):x}" for _ in range(n)]
    labels = [str(int(rng.random() < rng.choice([0.1, 0.3, 0.5]))) for _ in ids]
    if case % 19 == 4:
        labels = ["0"] * n  # one class only: roc_auc_score raises
    subs = spoil([[i, pred()] for i in ids], 0, lambda: f"t3_{rng.getrandbits(30):x}")
    scores.append(write_case(case, "request_id,requester_received_pizza",
                             [[i, l] for i, l in zip(ids, labels)],
                             "request_id,requester_received_pizza", subs, grade))
finish(scores)
)py";

TEST(PizzaGradeTest, MatchesUpstreamOnTheReferenceEnvironment) {
  const testing::UpstreamGradeComparison counts =
      testing::CompareWithUpstreamGrade(kId, kUpstreamGrade, 200);
  EXPECT_GT(counts.scored, 50);
  EXPECT_GT(counts.raised, 20);
}

}  // namespace
}  // namespace mlebench::grade_test
