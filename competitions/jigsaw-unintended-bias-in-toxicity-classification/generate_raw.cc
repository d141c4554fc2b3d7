// Synthetic raw download of jigsaw-unintended-bias-in-toxicity-classification,
// at the download's root as on Kaggle: train.csv (id, target, comment_text,
// the toxicity subtypes, the 24 identity columns, comment metadata and
// annotator counts: 45 columns), test.csv (id, comment_text) with its
// sample_submission.csv (id, prediction), and test_private_expanded.csv (the
// labelled private test set: the same 45 columns with `toxicity` for
// `target`, in that file's order), which upstream turns into the answers.
// ids are integers; toxicity and identity scores are fractions of
// annotators; identity scores are missing for most train rows. Comments are
// invented words: insults make a comment toxic, identity words mark its
// identities, so a bag-of-words model separates toxic comments.
#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 3000;
constexpr int kNumPublicTest = 200;
constexpr int kNumPrivateTest = 1000;

// Kaggle's 24 identity columns, and for the nine that upstream scores a
// word that marks them (the others are never mentioned).
constexpr std::array<std::pair<const char*, const char*>, 24> kIdentities = {{
    {"male", "men"},
    {"female", "women"},
    {"transgender", ""},
    {"other_gender", ""},
    {"heterosexual", ""},
    {"homosexual_gay_or_lesbian", "gay"},
    {"bisexual", ""},
    {"other_sexual_orientation", ""},
    {"christian", "christians"},
    {"jewish", "jews"},
    {"muslim", "muslims"},
    {"hindu", ""},
    {"buddhist", ""},
    {"atheist", ""},
    {"other_religion", ""},
    {"black", "black"},
    {"white", "white"},
    {"asian", ""},
    {"latino", ""},
    {"other_race_or_ethnicity", ""},
    {"physical_disability", ""},
    {"intellectual_or_learning_disability", ""},
    {"psychiatric_or_mental_illness", "mentally ill"},
    {"other_disability", ""},
}};

constexpr std::array<const char*, 5> kSubtypes = {"severe_toxicity", "obscene", "identity_attack",
                                                  "insult", "threat"};
constexpr std::array<const char*, 11> kMetadata = {
    "created_date", "publication_id", "parent_id", "article_id", "rating", "funny",
    "wow",          "sad",            "likes",     "disagree",   "sexual_explicit"};

const std::vector<std::string> kFiller = {
    "the",  "a",     "is",    "this",  "that",  "they", "we",    "people", "article", "trump",
    "tax",  "city",  "vote",  "think", "would", "should", "about", "more", "time",    "government",
    "news", "world", "right", "left",  "money", "law",  "don't", "it's",   "\"quote\"", "well,"};
const std::vector<std::string> kInsults = {"idiot", "stupid", "moron", "pathetic", "dumb",
                                           "idiots", "loser", "clown", "disgusting", "scum"};

struct Comment {
  int64_t id = 0;
  std::string text;
  double toxicity = 0;
  std::array<double, 5> subtypes{};
  std::array<double, 24> identity{};
  bool has_identity = false;
  int identity_annotators = 0, toxicity_annotators = 0;
};

// k/n as the fraction of annotators, Python's float.
double Fraction(int k, int n) { return static_cast<double>(k) / static_cast<double>(n); }

Comment MakeComment(SyntheticRng& rng, int64_t id, bool identity_annotated) {
  Comment c;
  c.id = id;
  std::vector<std::string> words;
  const int length = static_cast<int>(rng.UniformInt(5, 25));
  for (int i = 0; i < length; ++i) words.push_back(rng.Choice(kFiller));
  std::array<bool, 24> mentioned{};
  for (size_t g = 0; g < kIdentities.size(); ++g) {
    if (kIdentities[g].second[0] != '\0' && rng.Bernoulli(0.1)) {
      mentioned[g] = true;
      words[rng.UniformInt(words.size())] = kIdentities[g].second;
    }
  }
  // Comments mentioning an identity are somewhat more often toxic, as in the
  // real data (the bias the competition measures).
  bool any = false;
  for (bool m : mentioned) any = any || m;
  const bool toxic = rng.Bernoulli(any ? 0.3 : 0.15);
  if (toxic) {
    const int insults = static_cast<int>(rng.UniformInt(1, 3));
    for (int i = 0; i < insults; ++i) words[rng.UniformInt(words.size())] = rng.Choice(kInsults);
  } else if (rng.Bernoulli(0.03)) {
    words[rng.UniformInt(words.size())] = rng.Choice(kInsults);  // label noise
  }
  if (rng.Bernoulli(0.1)) words.back() += rng.Bernoulli(0.5) ? "!" : "\nReally.";
  for (size_t i = 0; i < words.size(); ++i) c.text += (i ? " " : "") + words[i];

  c.toxicity_annotators = static_cast<int>(rng.UniformInt(4, 10));
  const int toxic_votes =
      toxic ? static_cast<int>(rng.UniformInt(c.toxicity_annotators / 2 + 1, c.toxicity_annotators))
            : static_cast<int>(rng.UniformInt(0, (c.toxicity_annotators - 1) / 2));
  c.toxicity = Fraction(toxic_votes, c.toxicity_annotators);
  for (double& s : c.subtypes) {
    s = Fraction(static_cast<int>(rng.UniformInt(0, toxic_votes)), c.toxicity_annotators);
  }
  c.has_identity = identity_annotated;
  if (identity_annotated) {
    c.identity_annotators = static_cast<int>(rng.UniformInt(4, 10));
    for (size_t g = 0; g < kIdentities.size(); ++g) {
      const int votes = mentioned[g] ? static_cast<int>(rng.UniformInt(c.identity_annotators / 2 + 1,
                                                                        c.identity_annotators))
                                     : (rng.Bernoulli(0.05) ? 1 : 0);
      c.identity[g] = Fraction(votes, c.identity_annotators);
    }
  }
  return c;
}

// The metadata columns created_date .. disagree, in kMetadata's order
// (sexual_explicit, a toxicity subtype, is the caller's).
void Metadata(SyntheticRng& rng, const Comment& c, CsvTextBuilder& csv) {
  csv.String(absl::StrFormat("2017-%02d-%02d %02d:%02d:%02d.%06d+00", rng.UniformInt(1, 12),
                             rng.UniformInt(1, 28), rng.UniformInt(0, 23), rng.UniformInt(0, 59),
                             rng.UniformInt(0, 59), rng.UniformInt(0, 999999)));
  csv.Int(rng.UniformInt(2, 100));
  if (rng.Bernoulli(0.6)) {
    csv.Missing();
  } else {
    csv.Float(static_cast<double>(rng.UniformInt(1000000, 7000000)));
  }
  csv.Int(rng.UniformInt(2000, 400000));
  csv.String(c.toxicity >= 0.5 && rng.Bernoulli(0.3) ? "rejected" : "approved");
  for (int i = 0; i < 5; ++i) csv.Int(rng.Bernoulli(0.7) ? 0 : rng.UniformInt(1, 9));
}

void Identities(const Comment& c, CsvTextBuilder& csv, const std::vector<size_t>& order) {
  for (size_t g : order) {
    if (c.has_identity) {
      csv.Float(c.identity[g]);
    } else {
      csv.Missing();
    }
  }
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng text_rng = root.Fork(1), meta_rng = root.Fork(2);
  int64_t next_id = 239575;

  // train.csv lists the identities alphabetically; the expanded test file
  // in the order of kIdentities.
  std::vector<size_t> alphabetical(kIdentities.size()), natural(kIdentities.size());
  for (size_t g = 0; g < kIdentities.size(); ++g) alphabetical[g] = natural[g] = g;
  std::sort(alphabetical.begin(), alphabetical.end(), [](size_t a, size_t b) {
    return std::string(kIdentities[a].first) < kIdentities[b].first;
  });

  CsvTextBuilder train;
  train.String("id").String("target").String("comment_text");
  for (const char* s : kSubtypes) train.String(s);
  for (size_t g : alphabetical) train.String(kIdentities[g].first);
  for (const char* m : kMetadata) train.String(m);
  train.String("identity_annotator_count").String("toxicity_annotator_count").EndRow();
  for (int i = 0; i < kNumTrain; ++i) {
    const Comment c = MakeComment(text_rng, next_id++, text_rng.Bernoulli(0.25));
    train.Int(c.id).Float(c.toxicity).String(c.text);
    for (double s : c.subtypes) train.Float(s);
    Identities(c, train, alphabetical);
    Metadata(meta_rng, c, train);
    train.Float(c.subtypes[1] / 2);
    train.Int(c.identity_annotators).Int(c.toxicity_annotators).EndRow();
  }

  CsvTextBuilder test, sample;
  test.Row({"id", "comment_text"});
  sample.Row({"id", "prediction"});
  next_id = 7000000;
  for (int i = 0; i < kNumPublicTest; ++i) {
    const Comment c = MakeComment(text_rng, next_id++, false);
    test.Int(c.id).String(c.text).EndRow();
    sample.Int(c.id).Float(0.0).EndRow();
  }

  CsvTextBuilder expanded;
  expanded.String("id").String("comment_text");
  for (const char* m : {"created_date", "publication_id", "parent_id", "article_id", "rating",
                        "funny", "wow", "sad", "likes", "disagree"}) {
    expanded.String(m);
  }
  expanded.String("toxicity").String("severe_toxicity").String("obscene").String(
      "sexual_explicit");
  expanded.String("identity_attack").String("insult").String("threat");
  for (size_t g : natural) expanded.String(kIdentities[g].first);
  expanded.String("identity_annotator_count").String("toxicity_annotator_count").EndRow();
  for (int i = 0; i < kNumPrivateTest; ++i) {
    const Comment c = MakeComment(text_rng, next_id++, text_rng.Bernoulli(0.9));
    expanded.Int(c.id).String(c.text);
    Metadata(meta_rng, c, expanded);
    expanded.Float(c.toxicity).Float(c.subtypes[0]).Float(c.subtypes[1]).Float(c.subtypes[1] / 2);
    expanded.Float(c.subtypes[2]).Float(c.subtypes[3]).Float(c.subtypes[4]);
    Identities(c, expanded, natural);
    expanded.Int(c.identity_annotators).Int(c.toxicity_annotators).EndRow();
  }

  for (const auto& [name, text] :
       {std::pair<std::string, const std::string*>{"train.csv", &train.text()},
        {"test.csv", &test.text()},
        {"sample_submission.csv", &sample.text()},
        {"test_private_expanded.csv", &expanded.text()}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, *text));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{
    .id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
