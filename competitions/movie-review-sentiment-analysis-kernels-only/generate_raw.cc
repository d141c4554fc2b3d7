// Synthetic raw download of movie-review-sentiment-analysis-kernels-only:
// train.tsv.zip holding train.tsv (PhraseId, SentenceId, Phrase, Sentiment),
// test.tsv.zip holding test.tsv (PhraseId, SentenceId, Phrase) and
// sampleSubmission.csv (PhraseId, Sentiment = 2). As in Kaggle's files
// (phrases of parsed movie-review sentences), the TSV files are unquoted, a
// sentence's phrases are numbered consecutively starting with the whole
// sentence and then every constituent of its binary parse tree in pre-order,
// a phrase already seen earlier in the file is not repeated, tokens are
// Penn-Treebank style (", " and " ." split off, "n't", "'s", "-LRB-", "``"),
// and test ids continue where train ids stop. Sentiment (0 negative ... 4
// positive) follows each phrase's words: polar words add up, intensifiers
// amplify and negators flip the phrase they head, plus a little noise, so
// a bag-of-words model learns it and phrases without polar words are mostly
// neutral (2).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kTrainSentences = 420;
constexpr int kTestSentences = 160;
constexpr int kInventedWords = 300;

enum class Role { kPlain, kNegator, kIntensifier };

// Frequent tokens without sentiment; "," is listed twice to be drawn twice
// as often.
const std::vector<std::string> kFunctionWords = {
    "the", "a",     "of",    "and",   "to",    "'s",         "is",       "that", "in",  "it",
    "as",  "with",  "for",   "its",   "an",    "film",       "movie",    "this", "but", "be",
    "on",  "you",   "by",    "about", "story", "than",       "one",      "has",  ",",   ",",
    "--",  "-LRB-", "-RRB-", "``",    "''",    "characters", "director", "all"};

struct Word {
  std::string text;
  double polarity = 0.0;  // contribution to a phrase's sentiment score
  Role role = Role::kPlain;
};

// Real function words and punctuation, polar adjectives and nouns, then
// invented neutral content words (the long tail of the vocabulary).
std::vector<Word> MakeVocabulary(SyntheticRng& rng) {
  std::vector<Word> words;
  for (const std::string& w : kFunctionWords) words.push_back({w});
  words.push_back({"."});  // ends every sentence
  const std::vector<std::pair<const char*, double>> polar = {
      {"good", 1.0},         {"funny", 1.0},        {"charming", 1.0},     {"smart", 1.0},
      {"moving", 1.0},       {"entertaining", 1.0}, {"solid", 0.8},        {"enjoyable", 1.0},
      {"best", 2.0},         {"wonderful", 2.0},    {"brilliant", 2.0},    {"masterpiece", 2.0},
      {"beautiful", 1.6},    {"great", 1.6},        {"bad", -1.0},         {"dull", -1.0},
      {"boring", -1.2},      {"flat", -0.8},        {"tedious", -1.2},     {"silly", -0.8},
      {"mess", -1.4},        {"lame", -1.2},        {"worst", -2.0},       {"awful", -2.0},
      {"unwatchable", -2.0}, {"stupid", -1.6},      {"pretentious", -1.0}, {"predictable", -0.8},
  };
  for (const auto& [w, p] : polar) words.push_back({w, p});
  for (const char* w : {"not", "n't", "never", "no"}) words.push_back({w, 0.0, Role::kNegator});
  for (const char* w : {"very", "really", "so", "most"}) {
    words.push_back({w, 0.0, Role::kIntensifier});
  }
  static const std::vector<std::string> kOnsets = {"b", "d", "f", "g", "l", "m",  "n",
                                                   "p", "r", "s", "t", "v", "sh", "tr"};
  static const std::vector<std::string> kVowels = {"a", "e", "i", "o", "u", "ea", "oo"};
  static const std::vector<std::string> kCodas = {"", "n", "r", "t", "st", "ng", "ck", "s"};
  // pandas would read these phrases as missing values.
  std::set<std::string> seen = {"na", "nan", "null", "none"};
  for (const Word& w : words) seen.insert(w.text);
  int invented = 0;
  while (invented < kInventedWords) {
    std::string w;
    const int syllables = static_cast<int>(rng.UniformInt(1, 3));
    for (int s = 0; s < syllables; ++s) {
      w += rng.Choice(kOnsets) + rng.Choice(kVowels) + rng.Choice(kCodas);
    }
    if (!seen.insert(w).second) continue;
    words.push_back({w});
    ++invented;
  }
  return words;
}

// Draws words: mostly function words and invented words, some polar ones
// (a per-sentence bias makes a review lean one way), a few modifiers.
class SentenceSampler {
 public:
  explicit SentenceSampler(const std::vector<Word>& vocabulary) : vocabulary_(vocabulary) {
    for (size_t i = 0; i < vocabulary.size(); ++i) {
      const Word& w = vocabulary[i];
      if (w.text == ".") {
        period_ = i;
      } else if (w.role != Role::kPlain) {
        modifiers_.push_back(i);
      } else if (w.polarity > 0) {
        positive_.push_back(i);
      } else if (w.polarity < 0) {
        negative_.push_back(i);
      } else if (i < kFunctionWords.size()) {
        function_.push_back(i);
      } else {
        content_.push_back(i);
      }
    }
  }

  std::vector<size_t> Sentence(SyntheticRng& rng) const {
    const int length = std::clamp(static_cast<int>(std::lround(rng.Normal(14, 6))), 3, 40);
    const double lean = rng.Uniform();  // share of polar words that are positive
    std::vector<size_t> tokens;
    for (int i = 0; i < length; ++i) {
      switch (rng.Categorical({0.42, 0.33, 0.15, 0.10})) {
        case 0:
          tokens.push_back(rng.Choice(function_));
          break;
        case 1:
          tokens.push_back(rng.Choice(content_));
          break;
        case 2:
          tokens.push_back(rng.Bernoulli(lean) ? rng.Choice(positive_) : rng.Choice(negative_));
          break;
        default:
          tokens.push_back(rng.Choice(modifiers_));
      }
    }
    tokens.push_back(period_);
    return tokens;
  }

 private:
  const std::vector<Word>& vocabulary_;
  size_t period_ = 0;
  std::vector<size_t> function_, content_, positive_, negative_, modifiers_;
};

struct Phrase {
  std::string text;
  int sentiment;
};

// Splits tokens [lo, hi) into a random binary tree and appends its phrases
// in pre-order; returns the span's sentiment score.
double AddPhrases(SyntheticRng& rng, const std::vector<Word>& vocabulary,
                  const std::vector<size_t>& tokens, size_t lo, size_t hi,
                  std::vector<Phrase>& out) {
  const size_t index = out.size();
  std::string text;
  for (size_t i = lo; i < hi; ++i) {
    absl::StrAppend(&text, i > lo ? " " : "", vocabulary[tokens[i]].text);
  }
  out.push_back({std::move(text), 2});
  double score;
  if (hi - lo == 1) {
    score = vocabulary[tokens[lo]].polarity;
  } else {
    // Right-branching more often than not, like English parses.
    const size_t split = lo + 1 + (rng.Bernoulli(0.6) ? 0 : rng.UniformInt(hi - lo - 1));
    const double left = AddPhrases(rng, vocabulary, tokens, lo, split, out);
    const double right = AddPhrases(rng, vocabulary, tokens, split, hi, out);
    const Role head = split - lo == 1 ? vocabulary[tokens[lo]].role : Role::kPlain;
    if (head == Role::kNegator) {
      score = -0.8 * right;
    } else if (head == Role::kIntensifier) {
      score = 1.6 * right;
    } else {
      score = left + right;
    }
  }
  const double noisy = score + rng.Normal(0, 0.3);
  out[index].sentiment = noisy < -2.0   ? 0
                         : noisy < -0.5 ? 1
                         : noisy <= 0.5 ? 2
                         : noisy <= 2.0 ? 3
                                        : 4;
  return score;
}

struct Rows {
  std::string tsv;           // without the header
  std::vector<int64_t> ids;  // PhraseIds, in file order
};

// Sentences numbered from `first_sentence`, phrases from `first_phrase`;
// `seen` holds the phrases already written (deduplicated across the file).
Rows MakeRows(SyntheticRng& rng, const std::vector<Word>& vocabulary,
              const SentenceSampler& sampler, int sentences, int64_t first_sentence,
              int64_t first_phrase, bool with_labels, std::set<std::string>& seen) {
  Rows rows;
  int64_t phrase_id = first_phrase;
  for (int s = 0; s < sentences; ++s) {
    const std::vector<size_t> tokens = sampler.Sentence(rng);
    std::vector<Phrase> phrases;
    AddPhrases(rng, vocabulary, tokens, 0, tokens.size(), phrases);
    for (const Phrase& phrase : phrases) {
      if (!seen.insert(phrase.text).second) continue;
      absl::StrAppend(&rows.tsv, phrase_id, "\t", first_sentence + s, "\t", phrase.text);
      if (with_labels) absl::StrAppend(&rows.tsv, "\t", phrase.sentiment);
      rows.tsv += "\n";
      rows.ids.push_back(phrase_id++);
    }
  }
  return rows;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng vocabulary_rng = root.Fork(1), train_rng = root.Fork(2), test_rng = root.Fork(3);
  const std::vector<Word> vocabulary = MakeVocabulary(vocabulary_rng);
  const SentenceSampler sampler(vocabulary);

  std::set<std::string> seen;
  const Rows train = MakeRows(train_rng, vocabulary, sampler, kTrainSentences, 1, 1,
                              /*with_labels=*/true, seen);
  std::set<std::string> seen_in_test;
  const Rows test = MakeRows(test_rng, vocabulary, sampler, kTestSentences, kTrainSentences + 1,
                             train.ids.back() + 1, /*with_labels=*/false, seen_in_test);

  CsvTextBuilder sample;
  sample.Row({"PhraseId", "Sentiment"});
  for (int64_t id : test.ids) sample.Int(id).Int(2).EndRow();

  RETURN_IF_ERROR(WriteZip(
      raw_dir / "train.tsv.zip",
      {ZipEntry::FromBytes("train.tsv", "PhraseId\tSentenceId\tPhrase\tSentiment\n" + train.tsv)}));
  RETURN_IF_ERROR(
      WriteZip(raw_dir / "test.tsv.zip",
               {ZipEntry::FromBytes("test.tsv", "PhraseId\tSentenceId\tPhrase\n" + test.tsv)}));
  return WriteStringToFile(raw_dir / "sampleSubmission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
