#include <cmath>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// As prepare writes it: Kaggle's 8-hex-digit ids, 0/1 labels.
constexpr std::string_view kAnswers =
    "id,is_iceberg\n"
    "dfd5f913,0\n"
    "e25388fd,1\n"
    "58b2aaa0,1\n"
    "4cfc3a18,0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(StatoilGradeTest, Registered) { EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID); }

TEST(StatoilGradeTest, HandComputedLosses) {
  // The sample submission: every row loses log(2).
  EXPECT_DOUBLE_EQ(*Grade("id,is_iceberg\ndfd5f913,0.5\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"),
                   std::log(2.0));
  // Rows in any order are aligned on id: -(log 0.8 + log 0.9 + log 0.6 + log 0.7) / 4.
  EXPECT_DOUBLE_EQ(*Grade("id,is_iceberg\n4cfc3a18,0.3\n58b2aaa0,0.6\ne25388fd,0.9\ndfd5f913,0.2\n"),
                   -(std::log(0.8) + std::log(0.9) + std::log(0.6) + std::log(0.7)) / 4);
  // Hard, perfect answers clip to eps = 2**-52: a loss of about 2.2e-16.
  const double perfect = *Grade("id,is_iceberg\ndfd5f913,0\ne25388fd,1\n58b2aaa0,1\n4cfc3a18,0\n");
  EXPECT_GT(perfect, 0.0);
  EXPECT_LT(perfect, 1e-15);
  // A confidently wrong row costs -log(2**-52) = 36.04 / 4.
  EXPECT_NEAR(*Grade("id,is_iceberg\ndfd5f913,1\ne25388fd,1\n58b2aaa0,1\n4cfc3a18,0\n"),
              52 * std::log(2.0) / 4, 1e-9);
}

TEST(StatoilGradeTest, PredictionsMustBeProbabilities) {
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,1.5\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,-0.1\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"),
                "between 0 and 1");
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,x\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"),
                "between 0 and 1");
}

TEST(StatoilGradeTest, ColumnsAndIds) {
  ExpectInvalid(Grade("name,is_iceberg\ndfd5f913,0.5\n"), "missing `id` column");
  ExpectInvalid(Grade("id,p\ndfd5f913,0.5\n"), "missing `is_iceberg` column");
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,0.5\ne25388fd,0.5\n58b2aaa0,0.5\n"),
                "different id's");
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,0.5\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"
                      "00000000,0.5\n"),
                "different id's");
  // The right ids with a repeated row: only log_loss notices.
  ExpectInvalid(Grade("id,is_iceberg\ndfd5f913,0.5\ne25388fd,0.5\n58b2aaa0,0.5\n4cfc3a18,0.5\n"
                      "4cfc3a18,0.5\n"),
                "inconsistent numbers of samples");
  ExpectInvalid(Grade(""), "missing `id` column");
}

TEST(StatoilGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"id,is_iceberg\na,1\nb,1\n", "id,label\na,1\nb,0\n",
                                   "id,is_iceberg\na,1\nb,0.5\n"}) {
    absl::StatusOr<double> result = Grade("id,is_iceberg\na,0.9\nb,0.1\n", answers);
    ASSERT_FALSE(result.ok()) << answers;
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << answers;
  }
}

// Upstream's grade() (its prepare_for_metric, log_loss), restated line for
// line, on pandas 2.2.2 and scikit-learn 1.5.1 of the reference environment,
// on random answers and submissions: exact 0s and 1s (clipping), out-of-range,
// missing and text values, dropped, duplicated and foreign ids, one-class
// answers. Same score bit for bit, or invalid where upstream raises.
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

from sklearn.metrics import log_loss

def grade(submission, answers):
    if "id" not in submission.columns or "is_iceberg" not in submission.columns:
        raise ValueError("missing column")
    if set(submission["id"]) != set(answers["id"]):
        raise ValueError("ids")
    if not ((submission["is_iceberg"] >= 0) & (submission["is_iceberg"] <= 1)).all():
        raise ValueError("range")
    submission = submission.sort_values("id")
    answers = answers.sort_values("id")
    return log_loss(answers["is_iceberg"], submission["is_iceberg"])

def pred():
    r = rng.random()
    if r < 0.01: return "abc"
    if r < 0.02: return ""
    if r < 0.03: return rng.choice(["1.5", "-0.1"])
    if r < 0.2: return rng.choice(["0", "1", "0.0", "1.0", "1e-20"])
    return repr(round(rng.random(), rng.choice([2, 5, 17])))

scores = []
for case in range(int(cases)):
    n = rng.choice([2, 3, 10, 50, 400]) if case else 6000
    ids = [f"{rng.getrandbits(32):08x}" for _ in range(n)]
    labels = [str(int(rng.random() < 0.5)) for _ in ids]
    if case % 19 == 4:
        labels = ["1"] * n  # one class in y_true
    subs = spoil([[i, pred()] for i in ids], 0, lambda: f"{rng.getrandbits(32):08x}")
    scores.append(write_case(case, "id,is_iceberg", [[i, l] for i, l in zip(ids, labels)],
                             "id,is_iceberg", subs, grade))
finish(scores)
)py";

TEST(StatoilGradeTest, MatchesUpstreamOnTheReferenceEnvironment) {
  const testing::UpstreamGradeComparison counts =
      testing::CompareWithUpstreamGrade(kId, kUpstreamGrade, 200);
  EXPECT_GT(counts.scored, 50);
  EXPECT_GT(counts.raised, 20);
}

}  // namespace
}  // namespace mlebench::grade_test
