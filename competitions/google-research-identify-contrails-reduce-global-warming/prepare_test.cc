#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/table.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// A writable copy of the synthetic raw download for `seed`.
fs::path RawCopy(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  const fs::path copy = testing::NewTempDir("raw_copy");
  fs::copy(*raw, copy, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  return copy;
}

std::set<std::string> Subdirectories(const fs::path& dir) {
  std::set<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_directory()) names.insert(entry.path().filename().string());
  }
  return names;
}

TEST(ContrailsPrepareTest, LayoutColumnsAndDisjointSplit) {
  const fs::path raw = RawCopy(0);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ::testing::ElementsAre("answers.csv"));
  // 24 train records, 4 of them (the validation set's size) become the test set.
  const std::set<std::string> train = Subdirectories(dirs->public_dir / "train");
  const std::set<std::string> test = Subdirectories(dirs->public_dir / "test");
  EXPECT_EQ(train.size(), 20u);
  EXPECT_EQ(test.size(), 4u);
  for (const std::string& id : test) {
    EXPECT_EQ(train.count(id), 0u) << id;
    EXPECT_EQ(testing::FileNames(dirs->public_dir / "test" / id).size(), 9u) << id;
  }
  for (const std::string& id : train) {
    EXPECT_EQ(testing::FileNames(dirs->public_dir / "train" / id).size(), 11u) << id;
  }
  EXPECT_EQ(testing::FileNames(dirs->public_dir / "validation"),
            testing::FileNames(raw / "validation"));
  EXPECT_TRUE(fs::exists(dirs->public_dir / "train_metadata.json"));
  EXPECT_TRUE(fs::exists(dirs->public_dir / "validation_metadata.json"));

  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  EXPECT_EQ(answers.ColumnNames(),
            (std::vector<std::string>{"record_id", "encoded_pixels", "height", "width"}));
  EXPECT_EQ(answers.num_rows(), 4u);
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(sample.ColumnNames(), answers.ColumnNames());
  EXPECT_EQ(sample.num_rows(), 4u);
  for (const Cell& cell : sample.Find("encoded_pixels")->cells) {
    EXPECT_TRUE(cell == Cell(std::string("1 3 10 5")) || cell == Cell(std::string("-")));
  }
  for (const Cell& cell : answers.Find("height")->cells) EXPECT_EQ(cell, Cell(int64_t{16}));
}

TEST(ContrailsPrepareTest, DeterministicAndRawUntouched) {
  const fs::path raw = RawCopy(1);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// A short restatement of upstream's prepare.py with json, numpy, pandas,
// sklearn, random and shutil.
constexpr char kReference[] = R"py(
import json, os, random, shutil, sys
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
train_meta = json.load(open(f"{raw}/train_metadata.json"))
val_meta = json.load(open(f"{raw}/validation_metadata.json"))
new_train, new_test = train_test_split(train_meta, test_size=len(val_meta), random_state=0)

def encode(mask):
    positions = np.where(mask.T.flatten() == 1)[0]
    runs = []
    for p in positions:
        if runs and p == runs[-2] + runs[-1] - 1:
            runs[-1] += 1
        else:
            runs += [p + 1, 1]
    return " ".join(map(str, runs)) if runs else "-"

rows = []
for r in new_test:
    d = f"{raw}/train/{r['record_id']}"
    h, w, _ = np.load(f"{d}/band_08.npy").shape
    rows.append({"record_id": r["record_id"],
                 "encoded_pixels": encode(np.load(f"{d}/human_pixel_masks.npy")),
                 "height": h, "width": w})
answers = pd.DataFrame(rows)
bands = [f"band_{b:02}.npy" for b in range(8, 17)]
for split, records, names in [("train", new_train, bands + ["human_individual_masks.npy", "human_pixel_masks.npy"]),
                              ("test", new_test, bands)]:
    for r in records:
        os.makedirs(f"{public}/{split}/{r['record_id']}", exist_ok=True)
        for name in names:
            shutil.copyfile(f"{raw}/train/{r['record_id']}/{name}", f"{public}/{split}/{r['record_id']}/{name}")
shutil.copytree(f"{raw}/validation", f"{public}/validation")
shutil.copyfile(f"{raw}/validation_metadata.json", f"{public}/validation_metadata.json")
open(f"{public}/train_metadata.json", "w").write(json.dumps(new_train))
answers.to_csv(f"{private}/answers.csv", index=False)
random.seed(0)
answers["encoded_pixels"] = [random.choice(["1 3 10 5", "-"]) for _ in range(len(answers))]
answers.to_csv(f"{public}/sample_submission.csv", index=False)
)py";

void ExpectMatchesReference(const fs::path& raw) {
  absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(ours.ok()) << ours.status();
  const fs::path reference = testing::NewTempDir("reference");
  fs::create_directories(reference / "public");
  fs::create_directories(reference / "private");
  const testing::CommandResult run = testing::RunPython(
      kReference,
      {raw.string(), (reference / "public").string(), (reference / "private").string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
  EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
}

TEST(ContrailsPrepareTest, MatchesPythonRestatementByteForByte) {
  for (uint64_t seed : {0, 3}) ExpectMatchesReference(RawCopy(seed));
}

// Masks of other dtypes, values other than 0/1 (only 1 counts, as
// rle_encode's fg_val), Fortran order, all-set and all-empty masks.
constexpr char kRewriteMasks[] = R"py(
import glob, sys
import numpy as np
rng = np.random.RandomState(0)
for i, path in enumerate(sorted(glob.glob(sys.argv[1] + "/train/*/human_pixel_masks.npy"))):
    mask = np.load(path)
    kind = i % 6
    if kind == 0: mask = (rng.rand(*mask.shape) < 0.5).astype(np.uint8) * rng.randint(0, 3, mask.shape).astype(np.uint8)
    if kind == 1: mask = mask.astype(bool)
    if kind == 2: mask = np.asfortranarray(mask[:, :, 0])
    if kind == 3: mask = np.ones_like(mask, dtype=np.int64)
    if kind == 4: mask = np.zeros_like(mask, dtype=np.float64)
    np.save(path, mask)
)py";

TEST(ContrailsPrepareTest, MaskDtypesMatchPythonRestatement) {
  const fs::path raw = RawCopy(2);
  const testing::CommandResult run = testing::RunPython(kRewriteMasks, {raw.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ExpectMatchesReference(raw);
}

void ExpectPrepareFails(const fs::path& raw) {
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  EXPECT_FALSE(dirs.ok());
}

TEST(ContrailsPrepareTest, BadRawInputIsAnError) {
  {
    const fs::path raw = RawCopy(0);
    fs::remove(raw / "train_metadata.json");
    ExpectPrepareFails(raw);
  }
  {
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteStringToFile(raw / "train_metadata.json", "{\"a\": 1").ok());
    ExpectPrepareFails(raw);
  }
  {
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteStringToFile(raw / "train_metadata.json", "[{\"record_id\": 5}]").ok());
    ExpectPrepareFails(raw);
  }
  {  // test_size 0 is rejected by train_test_split.
    const fs::path raw = RawCopy(0);
    ASSERT_TRUE(WriteStringToFile(raw / "validation_metadata.json", "[]").ok());
    ExpectPrepareFails(raw);
  }
  {
    const fs::path raw = RawCopy(0);
    for (const fs::directory_entry& entry : fs::directory_iterator(raw / "train")) {
      fs::remove(entry.path() / "band_12.npy");
    }
    ExpectPrepareFails(raw);
  }
  {
    const fs::path raw = RawCopy(0);
    for (const fs::directory_entry& entry : fs::directory_iterator(raw / "train")) {
      ASSERT_TRUE(WriteStringToFile(entry.path() / "human_pixel_masks.npy", "not npy").ok());
    }
    ExpectPrepareFails(raw);
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
