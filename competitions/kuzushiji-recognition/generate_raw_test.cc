#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(KuzushijiRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree = testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_EQ(names, (std::vector<std::string>{"train.csv", "train_images.zip", "unicode_translation.csv"}));
  EXPECT_EQ(tree->at("train.csv").rfind("image_id,labels\n", 0), 0u);
  EXPECT_EQ(tree->at("unicode_translation.csv").rfind("Unicode,char\n", 0), 0u);
  EXPECT_LT(total, 1'000'000u);
}

// pandas reads train.csv as Kaggle's (text ids, "label X Y W H" groups), the
// zip holds one JPEG per page, and finding dark blobs (scipy.ndimage.label)
// and naming them by their size scores a high F1, while the sample
// submission's constant guess scores 0.
constexpr char kCheckScript[] = R"py(
import io, re, sys, zipfile
import numpy as np
import pandas as pd
from PIL import Image
from scipy import ndimage

raw = sys.argv[1]
train = pd.read_csv(f"{raw}/train.csv")
assert list(train.columns) == ["image_id", "labels"] and train["image_id"].dtype == object
assert train["labels"].notna().all()
for labels in train["labels"]:
    assert re.fullmatch(r"(U\+[0-9A-F]{4} \d+ \d+ \d+ \d+)( U\+[0-9A-F]{4} \d+ \d+ \d+ \d+)*", labels), labels
translation = pd.read_csv(f"{raw}/unicode_translation.csv")
assert list(translation.columns) == ["Unicode", "char"]
archive = zipfile.ZipFile(f"{raw}/train_images.zip")
assert sorted(archive.namelist()) == sorted(f"{i}.jpg" for i in train["image_id"])

def score(pred, truth):
    t = truth.split(" ")
    boxes = [(t[i], int(t[i + 1]), int(t[i + 2]), int(t[i + 3]), int(t[i + 4])) for i in range(0, len(t), 5)]
    p = pred.split(" ")
    points = [(p[i], float(p[i + 1]), float(p[i + 2])) for i in range(0, len(p), 3)]
    used, tp = set(), 0
    for lab, x, y, w, h in boxes:
        for k, (pl, px, py) in enumerate(points):
            if k not in used and pl == lab and x < px < x + w and y < py < y + h:
                used.add(k); tp += 1; break
    return tp, len(points) - len(used), len(boxes) - tp

# Learn each code's blob size from the first half, predict the second half.
half = len(train) // 2
sizes = {}
def blobs(image_id):
    gray = np.asarray(Image.open(io.BytesIO(archive.read(f"{image_id}.jpg"))).convert("L"))
    labelled, _ = ndimage.label(gray < 128)
    return [(s[1].start, s[0].start, s[1].stop - s[1].start, s[0].stop - s[0].start)
            for s in ndimage.find_objects(labelled)]
for image_id, labels in zip(train["image_id"][:half], train["labels"][:half]):
    t = labels.split(" ")
    for i in range(0, len(t), 5):
        sizes[(int(t[i + 3]), int(t[i + 4]))] = t[i]
model, sample = np.zeros(3), np.zeros(3)
for image_id, labels in zip(train["image_id"][half:], train["labels"][half:]):
    pred = " ".join(f"{sizes.get((w, h), 'U+003F')} {x + w / 2} {y + h / 2}" for x, y, w, h in blobs(image_id))
    model += score(pred, labels)
    sample += score("U+003F 1 1 U+FF2F 2 2", labels)
f1 = lambda c: 2 * c[0] / (2 * c[0] + c[1] + c[2])
print(f1(model), f1(sample))
assert f1(model) > 0.8 and f1(sample) == 0, (f1(model), f1(sample))
print("ok")
)py";

TEST(KuzushijiRawTest, ReadableByPandasWithLearnableSignal) {
  absl::StatusOr<std::filesystem::path> raw = testing::GenerateSynthetic(kId, 0);
  ASSERT_TRUE(raw.ok()) << raw.status();
  const testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("ok"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace mlebench::generate_raw_test
