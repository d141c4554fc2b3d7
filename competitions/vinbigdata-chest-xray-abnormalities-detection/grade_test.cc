#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench::grade_test {
namespace {

// As prepare writes it: one row per (image, class), "No finding" (14) boxes
// 0 0 1 1.
constexpr std::string_view kAnswers =
    "image_id,class_id,class_name,rad_id,x_min,y_min,x_max,y_max\n"
    "aa,3,Cardiomegaly,R9,100.0,200.0,300.0,400.0\n"
    "aa,10,Pleural effusion,R9,10.0,10.0,50.0,60.0\n"
    "bb,14,No finding,R8,0.0,0.0,1.0,1.0\n"
    "cc,3,Cardiomegaly,R10,500.0,500.0,700.0,650.0\n";

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

absl::StatusOr<double> Grade(std::string_view submission, std::string_view answers = kAnswers) {
  return testing::GradeCsvText(kId, submission, answers);
}

using testing::ExpectInvalid;

TEST(VinBigDataGradeTest, Registered) {
  EXPECT_EQ(testing::RegisteredGrader(kId).id, MLEBENCH_COMPETITION_ID);
}

// The gold submission does not score 1: COCOeval counts the detection
// matched to ground truth id 0 (aa's class 3 box) as a false positive, so
// class 3 (ties in image order: aa's FP, then cc's TP) reaches recall 1/2 at
// precision 1/2: 101-point AP = 51 * 0.5 / 101; classes 10 and 14 score 1.
TEST(VinBigDataGradeTest, GoldScoresBelowOneAsUpstream) {
  const double expected = (25.5 / 101.0 + 2.0) / 3.0;
  EXPECT_NEAR(*Grade("image_id,PredictionString\n"
                     "aa,3 1.0 100.0 200.0 300.0 400.0 10 1.0 10.0 10.0 50.0 60.0\n"
                     "bb,14 1.0 0.0 0.0 1.0 1.0\n"
                     "cc,3 1.0 500.0 500.0 700.0 650.0\n"),
              expected, 1e-12);
  // Row order, extra columns, other spellings of the numbers, and splitting
  // an image's boxes over duplicate rows change nothing.
  EXPECT_NEAR(*Grade("x,PredictionString,image_id\n"
                     "1,3 1 500 500 700 650,cc\n"
                     "2,14 1 0 0 1 1,bb\n"
                     "3,10.9 1e0 10 10 50 60,aa\n"
                     "4,3 1 100 200 300 400,aa\n"),
              expected, 1e-12);
}

TEST(VinBigDataGradeTest, WrongBoxesScoreLess) {
  // Only class 14 found: classes 3 and 10 score 0; for 14, aa's FP ties
  // before bb's TP (recall 1 at precision 1/2): AP 0.5.
  EXPECT_NEAR(*Grade("image_id,PredictionString\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\n"
                     "cc,14 1 0 0 1 1\n"),
              0.5 / 3.0, 1e-12);
}

TEST(VinBigDataGradeTest, InvalidSubmissions) {
  ExpectInvalid(Grade("image_id,Prediction\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\ncc,14 1 0 0 1 1\n"),
                "PredictionString");
  ExpectInvalid(Grade("id,PredictionString\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\ncc,14 1 0 0 1 1\n"),
                "image_id");
  // Missing, extra and blank ids.
  ExpectInvalid(Grade("image_id,PredictionString\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\n"),
                "set of image_ids");
  ExpectInvalid(Grade("image_id,PredictionString\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\n"
                      "cc,14 1 0 0 1 1\ndd,14 1 0 0 1 1\n"),
                "set of image_ids");
  ExpectInvalid(Grade("image_id,PredictionString\naa,14 1 0 0 1 1\nbb,14 1 0 0 1 1\n"
                      "cc,14 1 0 0 1 1\n,14 1 0 0 1 1\n"),
                "set of image_ids");
  // A blank prediction string is NaN (no .split), a token that is no float,
  // a double space (an empty token), a count that is no multiple of 6, a NaN
  // or infinite class (int() raises).
  for (const char* bad : {"", "14 1 0 0 1 x", "14 1 0 0  1 1", "14 1 0 0 1", "14 1 0 0 1 1 3",
                          "nan 1 0 0 1 1", "inf 1 0 0 1 1", "\"14,1,0,0,1,1\""}) {
    ExpectInvalid(Grade(std::string("image_id,PredictionString\naa,14 1 0 0 1 1\nbb,") + bad +
                        "\ncc,14 1 0 0 1 1\n"),
                  "row 1");
  }
}

TEST(VinBigDataGradeTest, PythonFloatSpellingsAreAccepted) {
  // float() strips tabs and allows underscores and "NaN" scores; a huge
  // class matches nothing.
  const absl::StatusOr<double> score = Grade(
      "image_id,PredictionString\naa,14 1 0 0 1 1\t\nbb,1_4 nan 0 0 1 1\ncc,1e300 1 0 0 1 1\n");
  ASSERT_TRUE(score.ok()) << score.status();
  // Only bb's class 14 box matches (aa's ties before it): as only14 above.
  EXPECT_NEAR(*score, 0.5 / 3.0, 1e-12);
}

// Upstream's grade() (prepare_for_metric and its VinBigDataEval class,
// restated line for line) on the real pycocotools 2.0.8 COCOeval and pandas
// 2.2.2 of the reference environment, on random answers and submissions:
// several boxes per image and class, "No finding" images, classes the
// answers lack, duplicate submission rows, tied and NaN scores, boxes of
// negative extent, and broken prediction strings. Same score bit for bit,
// or invalid where upstream raises.
constexpr char kUpstreamGrade[] = R"py(
import io, os, sys, random, contextlib
import numpy as np, pandas as pd

def read_csv(path):  # upstream's mlebench.utils.read_csv: round_trip floats
    try:
        return pd.read_csv(path, float_precision="round_trip")
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

def grade(submission, answers):
    for col in ["PredictionString", "image_id"]:
        if col not in submission.columns:
            raise ValueError("missing column")
    if set(submission["image_id"]) != set(answers["image_id"]):
        raise ValueError("image ids")
    true_df, pred_df = answers, submission
    image_ids = true_df["image_id"].unique()
    if "class_name" not in true_df.columns:
        true_df["class_name"] = true_df["class_id"]
    cats = true_df[["class_name", "class_id"]].drop_duplicates().sort_values(by="class_id").values
    categories = [{"id": c[1], "name": c[0], "supercategory": "none"} for c in cats]
    images = [{"id": idx} for idx, _ in enumerate(image_ids)]
    annotations, k = [], 0
    for idx, image_id in enumerate(image_ids):
        for _, row in true_df[true_df["image_id"] == image_id].iterrows():
            annotations.append({"id": k, "image_id": idx, "category_id": row["class_id"],
                                "bbox": np.array([row["x_min"], row["y_min"], row["x_max"], row["y_max"]]),
                                "segmentation": [], "ignore": 0,
                                "area": (row["x_max"] - row["x_min"]) * (row["y_max"] - row["y_min"]),
                                "iscrowd": 0})
            k += 1
    predictions, k = [], 0
    for _, row in pred_df.iterrows():
        data = np.array(list(map(float, row["PredictionString"].split(" ")))).reshape(-1, 6)
        for pred in data:
            predictions.append({"id": k, "image_id": int(np.where(image_ids == row["image_id"])[0]),
                                "category_id": int(pred[0]),
                                "bbox": np.array([pred[2], pred[3], pred[4], pred[5]]),
                                "segmentation": [], "ignore": 0,
                                "area": (pred[4] - pred[2]) * (pred[5] - pred[3]), "iscrowd": 0,
                                "score": pred[1]})
            k += 1
    with contextlib.redirect_stdout(io.StringIO()):
        coco_ds = COCO()
        coco_ds.dataset = {"type": "instances", "images": images, "categories": categories,
                           "annotations": annotations}
        coco_ds.createIndex()
        coco_dt = COCO()
        coco_dt.dataset = {"images": images.copy(), "categories": categories.copy(),
                           "annotations": predictions}
        coco_dt.createIndex()
        evaluation = COCOeval(coco_ds, coco_dt, "bbox")
        evaluation.params.imgIds = sorted(coco_ds.getImgIds())
        evaluation.params.useCats = True
        evaluation.params.iouType = "bbox"
        evaluation.params.iouThrs = np.array([0.4])
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()
    return evaluation.stats[0]

NAMES = {0: "Aortic enlargement", 3: "Cardiomegaly", 7: "Lung Opacity", 10: "Pleural effusion",
         13: "Pulmonary fibrosis", 14: "No finding"}
out, cases = sys.argv[1], int(sys.argv[2])
rng = random.Random(20261202)
def box(grid):
    x, y = rng.randint(0, grid), rng.randint(0, grid)
    w, h = rng.randint(-1 if rng.random() < 0.05 else 1, grid // 2 + 2), rng.randint(1, grid // 2 + 2)
    return [float(x), float(y), float(x + w), float(y + h)]
scores = []
for case in range(cases):
    grid = rng.choice([4, 20, 300])
    images = [f"img{i}" for i in range(rng.randint(1, 6 if case % 10 else 40))]
    classes = rng.sample([0, 3, 7, 10, 13], rng.randint(1, 4))
    rows, truths = [], {}
    for image in images:
        if rng.random() < 0.25:
            rows.append((image, 14, [0.0, 0.0, 1.0, 1.0]))
        else:
            for _ in range(rng.randint(1, 4)):
                rows.append((image, rng.choice(classes), box(grid)))
    answers = "image_id,class_id,class_name,rad_id,x_min,y_min,x_max,y_max\n" + "".join(
        f"{i},{c},{NAMES[c]},R{rng.randint(1, 9)},{b[0]!r},{b[1]!r},{b[2]!r},{b[3]!r}\n"
        for i, c, b in rows)
    lines = []
    for image in rng.sample(images, len(images)):
        parts = []
        mine = [r for r in rows if r[0] == image]
        for _ in range(rng.randint(1, 8)):
            if mine and rng.random() < 0.6:
                _, c, b = rng.choice(mine)
                b = [v + rng.choice([0, 0, 1, -1]) for v in b]
                c = c if rng.random() < 0.8 else rng.choice([0, 3, 7, 10, 13, 14, 5])
            else:
                c, b = rng.choice([0, 3, 7, 10, 13, 14, 5]), box(grid)
            score = rng.choice([1.0, 0.5, 0.25]) if rng.random() < 0.4 else round(rng.random(), 6)
            parts.append(" ".join([str(c), repr(score)] + [repr(v) for v in b]))
        lines.append((image, " ".join(parts)))
        if rng.random() < 0.1:  # the same image again, more boxes
            lines.append((image, f"{rng.choice(classes)} 0.5 " + " ".join(repr(v) for v in box(grid))))
    if case % 17 == 5:
        lines[0] = (lines[0][0], lines[0][1] + " 7")  # not six numbers a box
    if case % 23 == 7:
        lines = lines[1:] if len(lines) > 1 else lines  # an image missing
    submission = "image_id,PredictionString\n" + "".join(f"{i},{p}\n" for i, p in lines)
    with open(f"{out}/{case}.ans.csv", "w") as f:
        f.write(answers)
    with open(f"{out}/{case}.sub.csv", "w") as f:
        f.write(submission)
    try:
        value = grade(read_csv(f"{out}/{case}.sub.csv"), read_csv(f"{out}/{case}.ans.csv"))
        scores.append(f"ok {float(value).hex()}")
    except Exception as e:  # upstream's grade_csv makes any exception an invalid submission
        scores.append(f"raise {type(e).__name__}")
with open(f"{out}/scores.txt", "w") as f:
    f.write("\n".join(scores) + "\n")
)py";

TEST(VinBigDataGradeTest, MatchesUpstreamOnPycocotools) {
  const testing::UpstreamGradeComparison counts =
      testing::CompareWithUpstreamGrade(kId, kUpstreamGrade, 200);
  EXPECT_GT(counts.scored, 150);
  EXPECT_GT(counts.raised, 10);
}

}  // namespace
}  // namespace mlebench::grade_test
