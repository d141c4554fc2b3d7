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

TEST(RandomActsOfPizzaRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("test.json", "train.json"));
  EXPECT_THAT(tree->at("train.json"),
              StartsWith("[\n    {\n        \"giver_username_if_known\": "));
  EXPECT_LT(total, 4'000'000u);
}

// Python's json reads Kaggle's layout (the files are exactly what
// json.dump(indent=4) writes), every field has Kaggle's type, and a logistic
// regression on request-time text and counts, fitted on upstream's train
// split, ranks the held-out outcomes clearly better than the sample
// submission's constant.
constexpr char kCheckScript[] = R"py(
import json, re, sys
from pathlib import Path
import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

raw = Path(sys.argv[1])
texts = {name: (raw / name).read_text() for name in ("train.json", "test.json")}
train, test = json.loads(texts["train.json"]), json.loads(texts["test.json"])
assert json.dumps(train, indent=4) == texts["train.json"]
assert json.dumps(test, indent=4) == texts["test.json"]
assert len(train) == 1000 and len(test) == 400

test_fields = ["giver_username_if_known", "request_id", "request_text_edit_aware", "request_title",
    "requester_account_age_in_days_at_request", "requester_days_since_first_post_on_raop_at_request",
    "requester_number_of_comments_at_request", "requester_number_of_comments_in_raop_at_request",
    "requester_number_of_posts_at_request", "requester_number_of_posts_on_raop_at_request",
    "requester_number_of_subreddits_at_request", "requester_subreddits_at_request",
    "requester_upvotes_minus_downvotes_at_request", "requester_upvotes_plus_downvotes_at_request",
    "requester_username", "unix_timestamp_of_request", "unix_timestamp_of_request_utc"]
for r in test:
    assert list(r) == test_fields, list(r)
for r in train:
    assert list(r) == sorted(r) and len(r) == 32 and set(test_fields) < set(r), list(r)
    assert isinstance(r["requester_received_pizza"], bool)
    assert r["requester_user_flair"] in (None, "shroom", "PIF")
    assert (r["requester_user_flair"] is not None) == r["requester_received_pizza"]
    assert type(r["post_was_edited"]) in (bool, float)
    assert r["request_text"].startswith(r["request_text_edit_aware"])
    for name, value in r.items():
        if name.startswith(("number_of", "request_number", "requester_number", "requester_upvotes")):
            assert type(value) is int, (name, value)
        if name.startswith(("requester_account_age", "requester_days", "unix_timestamp")):
            assert type(value) is float, (name, value)
for r in train + test:
    assert re.fullmatch(r"t3_[0-9a-z]{5,6}", r["request_id"])
    assert r["requester_number_of_subreddits_at_request"] == len(r["requester_subreddits_at_request"])
    assert all(type(s) is str for s in r["requester_subreddits_at_request"])
    assert r["unix_timestamp_of_request_utc"] == int(r["unix_timestamp_of_request_utc"])
ids = [r["request_id"] for r in train + test]
assert len(set(ids)) == len(ids)
rate = np.mean([r["requester_received_pizza"] for r in train])
assert 0.15 < rate < 0.4, rate
assert any(not t.isascii() for t in (r["request_text"] for r in train))
assert "\\u2019" in texts["train.json"]

# Upstream's split, then request-time features only.
fit, held_out = train_test_split(train, test_size=400 / 1400, random_state=0)
def numbers(rows):
    return np.array([[np.log1p(r["requester_account_age_in_days_at_request"]),
                      float(r["requester_days_since_first_post_on_raop_at_request"] > 0),
                      np.log1p(len(r["request_text_edit_aware"]))] for r in rows])
vectorizer = TfidfVectorizer(sublinear_tf=True, min_df=2)
def features(rows, fit_vocabulary=False):
    docs = [r["request_title"] + " " + r["request_text_edit_aware"] for r in rows]
    words = vectorizer.fit_transform(docs) if fit_vocabulary else vectorizer.transform(docs)
    return sp.hstack([words, sp.csr_matrix(numbers(rows))]).tocsr()
y_fit = [r["requester_received_pizza"] for r in fit]
y_held = [r["requester_received_pizza"] for r in held_out]
model = LogisticRegression(C=1.0, max_iter=2000).fit(features(fit, True), y_fit)
auc = roc_auc_score(y_held, model.predict_proba(features(held_out))[:, 1])
baseline = roc_auc_score(y_held, np.zeros(len(held_out)))
print(f"logistic regression AUC={auc:.3f} sample submission={baseline:.3f}")
assert auc > 0.7 and baseline == 0.5, (auc, baseline)
)py";

TEST(RandomActsOfPizzaRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 4}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
    std::cout << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
