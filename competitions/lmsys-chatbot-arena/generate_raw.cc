// Synthetic raw download of lmsys-chatbot-arena: train.csv (id, model_a,
// model_b, prompt, response_a, response_b, winner_model_a, winner_model_b,
// winner_tie), test.csv (id, prompt, response_a, response_b) and
// sample_submission.csv (id and the three outcome probabilities), at the
// download's root as on Kaggle. Ids are distinct integers in random order;
// prompts and responses are JSON lists of strings as Kaggle's are (so they
// hold quotes, commas and the odd escaped newline). Each model has a hidden
// skill; the judged outcome follows the skill difference and, as in the real
// arena, favours the longer response, and ties come when both are close: a
// model on those features clearly beats the uniform sample submission.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 2500;
constexpr int kNumTest = 3;  // Kaggle's public test.csv holds only a few rows.

const std::vector<std::string> kModels = {
    "gpt-4-1106-preview", "gpt-3.5-turbo-0613", "claude-2.1",     "llama-2-13b-chat",
    "vicuna-13b",         "mistral-medium",     "gemini-pro-dev", "koala-13b",
    "alpaca-13b",         "chatglm-6b"};
const std::vector<std::string> kWords = {
    "the",  "model", "answer", "is",   "a",      "question", "about",  "code",
    "why",  "how",   "write",  "poem", "python", "list",     "sure,",  "here",
    "step", "first", "then",   "it's", "\"yes\"", "data",    "caf\xc3\xa9", "maybe"};

// `words` random words joined by spaces, the first capitalised.
std::string Text(SyntheticRng& rng, int words) {
  std::string text;
  for (int i = 0; i < words; ++i) {
    if (i > 0) text += rng.Bernoulli(0.03) ? "\n" : " ";
    text += rng.Choice(kWords);
  }
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = text[0] - 'a' + 'A';
  return text;
}

// A JSON list of strings, escaped as json.dumps does (ASCII kept, '"' and
// '\n' escaped, non-ASCII as \uXXXX: only é occurs here).
std::string JsonList(const std::vector<std::string>& items) {
  std::string json = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) json += ", ";
    json += '"';
    for (size_t k = 0; k < items[i].size(); ++k) {
      const char c = items[i][k];
      if (c == '"') {
        json += "\\\"";
      } else if (c == '\n') {
        json += "\\n";
      } else if (static_cast<unsigned char>(c) == 0xc3 && k + 1 < items[i].size()) {
        json += "\\u00e9";
        ++k;
      } else {
        json += c;
      }
    }
    json += '"';
  }
  return json + "]";
}

struct Battle {
  int64_t id;
  int model_a, model_b;
  std::string prompt, response_a, response_b;
  int winner;  // 0: model a, 1: model b, 2: tie
};

Battle MakeBattle(SyntheticRng& rng, int64_t id, const std::vector<double>& skills) {
  Battle b;
  b.id = id;
  b.model_a = static_cast<int>(rng.UniformInt(kModels.size()));
  do {
    b.model_b = static_cast<int>(rng.UniformInt(kModels.size()));
  } while (b.model_b == b.model_a);
  const int turns = rng.Bernoulli(0.8) ? 1 : 2;
  std::vector<std::string> prompts, as, bs;
  int length_a = 0, length_b = 0;
  for (int t = 0; t < turns; ++t) {
    prompts.push_back(Text(rng, static_cast<int>(rng.UniformInt(3, 15))) + "?");
    const int words_a = static_cast<int>(rng.UniformInt(5, 120));
    const int words_b = static_cast<int>(rng.UniformInt(5, 120));
    length_a += words_a;
    length_b += words_b;
    as.push_back(Text(rng, words_a) + ".");
    bs.push_back(Text(rng, words_b) + ".");
  }
  b.prompt = JsonList(prompts);
  b.response_a = JsonList(as);
  b.response_b = JsonList(bs);
  // Bradley-Terry-like: skill and log-length difference; ties when close.
  const double margin = skills[b.model_a] - skills[b.model_b] +
                        1.2 * std::log(static_cast<double>(length_a) / length_b);
  const double tie = 1.2;
  const double weights[3] = {std::exp(margin / 2), std::exp(-margin / 2), tie};
  b.winner = static_cast<int>(rng.Categorical({weights[0], weights[1], weights[2]}));
  return b;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng skill_rng = root.Fork(1), id_rng = root.Fork(2), battle_rng = root.Fork(3);
  std::vector<double> skills;
  for (size_t m = 0; m < kModels.size(); ++m) skills.push_back(skill_rng.Normal(0, 1.5));

  // Distinct ids of up to ten digits, in random order.
  std::vector<int64_t> ids;
  for (int i = 0; i < kNumTrain + kNumTest; ++i) {
    ids.push_back(static_cast<int64_t>(30000 + i * 1717 + id_rng.UniformInt(1717)) * 977);
  }
  id_rng.Shuffle(ids);

  CsvTextBuilder train, test, sample;
  train.Row({"id", "model_a", "model_b", "prompt", "response_a", "response_b", "winner_model_a",
             "winner_model_b", "winner_tie"});
  for (int i = 0; i < kNumTrain; ++i) {
    const Battle b = MakeBattle(battle_rng, ids[i], skills);
    train.Int(b.id).String(kModels[b.model_a]).String(kModels[b.model_b]).String(b.prompt);
    train.String(b.response_a).String(b.response_b);
    for (int w = 0; w < 3; ++w) train.Int(b.winner == w ? 1 : 0);
    train.EndRow();
  }
  test.Row({"id", "prompt", "response_a", "response_b"});
  sample.Row({"id", "winner_model_a", "winner_model_b", "winner_tie"});
  for (int i = kNumTrain; i < kNumTrain + kNumTest; ++i) {
    const Battle b = MakeBattle(battle_rng, ids[i], skills);
    test.Int(b.id).String(b.prompt).String(b.response_a).String(b.response_b).EndRow();
    sample.Int(b.id).Float(0.333333).Float(0.333333).Float(0.333333).EndRow();
  }
  for (const auto& [name, text] : {std::pair<std::string, const std::string*>{"train.csv", &train.text()},
                                   {"test.csv", &test.text()},
                                   {"sample_submission.csv", &sample.text()}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, *text));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
