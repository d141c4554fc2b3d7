#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"
#include "pycompat/python_json.h"
#include "pycompat/train_test_split.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// The fields of Kaggle's test.json (a subset of train.json's).
const std::vector<std::string> kTestFields = {"giver_username_if_known",
                                              "request_id",
                                              "request_text_edit_aware",
                                              "request_title",
                                              "requester_account_age_in_days_at_request",
                                              "requester_subreddits_at_request",
                                              "requester_upvotes_minus_downvotes_at_request",
                                              "requester_username",
                                              "unix_timestamp_of_request"};

// One request with a train.json's fields, in alphabetical order as Kaggle's,
// with Kaggle's value types: text with escapes and non-ASCII, floats, ints,
// booleans, null, lists; `post_was_edited` is false or a timestamp.
JsonValue RandomRequest(SyntheticRng& rng, int index) {
  JsonValue r = JsonValue::Object();
  r.Set("giver_username_if_known",
        JsonValue::String(rng.Bernoulli(0.9) ? "N/A" : "gen" + rng.Hex(4)));
  r.Set("number_of_upvotes_of_request_at_retrieval", JsonValue::Int(rng.UniformInt(0, 40)));
  r.Set("post_was_edited", rng.Bernoulli(0.8) ? JsonValue::Bool(false)
                                              : JsonValue::Float(1.3e9 + rng.UniformInt(0, 1e8)));
  r.Set("request_id", JsonValue::String(absl::StrCat("t3_", rng.Hex(5), index)));
  const std::string text = absl::StrCat("Hungry \"student\" here,\nplease\t\xc3\xa9\xe2\x82\xac ",
                                        rng.Hex(rng.UniformInt(0, 30)), "\\ \xf0\x9f\x8d\x95");
  r.Set("request_text", JsonValue::String(text + " EDIT: thanks!"));
  r.Set("request_text_edit_aware", JsonValue::String(text));
  r.Set("request_title", JsonValue::String(absl::StrCat("[Request] ", rng.Hex(6))));
  r.Set("requester_account_age_in_days_at_request",
        JsonValue::Float(rng.Bernoulli(0.1) ? 0.0 : rng.Uniform(0, 2000)));
  r.Set("requester_received_pizza", JsonValue::Bool(rng.Bernoulli(0.25)));
  std::vector<JsonValue> subreddits;
  for (int i = static_cast<int>(rng.UniformInt(0, 4)); i > 0; --i) {
    subreddits.push_back(JsonValue::String("r" + rng.Hex(3)));
  }
  r.Set("requester_subreddits_at_request", JsonValue::Array(std::move(subreddits)));
  r.Set("requester_upvotes_minus_downvotes_at_request", JsonValue::Int(rng.UniformInt(-50, 5000)));
  r.Set("requester_user_flair",
        rng.Bernoulli(0.7) ? JsonValue::Null() : JsonValue::String("shroom"));
  r.Set("requester_username", JsonValue::String("user_" + rng.Hex(6)));
  r.Set("unix_timestamp_of_request", JsonValue::Float(1.29e9 + rng.UniformInt(0, 9e7)));
  return r;
}

JsonValue TestView(const JsonValue& request) {
  JsonValue view = JsonValue::Object();
  for (const std::string& field : kTestFields) view.Set(field, *request.Find(field));
  return view;
}

struct RawRequests {
  std::vector<JsonValue> train;
  std::vector<JsonValue> test;
};

RawRequests RandomRaw(int train_count, int test_count, uint64_t seed) {
  SyntheticRng rng(seed);
  RawRequests raw;
  for (int i = 0; i < train_count; ++i) raw.train.push_back(RandomRequest(rng, i));
  for (int i = 0; i < test_count; ++i) raw.test.push_back(TestView(RandomRequest(rng, 100000 + i)));
  return raw;
}

std::string Dump(const std::vector<JsonValue>& requests, std::optional<int> indent = 4) {
  absl::StatusOr<std::string> text = DumpJson(JsonValue::Array(requests), indent);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : "";
}

fs::path MakeRaw(const std::string& train_json, const std::string& test_json) {
  const fs::path raw = testing::NewTempDir("raw");
  EXPECT_TRUE(WriteStringToFile(raw / "train.json", train_json).ok());
  EXPECT_TRUE(WriteStringToFile(raw / "test.json", test_json).ok());
  return raw;
}

fs::path MakeRaw(const RawRequests& requests) {
  return MakeRaw(Dump(requests.train), Dump(requests.test));
}

JsonValue ParseOrDie(const std::string& text) {
  absl::StatusOr<JsonValue> value = ParseJson(text);
  EXPECT_TRUE(value.ok()) << value.status();
  return value.ok() ? *value : JsonValue();
}

TEST(RandomActsOfPizzaPrepareTest, SplitsTrainJsonLikeUpstream) {
  const RawRequests raw_requests = RandomRaw(100, 40, 1);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(raw_requests));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->public_dir), ElementsAre("sampleSubmission.csv", "test.json",
                                                       "test.zip", "train.json", "train.zip"));
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  auto public_files = testing::ReadTree(dirs->public_dir);

  // test_size = 40 / 140 of the 100 train requests: ceil(28.57...) = 29.
  TrainTestSplitOptions options;
  options.test_size = 40.0 / 140.0;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(100, options);
  ASSERT_TRUE(split.ok());
  ASSERT_EQ(split->test_indices.size(), 29u);

  const JsonValue train = ParseOrDie(public_files["train.json"]);
  const JsonValue test = ParseOrDie(public_files["test.json"]);
  ASSERT_EQ(train.items.size(), 71u);
  ASSERT_EQ(test.items.size(), 29u);
  for (size_t i = 0; i < 71; ++i) {
    EXPECT_EQ(train.items[i], raw_requests.train[split->train_indices[i]]);
  }
  std::string answers = "request_id,requester_received_pizza\n";
  std::string sample = answers;
  for (size_t i = 0; i < 29; ++i) {
    const JsonValue& request = raw_requests.train[split->test_indices[i]];
    EXPECT_EQ(test.items[i], TestView(request));
    const std::string& id = request.Find("request_id")->text;
    absl::StrAppend(&answers, id, ",", request.Find("requester_received_pizza")->boolean ? 1 : 0,
                    "\n");
    absl::StrAppend(&sample, id, ",0\n");
  }
  EXPECT_EQ(testing::ReadTree(dirs->private_dir)["test.csv"], answers);
  EXPECT_EQ(public_files["sampleSubmission.csv"], sample);
  EXPECT_TRUE(
      public_files["train.json"].starts_with("[\n    {\n        \"giver_username_if_known\""));

  // Each archive holds its JSON file, byte for byte, at the root.
  for (const std::string stem : {"train", "test"}) {
    const fs::path zip = dirs->public_dir / (stem + ".zip");
    EXPECT_THAT(*ListZip(zip), ElementsAre(stem + ".json"));
    const fs::path extracted = testing::NewTempDir("extracted");
    ASSERT_TRUE(ExtractZip(zip, extracted).ok());
    EXPECT_EQ(testing::ReadTree(extracted)[stem + ".json"], public_files[stem + ".json"]);
  }
}

// Test fields come in the first test request's order; a train request whose
// keys are in another order keeps its own order in train.json.
TEST(RandomActsOfPizzaPrepareTest, KeepsEachRequestsKeyOrder) {
  RawRequests raw_requests = RandomRaw(12, 4, 2);
  for (JsonValue& request : raw_requests.train) {
    std::reverse(request.members.begin(), request.members.end());
  }
  std::reverse(raw_requests.test[0].members.begin(), raw_requests.test[0].members.end());
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, MakeRaw(raw_requests));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  auto public_files = testing::ReadTree(dirs->public_dir);
  const JsonValue train = ParseOrDie(public_files["train.json"]);
  const JsonValue test = ParseOrDie(public_files["test.json"]);
  EXPECT_EQ(train.items[0].members.front().key, "unix_timestamp_of_request");
  EXPECT_EQ(test.items[0].members.front().key, "unix_timestamp_of_request");
  EXPECT_EQ(test.items[0].members.back().key, "giver_username_if_known");
}

TEST(RandomActsOfPizzaPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomRaw(60, 20, 3));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// The prepared files work with the grader: the sample submission is valid
// (all zeros: AUC 0.5) and the answers themselves score 1.
TEST(RandomActsOfPizzaPrepareTest, SampleSubmissionGrades) {
  absl::StatusOr<testing::PreparedDirs> dirs =
      testing::RunPreparer(kId, MakeRaw(RandomRaw(200, 80, 4)));
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::string answers = testing::ReadTree(dirs->private_dir)["test.csv"];
  absl::StatusOr<double> sample = testing::GradeCsvText(
      kId, testing::ReadTree(dirs->public_dir)["sampleSubmission.csv"], answers);
  ASSERT_TRUE(sample.ok()) << sample.status();
  EXPECT_EQ(*sample, 0.5);
  EXPECT_EQ(*testing::GradeCsvText(kId, answers, answers), 1.0);
}

// Upstream's prepare() restated with json, pandas and scikit-learn (its
// asserts left out; archives compared by content, as Python's zipfile
// stamps file times).
constexpr char kReference[] = R"py(
import json, sys
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private = sys.argv[1:4]
with open(f"{raw}/train.json") as f:
    old_train = json.load(f)
with open(f"{raw}/test.json") as f:
    old_test = json.load(f)
test_ratio = len(old_test) / (len(old_train) + len(old_test))
test_fields = list(old_test[0].keys())
new_train, new_test = train_test_split(old_train, test_size=test_ratio, random_state=0)
with open(f"{public}/train.json", "w") as f:
    json.dump(new_train, f, indent=4)
with open(f"{public}/test.json", "w") as f:
    json.dump([{k: s[k] for k in test_fields} for s in new_test], f, indent=4)
answers = pd.DataFrame([{"request_id": s["request_id"],
                         "requester_received_pizza": int(s["requester_received_pizza"])}
                        for s in new_test])
answers.to_csv(f"{private}/test.csv", index=False)
sample = answers.copy()
sample["requester_received_pizza"] = 0
sample.to_csv(f"{public}/sampleSubmission.csv", index=False)
)py";

TEST(RandomActsOfPizzaPrepareTest, FilesMatchPythonByteForByte) {
  struct Case {
    int train, test;
    uint64_t seed;
    std::optional<int> raw_indent;
  };
  for (const Case& c : std::vector<Case>{
           {2, 1, 10, 4}, {30, 7, 11, std::nullopt}, {257, 61, 12, 2}, {1200, 500, 13, 4}}) {
    SCOPED_TRACE(c.seed);
    RawRequests raw_requests = RandomRaw(c.train, c.test, c.seed);
    // Outcomes as ints and floats too (int() truncates), big ints and
    // repeated keys survive as Python's json keeps them.
    raw_requests.train[0].Set("requester_received_pizza", JsonValue::Float(0.7));
    raw_requests.train[0].Set("number_of_upvotes_of_request_at_retrieval",
                              *ParseJson("123456789012345678901234567890"));
    if (raw_requests.train.size() > 1) {
      raw_requests.train[1].Set("requester_received_pizza", JsonValue::Int(1));
    }
    std::string train_json = Dump(raw_requests.train, c.raw_indent);
    const std::string duplicated =
        "\"requester_user_flair\": null, \"requester_user_flair\": \"PIF\",";
    train_json.insert(train_json.find('{') + 1, duplicated);
    const fs::path raw = MakeRaw(train_json, Dump(raw_requests.test, c.raw_indent));
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::map<std::string, std::string> public_files = testing::ReadTree(ours->public_dir);
    public_files.erase("train.zip");
    public_files.erase("test.zip");
    EXPECT_EQ(public_files, testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(RandomActsOfPizzaPrepareTest, RunsUpstreamsChecks) {
  const RawRequests good = RandomRaw(20, 8, 5);
  // Every train request must have the first one's fields (order aside).
  RawRequests missing_field = good;
  missing_field.train[5].members.pop_back();
  EXPECT_THAT(PrepareStatus(MakeRaw(missing_field)).message(),
              HasSubstr("every request in train.json should have the same fields"));
  RawRequests extra_test_field = good;
  extra_test_field.test[3].Set("post_was_edited", JsonValue::Bool(false));
  EXPECT_THAT(PrepareStatus(MakeRaw(extra_test_field)).message(),
              HasSubstr("every request in test.json should have the same fields"));
  // A test field that train lacks (KeyError).
  RawRequests unknown_field = good;
  for (JsonValue& request : unknown_field.test) request.Set("new_field", JsonValue::Int(1));
  EXPECT_THAT(PrepareStatus(MakeRaw(unknown_field)).message(),
              HasSubstr("lacks the test field 'new_field'"));
  // No outcome or id.
  for (const std::string field : {"requester_received_pizza", "request_id"}) {
    RawRequests no_field = good;
    for (JsonValue& request : no_field.train) {
      std::erase_if(request.members, [&](const JsonMember& m) { return m.key == field; });
    }
    if (field == "request_id") {
      for (JsonValue& request : no_field.test) {
        std::erase_if(request.members, [&](const JsonMember& m) { return m.key == field; });
      }
    }
    EXPECT_THAT(PrepareStatus(MakeRaw(no_field)).message(), HasSubstr("lacks '" + field + "'"));
  }
  // Outcomes int() cannot take.
  for (const JsonValue& outcome : {JsonValue::Null(), JsonValue::String("yes"),
                                   JsonValue::Float(std::nan("")), JsonValue::Array()}) {
    RawRequests bad_outcome = good;
    for (JsonValue& request : bad_outcome.train) request.Set("requester_received_pizza", outcome);
    EXPECT_THAT(PrepareStatus(MakeRaw(bad_outcome)).message(),
                HasSubstr("must be a boolean or a number"));
  }
  // Empty test set: test_size 0 is out of scikit-learn's range; empty
  // train: no first request.
  EXPECT_FALSE(PrepareStatus(MakeRaw(Dump(good.train), "[]")).ok());
  EXPECT_FALSE(PrepareStatus(MakeRaw("[]", Dump(good.test))).ok());
  EXPECT_FALSE(PrepareStatus(MakeRaw("[]", "[]")).ok());
  // One train request: the split leaves nothing to train on.
  EXPECT_FALSE(PrepareStatus(MakeRaw(Dump({good.train[0]}), Dump(good.test))).ok());
}

TEST(RandomActsOfPizzaPrepareTest, RejectsBadRawData) {
  const RawRequests good = RandomRaw(10, 4, 6);
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  const fs::path no_test = MakeRaw(good);
  fs::remove(no_test / "test.json");
  EXPECT_THAT(PrepareStatus(no_test).message(), HasSubstr("test.json"));
  for (const std::string& train :
       {std::string("{\"a\": 1}"), std::string("[1, 2]"), std::string("[{}, "),
        "\xef\xbb\xbf" + Dump(good.train), std::string("[{\"a\": \"\xff\"}]"), std::string("")}) {
    SCOPED_TRACE(train.substr(0, 20));
    EXPECT_FALSE(PrepareStatus(MakeRaw(train, Dump(good.test))).ok());
  }
  // A request id that is not text, or not Unicode.
  RawRequests numeric_id = good;
  for (JsonValue& request : numeric_id.train) request.Set("request_id", JsonValue::Int(7));
  EXPECT_THAT(PrepareStatus(MakeRaw(numeric_id)).message(),
              HasSubstr("must be a (Unicode) string"));
  RawRequests surrogate_id = good;
  for (JsonValue& request : surrogate_id.train) {
    request.Set("request_id", *ParseJson("\"t3_\\ud800\""));
  }
  EXPECT_THAT(PrepareStatus(MakeRaw(surrogate_id)).message(),
              HasSubstr("must be a (Unicode) string"));
}

}  // namespace
}  // namespace mlebench::prepare_test
