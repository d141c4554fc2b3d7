#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(AI4CodeRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, train_json = 0, test_json = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    train_json += name.rfind("train/", 0) == 0;
    test_json += name.rfind("test/", 0) == 0;
  }
  EXPECT_EQ(train_json, 21400u);
  EXPECT_EQ(test_json, 4u);
  EXPECT_THAT(tree->at("train_orders.csv"), StartsWith("id,cell_order\n"));
  EXPECT_THAT(tree->at("train_ancestors.csv"), StartsWith("id,ancestor_id,parent_id\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("id,cell_order\n"));
  EXPECT_LT(total, 6'000'000u);
}

// pandas and json read the files in Kaggle's layout (every notebook's cells
// are exactly its train_orders.csv cells, code cells first in true order);
// and a model that puts each markdown cell before the code cell of the step
// it names (learnt on upstream's kind of split of the train notebooks)
// clearly beats the file order, which is what the sample submission
// submits, under upstream's Kendall tau.
constexpr char kCheckScript[] = R"py(
import json
import sys
from bisect import bisect
from collections import Counter, defaultdict
from pathlib import Path
import pandas as pd

raw = Path(sys.argv[1])
orders = pd.read_csv(raw / "train_orders.csv")
ancestors = pd.read_csv(raw / "train_ancestors.csv")
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(orders.columns) == ["id", "cell_order"] and len(orders) == 21400
assert list(ancestors.columns) == ["id", "ancestor_id", "parent_id"]
assert orders["id"].is_unique and set(orders["id"]) == set(ancestors["id"])
assert orders["id"].str.fullmatch(r"[0-9a-f]{14}").all()
assert ancestors["ancestor_id"].str.fullmatch(r"[0-9a-f]{8}").all()
assert ancestors["parent_id"].isna().mean() > 0.5
assert ancestors["ancestor_id"].nunique() < len(ancestors)
assert sorted(p.stem for p in (raw / "test").iterdir()) == sorted(sample["id"])

def kendall_tau(gts, preds):
    inv = tot = 0
    for gt, pred in zip(gts, preds):
        ranks = [gt.index(x) for x in pred]
        seen = []
        for i, u in enumerate(ranks):
            j = bisect(seen, u); inv += i - j; seen.insert(j, u)
        tot += len(gt) * (len(gt) - 1)
    return 1 - 4 * inv / tot

notebooks = {}
for nb_id, order in zip(orders["id"], orders["cell_order"]):
    nb = json.loads((raw / "train" / f"{nb_id}.json").read_text())
    assert set(nb) == {"cell_type", "source"} and list(nb["cell_type"]) == list(nb["source"])
    cells = order.split()
    assert sorted(nb["cell_type"]) == sorted(cells)
    code = [c for c in cells if nb["cell_type"][c] == "code"]
    assert [c for c in nb["cell_type"] if nb["cell_type"][c] == "code"] == code
    notebooks[nb_id] = (nb, cells)

ids = list(orders["id"])
fit, held = ids[:15000], ids[15000:]
# Learn, for each markdown text, the code text that follows it most often.
follows = defaultdict(Counter)
for nb_id in fit:
    nb, cells = notebooks[nb_id]
    for a, b in zip(cells, cells[1:]):
        if nb["cell_type"][a] == "markdown" and nb["cell_type"][b] == "code":
            follows[nb["source"][a]][nb["source"][b]] += 1

def predict(nb):
    code = [c for c in nb["cell_type"] if nb["cell_type"][c] == "code"]
    by_source = {nb["source"][c]: c for c in code}
    before, tail = defaultdict(list), []
    for c in nb["cell_type"]:
        if nb["cell_type"][c] != "markdown":
            continue
        target = next((s for s, _ in follows[nb["source"][c]].most_common() if s in by_source), None)
        (before[by_source[target]] if target else tail).append(c)
    out = []
    for c in code:
        out += before[c] + [c]
    return out + tail

truth = [notebooks[i][1] for i in held]
model = kendall_tau([predict(notebooks[i][0]) for i in held], truth)
file_order = kendall_tau([list(notebooks[i][0]["cell_type"]) for i in held], truth)
print(f"model kendall tau={model:.3f} file order={file_order:.3f}")
assert model > 0.9 and model > file_order + 0.2, (model, file_order)
)py";

TEST(AI4CodeRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, 0);
  ASSERT_TRUE(raw.ok()) << raw.status();
  testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  std::cout << result.output;
}

}  // namespace
}  // namespace mlebench::generate_raw_test
