#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/bson.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// `count` products with shuffled, gappy ids (some int64, as pymongo writes
// large ints), one to three pictures and Kaggle's key order; every fifth
// product has an extra string field, kept in train.bson and test.bson.
std::string RandomTrainBson(int count, uint64_t seed) {
  std::vector<int64_t> ids(count);
  std::iota(ids.begin(), ids.end(), 0);
  uint64_t state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  for (int i = count - 1; i > 0; --i) std::swap(ids[i], ids[next() % (i + 1)]);
  std::string bytes;
  for (int i = 0; i < count; ++i) {
    const int64_t id = ids[i] * 3 + static_cast<int64_t>(next() % 3);
    std::vector<BsonElement> pictures;
    for (uint64_t p = 0; p <= next() % 3; ++p) {
      pictures.push_back(BsonElement::Subdocument(
          "", BsonDocument{{BsonElement::Binary("picture", "\xff\xd8 jpeg " + std::to_string(next()))}}));
    }
    BsonDocument product{{i % 7 == 3 ? BsonElement::Int64("_id", id)
                                     : BsonElement::Int32("_id", static_cast<int32_t>(id)),
                          BsonElement::Array("imgs", std::move(pictures)),
                          BsonElement::Int32("category_id",
                                             static_cast<int32_t>(1000000000 + next() % 7))}};
    if (i % 5 == 0) product.elements.push_back(BsonElement::String("note", "é/" + std::to_string(i)));
    bytes += EncodeBson(product);
  }
  return bytes;
}

fs::path MakeRaw(const std::string& train_bson) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.bson", train_bson).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "category_names.csv",
                                "category_id,category_level1,category_level2,category_level3\n"
                                "1000000000,A,B,C\n")
                  .ok());
  return raw;
}

TEST(CdiscountPrepareTest, SplitsProducts) {
  const fs::path raw = MakeRaw(RandomTrainBson(250, 1));
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir),
              ElementsAre("category_names.csv", "sample_submission.csv", "test.bson",
                          "train.bson", "train_example.bson"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("answers.csv"));

  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "answers.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("_id", "category_id"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("_id", "category_id"));
  EXPECT_EQ(answers.num_rows(), 25u);
  EXPECT_EQ(sample.Find("_id")->cells, answers.Find("_id")->cells);
  EXPECT_TRUE(std::is_sorted(answers.Find("_id")->cells.begin(), answers.Find("_id")->cells.end()));
  for (const Cell& c : sample.Find("category_id")->cells) EXPECT_EQ(c, Cell(int64_t{1000010653}));

  std::map<std::string, std::vector<BsonDocument>> outputs;
  for (const char* name : {"train.bson", "test.bson", "train_example.bson"}) {
    absl::StatusOr<std::string> bytes = ReadFileToString(dirs->public_dir / name);
    ASSERT_TRUE(bytes.ok());
    absl::StatusOr<std::vector<BsonDocument>> docs = DecodeBsonSequence(*bytes);
    ASSERT_TRUE(docs.ok()) << docs.status();
    outputs[name] = *std::move(docs);
  }
  EXPECT_EQ(outputs["train.bson"].size(), 225u);
  EXPECT_EQ(outputs["test.bson"].size(), 25u);
  ASSERT_EQ(outputs["train_example.bson"].size(), 100u);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(EncodeBson(outputs["train_example.bson"][i]), EncodeBson(outputs["train.bson"][i]));
  }
  for (const BsonDocument& d : outputs["test.bson"]) EXPECT_EQ(d.Find("category_id"), nullptr);
  for (const BsonDocument& d : outputs["train.bson"]) EXPECT_NE(d.Find("category_id"), nullptr);
}

TEST(CdiscountPrepareTest, FewerThanHundredTrainProducts) {
  const fs::path raw = MakeRaw(RandomTrainBson(30, 2));
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_EQ(*ReadFileToString(dirs->public_dir / "train_example.bson"),
            *ReadFileToString(dirs->public_dir / "train.bson"));
}

TEST(CdiscountPrepareTest, DeterministicAndRawUntouched) {
  const fs::path raw = MakeRaw(RandomTrainBson(120, 3));
  const auto before = testing::ReadTree(raw);
  absl::StatusOr<testing::PreparedDirs> a = testing::RunPreparer(kId, raw);
  absl::StatusOr<testing::PreparedDirs> b = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(testing::ReadTree(a->public_dir), testing::ReadTree(b->public_dir));
  EXPECT_EQ(testing::ReadTree(a->private_dir), testing::ReadTree(b->private_dir));
  EXPECT_EQ(testing::ReadTree(raw), before);
}

TEST(CdiscountPrepareTest, BadRawInputIsAnError) {
  const std::string good = RandomTrainBson(40, 4);
  auto expect_error = [](const fs::path& raw, std::string_view needle) {
    absl::Status s = testing::RunPreparer(kId, raw).status();
    EXPECT_FALSE(s.ok()) << needle;
    EXPECT_THAT(std::string(s.message()), HasSubstr(std::string(needle)));
  };
  expect_error(MakeRaw(good.substr(0, good.size() - 3)), "cut off");
  expect_error(MakeRaw(""), "");
  fs::path raw = MakeRaw(good);
  fs::remove(raw / "category_names.csv");
  expect_error(raw, "category_names.csv");
  raw = MakeRaw(good);
  fs::remove(raw / "train.bson");
  expect_error(raw, "train.bson");
  expect_error(MakeRaw(EncodeBson(BsonDocument{{BsonElement::Int32("_id", 1)}}) + good),
               "category_id");
  expect_error(MakeRaw(good + EncodeBson(BsonDocument{{BsonElement::String("_id", "x"),
                                                       BsonElement::Int32("category_id", 1)}})),
               "not an integer");
  // Repeated ids can land on both sides of the split: upstream's assert.
  std::string repeated;
  for (int i = 0; i < 40; ++i) {
    repeated += EncodeBson(BsonDocument{{BsonElement::Int32("_id", i % 2),
                                         BsonElement::Int32("category_id", 1)}});
  }
  expect_error(MakeRaw(repeated), "in common");
}

// A pandas + scikit-learn restatement of upstream's prepare.py, with
// bson_reference.py in place of pymongo's bson (absent from Debian).
constexpr char kReferenceScript[] = R"py(
import shutil, sys
sys.path.insert(0, "competitions/cdiscount-image-classification-challenge")
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split
import bson_reference as br

raw, public, private = map(Path, sys.argv[1:4])
docs = br.read_file(raw / "train.bson")
old_train = pd.DataFrame([{"_id": br.value(e, "_id"), "category_id": br.value(e, "category_id")}
                          for _, e in docs])
new_train, answers = train_test_split(old_train, test_size=0.1, random_state=0)
answers = answers.sort_values(by="_id")
sample_submission = answers[["_id"]].copy()
sample_submission["category_id"] = 1000010653
answers.to_csv(private / "answers.csv", index=False)
sample_submission.to_csv(public / "sample_submission.csv", index=False)

def filter_docs(ids, path, exclude=(), max_rows=None):
    written = 0
    with open(path, "wb") as f:
        for _, e in docs:
            if br.value(e, "_id") in ids:
                f.write(br.encode([x for x in e if x[0] not in exclude]))
                written += 1
            if max_rows is not None and written >= max_rows:
                break

filter_docs(set(new_train["_id"]), public / "train.bson")
filter_docs(set(answers["_id"]), public / "test.bson", exclude=("category_id",))
filter_docs(set(new_train["_id"]), public / "train_example.bson", max_rows=100)
shutil.copy(raw / "category_names.csv", public / "category_names.csv")
)py";

TEST(CdiscountPrepareTest, MatchesPandasRestatementByteForByte) {
  for (int count : {11, 150, 333}) {
    SCOPED_TRACE(count);
    const fs::path raw = MakeRaw(RandomTrainBson(count, 10 + count));
    absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(dirs.ok()) << dirs.status();
    const fs::path ref = testing::NewTempDir("reference");
    fs::create_directories(ref / "public");
    fs::create_directories(ref / "private");
    testing::CommandResult result = testing::RunPython(
        kReferenceScript, {raw.string(), (ref / "public").string(), (ref / "private").string()});
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(testing::ReadTree(dirs->public_dir), testing::ReadTree(ref / "public"));
    EXPECT_EQ(testing::ReadTree(dirs->private_dir), testing::ReadTree(ref / "private"));
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
