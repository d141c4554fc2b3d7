#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// A short restatement of upstream's prepare.py with pandas (Debian's 1.5.3
// agrees with pandas 2.2 on read_json's dtype inference and on to_json's
// output for these files).
constexpr char kPandasPrepare[] = R"py(
import sys
from pathlib import Path
import pandas as pd

raw, public, private = map(Path, sys.argv[1:4])
train = pd.read_json(raw / "train.json", lines=True)
old_test = pd.read_json(raw / "test.json", lines=True)
targets = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
n = int(len(train) * 0.1)
idx = train[train["SN_filter"] > 0].sample(n=n, random_state=0).index
is_test = train.index.isin(idx)
new_train, new_test = train[~is_test].copy(), train[is_test].copy()
records = []
for _, row in new_test.iterrows():
    for j in range(row["seq_length"]):
        kept = j < row["seq_scored"]
        rec = {"id_seqpos": f"{row['id']}_{j}"}
        for t in targets:
            rec[t] = row[t][j] if kept else 0.0
        rec["keep"] = kept
        records.append(rec)
answers = pd.DataFrame(records)
answers.to_csv(private / "test.csv", index=False, float_format="%.10f")
new_train["index"] = range(len(new_train))
new_train.to_json(public / "train.json", orient="records", lines=True)
t = new_test[old_test.columns].copy()
t["index"] = range(len(t))
t.to_json(public / "test.json", orient="records", lines=True)
s = answers[["id_seqpos"] + targets].copy()
s.loc[:, targets] = 0.0
s.to_csv(public / "sample_submission.csv", index=False, float_format="%.10f")
)py";

TEST(StanfordCovidPrepareTest, MatchesPandasRestatementByteForByte) {
  for (uint64_t seed : {0, 3, 11}) {
    SCOPED_TRACE(seed);
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    const std::map<std::string, std::string> raw_before = testing::ReadTree(*raw);
    absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, *raw);
    ASSERT_TRUE(dirs.ok()) << dirs.status();
    absl::StatusOr<testing::PreparedDirs> again = testing::RunPreparer(kId, *raw);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(testing::ReadTree(*raw), raw_before);

    const auto public_files = testing::ReadTree(dirs->public_dir);
    const auto private_files = testing::ReadTree(dirs->private_dir);
    EXPECT_EQ(testing::ReadTree(again->public_dir), public_files);
    EXPECT_EQ(testing::ReadTree(again->private_dir), private_files);
    ASSERT_EQ(testing::FileNames(dirs->public_dir),
              (std::vector<std::string>{"sample_submission.csv", "test.json", "train.json"}));
    ASSERT_EQ(testing::FileNames(dirs->private_dir), std::vector<std::string>{"test.csv"});
    // 120 rows: 12 test sequences of 40 positions.
    const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
    EXPECT_EQ(answers.num_rows(), 12u * 40u);
    EXPECT_THAT(private_files.at("test.csv"),
                StartsWith("id_seqpos,reactivity,deg_Mg_pH10,deg_pH10,deg_Mg_50C,deg_50C,keep\n"));
    // SN_filter 1.0 is read as int64 and written back as 1.
    EXPECT_THAT(public_files.at("train.json"), HasSubstr("\"SN_filter\":1,"));

    const fs::path py = testing::NewTempDir("py");
    fs::create_directories(py / "public");
    fs::create_directories(py / "private");
    testing::CommandResult result = testing::RunPython(
        kPandasPrepare, {raw->string(), (py / "public").string(), (py / "private").string()});
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(testing::ReadTree(py / "public"), public_files);
    EXPECT_EQ(testing::ReadTree(py / "private"), private_files);
  }
}

// A raw download from hand-written lines, for edge cases.
fs::path MakeRaw(const std::vector<std::string>& train_lines, std::string_view test_json,
                 std::string_view sample_header) {
  const fs::path raw = testing::NewTempDir("raw");
  std::string train;
  for (const std::string& line : train_lines) train += line + "\n";
  EXPECT_TRUE(WriteStringToFile(raw / "train.json", train).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "test.json", test_json).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "sample_submission.csv", sample_header).ok());
  return raw;
}

std::string TrainLine(int index, int sn_filter, int seq_scored = 2, int seq_length = 3) {
  std::string line = absl::StrCat("{\"index\":", index, ",\"id\":\"id_", index,
                                  "\",\"sequence\":\"GGA\",\"SN_filter\":", sn_filter,
                                  ",\"seq_length\":", seq_length, ",\"seq_scored\":", seq_scored);
  for (const char* target : {"reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"}) {
    absl::StrAppend(&line, ",\"", target, "\":[0.25,1]");
  }
  return line + "}";
}

constexpr char kTestJson[] =
    "{\"index\":0,\"id\":\"id_x\",\"sequence\":\"GGA\",\"seq_length\":3,\"seq_scored\":2}\n";
constexpr char kSampleHeader[] = "id_seqpos,reactivity,deg_Mg_pH10,deg_pH10,deg_Mg_50C,deg_50C\n";

std::vector<std::string> Lines(int count, int sn_filter = 1, int seq_scored = 2) {
  std::vector<std::string> lines;
  for (int i = 0; i < count; ++i) lines.push_back(TrainLine(i, sn_filter, seq_scored));
  return lines;
}

TEST(StanfordCovidPrepareTest, HandWrittenRawMatchesPandasToo) {
  std::vector<std::string> lines = Lines(20);
  lines[3] = TrainLine(3, 0);
  // A null SN_filter: float64 with NaN, never sampled, written as null; the
  // other rows' 1 become 1.0.
  lines[5].replace(lines[5].find("\"SN_filter\":1"), 13, "\"SN_filter\":null");
  const fs::path raw = MakeRaw(lines, kTestJson, kSampleHeader);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const fs::path py = testing::NewTempDir("py");
  fs::create_directories(py / "public");
  fs::create_directories(py / "private");
  testing::CommandResult result = testing::RunPython(
      kPandasPrepare, {raw.string(), (py / "public").string(), (py / "private").string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(testing::ReadTree(py / "public"), testing::ReadTree(dirs->public_dir));
  EXPECT_EQ(testing::ReadTree(py / "private"), testing::ReadTree(dirs->private_dir));
  EXPECT_THAT(testing::ReadTree(dirs->public_dir).at("train.json"),
              HasSubstr("\"SN_filter\":null,"));
  // Two test sequences of 3 positions; the list's int 1 is a float in the CSV.
  EXPECT_THAT(testing::ReadTree(dirs->private_dir).at("test.csv"),
              HasSubstr(",1.0000000000,1.0000000000,1.0000000000,1.0000000000,1.0000000000,True\n"));
}

TEST(StanfordCovidPrepareTest, BadRawIsAnError) {
  auto expect_error = [](const fs::path& raw) {
    EXPECT_FALSE(testing::RunPreparer(kId, raw).ok()) << raw;
  };
  expect_error(testing::NewTempDir("empty"));
  expect_error(MakeRaw({"{\"index\": 0, oops"}, kTestJson, kSampleHeader));
  expect_error(MakeRaw({"[1, 2]"}, kTestJson, kSampleHeader));
  // Too few rows for a 10% test set; too few SN_filter > 0 rows to sample.
  expect_error(MakeRaw(Lines(9), kTestJson, kSampleHeader));
  expect_error(MakeRaw(Lines(20, 0), kTestJson, kSampleHeader));
  // seq_scored must be below seq_length and match the lists.
  expect_error(MakeRaw(Lines(20, 1, 3), kTestJson, kSampleHeader));
  expect_error(MakeRaw(Lines(20, 1, 1), kTestJson, kSampleHeader));
  // Sample submission columns, test.json without `index`.
  expect_error(MakeRaw(Lines(20), kTestJson, "id_seqpos,reactivity\n"));
  expect_error(MakeRaw(Lines(20),
                       "{\"id\":\"id_x\",\"sequence\":\"GGA\",\"seq_length\":3,\"seq_scored\":2}\n",
                       kSampleHeader));
}

}  // namespace
}  // namespace mlebench::prepare_test
