#include "competitions/families/text_normalization/text_normalization_raw.h"

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"

namespace mlebench {
namespace {

constexpr int kTrainSentences = 1500;
constexpr int kTestSentences = 300;
constexpr int kVocabularySize = 400;
constexpr int kAbbreviations = 40;

struct Token {
  std::string token_class;
  std::string before;
  std::string after;
};

struct Vocabulary {
  std::vector<std::string> words;
  std::vector<double> word_weights;  // Zipf-like
  std::vector<std::pair<std::string, std::string>> abbreviations;  // before, after
};

Vocabulary MakeVocabulary(const TextNormalizationLanguage& language, SyntheticRng& rng) {
  Vocabulary vocabulary;
  std::set<std::string> seen;
  while (static_cast<int>(vocabulary.words.size()) < kVocabularySize) {
    std::string word;
    const int syllables = static_cast<int>(rng.UniformInt(1, 3));
    for (int s = 0; s < syllables; ++s) word += rng.Choice(language.syllables);
    if (seen.insert(word).second) {
      vocabulary.word_weights.push_back(1.0 / (vocabulary.words.size() + 3.0));
      vocabulary.words.push_back(std::move(word));
    }
  }
  // Spellings pandas would read as missing values or booleans are avoided.
  const std::set<std::string> reserved = {"NA", "NAN", "NULL", "NONE", "TRUE", "FALSE"};
  while (static_cast<int>(vocabulary.abbreviations.size()) < kAbbreviations) {
    std::string before, after;
    const int length = static_cast<int>(rng.UniformInt(2, 4));
    for (int i = 0; i < length; ++i) {
      const auto& [upper, lower] = rng.Choice(language.letters);
      before += upper;
      absl::StrAppend(&after, i == 0 ? "" : " ", lower);
    }
    if (!reserved.count(before) && seen.insert(before).second) {
      vocabulary.abbreviations.emplace_back(std::move(before), std::move(after));
    }
  }
  return vocabulary;
}

Token DrawToken(const TextNormalizationLanguage& language, const Vocabulary& vocabulary,
                SyntheticRng& rng) {
  static const std::vector<std::string> kMarks = {",", ",", ",", "-", "\"", ":", "(", ")"};
  switch (rng.Categorical({0.72, 0.1, 0.11, 0.07})) {
    case 0: {
      const std::string& word = vocabulary.words[rng.Categorical(vocabulary.word_weights)];
      return {"PLAIN", word, word};
    }
    case 1: {
      const std::string& mark = rng.Choice(kMarks);
      return {"PUNCT", mark, mark};
    }
    case 2: {
      // Mostly small numbers, which a model sees often enough to learn.
      const int number = static_cast<int>(rng.Bernoulli(0.8) ? rng.UniformInt(0, 60)
                                                             : rng.UniformInt(61, 999));
      return {"CARDINAL", absl::StrCat(number), language.cardinal(number)};
    }
    default: {
      const auto& [before, after] = rng.Choice(vocabulary.abbreviations);
      return {"LETTERS", before, after};
    }
  }
}

std::vector<std::vector<Token>> MakeSentences(const TextNormalizationLanguage& language,
                                              const Vocabulary& vocabulary, int count,
                                              SyntheticRng& rng) {
  std::vector<std::vector<Token>> sentences(count);
  for (std::vector<Token>& sentence : sentences) {
    const int length = static_cast<int>(rng.UniformInt(3, 14));
    for (int t = 0; t < length; ++t) sentence.push_back(DrawToken(language, vocabulary, rng));
    sentence.push_back({"PUNCT", ".", "."});
  }
  return sentences;
}

}  // namespace

absl::Status GenerateTextNormalizationRaw(const TextNormalizationLanguage& language,
                                          const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng vocabulary_rng = root.Fork(1), train_rng = root.Fork(2), test_rng = root.Fork(3);
  const Vocabulary vocabulary = MakeVocabulary(language, vocabulary_rng);

  CsvTextBuilder train(CsvStringQuoting::kAll), test(CsvStringQuoting::kAll),
      sample(CsvStringQuoting::kAll);
  train.Row({"sentence_id", "token_id", "class", "before", "after"});
  const std::vector<std::vector<Token>> train_sentences =
      MakeSentences(language, vocabulary, kTrainSentences, train_rng);
  for (size_t s = 0; s < train_sentences.size(); ++s) {
    for (size_t t = 0; t < train_sentences[s].size(); ++t) {
      const Token& token = train_sentences[s][t];
      train.Int(static_cast<int64_t>(s)).Int(static_cast<int64_t>(t)).String(token.token_class);
      train.String(token.before).String(token.after).EndRow();
    }
  }
  test.Row({"sentence_id", "token_id", "before"});
  sample.Row({"id", "after"});
  const std::vector<std::vector<Token>> test_sentences =
      MakeSentences(language, vocabulary, kTestSentences, test_rng);
  for (size_t s = 0; s < test_sentences.size(); ++s) {
    for (size_t t = 0; t < test_sentences[s].size(); ++t) {
      const std::string& before = test_sentences[s][t].before;
      test.Int(static_cast<int64_t>(s)).Int(static_cast<int64_t>(t)).String(before).EndRow();
      sample.String(absl::StrCat(s, "_", t)).String(before).EndRow();
    }
  }

  const std::string& p = language.prefix;
  const std::pair<std::string, const CsvTextBuilder*> files[] = {
      {p + "_train.csv", &train},
      {p + "_test_2.csv", &test},
      {p + "_sample_submission_2.csv", &sample},
  };
  for (const auto& [name, csv] : files) {
    RETURN_IF_ERROR(WriteZip(raw_dir / (name + ".zip"), {ZipEntry::FromBytes(name, csv->text())}));
  }
  return absl::OkStatus();
}

}  // namespace mlebench
