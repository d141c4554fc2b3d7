#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/python_json.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

fs::path Synthetic(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return raw.value_or(fs::path());
}

JsonValue ReadJsonOrFail(const fs::path& path) {
  absl::StatusOr<std::string> text = ReadFileToString(path);
  EXPECT_TRUE(text.ok()) << path;
  absl::StatusOr<JsonValue> value = ParseJson(text.value_or("null"));
  EXPECT_TRUE(value.ok()) << path << ": " << value.status();
  return value.value_or(JsonValue());
}

// Rewrites raw/train_data/<file> through `edit`.
void EditJson(const fs::path& raw, const std::string& file,
              const std::function<void(JsonValue&)>& edit) {
  JsonValue value = ReadJsonOrFail(raw / "train_data" / file);
  edit(value);
  ASSERT_TRUE(WriteStringToFile(raw / "train_data" / file, DumpJson(value).value()).ok());
}

std::set<std::string> Tokens(const JsonValue& records, const std::string& field) {
  std::set<std::string> tokens;
  for (const JsonValue& record : records.items) tokens.insert(record.Find(field)->text);
  return tokens;
}

size_t CountUnder(const std::vector<std::string>& names, const std::string& prefix) {
  size_t n = 0;
  for (const std::string& name : names) n += name.starts_with(prefix);
  return n;
}

TEST(LyftPrepareTest, SplitsEveryTableByLog) {
  const fs::path raw = Synthetic(0);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_EQ(testing::FileNames(dirs->private_dir), std::vector<std::string>{"test.csv"});
  const std::vector<std::string> names = testing::FileNames(dirs->public_dir);
  EXPECT_EQ(CountUnder(names, "train_data/"), 13u);
  EXPECT_EQ(CountUnder(names, "test_data/"), 11u);
  EXPECT_FALSE(fs::exists(dirs->public_dir / "test_data" / "sample_annotation.json"));
  EXPECT_FALSE(fs::exists(dirs->public_dir / "test_data" / "instance.json"));
  for (const char* maps : {"train_maps", "test_maps"}) {
    EXPECT_EQ(*ReadFileToString(dirs->public_dir / maps / "map_raster_palo_alto.png"),
              *ReadFileToString(raw / "train_maps" / "map_raster_palo_alto.png"));
  }

  // 12 logs: 9 train, 3 test (ceil(0.2 * 12)); 4 samples each.
  const JsonValue train_logs = ReadJsonOrFail(dirs->public_dir / "train_data" / "log.json");
  const JsonValue test_logs = ReadJsonOrFail(dirs->public_dir / "test_data" / "log.json");
  EXPECT_EQ(train_logs.items.size(), 9u);
  EXPECT_EQ(test_logs.items.size(), 3u);
  const std::set<std::string> test_log_tokens = Tokens(test_logs, "token");
  for (const std::string& token : Tokens(train_logs, "token")) {
    EXPECT_EQ(test_log_tokens.count(token), 0u);
  }
  const JsonValue test_samples = ReadJsonOrFail(dirs->public_dir / "test_data" / "sample.json");
  EXPECT_EQ(test_samples.items.size(), 12u);
  EXPECT_EQ(Tokens(test_samples, "scene_token"), test_log_tokens);

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_EQ(train.ColumnNames(), (std::vector<std::string>{"Id", "PredictionString"}));
  EXPECT_EQ(answers.ColumnNames(), train.ColumnNames());
  EXPECT_EQ(sample.ColumnNames(), train.ColumnNames());
  EXPECT_EQ(train.num_rows(), 36u);
  ASSERT_EQ(answers.num_rows(), 12u);
  ASSERT_EQ(sample.num_rows(), 12u);
  std::set<std::string> test_ids;
  for (size_t row = 0; row < answers.num_rows(); ++row) {
    const std::string id = std::get<std::string>(answers.columns()[0].cells[row]);
    test_ids.insert(id);
    EXPECT_EQ(std::get<std::string>(sample.columns()[0].cells[row]), id);
    EXPECT_TRUE(IsMissing(sample.columns()[1].cells[row]));
    // Every box is "1.0" and 8 more tokens.
    const std::vector<std::string> tokens =
        absl::StrSplit(std::get<std::string>(answers.columns()[1].cells[row]), ' ');
    ASSERT_EQ(tokens.size() % 9, 0u);
    for (size_t i = 0; i < tokens.size(); i += 9) EXPECT_EQ(tokens[i], "1.0");
  }
  EXPECT_EQ(test_ids, Tokens(test_samples, "token"));
  for (const Cell& id : train.columns()[0].cells) {
    EXPECT_EQ(test_ids.count(std::get<std::string>(id)), 0u);
  }

  // Two cameras and one lidar sweep per sample.
  EXPECT_EQ(CountUnder(names, "train_images/"), 72u);
  EXPECT_EQ(CountUnder(names, "test_images/"), 24u);
  EXPECT_EQ(CountUnder(names, "train_lidar/"), 36u);
  EXPECT_EQ(CountUnder(names, "test_lidar/"), 12u);

  // Upstream's shallow copy: both map.json files list the TEST logs.
  for (const char* part : {"train_data", "test_data"}) {
    const JsonValue maps = ReadJsonOrFail(dirs->public_dir / part / "map.json");
    ASSERT_EQ(maps.items.size(), 1u);
    std::set<std::string> listed;
    for (const JsonValue& token : maps.items[0].Find("log_tokens")->items)
      listed.insert(token.text);
    EXPECT_EQ(listed, test_log_tokens) << part;
  }
}

TEST(LyftPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = Synthetic(2);
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with json, pandas and scikit-learn: every
// output file must match byte for byte.
constexpr char kReference[] = R"py(
import json, shutil, sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = map(Path, sys.argv[1:4])
def load(name):
    with open(raw / "train_data" / name) as f:
        return json.load(f)
def dump(obj, part, name):
    (public / part).mkdir(parents=True, exist_ok=True)
    with open(public / part / name, "w") as f:
        json.dump(obj, f)
def both(obj, name):
    dump(obj[0], "train_data", name)
    dump(obj[1], "test_data", name)

logs = load("log.json")
tr_logs, te_logs = train_test_split([l["token"] for l in logs], test_size=0.2, random_state=0)
both([[l for l in logs if l["token"] in side] for side in (tr_logs, te_logs)], "log.json")
samples = load("sample.json")
tr_s, te_s = [[s for s in samples if s["scene_token"] in side] for side in (tr_logs, te_logs)]
both((tr_s, te_s), "sample.json")
df = pd.read_csv(raw / "train.csv")
tr_df = df[df["Id"].isin([s["token"] for s in tr_s])]
te_df = df[df["Id"].isin([s["token"] for s in te_s])].copy()
tr_df.to_csv(public / "train.csv", index=False)
def confident(text):
    t = text.split(" ")
    return " ".join(" ".join(["1.0"] + t[i:i + 8]) for i in range(0, len(t), 8))
te_df["PredictionString"] = [confident(p) for p in te_df["PredictionString"]]
te_df.to_csv(private / "test.csv", index=False)
sub = te_df[["Id"]].copy()
sub["PredictionString"] = ""
sub.to_csv(public / "sample_submission.csv", index=False)
tr_ids, te_ids = set(tr_df["Id"]), set(te_df["Id"])
data = load("sample_data.json")
tr_d = [d for d in data if d["sample_token"] in tr_ids]
te_d = [d for d in data if d["sample_token"] in te_ids]
both((tr_d, te_d), "sample_data.json")
cal = {c["token"]: c for c in load("calibrated_sensor.json")}
both([[cal[t] for t in dict.fromkeys(d["calibrated_sensor_token"] for d in side)] for side in (tr_d, te_d)],
     "calibrated_sensor.json")
ego = {e["token"]: e for e in load("ego_pose.json")}
both([[ego[d["ego_pose_token"]] for d in side] for side in (tr_d, te_d)], "ego_pose.json")
maps = load("map.json")
maps[0]["log_tokens"] = te_logs
both((maps, maps), "map.json")
scenes = load("scene.json")
both([[s for s in scenes if s["log_token"] in side] for side in (tr_logs, te_logs)], "scene.json")
ann = [a for a in load("sample_annotation.json") if a["sample_token"] in tr_ids]
dump(ann, "train_data", "sample_annotation.json")
inst = {a["instance_token"] for a in ann}
dump([i for i in load("instance.json") if i["token"] in inst], "train_data", "instance.json")
for name in ["attribute.json", "category.json", "sensor.json", "visibility.json"]:
    for part in ["train_data", "test_data"]:
        shutil.copyfile(raw / "train_data" / name, public / part / name)
for part in ["train_maps", "test_maps"]:
    (public / part).mkdir()
    shutil.copyfile(raw / "train_maps" / "map_raster_palo_alto.png", public / part / "map_raster_palo_alto.png")
for d in data:
    kind = "images" if d["fileformat"] == "jpeg" else "lidar"
    side = "test" if d["sample_token"] in te_ids else "train"
    name = Path(d["filename"]).name
    (public / f"{side}_{kind}").mkdir(exist_ok=True)
    shutil.copyfile(raw / f"train_{kind}" / name, public / f"{side}_{kind}" / name)
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
  for (const char* part : {"public", "private"}) {
    const auto ours_tree =
        testing::ReadTree(part == std::string("public") ? ours->public_dir : ours->private_dir);
    const auto theirs = testing::ReadTree(reference / part);
    EXPECT_EQ(theirs.size(), ours_tree.size()) << part;
    for (const auto& [name, bytes] : theirs) {
      auto it = ours_tree.find(name);
      ASSERT_NE(it, ours_tree.end()) << name;
      if (it->second != bytes) {
        size_t at = 0;
        while (at < bytes.size() && at < it->second.size() && bytes[at] == it->second[at]) ++at;
        const size_t from = at < 200 ? 0 : at - 200;
        ADD_FAILURE() << name << " differs at byte " << at
                      << ":\nours:   " << it->second.substr(from, 400)
                      << "\npython: " << bytes.substr(from, 400);
      }
    }
  }
}

TEST(LyftPrepareTest, MatchesPythonByteForByte) {
  ExpectMatchesReference(Synthetic(0));
  ExpectMatchesReference(Synthetic(3));
  // Other columns in train.csv keep their pandas dtype and formatting; a
  // record's keys keep their order and JSON types (ints, floats, nulls,
  // nested lists, non-ASCII text).
  const fs::path raw = Synthetic(4);
  const std::string csv = *ReadFileToString(raw / "train.csv");
  std::string with_extra;
  int line = 0;
  for (absl::string_view row : absl::StrSplit(csv, '\n')) {
    if (row.empty()) continue;
    absl::StrAppend(&with_extra, row, ",",
                    line == 0 ? "extra" : (line % 3 ? absl::StrCat(line * 0.1) : ""), "\n");
    ++line;
  }
  ASSERT_TRUE(WriteStringToFile(raw / "train.csv", with_extra).ok());
  EditJson(raw, "sample.json", [](JsonValue& samples) {
    samples.items[0].Set("note", JsonValue::String("caf\xc3\xa9 \xf0\x9f\x9a\x97"));
    samples.items[1].Set("timestamp", JsonValue::Int(12345678901234567));
    samples.items[2].Set("data", JsonValue::Array({JsonValue::Null(), JsonValue::Float(1e-7)}));
  });
  ExpectMatchesReference(raw);
}

// Tokens that are not text compare as Python compares them: log (and
// scene) tokens become JSON ints, sample tokens JSON floats (7.0) while
// train.csv holds them as ints (7), which pandas' isin and numpy's `in`
// match by value.
TEST(LyftPrepareTest, NumericTokensMatchPythonByValue) {
  const fs::path raw = Synthetic(6);
  std::vector<std::pair<std::string, std::string>> json_tokens, csv_tokens;
  int next = 1;
  for (const JsonValue& log : ReadJsonOrFail(raw / "train_data" / "log.json").items) {
    json_tokens.emplace_back(absl::StrCat("\"", log.Find("token")->text, "\""),
                             absl::StrCat(next++));
  }
  for (const JsonValue& sample : ReadJsonOrFail(raw / "train_data" / "sample.json").items) {
    const std::string token = sample.Find("token")->text;
    json_tokens.emplace_back(absl::StrCat("\"", token, "\""), absl::StrCat(next, ".0"));
    csv_tokens.emplace_back(token, absl::StrCat(next++));
  }
  for (const std::string& name : testing::FileNames(raw / "train_data")) {
    const fs::path path = raw / "train_data" / name;
    ASSERT_TRUE(
        WriteStringToFile(path, absl::StrReplaceAll(*ReadFileToString(path), json_tokens)).ok());
  }
  ASSERT_TRUE(
      WriteStringToFile(raw / "train.csv",
                        absl::StrReplaceAll(*ReadFileToString(raw / "train.csv"), csv_tokens))
          .ok());
  ExpectMatchesReference(raw);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  ASSERT_EQ(sample.num_rows(), 12u);
  EXPECT_EQ(sample.columns()[0].dtype, Dtype::kInt64);
}

// Upstream skips a file whose destination exists (with a warning) and
// counts only what it copied against the distinct `filename` values: the
// same filename twice passes, the same base name under another folder fails.
TEST(LyftPrepareTest, RepeatedFileNamesFollowUpstreamCounts) {
  const fs::path raw = Synthetic(8);
  EditJson(raw, "sample_data.json",
           [](JsonValue& data) { data.items[1].Set("filename", *data.items[0].Find("filename")); });
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::vector<std::string> names = testing::FileNames(dirs->public_dir);
  EXPECT_EQ(CountUnder(names, "train_images/") + CountUnder(names, "test_images/"), 95u);

  const fs::path other = Synthetic(8);
  EditJson(other, "sample_data.json", [](JsonValue& data) {
    data.items[1].Set(
        "filename",
        JsonValue::String(absl::StrCat(
            "other/", fs::path(data.items[0].Find("filename")->text).filename().string())));
  });
  EXPECT_THAT(testing::RunPreparer(kId, other).status().message(),
              HasSubstr("to cover all samples"));
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(LyftPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  {
    const fs::path raw = Synthetic(5);
    EditJson(raw, "log.json", [](JsonValue& logs) { logs.items.resize(1); });
    EXPECT_FALSE(PrepareStatus(raw).ok());  // one log cannot be split
  }
  {
    const fs::path raw = Synthetic(5);
    EditJson(raw, "log.json", [](JsonValue& logs) { logs.items.push_back(logs.items[0]); });
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("Log IDs must be unique"));
  }
  {
    const fs::path raw = Synthetic(5);
    EditJson(raw, "sample.json", [](JsonValue& samples) {
      samples.items[3].Set("scene_token", JsonValue::String("elsewhere"));
    });
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must cover all samples"));
  }
  {
    const fs::path raw = Synthetic(5);
    EditJson(raw, "sample.json", [](JsonValue& samples) {
      samples.items.push_back(samples.items[0]);
      samples.items.back().Set("token", JsonValue::String("no-row"));
    });
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("must match"));
  }
  {
    // A box of 7 tokens in (every, hence some test) row.
    const fs::path raw = Synthetic(5);
    const std::string csv = *ReadFileToString(raw / "train.csv");
    std::string bad;
    for (absl::string_view row : absl::StrSplit(csv, '\n')) {
      if (!row.empty()) absl::StrAppend(&bad, row, absl::StartsWith(row, "Id,") ? "" : " 7", "\n");
    }
    ASSERT_TRUE(WriteStringToFile(raw / "train.csv", bad).ok());
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("Expected 8 tokens per object"));
  }
  {
    const fs::path raw = Synthetic(5);
    EditJson(raw, "sample_data.json", [](JsonValue& data) {
      data.items[0].Set("sample_token", JsonValue::String("nobody"));
    });
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("doesn't belong"));
  }
  {
    const fs::path raw = Synthetic(5);
    EditJson(raw, "sample_data.json",
             [](JsonValue& data) { data.items[0].Set("fileformat", JsonValue::String("png")); });
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("Unexpected `fileformat`"));
  }
  {
    const fs::path raw = Synthetic(5);
    for (const std::string& name : testing::FileNames(raw / "train_lidar")) {
      fs::remove(raw / "train_lidar" / name);
      break;
    }
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("does not exist"));
  }
  {
    const fs::path raw = Synthetic(5);
    EditJson(raw, "calibrated_sensor.json", [](JsonValue& sensors) {
      sensors.items.push_back(sensors.items[0]);
      sensors.items.back().Set("token", JsonValue::String("unused"));
    });
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("calibrated sensors"));
  }
  {
    const fs::path raw = Synthetic(5);
    EditJson(raw, "ego_pose.json", [](JsonValue& poses) { poses.items.pop_back(); });
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("KeyError"));
  }
  {
    const fs::path raw = Synthetic(5);
    EditJson(raw, "map.json", [](JsonValue& maps) { maps.items.push_back(maps.items[0]); });
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("only one map"));
  }
  {
    const fs::path raw = Synthetic(5);
    EditJson(raw, "instance.json", [](JsonValue& instances) {
      instances.items[0].Set("token", JsonValue::String("orphan"));
    });
    EXPECT_THAT(PrepareStatus(raw).message(), HasSubstr("doesn't belong"));
  }
  {
    const fs::path raw = Synthetic(5);
    fs::remove(raw / "train_maps" / "map_raster_palo_alto.png");
    EXPECT_FALSE(PrepareStatus(raw).ok());
  }
  {
    const fs::path raw = Synthetic(5);
    ASSERT_TRUE(WriteStringToFile(raw / "train_data" / "scene.json", "[{\"log_token\": ").ok());
    EXPECT_FALSE(PrepareStatus(raw).ok());
  }
  {
    const fs::path raw = Synthetic(5);
    fs::remove(raw / "train.csv");
    EXPECT_FALSE(PrepareStatus(raw).ok());
  }
}

}  // namespace
}  // namespace mlebench::prepare_test
