#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(SpookyAuthorRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sample_submission.zip", "test.zip", "train.zip"));

  EXPECT_LT(total, 2'000'000u);
}

TEST(SpookyAuthorRawTest, EachArchiveHoldsOneQuotedCsv) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, 2);
  ASSERT_TRUE(raw.ok()) << raw.status();
  const std::map<std::string, std::string> expected_headers = {
      {"train", "\"id\",\"text\",\"author\"\n\"id"},
      {"test", "\"id\",\"text\"\n\"id"},
      {"sample_submission", "\"id\",\"EAP\",\"HPL\",\"MWS\"\n\"id"},
  };
  const fs::path out = testing::NewTempDir("extracted");
  for (const auto& [stem, header] : expected_headers) {
    const fs::path zip = *raw / (stem + ".zip");
    absl::StatusOr<std::vector<std::string>> names = ListZip(zip);
    ASSERT_TRUE(names.ok()) << names.status();
    EXPECT_THAT(*names, ElementsAre(stem + ".csv"));
    ASSERT_TRUE(ExtractZip(zip, out).ok());
    absl::StatusOr<std::string> csv = ReadFileToString(out / (stem + ".csv"));
    ASSERT_TRUE(csv.ok()) << csv.status();
    EXPECT_THAT(*csv, StartsWith(header));
  }
}

// pandas reads the archived CSVs (as upstream does after extracting
// train.zip) with Kaggle's columns and formats, and a naive Bayes word model
// fitted on upstream's train split clearly beats the sample submission's log
// loss on the held-out rows.
constexpr char kCheckScript[] = R"py(
import sys, zipfile
from pathlib import Path
import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import MultinomialNB

raw = Path(sys.argv[1])
def read(stem):
    with zipfile.ZipFile(raw / f"{stem}.zip") as z:
        assert z.testzip() is None
        assert z.namelist() == [f"{stem}.csv"], z.namelist()
        with z.open(f"{stem}.csv") as f:
            return pd.read_csv(f, float_precision="round_trip")
train, test, sample = read("train"), read("test"), read("sample_submission")
assert list(train.columns) == ["id", "text", "author"], list(train.columns)
assert list(test.columns) == ["id", "text"], list(test.columns)
assert list(sample.columns) == ["id", "EAP", "HPL", "MWS"], list(sample.columns)
assert len(train) == 3000 and len(test) == 1000 == len(sample)
for frame in (train, test):
    assert (frame.dtypes == object).all(), frame.dtypes
    assert not frame.isna().any().any()
    assert frame["id"].str.fullmatch(r"id\d{5}").all()
    assert frame["id"].is_unique and not frame["id"].is_monotonic_increasing
    assert frame["text"].str.fullmatch(r'[A-Z"].*[.?!]"?').all()
assert not set(train["id"]) & set(test["id"])
assert list(sample["id"]) == list(test["id"])
assert (sample[["EAP", "HPL", "MWS"]].dtypes == np.float64).all()
assert sample["EAP"].eq(0.403493538995863).all() and sample["HPL"].eq(0.287808366106543).all()
assert set(train["author"]) == {"EAP", "HPL", "MWS"}
shares = train["author"].value_counts(normalize=True)
assert shares.idxmax() == "EAP" and shares.min() > 0.2, shares
# Texts exercise CSV quoting and UTF-8.
assert train["text"].str.contains(",").mean() > 0.3
assert train["text"].str.contains('"').mean() > 0.03
assert train["text"].str.contains("[^\x00-\x7f]").any()

# Split as upstream's prepare does, fit, and compare with the sample's constants.
fit, held_out = train_test_split(train, test_size=0.1, random_state=0)
vectorizer = CountVectorizer()
model = MultinomialNB(alpha=1.0).fit(vectorizer.fit_transform(fit["text"]), fit["author"])
assert list(model.classes_) == ["EAP", "HPL", "MWS"]
proba = model.predict_proba(vectorizer.transform(held_out["text"]))
loss = log_loss(held_out["author"], proba, labels=["EAP", "HPL", "MWS"])
constant = np.tile([0.403493538995863, 0.287808366106543, 0.308698094897594], (len(held_out), 1))
baseline = log_loss(held_out["author"], constant, labels=["EAP", "HPL", "MWS"])
print(f"naive Bayes log loss={loss:.3f} sample submission={baseline:.3f}")
assert loss < 0.7 and loss < baseline - 0.3, (loss, baseline)
)py";

TEST(SpookyAuthorRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 9}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
