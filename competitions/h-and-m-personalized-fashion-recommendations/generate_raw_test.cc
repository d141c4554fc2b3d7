#include <filesystem>
#include <map>
#include <string>

#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::MatchesRegex;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(HAndMRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0, images = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name.ends_with(".jpg")) {
      EXPECT_THAT(name, MatchesRegex("images/0[0-9][0-9]/0[0-9]{9}\\.jpg"));
      ++images;
    }
  }
  for (const char* name : {"transactions_train.csv", "articles.csv", "customers.csv",
                           "sample_submission.csv"}) {
    EXPECT_EQ(tree->count(name), 1u) << name;
  }
  EXPECT_THAT(tree->at("transactions_train.csv"),
              StartsWith("t_dat,customer_id,article_id,price,sales_channel_id\n"));
  EXPECT_THAT(tree->at("sample_submission.csv"), StartsWith("customer_id,prediction\n"));
  EXPECT_GE(images, 20u);
  EXPECT_LT(total, 2'000'000u);
}

// pandas reads Kaggle's columns and dtypes; on the split upstream makes (the
// last date minus 7 days on is the test week), recommending each customer's
// most bought earlier articles scores far above the sample submission.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import numpy as np
import pandas as pd

raw = Path(sys.argv[1])
tx = pd.read_csv(raw / "transactions_train.csv")
assert list(tx.columns) == ["t_dat", "customer_id", "article_id", "price", "sales_channel_id"]
assert tx["t_dat"].dtype == object and tx["customer_id"].dtype == object, tx.dtypes
assert tx["article_id"].dtype == np.int64 and tx["price"].dtype == np.float64, tx.dtypes
assert tx["sales_channel_id"].isin([1, 2]).all()
assert tx["customer_id"].str.fullmatch(r"[0-9a-f]{64}").all()
dates = pd.to_datetime(tx["t_dat"], format="%Y-%m-%d")
assert dates.is_monotonic_increasing
articles = pd.read_csv(raw / "articles.csv", dtype={"article_id": str})
assert articles["article_id"].str.fullmatch(r"0\d{9}").all()
assert set(tx["article_id"]) <= set(articles["article_id"].astype(int))
customers = pd.read_csv(raw / "customers.csv")
assert list(customers.columns)[0] == "customer_id" and customers["FN"].dtype == np.float64
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(sample.columns) == ["customer_id", "prediction"]
assert set(sample["customer_id"]) == set(customers["customer_id"]) >= set(tx["customer_id"])

test = dates >= dates.max() - pd.Timedelta(days=7)
past, week = tx[~test], tx[test]
truth = week.groupby("customer_id")["article_id"].apply(lambda s: set(s.astype(str)))
def mapk(guess):
    scores = []
    for customer, actual in truth.items():
        ranked, hits, score = guess(customer)[:12], 0, 0.0
        for i, p in enumerate(ranked):
            if p in actual and p not in ranked[:i]:
                hits += 1
                score += hits / (i + 1)
        scores.append(score / min(len(actual), 12))
    return np.mean(scores)
history = past.groupby("customer_id")["article_id"].apply(
    lambda s: [str(a) for a in s.value_counts().index])
popular = [str(a) for a in past["article_id"].value_counts().index[:12]]
model = mapk(lambda c: (history.get(c, []) + popular)[:12])
constant = sample["prediction"].iloc[0].split(" ")
baseline = mapk(lambda c: constant)
print(f"model={model:.3f} sample={baseline:.3f} customers={len(truth)}")
assert len(truth) >= 50 and model > 0.3 and baseline < 0.05, (model, baseline)
)py";

TEST(HAndMRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 5}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
