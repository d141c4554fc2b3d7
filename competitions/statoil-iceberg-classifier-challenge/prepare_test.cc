#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/seven_zip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// Kaggle-like train.json text: samples with 8-hex-digit ids, two short bands
// of floats written in several spellings, an angle or "na", a 0/1 label;
// whitespace varies so that re-serialisation is exercised.
std::string TrainJson(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::string text = "[";
  for (int i = 0; i < count; ++i) {
    if (i > 0) text += i % 3 == 0 ? ",\n " : ", ";
    std::string band_1 = "[", band_2 = "[";
    for (int k = 0; k < 4; ++k) {
      if (k > 0) band_1 += ", ", band_2 += ",";
      band_1 += absl::StrCat(-20 - static_cast<int>(rng.UniformInt(10)), ".", rng.UniformInt(1000),
                             "0");
      band_2 += k == 2 ? "-1.5e1" : absl::StrCat(-25, ".", rng.UniformInt(100000));
    }
    band_1 += "]", band_2 += "]";
    const std::string angle =
        rng.Bernoulli(0.1) ? "\"na\"" : absl::StrCat(30 + rng.UniformInt(15), ".", rng.UniformInt(10000));
    text += absl::StrCat("{\"id\": \"", rng.Hex(8), "\", \"band_1\": ", band_1,
                         ", \"band_2\":", band_2, ", \"inc_angle\": ", angle,
                         ", \"is_iceberg\": ", rng.Bernoulli(0.47) ? 1 : 0, "}");
  }
  return text + "]";
}

constexpr char kTestJson[] =
    "[{\"id\": \"5941774d\", \"band_1\": [-15.86], \"band_2\": [-21.6], \"inc_angle\": 34.9}, "
    "{\"id\": \"4023181e\", \"band_1\": [-26.0], \"band_2\": [-24.1], \"inc_angle\": 32.6}]";

// Kaggle's layout: train.json.7z and test.json.7z holding
// data/processed/<name>.json. The plain JSON goes to `plain/` beside raw/
// for the Python reference (which has no 7z reader here).
fs::path MakeRaw(const std::string& train_json, const std::string& test_json = kTestJson) {
  const fs::path dir = testing::NewTempDir("statoil");
  fs::create_directories(dir / "raw");
  fs::create_directories(dir / "plain");
  EXPECT_TRUE(Write7z(dir / "raw/train.json.7z",
                      {SevenZipEntry::FromBytes("data/processed/train.json", train_json)})
                  .ok());
  EXPECT_TRUE(Write7z(dir / "raw/test.json.7z",
                      {SevenZipEntry::FromBytes("data/processed/test.json", test_json)})
                  .ok());
  EXPECT_TRUE(WriteStringToFile(dir / "plain/train.json", train_json).ok());
  EXPECT_TRUE(WriteStringToFile(dir / "plain/test.json", test_json).ok());
  return dir;
}

// public/ with its archives unpacked (keyed "<archive>/<entry>"), and private/.
std::map<std::string, std::string> Unpacked(const testing::PreparedDirs& dirs) {
  std::map<std::string, std::string> files;
  for (const char* archive :
       {"train.json.7z", "test.json.7z", "sample_submission.csv.7z"}) {
    const fs::path out = testing::NewTempDir("unpacked");
    EXPECT_TRUE(Extract7z(dirs.public_dir / archive, out).ok()) << archive;
    for (const auto& [name, bytes] : testing::ReadTree(out)) files[std::string(archive) + "/" + name] = bytes;
  }
  for (const auto& [name, bytes] : testing::ReadTree(dirs.private_dir)) {
    files["private/" + name] = bytes;
  }
  return files;
}

// Upstream's prepare() restated with json, sklearn and pandas, writing the
// archives' contents as plain files named as Unpacked() names them.
constexpr char kReference[] = R"py(
import json, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

plain, out = Path(sys.argv[1]), Path(sys.argv[2])
old_train = json.load((plain / "train.json").open())
old_test = json.load((plain / "test.json").open())
test_fields = list(old_test[0].keys())
new_train, new_test = train_test_split(old_train, test_size=0.2, random_state=0)
for d in ("train.json.7z", "test.json.7z", "sample_submission.csv.7z", "private"):
    (out / d).mkdir()
with open(out / "train.json.7z/train.json", "w") as f:
    json.dump(new_train, f)
with open(out / "test.json.7z/test.json", "w") as f:
    json.dump([{k: s[k] for k in test_fields} for s in new_test], f)
answers = pd.DataFrame([{"id": s["id"], "is_iceberg": int(s["is_iceberg"])} for s in new_test])
answers.to_csv(out / "private/test.csv", index=False)
sample = answers.copy()
sample["is_iceberg"] = 0.5
sample.to_csv(out / "private/sample_submission.csv", index=False)
sample.to_csv(out / "sample_submission.csv.7z/sample_submission.csv", index=False)
)py";

TEST(StatoilPrepareTest, MatchesPythonByteForByte) {
  for (const auto& [rows, seed] : std::vector<std::pair<int, uint64_t>>{{2, 1}, {13, 2}, {400, 3}}) {
    SCOPED_TRACE(rows);
    const fs::path dir = MakeRaw(TrainJson(rows, seed));
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, dir / "raw");
    ASSERT_TRUE(ours.ok()) << ours.status();
    EXPECT_THAT(testing::FileNames(ours->public_dir),
                ElementsAre("sample_submission.csv.7z", "test.json.7z", "train.json.7z"));
    EXPECT_THAT(testing::FileNames(ours->private_dir), ElementsAre("sample_submission.csv", "test.csv"));
    const fs::path reference = testing::NewTempDir("reference");
    const testing::CommandResult run =
        testing::RunPython(kReference, {(dir / "plain").string(), reference.string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(Unpacked(*ours), testing::ReadTree(reference));
  }
}

TEST(StatoilPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path dir = MakeRaw(TrainJson(50, 4));
  testing::ExpectDeterministicAndRawUntouched(kId, dir / "raw");  // upstream extracts into raw/
}

absl::Status PrepareStatus(const std::string& train_json, const std::string& test_json = kTestJson) {
  return testing::RunPreparer(kId, MakeRaw(train_json, test_json) / "raw").status();
}


std::string Samples(const std::vector<std::pair<std::string, std::string>>& id_labels) {
  std::string text = "[";
  for (const auto& [id, label] : id_labels) {
    if (text.size() > 1) text += ", ";
    text += absl::StrCat(R"({"id": )", id, R"(, "band_1": [1.0], "band_2": [2.0], "inc_angle": 40.0, "is_iceberg": )",
                         label, "}");
  }
  return text + "]";
}

TEST(StatoilPrepareTest, RunsUpstreamsChecks) {
  // A sample with other fields than the first.
  std::string train = TrainJson(10, 5);
  const size_t at = train.rfind("\"inc_angle\"");
  train.replace(at, 11, "\"incidence\"");
  EXPECT_THAT(PrepareStatus(train).message(), HasSubstr("Inconsistent fields in train set"));
  EXPECT_THAT(PrepareStatus(TrainJson(10, 6), R"([{"id": "a", "band_1": []}, {"id": "b"}])").message(),
              HasSubstr("Inconsistent fields in test set"));
  // The same id in train and test.
  std::vector<std::pair<std::string, std::string>> same;
  for (int i = 0; i < 10; ++i) same.push_back({"\"0000aaaa\"", "1"});
  EXPECT_THAT(PrepareStatus(Samples(same)).message(), HasSubstr("should not overlap"));
  // A test field that train samples lack.
  EXPECT_THAT(PrepareStatus(TrainJson(10, 7), R"([{"id": "a", "angle": 1}])").message(),
              HasSubstr("lack the test field 'angle'"));
}

TEST(StatoilPrepareTest, LabelsAreReadAsPythonsIntDoes) {
  // int() truncates floats and reads strings of digits and bools; ids may be ints.
  std::vector<std::pair<std::string, std::string>> samples;
  const std::vector<std::string> labels = {"1", "0", "0.9", "true", "false", "\" 1 \"", "1.0", "0"};
  for (size_t i = 0; i < labels.size(); ++i) samples.push_back({absl::StrCat(100 + i), labels[i]});
  const fs::path dir = MakeRaw(Samples(samples));
  absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, dir / "raw");
  ASSERT_TRUE(ours.ok()) << ours.status();
  const fs::path reference = testing::NewTempDir("reference");
  const testing::CommandResult run =
      testing::RunPython(kReference, {(dir / "plain").string(), reference.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(Unpacked(*ours), testing::ReadTree(reference));
  // Labels int() rejects, when they land in the new test set (every row of
  // these: train_test_split puts row 7 of 8 in test, and all rows share it).
  for (const std::string bad : {"null", "\"x\"", "[1]", "NaN", "\"1.5\""}) {
    std::vector<std::pair<std::string, std::string>> with_bad;
    for (int i = 0; i < 8; ++i) with_bad.push_back({absl::StrCat(i), bad});
    EXPECT_THAT(PrepareStatus(Samples(with_bad)).message(), HasSubstr("int() accepts")) << bad;
  }
}

TEST(StatoilPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  const fs::path no_test = MakeRaw(TrainJson(10, 8));
  fs::remove(no_test / "raw/test.json.7z");
  EXPECT_FALSE(testing::RunPreparer(kId, no_test / "raw").ok());
  // Archives holding the JSON elsewhere than data/processed/.
  const fs::path flat = MakeRaw(TrainJson(10, 9));
  ASSERT_TRUE(Write7z(flat / "raw/train.json.7z", {SevenZipEntry::FromBytes("train.json", "[]")}).ok());
  EXPECT_FALSE(testing::RunPreparer(kId, flat / "raw").ok());
  // JSON that json.load rejects or that is not a non-empty list of objects.
  for (const std::string bad : {"", "[", "[]", "{}", "\"x\"", "[1, 2]", "[{\"id\": \"a\"},]",
                                "[{\"id\": \"a\"} {\"id\": \"b\"}]", "[{\"id\": \"a\"}] x",
                                "[{\"id\": \"a\"}}", "[{\"id\": \"a\\x\"}]", "\xef\xbb\xbf[]"}) {
    EXPECT_FALSE(PrepareStatus(bad).ok()) << bad;
    EXPECT_FALSE(PrepareStatus(TrainJson(10, 10), bad).ok()) << bad;
  }
  // One sample: nothing left to train on.
  EXPECT_FALSE(PrepareStatus(TrainJson(1, 11)).ok());
}

}  // namespace
}  // namespace mlebench::prepare_test
