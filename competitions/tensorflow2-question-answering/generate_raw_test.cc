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
using ::testing::ElementsAre;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(Tensorflow2QuestionAnsweringRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sample_submission.csv", "simplified-nq-test.jsonl",
                                 "simplified-nq-train.jsonl"));
  EXPECT_THAT(tree->at("simplified-nq-train.jsonl"), StartsWith("{\"document_text\":\""));
  EXPECT_LT(total, 1'000'000u);
}

// pandas reads the JSON lines with Kaggle's keys and types; annotations
// point at real tokens; and reading the document (finding "the <attribute>
// of <entity> is <value>") clearly beats the blank sample submission on
// held-out rows, scored as upstream's grade.py does.
constexpr char kCheckScript[] = R"py(
import sys
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
train = pd.read_json(raw / "simplified-nq-train.jsonl", orient="records", lines=True)
test = pd.read_json(raw / "simplified-nq-test.jsonl", orient="records", lines=True, dtype=False)
sample = pd.read_csv(raw / "sample_submission.csv")
assert list(train.columns) == ["document_text", "long_answer_candidates", "question_text",
                               "annotations", "document_url", "example_id"], train.columns
assert str(train["example_id"].dtype) == "int64" and train["example_id"].is_unique
assert list(test.columns) == ["example_id", "question_text", "document_text",
                              "long_answer_candidates"]
assert list(sample.columns) == ["example_id", "PredictionString"]
assert len(sample) == 2 * len(test) and sample["PredictionString"].isna().all()
assert len(train) == 60

for _, row in train.iterrows():
    tokens = row["document_text"].split(" ")
    (annotation,) = row["annotations"]
    for c in row["long_answer_candidates"]:
        assert tokens[c["start_token"]] == "<P>" and tokens[c["end_token"] - 1] == "</P>"
    for s in annotation["short_answers"]:
        assert s["end_token"] == s["start_token"] + 1 and tokens[s["start_token"] - 1] == "is"

def predict(question, text, candidates):
    tokens = text.split(" ")
    words = question.split(" ")
    yes_no = words[0] == "is"
    attribute, entity = (words[2], words[4]) if yes_no else (words[3], words[5])
    for i in range(len(tokens) - 5):
        if tokens[i:i + 5] == ["the", attribute, "of", entity, "is"]:
            c = next(c for c in candidates if c["start_token"] <= i < c["end_token"])
            long = f"{c['start_token']}:{c['end_token']}"
            if yes_no:
                return long, "YES" if tokens[i + 5] == words[5] else "NO"
            return long, f"{i + 5}:{i + 6}"
    return "", ""

def score(rows):  # upstream's y_true / y_pred, then micro F1 (= accuracy)
    right = 0
    for pred, annotation, kind in rows:
        if kind == "long":
            la = annotation["long_answer"]
            valid = [f"{la['start_token']}:{la['end_token']}"] if la["start_token"] != -1 else []
        else:
            valid = [f"{s['start_token']}:{s['end_token']}" for s in annotation["short_answers"]]
            if annotation["yes_no_answer"] != "NONE":
                valid.append(annotation["yes_no_answer"])
        y_true = (pred in valid) if pred else bool(valid)
        right += int(y_true) == int(bool(pred))
    return right / len(rows)

_, held_out = train_test_split(train, test_size=0.3, random_state=0)
model_rows, blank_rows = [], []
for _, row in held_out.iterrows():
    long, short = predict(row["question_text"], row["document_text"], row["long_answer_candidates"])
    annotation = row["annotations"][0]
    model_rows += [(long, annotation, "long"), (short, annotation, "short")]
    blank_rows += [("", annotation, "long"), ("", annotation, "short")]
model, blank = score(model_rows), score(blank_rows)
print(f"model micro F1={model:.3f} sample submission={blank:.3f}")
assert model > 0.9 and model > blank + 0.3, (model, blank)
)py";

TEST(Tensorflow2QuestionAnsweringRawTest, PandasReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 9}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
