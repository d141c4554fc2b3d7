#include <filesystem>
#include <iostream>
#include <map>
#include <string>

#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(LyftRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::map<std::string, size_t> per_folder;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    ++per_folder[name.substr(0, name.find('/'))];
  }
  // 12 train logs and 2 test logs of 4 samples; 2 cameras and 1 lidar each.
  EXPECT_EQ(per_folder["train_data"], 13u);
  EXPECT_EQ(per_folder["test_data"], 11u);
  EXPECT_EQ(per_folder["train_images"], 96u);
  EXPECT_EQ(per_folder["train_lidar"], 48u);
  EXPECT_EQ(per_folder["test_images"], 16u);
  EXPECT_EQ(per_folder["test_lidar"], 8u);
  EXPECT_EQ(per_folder["train_maps"], 1u);
  EXPECT_EQ(per_folder["test_maps"], 1u);
  EXPECT_THAT(tree->at("train.csv"), StartsWith("Id,PredictionString\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("Id,PredictionString\n"));
  EXPECT_THAT(tree->at("train_data/map.json"), StartsWith("[{\"log_tokens\": [\""));
  EXPECT_LT(total, 3'000'000u);
}

// Python's json, pandas and PIL read Kaggle's layout and types, the tables
// reference each other as the Lyft SDK expects, and a simple model (lidar
// points to world coordinates, drop the ground, DBSCAN clusters, a PCA box
// per cluster, the class with the nearest mean size) finds most boxes of
// held-out logs at 3D IoU > 0.5, where the empty sample submission finds
// none.
constexpr char kCheckScript[] = R"py(
import json, re, sys
from pathlib import Path
import numpy as np
import pandas as pd
from PIL import Image
from shapely.geometry import Polygon
from sklearn.cluster import DBSCAN

raw = Path(sys.argv[1])
common = ["attribute", "calibrated_sensor", "category", "ego_pose", "log", "map", "sample",
          "sample_data", "scene", "sensor", "visibility"]
parts = {"train": common + ["instance", "sample_annotation"], "test": common}
hex64 = re.compile(r"[0-9a-f]{64}")
db = {}
for part, names in parts.items():
    folder = raw / f"{part}_data"
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{n}.json" for n in names), part
    t = {n: json.loads((folder / f"{n}.json").read_text()) for n in names}
    db[part] = t
    classes = [c["name"] for c in t["category"]]
    assert classes == ["car", "pedestrian", "animal", "other_vehicle", "bus", "motorcycle",
                       "truck", "emergency_vehicle", "bicycle"], classes
    logs = [l["token"] for l in t["log"]]
    assert all(hex64.fullmatch(x) for x in logs) and len(set(logs)) == len(logs)
    assert sorted(s["token"] for s in t["scene"]) == sorted(logs)
    assert all(s["token"] == s["log_token"] for s in t["scene"])
    assert len(t["map"]) == 1 and t["map"][0]["log_tokens"] == logs
    samples = {s["token"]: s for s in t["sample"]}
    assert all(hex64.fullmatch(x) for x in samples) and {s["scene_token"] for s in t["sample"]} == set(logs)
    assert isinstance(t["sample"][0]["timestamp"], float)
    cal = {c["token"]: c for c in t["calibrated_sensor"]}
    ego = {e["token"]: e for e in t["ego_pose"]}
    assert {d["calibrated_sensor_token"] for d in t["sample_data"]} == set(cal)
    assert sorted(d["ego_pose_token"] for d in t["sample_data"]) == sorted(ego)
    for d in t["sample_data"]:
        assert d["sample_token"] in samples
        kind = {"jpeg": "images", "bin": "lidar"}[d["fileformat"]]
        path = raw / f"{part}_{kind}" / Path(d["filename"]).name
        assert d["filename"].startswith("images/" if kind == "images" else "lidar/")
        if kind == "images":
            im = Image.open(path)
            assert im.format == "JPEG" and im.size == (d["width"], d["height"])
        else:
            assert path.stat().st_size % 20 == 0 and path.stat().st_size > 0
    assert Image.open(raw / f"{part}_maps" / "map_raster_palo_alto.png").format == "PNG"

train = pd.read_csv(raw / "train.csv")
assert list(train.columns) == ["Id", "PredictionString"] and (train.dtypes == object).all()
assert list(train["Id"]) == [s["token"] for s in db["train"]["sample"]]
sub = pd.read_csv(raw / "sample_submission.csv")
assert list(sub.columns) == ["Id", "PredictionString"] and sub["PredictionString"].isna().all()
assert list(sub["Id"]) == [s["token"] for s in db["test"]["sample"]]
t = db["train"]
assert {a["instance_token"] for a in t["sample_annotation"]} == {i["token"] for i in t["instance"]}
assert sum(len(p.split(" ")) // 8 for p in train["PredictionString"]) == len(t["sample_annotation"])

def rotation(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])

def boxes_of(text):
    tokens = text.split(" ")
    return [(np.array(tokens[i:i + 7], dtype=float), tokens[i + 7]) for i in range(0, len(tokens), 8)]

def footprint(b):
    x, y, _, w, l, _, yaw = b
    c, s = np.cos(yaw), np.sin(yaw)
    return Polygon([(x + c * u - s * v, y + s * u + c * v)
                    for u, v in [(l / 2, w / 2), (-l / 2, w / 2), (-l / 2, -w / 2), (l / 2, -w / 2)]])

def iou3d(a, b):
    inter = footprint(a).intersection(footprint(b)).area
    dz = min(a[2] + a[5] / 2, b[2] + b[5] / 2) - max(a[2] - a[5] / 2, b[2] - b[5] / 2)
    v = inter * max(dz, 0)
    return v / (a[3] * a[4] * a[5] + b[3] * b[4] * b[5] - v)

logs = [l["token"] for l in t["log"]]
held = set(logs[-3:])
truth = dict(zip(train["Id"], train["PredictionString"]))
sizes = {}
for s in t["sample"]:
    if s["scene_token"] not in held:
        for b, name in boxes_of(truth[s["token"]]):
            sizes.setdefault(name, []).append(np.log(b[3:6]))
mean_size = {k: np.mean(v, axis=0) for k, v in sizes.items()}
cal = {c["token"]: c for c in t["calibrated_sensor"]}
ego = {e["token"]: e for e in t["ego_pose"]}
n_true = n_pred = hits = 0
for d in t["sample_data"]:
    sample = next(s for s in t["sample"] if s["token"] == d["sample_token"])
    if d["fileformat"] != "bin" or sample["scene_token"] not in held:
        continue
    pts = np.fromfile(raw / "train_lidar" / Path(d["filename"]).name, dtype=np.float32).reshape(-1, 5)[:, :3]
    c, e = cal[d["calibrated_sensor_token"]], ego[d["ego_pose_token"]]
    pts = pts @ rotation(c["rotation"]).T + c["translation"]
    pts = pts @ rotation(e["rotation"]).T + e["translation"]
    ground = np.percentile(pts[:, 2], 10)
    above = pts[pts[:, 2] > ground + 0.2]
    labels = DBSCAN(eps=1.0, min_samples=5).fit_predict(above[:, :2])
    predicted = []
    for k in set(labels) - {-1}:
        p = above[labels == k]
        xy = p[:, :2] - p[:, :2].mean(0)
        _, vecs = np.linalg.eigh(np.cov(xy.T))
        axis = vecs[:, -1]
        yaw = np.arctan2(axis[1], axis[0])
        u, v = xy @ axis, xy @ np.array([-axis[1], axis[0]])
        cu, cv = (u.max() + u.min()) / 2, (v.max() + v.min()) / 2
        center = p[:, :2].mean(0) + cu * axis + cv * np.array([-axis[1], axis[0]])
        h = p[:, 2].max() - ground
        box = np.array([center[0], center[1], ground + h / 2, v.max() - v.min(), u.max() - u.min(), h, yaw])
        name = min(mean_size, key=lambda n: np.sum((np.log(box[3:6]) - mean_size[n]) ** 2))
        predicted.append((box, name))
    gt = boxes_of(truth[d["sample_token"]])
    n_true += len(gt)
    n_pred += len(predicted)
    used = set()
    for box, name in predicted:
        for j, (g, gname) in enumerate(gt):
            if j not in used and gname == name and iou3d(box, g) > 0.5:
                used.add(j)
                hits += 1
                break
recall, precision = hits / n_true, hits / max(n_pred, 1)
print(f"boxes={n_true} predicted={n_pred} recall={recall:.3f} precision={precision:.3f} (empty submission: 0)")
assert n_true >= 20 and recall > 0.6 and precision > 0.6, (recall, precision)
)py";

TEST(LyftRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 7}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
