// Synthetic raw download of chaii-hindi-and-tamil-question-answering:
// train.csv (id, context, question, answer_text, answer_start, language),
// test.csv (id, context, question, language) and sample_submission.csv (id,
// PredictionString), at the download's root as on Kaggle. ids are nine
// lower-case hex digits. Each context is a run of short sentences, in
// Devanagari for Hindi and Tamil script for Tamil, each saying "<name>
// <relation> <value>"; the question names one name and relation, and the
// answer is that sentence's value, found at `answer_start` (a code-point
// offset, as Python counts). A reader that looks the pair up in the context
// finds the answer.
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "base/utf8.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 1000;
constexpr int kNumTest = 100;

std::string Utf8(char32_t c) { return EncodeUtf8(std::u32string(1, c)); }

// Code points of UTF-8 text: Python's len().
size_t CodePoints(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

struct Script {
  std::string language;
  std::vector<char32_t> consonants, vowel_signs;
  std::string full_stop;
};

const Script kHindi{"hindi",
                    {0x915, 0x917, 0x91A, 0x91C, 0x924, 0x926, 0x928, 0x92A, 0x92C, 0x92E,
                     0x930, 0x932, 0x935, 0x938, 0x939},
                    {0, 0x93E, 0x93F, 0x940, 0x941, 0x947, 0x94B},
                    Utf8(0x964)};
const Script kTamil{"tamil",
                    {0xB95, 0xB9A, 0xB9F, 0xBA4, 0xBA8, 0xBAA, 0xBAE, 0xBAF, 0xBB0, 0xBB2,
                     0xBB5, 0xBB3},
                    {0, 0xBBE, 0xBBF, 0xBC0, 0xBC1, 0xBC6, 0xBCA},
                    "."};

// A pronounceable word of `syllables` consonant + vowel-sign syllables.
std::string Word(SyntheticRng& rng, const Script& script, int syllables) {
  std::string word;
  for (int i = 0; i < syllables; ++i) {
    word += Utf8(rng.Choice(script.consonants));
    const char32_t vowel = rng.Choice(script.vowel_signs);
    if (vowel != 0) word += Utf8(vowel);
  }
  return word;
}

struct Example {
  std::string id, context, question, answer;
  int64_t answer_start = 0;
  std::string language;
};

Example MakeExample(SyntheticRng& rng, std::string id) {
  const Script& script = rng.Bernoulli(0.65) ? kHindi : kTamil;
  // Fixed per-script vocabularies of relations; names and values are fresh.
  SyntheticRng relation_rng(script.language == "hindi" ? 11 : 12);
  std::vector<std::string> relations;
  for (int i = 0; i < 6; ++i) relations.push_back(Word(relation_rng, script, 3));
  const std::string question_word = Word(relation_rng, script, 2);

  Example e;
  e.id = std::move(id);
  e.language = script.language;
  const int sentences = static_cast<int>(rng.UniformInt(3, 8));
  const int asked = static_cast<int>(rng.UniformInt(sentences));
  std::string context;
  for (int i = 0; i < sentences; ++i) {
    const std::string name = Word(rng, script, 2 + static_cast<int>(rng.UniformInt(2)));
    const std::string& relation = rng.Choice(relations);
    // Some values are years or two words, as real answers are.
    std::string value = rng.Bernoulli(0.15) ? std::to_string(rng.UniformInt(1800, 2020))
                                            : Word(rng, script, 2);
    if (rng.Bernoulli(0.2)) value += " " + Word(rng, script, 2);
    if (!context.empty()) context += rng.Bernoulli(0.1) ? "\n" : " ";
    context += name + " " + relation + " ";
    if (i == asked) {
      e.answer = value;
      e.answer_start = static_cast<int64_t>(CodePoints(context));
      e.question = name + " " + relation + " " + question_word + "?";
    }
    context += value + (rng.Bernoulli(0.3) ? ", " + Word(rng, script, 1) : "") + script.full_stop;
  }
  e.context = context;
  return e;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng id_rng = root.Fork(1), text_rng = root.Fork(2);
  std::set<std::string> seen;
  std::vector<Example> examples;
  while (static_cast<int>(examples.size()) < kNumTrain + kNumTest) {
    std::string id = id_rng.Hex(9);
    if (seen.insert(id).second) examples.push_back(MakeExample(text_rng, std::move(id)));
  }
  CsvTextBuilder train, test, sample;
  train.Row({"id", "context", "question", "answer_text", "answer_start", "language"});
  test.Row({"id", "context", "question", "language"});
  sample.Row({"id", "PredictionString"});
  for (int i = 0; i < kNumTrain + kNumTest; ++i) {
    const Example& e = examples[i];
    if (i < kNumTrain) {
      train.String(e.id).String(e.context).String(e.question).String(e.answer);
      train.Int(e.answer_start).String(e.language).EndRow();
    } else {
      test.String(e.id).String(e.context).String(e.question).String(e.language).EndRow();
      sample.String(e.id).String("").EndRow();
    }
  }
  for (const auto& [name, text] :
       {std::pair<std::string, const std::string*>{"train.csv", &train.text()},
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
