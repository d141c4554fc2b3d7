#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// A raw download of `notebooks` tiny notebooks (upstream holds out exactly
// 20000, so there must be more): families of forks sharing an ancestor
// (mostly singletons), train_orders.csv listing every notebook (plus
// `extra_orders` rows for notebooks that do not exist), each notebook's
// JSON listing its cells in another order than the true one, some cell ids
// with non-ASCII text.
fs::path MakeRaw(int notebooks, uint64_t seed, int extra_orders = 0) {
  SyntheticRng rng(seed);
  const fs::path raw = testing::NewTempDir("raw");
  fs::create_directories(raw / "train");
  CsvTextBuilder orders, ancestors;
  orders.Row({"id", "cell_order"});
  ancestors.Row({"id", "ancestor_id", "parent_id"});
  std::string ancestor;
  for (int i = 0; i < notebooks; ++i) {
    const std::string id = absl::StrCat(rng.Hex(10), i);
    if (i == 0 || !rng.Bernoulli(0.2)) ancestor = rng.Hex(8);
    const int cells = static_cast<int>(rng.UniformInt(0, 3));
    std::vector<std::string> cell_ids;
    for (int c = 0; c < cells; ++c) cell_ids.push_back(c == 2 ? "\xc3\xa9" + rng.Hex(4) : rng.Hex(8));
    std::string order, types;
    for (size_t c = 0; c < cell_ids.size(); ++c) {
      absl::StrAppend(&order, c ? " " : "", cell_ids[c]);
    }
    for (size_t c = cell_ids.size(); c-- > 0;) {
      absl::StrAppend(&types, types.empty() ? "" : ", ", "\"", cell_ids[c], "\": \"code\"");
    }
    EXPECT_TRUE(WriteStringToFile(raw / "train" / (id + ".json"),
                                  absl::StrCat("{\"cell_type\": {", types, "}, \"source\": {}}"))
                    .ok());
    orders.String(id).String(order).EndRow();
    ancestors.String(id).String(ancestor);
    if (rng.Bernoulli(0.5)) {
      ancestors.Missing();
    } else {
      ancestors.String(rng.Hex(10));
    }
    ancestors.EndRow();
  }
  for (int i = 0; i < extra_orders; ++i) orders.String(absl::StrCat("gone", i)).String("a b").EndRow();
  EXPECT_TRUE(WriteStringToFile(raw / "train_orders.csv", orders.text()).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "train_ancestors.csv", ancestors.text()).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "sample_submission.csv", "id,cell_order\n").ok());
  return raw;
}

// Upstream's prepare() restated with pandas (tqdm dropped).
constexpr char kReference[] = R"py(
import json
import shutil
import sys
from pathlib import Path
import pandas as pd

raw, public, private = map(Path, sys.argv[1:4])
anc = pd.read_csv(raw / "train_ancestors.csv").sample(frac=1, random_state=0).reset_index(drop=True)
groups = {}
for _, row in anc.iterrows():
    groups.setdefault(row["ancestor_id"], []).append(row)
train_ids, test_ids = [], []
for rows in groups.values():
    if len(test_ids) + len(rows) <= 20000:
        test_ids.extend(r["id"] for r in rows)
    else:
        train_ids.extend(r["id"] for r in rows)
assert len(test_ids) == 20000
for sub, ids in (("train", train_ids), ("test", test_ids)):
    (public / sub).mkdir(parents=True, exist_ok=True)
    for i in ids:
        shutil.copy(raw / "train" / f"{i}.json", public / sub / f"{i}.json")
orders = pd.read_csv(raw / "train_orders.csv")
orders[orders["id"].isin(train_ids)].to_csv(public / "train_orders.csv", index=False)
test_orders = orders[orders["id"].isin(test_ids)]
test_orders.to_csv(private / "test_orders.csv", index=False)
anc[~anc["id"].isin(test_ids)].to_csv(public / "train_ancestors.csv", index=False)
rows = []
for i in test_orders["id"]:
    with open(public / "test" / f"{i}.json") as f:
        rows.append({"id": i, "cell_order": " ".join(json.load(f)["cell_type"].keys())})
pd.DataFrame(rows).to_csv(public / "sample_submission.csv", index=False)
assert len(rows) == len(test_ids)
)py";

TEST(AI4CodePrepareTest, MatchesPandasByteForByte) {
  const fs::path raw = MakeRaw(20060, 1);
  absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(ours.ok()) << ours.status();
  std::set<std::string> top_level;
  for (const fs::directory_entry& entry : fs::directory_iterator(ours->public_dir)) {
    top_level.insert(entry.path().filename().string());
  }
  EXPECT_THAT(top_level, ElementsAre("sample_submission.csv", "test", "train",
                                     "train_ancestors.csv", "train_orders.csv"));
  EXPECT_THAT(testing::FileNames(ours->private_dir), ElementsAre("test_orders.csv"));
  const auto ours_public = testing::ReadTree(ours->public_dir);
  const auto ours_private = testing::ReadTree(ours->private_dir);

  // 20000 test notebooks; the rest are train; no ancestor on both sides.
  size_t train = 0, test = 0;
  for (const auto& [name, bytes] : ours_public) {
    train += name.rfind("train/", 0) == 0;
    test += name.rfind("test/", 0) == 0;
  }
  EXPECT_EQ(test, 20000u);
  EXPECT_EQ(train, 60u);
  const Table answers = testing::ReadCsvOrFail(ours->private_dir / "test_orders.csv");
  const Table sample = testing::ReadCsvOrFail(ours->public_dir / "sample_submission.csv");
  const Table train_ancestors = testing::ReadCsvOrFail(ours->public_dir / "train_ancestors.csv");
  EXPECT_EQ(answers.num_rows(), 20000u);
  EXPECT_EQ(sample.num_rows(), 20000u);
  EXPECT_EQ(train_ancestors.num_rows(), 60u);
  const Table all_ancestors = testing::ReadCsvOrFail(raw / "train_ancestors.csv");
  std::map<Cell, Cell> ancestor_of;
  for (size_t i = 0; i < all_ancestors.num_rows(); ++i) {
    ancestor_of[all_ancestors.Find("id")->cells[i]] = all_ancestors.Find("ancestor_id")->cells[i];
  }
  std::set<Cell> train_families;
  for (const Cell& id : train_ancestors.Find("id")->cells) train_families.insert(ancestor_of[id]);
  for (const Cell& id : answers.Find("id")->cells) {
    EXPECT_EQ(train_families.count(ancestor_of[id]), 0u);
  }

  const fs::path reference = testing::NewTempDir("reference");
  fs::create_directories(reference / "public");
  fs::create_directories(reference / "private");
  const testing::CommandResult run = testing::RunPython(
      kReference, {raw.string(), (reference / "public").string(), (reference / "private").string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(ours_public == testing::ReadTree(reference / "public"));
  EXPECT_TRUE(ours_private == testing::ReadTree(reference / "private"));
}

TEST(AI4CodePrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(20030, 4);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

TEST(AI4CodePrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  // Fewer than 20000 notebooks: upstream's assert on the test size.
  EXPECT_FALSE(testing::RunPreparer(kId, MakeRaw(300, 2)).ok());
  // A notebook's JSON is missing.
  const fs::path raw = MakeRaw(20010, 3);
  const Table orders = *ReadCsvFile((raw / "train_orders.csv").string());
  fs::remove(raw / "train" / (std::get<std::string>(orders.columns()[0].cells[5]) + ".json"));
  EXPECT_FALSE(testing::RunPreparer(kId, raw).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
