"""Upstream's grade() (prepare_for_metric and its VinBigDataEval class,
restated) on the real pycocotools 2.0.8 COCOeval and pandas
2.2.2 of the reference environment, on random answers and submissions:
several boxes per image and class, "No finding" images, classes the
answers lack, duplicate submission rows, tied and NaN scores, boxes of
negative extent, and broken prediction strings. Same score bit for bit,
or invalid where upstream raises.
See //tools/upstream_grade:driver.py for the names this script is given."""
import contextlib, io
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

MIN_SCORED = 151
MIN_RAISED = 11

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
                                "bbox": np.array([row["x_min"], row["y_min"],
                                                  row["x_max"], row["y_max"]]),
                                "segmentation": [], "ignore": 0,
                                "area": ((row["x_max"] - row["x_min"])
                                         * (row["y_max"] - row["y_min"])),
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
def box(grid):
    x, y = rng.randint(0, grid), rng.randint(0, grid)
    w = rng.randint(-1 if rng.random() < 0.05 else 1, grid // 2 + 2)
    h = rng.randint(1, grid // 2 + 2)
    return [float(x), float(y), float(x + w), float(y + h)]
def make_case(case):
    grid = rng.choice([4, 20, 300])
    images = [f"img{i}" for i in range(rng.randint(1, 6 if case % 10 else 40))]
    classes = rng.sample([0, 3, 7, 10, 13], rng.randint(1, 4))
    rows = []
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
            extra_class = rng.choice(classes)
            lines.append((image, f"{extra_class} 0.5 " + " ".join(repr(v) for v in box(grid))))
    if case % 17 == 5:
        lines[0] = (lines[0][0], lines[0][1] + " 7")  # not six numbers a box
    if case % 23 == 7:
        lines = lines[1:] if len(lines) > 1 else lines  # an image missing
    submission = "image_id,PredictionString\n" + "".join(f"{i},{p}\n" for i, p in lines)
    return answers, submission
