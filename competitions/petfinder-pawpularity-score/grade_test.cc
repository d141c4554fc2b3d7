#include <cmath>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// private/test.csv: every column of train.csv.
constexpr std::string_view kAnswers =
    "Id,Subject Focus,Eyes,Face,Near,Action,Accessory,Group,Collage,Human,Occlusion,Info,Blur,"
    "Pawpularity\n"
    "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,0,1,1,1,0,0,1,0,0,0,0,0,63\n"
    "0007de18844b0dbbb5e1f607da0606e0,0,1,1,1,0,0,0,0,0,0,0,0,42\n"
    "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,0,1,1,0,0,0,0,0,1,1,0,1,28\n";

absl::StatusOr<double> Grade(std::string_view submission) {
  return testing::GradeCsvText(kId, submission, kAnswers);
}

using testing::ExpectInvalid;

TEST(PetfinderGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

TEST(PetfinderGradeTest, PerfectInAnyRowOrderWithExtraColumns) {
  EXPECT_EQ(*Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                   "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,28.0\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
            0.0);
  EXPECT_EQ(*Grade("Pawpularity,Id,Eyes\n63,c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,1\n"
                   "28,8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,1\n42,0007de18844b0dbbb5e1f607da0606e0,0\n"),
            0.0);
}

TEST(PetfinderGradeTest, HandComputedRmse) {
  // Errors 3, -4 and 0: sqrt((9 + 16 + 0) / 3).
  EXPECT_DOUBLE_EQ(*Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,45\n"
                          "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,24\n"
                          "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                   std::sqrt(25.0 / 3.0));
  // The bounds are inclusive; True counts as 1.
  EXPECT_DOUBLE_EQ(*Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,1\n"
                          "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,100\n"
                          "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,1.0\n"),
                   std::sqrt((41.0 * 41 + 72.0 * 72 + 62.0 * 62) / 3.0));
  EXPECT_DOUBLE_EQ(*Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,True\n"
                          "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,True\n"
                          "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,True\n"),
                   std::sqrt((41.0 * 41 + 27.0 * 27 + 62.0 * 62) / 3.0));
}

TEST(PetfinderGradeTest, RejectsMissingColumns) {
  ExpectInvalid(Grade("id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                      "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,28\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                "Missing Id column");
  ExpectInvalid(Grade("Id,score\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                      "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,28\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                "Missing Pawpularity column");
}

TEST(PetfinderGradeTest, RejectsPredictionsOutsideTheRange) {
  for (std::string_view bad : {"0.99", "100.5", "0", "-5", "", "nan", "inf", "high", "False"}) {
    SCOPED_TRACE(bad);
    ExpectInvalid(Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                        "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3," +
                        std::string(bad) + "\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                  "between 1 and 100");
  }
}

TEST(PetfinderGradeTest, RejectsWrongIdsAndRowCounts) {
  // Repeated, unknown, missing.
  for (std::string_view id : {"0007de18844b0dbbb5e1f607da0606e0", "ffff", ""}) {
    SCOPED_TRACE(id);
    ExpectInvalid(Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n" + std::string(id) +
                        ",28\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                  "IDs in submission do not match");
  }
  ExpectInvalid(Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                      "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                "Expected 3 rows in submission, got 2");
  ExpectInvalid(Grade("Id,Pawpularity\n0007de18844b0dbbb5e1f607da0606e0,42\n"
                      "8b2f0c1d9e3a4f5b6c7d8e9fa0b1c2d3,28\nc3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"
                      "c3a1e0f2b9d84e7aa0f1b2c3d4e5f607,63\n"),
                "Expected 3 rows in submission, got 4");
  ExpectInvalid(Grade("Id,Pawpularity\n"), "Expected 3 rows in submission, got 0");
}

TEST(PetfinderGradeTest, MalformedAnswersAreNotTheSubmissionsFault) {
  for (std::string_view answers : {"Id,Pawpularity\nab,0\n", "Id,Eyes\nab,1\n"}) {
    const absl::StatusOr<double> result =
        testing::GradeCsvText(kId, "Id,Pawpularity\nab,50\n", answers);
    ASSERT_FALSE(result.ok());
    EXPECT_FALSE(IsInvalidSubmission(result.status())) << result.status();
  }
}

// Upstream's grade() (prepare_for_metric, root_mean_squared_error), restated
// line for line, on pandas 2.2.2 and scikit-learn 1.5.1 of the reference
// environment, on random answers and submissions: int and float predictions,
// out-of-range, missing and text values, dropped, duplicated and foreign ids,
// a misnamed column. Same score bit for bit, or invalid where upstream raises.
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

from sklearn.metrics import root_mean_squared_error

def grade(submission, answers):
    id_col, target_col = "Id", "Pawpularity"
    if id_col not in submission.columns or target_col not in submission.columns:
        raise ValueError("missing column")
    if not submission[target_col].between(1, 100).all():
        raise ValueError("range")
    submission = submission.sort_values(id_col)
    answers = answers.sort_values(id_col)
    if (submission[id_col].values != answers[id_col].values).any():
        raise ValueError("ids")
    return root_mean_squared_error(answers[target_col].to_numpy(), submission[target_col].to_numpy())

def pred():
    r = rng.random()
    if r < 0.01: return "abc"
    if r < 0.02: return ""
    if r < 0.03: return rng.choice(["0.5", "100.5", "inf"])
    if r < 0.3: return str(rng.randint(1, 100))
    return repr(round(rng.uniform(1, 100), rng.choice([0, 2, 9, 17])))

scores = []
for case in range(int(cases)):
    n = rng.choice([1, 2, 5, 30, 300]) if case else 5000
    ids = ["%032x" % rng.getrandbits(128) for _ in range(n)]
    answers = [[i] + [str(rng.randint(0, 1)) for _ in range(12)] + [str(rng.randint(1, 100))]
               for i in ids]
    subs = spoil([[i, pred()] for i in ids], 0, lambda: "%032x" % rng.getrandbits(128))
    header = "Id,Subject Focus,Eyes,Face,Near,Action,Accessory,Group,Collage,Human,Occlusion,Info,Blur,Pawpularity"
    sub_header = "Id,Pawpularity" if case % 31 != 3 else "Id,pawpularity"
    scores.append(write_case(case, header, answers, sub_header, subs, grade))
finish(scores)
)py";

TEST(PetfinderGradeTest, MatchesUpstreamOnTheReferenceEnvironment) {
  const testing::UpstreamGradeComparison counts =
      testing::CompareWithUpstreamGrade(kId, kUpstreamGrade, 200);
  EXPECT_GT(counts.scored, 80);
  EXPECT_GT(counts.raised, 20);
}

}  // namespace
}  // namespace mlebench::grade_test
