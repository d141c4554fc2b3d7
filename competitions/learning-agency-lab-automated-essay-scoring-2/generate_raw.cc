// Synthetic raw download of learning-agency-lab-automated-essay-scoring-2, in
// Kaggle's layout: train.csv (essay_id, full_text, score), test.csv
// (essay_id, full_text) and sample_submission.csv (essay_id, score). Ids are
// 7 lowercase hex digits; essays are several paragraphs separated by blank
// lines (so the CSV quotes them), with commas, apostrophes and quotes; scores
// are integers 1 to 6 with Kaggle's rough class balance. Higher scores get
// longer essays, longer sentences, more of the "advanced" vocabulary and
// fewer misspellings, so length and word features predict the score.
#include <algorithm>
#include <cmath>
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

constexpr int kNumTrain = 1500;
constexpr int kNumTest = 3;  // Kaggle's public test.csv holds three essays

const std::vector<std::string> kBasicWords = {
    "the", "people", "car", "think", "good", "bad", "because", "they", "would", "it",
    "is", "a", "thing", "do", "lot", "of", "and", "we", "can", "go", "many", "really",
    "like", "so", "make", "get", "have", "very", "school", "students", "time", "in"};
const std::vector<std::string> kAdvancedWords = {
    "consequently", "furthermore", "significant", "perspective", "evidence", "analysis",
    "nevertheless", "substantial", "environmental", "individuals", "demonstrate",
    "communities", "therefore", "perceive", "advantageous", "moreover", "considerable",
    "technological", "fundamental", "implications"};
const std::vector<std::string> kMisspellings = {"becuase", "alot", "thier", "dont", "wich",
                                                "beleive", "untill", "definately"};

std::string Capitalized(std::string word) {
  word[0] = static_cast<char>(word[0] - 'a' + 'A');
  return word;
}

std::string Essay(SyntheticRng& rng, int score) {
  const double quality = (score - 1) / 5.0;  // 0 .. 1
  const int paragraphs = std::clamp(
      static_cast<int>(std::lround(rng.Normal(2.0 + 3.0 * quality, 0.8))), 1, 7);
  std::string text;
  for (int p = 0; p < paragraphs; ++p) {
    if (p > 0) text += "\n\n";
    const int sentences = static_cast<int>(rng.UniformInt(2, 3 + static_cast<int>(4 * quality)));
    for (int s = 0; s < sentences; ++s) {
      if (s > 0) text += ' ';
      const int length = std::clamp(
          static_cast<int>(std::lround(rng.Normal(8.0 + 10.0 * quality, 3.0))), 3, 40);
      for (int w = 0; w < length; ++w) {
        std::string word;
        if (rng.Bernoulli(0.04 + 0.3 * quality)) {
          word = rng.Choice(kAdvancedWords);
        } else if (rng.Bernoulli(0.12 * (1.0 - quality))) {
          word = rng.Choice(kMisspellings);
        } else {
          word = rng.Choice(kBasicWords);
        }
        if (w == 0) word = Capitalized(word);
        if (w > 0) text += ' ';
        text += word;
        if (rng.Bernoulli(0.01)) text += "'s";
        if (w + 1 < length && rng.Bernoulli(0.06)) text += ',';
      }
      text += rng.Bernoulli(0.05) ? "?" : ".";
      if (rng.Bernoulli(0.03)) text += " \"Really.\"";
    }
  }
  return text;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng id_rng = root.Fork(1), train_rng = root.Fork(2), test_rng = root.Fork(3);
  std::set<std::string> seen;
  std::vector<std::string> ids;
  while (static_cast<int>(ids.size()) < kNumTrain + kNumTest) {
    std::string id = id_rng.Hex(7);
    if (seen.insert(id).second) ids.push_back(std::move(id));
  }
  // Kaggle's train.csv is sorted by essay_id.
  std::sort(ids.begin(), ids.begin() + kNumTrain);

  CsvTextBuilder train, test, sample;
  train.Row({"essay_id", "full_text", "score"});
  for (int i = 0; i < kNumTrain; ++i) {
    const int score = 1 + static_cast<int>(train_rng.Categorical({7, 27, 36, 23, 6, 1}));
    train.String(ids[i]).String(Essay(train_rng, score)).Int(score).EndRow();
  }
  test.Row({"essay_id", "full_text"});
  sample.Row({"essay_id", "score"});
  for (int i = kNumTrain; i < kNumTrain + kNumTest; ++i) {
    const int score = 1 + static_cast<int>(test_rng.Categorical({7, 27, 36, 23, 6, 1}));
    test.String(ids[i]).String(Essay(test_rng, score)).EndRow();
    sample.String(ids[i]).Int(3).EndRow();
  }
  for (const auto& [name, text] : {std::pair<std::string, const std::string*>{"train.csv", &train.text()},
                                   {"test.csv", &test.text()},
                                   {"sample_submission.csv", &sample.text()}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, *text));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{
    .id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
