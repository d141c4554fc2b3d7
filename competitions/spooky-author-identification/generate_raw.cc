// Synthetic raw download of spooky-author-identification: train.zip holding
// train.csv (id, text, author), test.zip holding test.csv (id, text) and
// sample_submission.zip holding sample_submission.csv (id, EAP, HPL, MWS).
// Like Kaggle's files, every string field is quoted (numbers are not), ids
// are "id" and five digits in random order, and the texts are single
// sentences with commas, semicolons, quoted speech (doubled quotes in the
// CSV) and the odd non-ASCII letter. The words are invented: each author draws
// from a shared Zipf-like vocabulary reweighted by author-specific factors and
// favourite words, so a bag-of-words model learns who wrote what.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 3000;
constexpr int kNumTest = 1000;
constexpr int kVocabularySize = 1500;
constexpr int kFavouriteWords = 40;  // per author
const std::vector<std::string> kAuthors = {"EAP", "HPL", "MWS"};
// Kaggle's class balance (and upstream's sample-submission probabilities).
const std::vector<double> kAuthorShares = {0.403493538995863, 0.287808366106543, 0.308698094897594};

const std::vector<std::string> kOnsets = {"b", "d", "f", "g", "h", "k",  "l",  "m",  "n",  "p",
                                          "r", "s", "t", "v", "w", "th", "gr", "st", "cr", "bl"};
const std::vector<std::string> kVowels = {"a", "e", "i", "o", "u", "ae", "ou", "y"};
const std::vector<std::string> kCodas = {"", "", "n", "r", "th", "s", "m", "ld", "x", "ck"};
// Accented vowels (UTF-8) for the odd foreign-looking word.
const std::vector<std::string> kAccented = {"\xc3\xa9", "\xc3\xa6", "\xc3\xb6", "\xc3\xa8"};

struct Author {
  // Running sums of the author's word weights over the vocabulary, for
  // drawing a word by binary search.
  std::vector<double> cumulative_weights;
  double comma_rate, semicolon_rate, quote_rate, length_mean;
};

std::vector<std::string> MakeVocabulary(SyntheticRng& rng) {
  std::set<std::string> seen;
  std::vector<std::string> words;
  while (static_cast<int>(words.size()) < kVocabularySize) {
    // Frequent words are short, like real function words.
    const int syllables = words.size() < 30 ? 1 : static_cast<int>(rng.UniformInt(1, 3));
    std::string word;
    for (int s = 0; s < syllables; ++s) {
      word += rng.Choice(kOnsets);
      word += rng.Bernoulli(0.01) ? rng.Choice(kAccented) : rng.Choice(kVowels);
      word += rng.Choice(kCodas);
    }
    if (seen.insert(word).second) words.push_back(std::move(word));
  }
  return words;
}

std::vector<Author> MakeAuthors(SyntheticRng& rng) {
  std::vector<Author> authors;
  for (size_t a = 0; a < kAuthors.size(); ++a) {
    Author author;
    std::vector<double> weights(kVocabularySize);
    for (int w = 0; w < kVocabularySize; ++w) {
      // Zipf base shared by all, times an author-specific taste.
      weights[w] = std::exp(rng.Normal(0, 0.4)) / (w + 2.0);
    }
    for (int f = 0; f < kFavouriteWords; ++f) {
      weights[30 + rng.UniformInt(kVocabularySize - 30)] *= 6.0;
    }
    double total = 0;
    for (double w : weights) author.cumulative_weights.push_back(total += w);
    author.comma_rate = rng.Uniform(0.04, 0.12);
    author.semicolon_rate = rng.Uniform(0.0, 0.03);
    author.quote_rate = rng.Uniform(0.05, 0.2);
    author.length_mean = rng.Uniform(18, 30);
    authors.push_back(std::move(author));
  }
  return authors;
}

size_t DrawWord(SyntheticRng& rng, const Author& author) {
  const std::vector<double>& cumulative = author.cumulative_weights;
  const double target = rng.Uniform() * cumulative.back();
  const size_t index =
      std::upper_bound(cumulative.begin(), cumulative.end(), target) - cumulative.begin();
  return std::min(index, cumulative.size() - 1);
}

std::string Sentence(SyntheticRng& rng, const Author& author,
                     const std::vector<std::string>& vocabulary) {
  const int length = std::clamp(
      static_cast<int>(std::lround(rng.Normal(author.length_mean, author.length_mean / 2.5))), 3,
      80);
  // Where quoted speech (if any) opens and closes.
  int quote_open = -1, quote_close = -1;
  if (rng.Bernoulli(author.quote_rate) && length >= 6) {
    quote_open = static_cast<int>(rng.UniformInt(1, length - 3));
    quote_close = static_cast<int>(rng.UniformInt(quote_open + 1, length - 1));
  }
  std::string text;
  for (int i = 0; i < length; ++i) {
    std::string word = vocabulary[DrawWord(rng, author)];
    if (i == 0 || i == quote_open) word[0] = static_cast<char>(word[0] - 'a' + 'A');
    if (i > 0) text += ' ';
    if (i == quote_open) text += '"';
    text += word;
    if (i == quote_close) text += rng.Bernoulli(0.3) ? ",\"" : "\"";
    if (i + 1 < length && i != quote_close) {
      if (rng.Bernoulli(author.comma_rate)) {
        text += ',';
      } else if (rng.Bernoulli(author.semicolon_rate)) {
        text += ';';
      }
    }
  }
  text += ".?!"[rng.Categorical({10, 1, 0.5})];
  return text;
}

struct Row {
  std::string id;
  std::string text;
  int author;
};

std::vector<Row> MakeRows(SyntheticRng& rng, const std::vector<Author>& authors,
                          const std::vector<std::string>& vocabulary,
                          const std::vector<int>& numbers) {
  std::vector<Row> rows;
  for (int number : numbers) {
    Row row;
    row.id = absl::StrFormat("id%05d", number);
    row.author = static_cast<int>(rng.Categorical(kAuthorShares));
    row.text = Sentence(rng, authors[row.author], vocabulary);
    rows.push_back(std::move(row));
  }
  return rows;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng vocabulary_rng = root.Fork(1), author_rng = root.Fork(2), id_rng = root.Fork(3),
               train_rng = root.Fork(4), test_rng = root.Fork(5);
  const std::vector<std::string> vocabulary = MakeVocabulary(vocabulary_rng);
  const std::vector<Author> authors = MakeAuthors(author_rng);

  // Distinct five-digit id numbers, in random order as on Kaggle.
  std::vector<int> numbers(100000);
  for (int i = 0; i < 100000; ++i) numbers[i] = i;
  id_rng.Shuffle(numbers);
  const std::vector<int> train_numbers(numbers.begin(), numbers.begin() + kNumTrain);
  const std::vector<int> test_numbers(numbers.begin() + kNumTrain,
                                      numbers.begin() + kNumTrain + kNumTest);

  CsvTextBuilder train(CsvStringQuoting::kAll), test(CsvStringQuoting::kAll),
      sample(CsvStringQuoting::kAll);
  train.Row({"id", "text", "author"});
  for (const Row& row : MakeRows(train_rng, authors, vocabulary, train_numbers)) {
    train.String(row.id).String(row.text).String(kAuthors[row.author]).EndRow();
  }
  test.Row({"id", "text"});
  sample.Row({"id", "EAP", "HPL", "MWS"});
  for (const Row& row : MakeRows(test_rng, authors, vocabulary, test_numbers)) {
    test.String(row.id).String(row.text).EndRow();
    sample.String(row.id);
    for (double share : kAuthorShares) sample.Float(share);
    sample.EndRow();
  }

  RETURN_IF_ERROR(
      WriteZip(raw_dir / "train.zip", {ZipEntry::FromBytes("train.csv", train.text())}));
  RETURN_IF_ERROR(WriteZip(raw_dir / "test.zip", {ZipEntry::FromBytes("test.csv", test.text())}));
  return WriteZip(raw_dir / "sample_submission.zip",
                  {ZipEntry::FromBytes("sample_submission.csv", sample.text())});
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
