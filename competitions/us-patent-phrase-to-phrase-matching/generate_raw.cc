// Synthetic raw download of us-patent-phrase-to-phrase-matching, in Kaggle's
// layout: train.csv (id, anchor, target, context, score), test.csv (id,
// anchor, target, context) and sample_submission.csv (id, score). Ids are 16
// lowercase hex digits, contexts CPC classes such as "H04", scores one of 0,
// 0.25, 0.5, 0.75, 1.0 (written 0.0 ... 1.0). Each anchor phrase appears in
// several rows with different targets, as on Kaggle. A target's score sets
// how many of its words it shares with the anchor, plus noise, so word
// overlap predicts the score.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 3000;
constexpr int kNumTest = 36;
constexpr int kVocabularySize = 400;
constexpr double kScores[] = {0.0, 0.25, 0.5, 0.75, 1.0};

const std::vector<std::string> kSyllables = {"ab", "sor", "ven", "tal", "lu", "mi", "con",
                                             "pre", "ter", "ox", "dyn", "ca", "re", "flu",
                                             "gra", "ph", "ion", "el", "tro", "mag"};

std::vector<std::string> MakeVocabulary(SyntheticRng& rng) {
  std::set<std::string> seen;
  std::vector<std::string> words;
  while (static_cast<int>(words.size()) < kVocabularySize) {
    std::string word;
    for (int s = 0, n = static_cast<int>(rng.UniformInt(2, 3)); s < n; ++s) {
      word += rng.Choice(kSyllables);
    }
    if (seen.insert(word).second) words.push_back(std::move(word));
  }
  return words;
}

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

struct Pair {
  std::string id, anchor, target, context;
  double score;
};

// Rows grouped by anchor: each anchor gets several targets and one context.
std::vector<Pair> MakePairs(SyntheticRng& rng, const std::vector<std::string>& vocabulary,
                            int count, std::set<std::string>& ids) {
  std::vector<Pair> pairs;
  while (static_cast<int>(pairs.size()) < count) {
    std::vector<std::string> anchor;
    for (int i = 0, n = static_cast<int>(rng.UniformInt(2, 4)); i < n; ++i) {
      anchor.push_back(rng.Choice(vocabulary));
    }
    const std::string context = std::string(1, "ABCDEFGH"[rng.UniformInt(8)]) +
                                std::to_string(10 + rng.UniformInt(60));
    for (int t = 0, n = static_cast<int>(rng.UniformInt(3, 12)); t < n && static_cast<int>(pairs.size()) < count;
         ++t) {
      Pair pair;
      const size_t level = rng.Categorical({2, 3, 4, 2, 1});
      pair.score = kScores[level];
      // Keep each anchor word with a probability that grows with the score;
      // the rest of the target is fresh words.
      std::vector<std::string> target;
      const double keep = 0.05 + 0.85 * pair.score;
      for (const std::string& w : anchor) {
        if (rng.Bernoulli(keep)) target.push_back(w);
      }
      const int extra = static_cast<int>(rng.UniformInt(0, 2)) + (target.empty() ? 1 : 0);
      for (int e = 0; e < extra; ++e) target.push_back(rng.Choice(vocabulary));
      rng.Shuffle(target);
      if (pair.score == 1.0 && rng.Bernoulli(0.5)) target = anchor;
      do {
        pair.id = rng.Hex(16);
      } while (!ids.insert(pair.id).second);
      pair.anchor = Join(anchor);
      pair.target = Join(target);
      pair.context = context;
      pairs.push_back(std::move(pair));
    }
  }
  return pairs;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng vocabulary_rng = root.Fork(1), train_rng = root.Fork(2), test_rng = root.Fork(3);
  const std::vector<std::string> vocabulary = MakeVocabulary(vocabulary_rng);
  std::set<std::string> ids;
  const std::vector<Pair> train_pairs = MakePairs(train_rng, vocabulary, kNumTrain, ids);
  const std::vector<Pair> test_pairs = MakePairs(test_rng, vocabulary, kNumTest, ids);

  CsvTextBuilder train, test, sample;
  train.Row({"id", "anchor", "target", "context", "score"});
  for (const Pair& p : train_pairs) {
    train.String(p.id).String(p.anchor).String(p.target).String(p.context).Float(p.score).EndRow();
  }
  test.Row({"id", "anchor", "target", "context"});
  sample.Row({"id", "score"});
  for (const Pair& p : test_pairs) {
    test.String(p.id).String(p.anchor).String(p.target).String(p.context).EndRow();
    sample.String(p.id).Int(0).EndRow();
  }
  for (const auto& [name, text] : {std::pair<std::string, const std::string*>{"train.csv", &train.text()},
                                   {"test.csv", &test.text()},
                                   {"sample_submission.csv", &sample.text()}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, *text));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
