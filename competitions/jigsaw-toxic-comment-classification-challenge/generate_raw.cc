// Synthetic raw download of jigsaw-toxic-comment-classification-challenge:
// train.csv.zip (id, comment_text and the six labels), test.csv.zip (id,
// comment_text), test_labels.csv.zip (id and the six labels, all -1 on rows
// Kaggle did not score) and sample_submission.csv.zip (id and 0.5 for every
// label), each archive holding the one CSV of its name. As in Kaggle's files,
// ids are 16 lowercase hex digits in sorted order, train.csv and test.csv
// quote every string, and comments are talk-page messages in several
// sentences and paragraphs with commas, quoted phrases (doubled quotes in the
// CSV), newlines and the odd accented letter.
//
// The words are invented. Labels come from a latent toxicity: a toxic comment
// may also be obscene, an insult, severe, a threat or identity hate (Kaggle's
// nesting, with the rare labels made common enough to appear in a small
// test set). Each label has its own invented lexicon, and a comment with a
// label uses a few of its words (shouting some in capitals), so a bag of
// words model ranks comments well; some clean comments quote a rude word and
// some toxic ones use none, so it is not perfect.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 2500;
constexpr int kNumTest = 1500;
constexpr double kScoredShare = 0.42;  // of test rows, as on Kaggle
constexpr int kNumLabels = 6;
const std::vector<std::string> kLabelNames = {"toxic",  "severe_toxic", "obscene",
                                              "threat", "insult",       "identity_hate"};
enum Label { kToxic, kSevere, kObscene, kThreat, kInsult, kIdentityHate };
// Share of toxic comments, and of each other label among toxic comments.
constexpr double kToxicRate = 0.2;
constexpr std::array<double, kNumLabels> kRateGivenToxic = {1.0, 0.15, 0.5, 0.12, 0.5, 0.15};
// Invented words per label lexicon (index 0: general toxic words).
constexpr std::array<int, kNumLabels> kLexiconSizes = {60, 20, 40, 25, 40, 25};
constexpr int kVocabularySize = 1200;

const std::vector<std::string> kOnsets = {"b", "d", "f", "g", "h", "k",  "l",  "m",  "n",  "p",
                                          "r", "s", "t", "v", "w", "sh", "pl", "tr", "gl", "dr"};
const std::vector<std::string> kVowels = {"a", "e", "i", "o", "u", "ee", "oo", "ai"};
const std::vector<std::string> kCodas = {"", "", "n", "r", "t", "s", "m", "nk", "p", "g"};
// Harsher sounds for the rude lexicons.
const std::vector<std::string> kRudeOnsets = {"zk", "kr", "gr", "x", "vr", "bz", "q", "zz"};
const std::vector<std::string> kRudeCodas = {"x", "ck", "rg", "zz", "kt", "tch"};
const std::vector<std::string> kAccented = {"\xc3\xa9", "\xc3\xbc", "\xc3\xb6", "\xc3\xa0"};

struct Lexicons {
  std::vector<std::string> neutral;
  std::array<std::vector<std::string>, kNumLabels> rude;
};

std::string InventedWord(SyntheticRng& rng, int syllables, bool rude) {
  std::string word;
  for (int s = 0; s < syllables; ++s) {
    word += rude && s == 0 ? rng.Choice(kRudeOnsets) : rng.Choice(kOnsets);
    word += rng.Bernoulli(0.01) ? rng.Choice(kAccented) : rng.Choice(kVowels);
    word += rude && s == syllables - 1 ? rng.Choice(kRudeCodas) : rng.Choice(kCodas);
  }
  return word;
}

Lexicons MakeLexicons(SyntheticRng& rng) {
  Lexicons lexicons;
  std::set<std::string> seen;
  while (static_cast<int>(lexicons.neutral.size()) < kVocabularySize) {
    const int syllables = lexicons.neutral.size() < 40 ? 1 : static_cast<int>(rng.UniformInt(1, 3));
    std::string word = InventedWord(rng, syllables, false);
    if (seen.insert(word).second) lexicons.neutral.push_back(std::move(word));
  }
  for (int label = 0; label < kNumLabels; ++label) {
    while (static_cast<int>(lexicons.rude[label].size()) < kLexiconSizes[label]) {
      std::string word = InventedWord(rng, static_cast<int>(rng.UniformInt(1, 2)), true);
      if (seen.insert(word).second) lexicons.rude[label].push_back(std::move(word));
    }
  }
  return lexicons;
}

// A Zipf-like draw from the neutral vocabulary.
const std::string& NeutralWord(SyntheticRng& rng, const Lexicons& lexicons) {
  const double u = rng.Uniform();
  const size_t index = static_cast<size_t>(std::pow(kVocabularySize + 1.0, u)) - 1;
  return lexicons.neutral[std::min(index, lexicons.neutral.size() - 1)];
}

struct Comment {
  std::string id;
  std::string text;
  std::array<int, kNumLabels> labels{};
};

std::array<int, kNumLabels> DrawLabels(SyntheticRng& rng) {
  std::array<int, kNumLabels> labels{};
  if (rng.Bernoulli(kToxicRate)) {
    for (int label = 0; label < kNumLabels; ++label) {
      labels[label] = rng.Bernoulli(kRateGivenToxic[label]) ? 1 : 0;
    }
  } else {
    // Kaggle has a few obscene or insulting comments not marked toxic.
    labels[kObscene] = rng.Bernoulli(0.01) ? 1 : 0;
    labels[kInsult] = rng.Bernoulli(0.01) ? 1 : 0;
  }
  return labels;
}

std::string Capitalized(std::string word) {
  if (word[0] >= 'a' && word[0] <= 'z') word[0] = static_cast<char>(word[0] - 'a' + 'A');
  return word;
}

std::string Shouted(std::string word) {
  for (char& c : word) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return word;
}

std::string WriteComment(SyntheticRng& rng, const Lexicons& lexicons,
                         const std::array<int, kNumLabels>& labels) {
  const int length = static_cast<int>(std::clamp(std::exp(rng.Normal(2.9, 0.7)), 3.0, 120.0));
  std::vector<std::string> words;
  for (int i = 0; i < length; ++i) words.push_back(NeutralWord(rng, lexicons));
  // Marker words of each label the comment has (most toxic comments use some).
  const bool toxic = labels[kToxic] == 1;
  const bool silent = toxic && rng.Bernoulli(0.1);
  for (int label = 0; label < kNumLabels; ++label) {
    int uses = 0;
    if (labels[label] == 1 && !silent) {
      uses = 1 + static_cast<int>(rng.UniformInt(3));
    } else if (!toxic && rng.Bernoulli(0.04)) {
      uses = 1;  // a clean comment quoting or discussing a rude word
    }
    for (int u = 0; u < uses; ++u) {
      std::string word = rng.Choice(lexicons.rude[label]);
      if (toxic && rng.Bernoulli(0.3)) word = Shouted(word);
      words.insert(words.begin() + rng.UniformInt(words.size() + 1), std::move(word));
    }
  }

  // Sentences of 4 to 14 words, paragraphs of 1 to 3 sentences.
  std::string text;
  if (rng.Bernoulli(0.1)) text += "\"\n";  // Kaggle's comments often open like this
  size_t i = 0;
  int sentences_in_paragraph = 0;
  while (i < words.size()) {
    const size_t end = std::min(words.size(), i + 4 + rng.UniformInt(11));
    std::string sentence;
    bool quoting = false;
    for (size_t w = i; w < end; ++w) {
      if (w > i) sentence += ' ';
      if (!quoting && end - w > 2 && rng.Bernoulli(0.03)) {
        sentence += '"';
        quoting = true;
      }
      sentence += w == i ? Capitalized(words[w]) : words[w];
      if (quoting && rng.Bernoulli(0.4)) {
        sentence += '"';
        quoting = false;
      }
      if (w + 1 < end && rng.Bernoulli(0.08)) sentence += ',';
    }
    if (quoting) sentence += '"';
    sentence += toxic && rng.Bernoulli(0.3) ? "!" : std::string(1, ".?!."[rng.UniformInt(4)]);
    if (!text.empty() && text.back() != '\n') text += ' ';
    text += sentence;
    i = end;
    if (++sentences_in_paragraph >= 1 + static_cast<int>(rng.UniformInt(3)) && i < words.size()) {
      text += rng.Bernoulli(0.8) ? "\n\n" : "\n";
      sentences_in_paragraph = 0;
    }
  }
  return text;
}

std::vector<Comment> MakeComments(SyntheticRng& rng, const Lexicons& lexicons,
                                  std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());  // Kaggle's files are sorted by id
  std::vector<Comment> comments;
  for (std::string& id : ids) {
    Comment comment;
    comment.id = std::move(id);
    comment.labels = DrawLabels(rng);
    comment.text = WriteComment(rng, lexicons, comment.labels);
    comments.push_back(std::move(comment));
  }
  return comments;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng lexicon_rng = root.Fork(1), id_rng = root.Fork(2), train_rng = root.Fork(3),
               test_rng = root.Fork(4), scored_rng = root.Fork(5);
  const Lexicons lexicons = MakeLexicons(lexicon_rng);

  std::set<std::string> seen;
  std::vector<std::string> ids;
  while (static_cast<int>(ids.size()) < kNumTrain + kNumTest) {
    std::string id = id_rng.Hex(16);
    if (seen.insert(id).second) ids.push_back(std::move(id));
  }
  const std::vector<Comment> train = MakeComments(
      train_rng, lexicons, std::vector<std::string>(ids.begin(), ids.begin() + kNumTrain));
  const std::vector<Comment> test = MakeComments(
      test_rng, lexicons, std::vector<std::string>(ids.begin() + kNumTrain, ids.end()));

  CsvTextBuilder train_csv(CsvStringQuoting::kAll), test_csv(CsvStringQuoting::kAll), labels_csv,
      sample_csv;
  train_csv.String("id").String("comment_text");
  labels_csv.String("id");
  sample_csv.String("id");
  for (const std::string& name : kLabelNames) {
    train_csv.String(name);
    labels_csv.String(name);
    sample_csv.String(name);
  }
  train_csv.EndRow();
  labels_csv.EndRow();
  sample_csv.EndRow();
  test_csv.Row({"id", "comment_text"});
  for (const Comment& c : train) {
    train_csv.String(c.id).String(c.text);
    for (int label : c.labels) train_csv.Int(label);
    train_csv.EndRow();
  }
  for (const Comment& c : test) {
    test_csv.String(c.id).String(c.text).EndRow();
    const bool scored = scored_rng.Bernoulli(kScoredShare);
    labels_csv.String(c.id);
    for (int label : c.labels) labels_csv.Int(scored ? label : -1);
    labels_csv.EndRow();
    sample_csv.String(c.id);
    for (int label = 0; label < kNumLabels; ++label) sample_csv.Float(0.5);
    sample_csv.EndRow();
  }

  for (const auto& [stem, csv] :
       {std::pair<std::string, const CsvTextBuilder*>{"train", &train_csv},
        {"test", &test_csv},
        {"test_labels", &labels_csv},
        {"sample_submission", &sample_csv}}) {
    RETURN_IF_ERROR(
        WriteZip(raw_dir / (stem + ".csv.zip"), {ZipEntry::FromBytes(stem + ".csv", csv->text())}));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
