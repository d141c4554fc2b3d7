// Synthetic raw download of google-quest-challenge, in Kaggle's layout:
// train.csv (qa_id, question_title, question_body, question_user_name,
// question_user_page, answer, answer_user_name, answer_user_page, url,
// category, host, then the 30 rated targets), test.csv (the 11 columns
// before the targets) and sample_submission.csv (qa_id and the 30 targets,
// each a constant 0.00308, as Kaggle's).
//
// Each question/answer pair has a category (which fixes the site), a kind of
// question (how-to, why, what-is, which-one, compare or fact) and a quality.
// The kind shows in the title's wording ("How do I ...", "Why does ..."),
// the category in the site and vocabulary, and the quality in the length and
// polish of the body and answer. Each target is a noisy function of these,
// rounded to what 6 or 9 raters' votes average to (multiples of 1/6 or
// 1/9, written with 15 significant digits as Kaggle's are), so text features
// predict the targets' ranking well but not perfectly.
// question_type_spelling is 0 except in about 1 row of 60, as on Kaggle.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "competitions/google-quest-challenge/classes.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumTrain = 600;
constexpr int kNumTest = 60;

using google_quest::kTargets;

struct Category {
  const char* name;
  std::vector<const char*> hosts;
  std::vector<const char*> words;
  double conversational;  // how chatty its questions are
};

const std::vector<Category> kCategories = {
    {"TECHNOLOGY",
     {"superuser.com", "serverfault.com", "askubuntu.com", "apple.stackexchange.com"},
     {"laptop", "kernel", "driver", "router", "disk", "update", "battery", "terminal"},
     0.1},
    {"STACKOVERFLOW",
     {"stackoverflow.com"},
     {"function", "array", "compiler", "pointer", "query", "thread", "exception", "loop"},
     0.05},
    {"CULTURE",
     {"english.stackexchange.com", "rpg.stackexchange.com", "scifi.stackexchange.com"},
     {"novel", "phrase", "character", "idiom", "campaign", "spell", "author", "meaning"},
     0.6},
    {"SCIENCE",
     {"physics.stackexchange.com", "math.stackexchange.com", "electronics.stackexchange.com"},
     {"energy", "integral", "matrix", "voltage", "particle", "proof", "circuit", "field"},
     0.2},
    {"LIFE_ARTS",
     {"cooking.stackexchange.com", "diy.stackexchange.com", "photo.stackexchange.com"},
     {"recipe", "oven", "lens", "paint", "wall", "sauce", "camera", "wood"},
     0.4},
};
const std::vector<double> kCategoryWeights = {0.36, 0.21, 0.16, 0.13, 0.14};

// Question kinds and the title openings that show them.
enum Kind { kHowTo, kWhy, kWhatIs, kWhich, kCompare, kFact, kNumKinds };
const std::array<std::vector<const char*>, kNumKinds> kOpenings = {{
    {"How do I", "How can I", "How to"},
    {"Why does", "Why is", "What causes"},
    {"What is", "What does", "Meaning of"},
    {"Which", "Should I use", "Is it better to use"},
    {"Difference between", "What is the difference between", "Compare"},
    {"Is there", "When was", "Who made"},
}};
const std::vector<double> kKindWeights = {0.3, 0.2, 0.15, 0.1, 0.1, 0.15};

const std::vector<const char*> kFiller = {"the", "a",     "with", "when", "my", "this", "in",
                                          "for", "after", "and",  "on",   "it", "using"};

std::string Words(SyntheticRng& rng, const Category& category, int count) {
  std::vector<std::string> words;
  for (int i = 0; i < count; ++i) {
    words.push_back(rng.Bernoulli(0.35) ? rng.Choice(category.words) : rng.Choice(kFiller));
  }
  return absl::StrJoin(words, " ");
}

// Sentences whose number and finish follow `quality` (0 to 1): poor text is
// short, lower-case and unpunctuated.
std::string Paragraph(SyntheticRng& rng, const Category& category, double quality) {
  const int sentences = 1 + static_cast<int>(std::lround(quality * 5 + rng.Uniform(0, 2)));
  std::string text;
  for (int s = 0; s < sentences; ++s) {
    std::string sentence = Words(rng, category, 5 + static_cast<int>(rng.UniformInt(0, 8)));
    if (quality > 0.4 && !sentence.empty())
      sentence[0] = static_cast<char>(std::toupper(sentence[0]));
    absl::StrAppend(&text, s == 0 ? "" : (rng.Bernoulli(0.2) ? "\n\n" : " "), sentence,
                    quality > 0.3 ? "." : "");
  }
  return text;
}

// What raters' votes average to: the nearest multiple of 1/6 or 1/9 of
// `value` clipped to [0, 1], as Kaggle writes it (15 significant digits).
double RaterAverage(SyntheticRng& rng, double value) {
  const double raters = rng.Bernoulli(0.6) ? 6.0 : 9.0;
  const double v = std::round(std::clamp(value, 0.0, 1.0) * raters) / raters;
  return std::strtod(absl::StrFormat("%.15g", v).c_str(), nullptr);
}

struct Pair {
  int64_t id;
  size_t category;
  Kind kind;
  double quality;
};

// The 30 targets of a pair, in kTargets order.
std::vector<double> Targets(SyntheticRng& rng, const Pair& p) {
  const double chat = kCategories[p.category].conversational;
  const double q = p.quality;
  auto is = [&](Kind k) { return p.kind == k ? 1.0 : 0.0; };
  auto noisy = [&](double v, double sd = 0.12) { return RaterAverage(rng, v + rng.Normal(0, sd)); };
  std::vector<double> t = {
      noisy(0.6 + 0.35 * q),                                    // asker_intent_understanding
      noisy(0.3 + 0.6 * q),                                     // body_critical
      noisy(0.8 * chat - 0.05, 0.1),                            // conversational
      noisy(0.3 + 0.5 * (is(kFact) + is(kWhatIs)) + 0.2 * q),   // expect_short_answer
      noisy(0.4 + 0.5 * (is(kFact) + is(kWhatIs) + is(kWhy))),  // fact_seeking
      noisy(0.45 + 0.4 * (1 - chat) + 0.1 * q),                 // has_commonly_accepted_answer
      noisy(0.4 + 0.3 * chat + 0.25 * q),                       // interestingness_others
      noisy(0.3 + 0.4 * chat + 0.2 * q),                        // interestingness_self
      noisy(0.1 + 0.4 * is(kCompare) + 0.2 * (1 - q), 0.1),     // multi_intent
      noisy(0.02 * (1 - q), 0.02),                              // not_really_a_question
      noisy(0.15 + 0.5 * chat + 0.4 * is(kWhich)),              // opinion_seeking
      noisy(0.05 + 0.8 * is(kWhich), 0.1),                      // type_choice
      noisy(0.02 + 0.8 * is(kCompare), 0.08),                   // type_compare
      noisy(0.02 + 0.2 * is(kWhy), 0.05),                       // type_consequence
      noisy(0.02 + 0.8 * is(kWhatIs), 0.08),                    // type_definition
      noisy(0.05 + 0.6 * is(kFact), 0.1),                       // type_entity
      noisy(0.05 + 0.85 * is(kHowTo), 0.1),                     // type_instructions
      noisy(0.15 + 0.3 * is(kHowTo) + 0.2 * is(kWhy)),          // type_procedure
      noisy(0.1 + 0.8 * is(kWhy), 0.1),                         // type_reason_explanation
      0.0,                                                      // type_spelling
      noisy(0.35 + 0.6 * q),                                    // well_written
      noisy(0.75 + 0.2 * q, 0.1),                               // answer_helpful
      noisy(0.4 + 0.35 * q),                                    // answer_level_of_information
      noisy(0.85 + 0.1 * q, 0.08),                              // answer_plausible
      noisy(0.85 + 0.1 * q, 0.08),                              // answer_relevance
      noisy(0.55 + 0.35 * q),                                   // answer_satisfaction
      noisy(0.05 + 0.8 * is(kHowTo), 0.1),                      // answer_type_instructions
      noisy(0.1 + 0.3 * is(kHowTo) + 0.2 * is(kWhy)),           // answer_type_procedure
      noisy(0.2 + 0.7 * is(kWhy)),                              // answer_type_reason_explanation
      noisy(0.5 + 0.45 * q),                                    // answer_well_written
  };
  // Rare spelling questions, a few raters voting for it.
  if (rng.Bernoulli(1.0 / 60)) t[19] = rng.Choice(std::vector<double>{0.333333333333333, 0.5});
  return t;
}

// The 11 columns before the targets.
void WriteQuestionColumns(SyntheticRng& rng, const Pair& p, CsvTextBuilder& csv) {
  const Category& category = kCategories[p.category];
  const std::string host = rng.Choice(category.hosts);
  const std::string title = absl::StrCat(
      rng.Choice(kOpenings[p.kind]), " ", Words(rng, category, 3 + rng.UniformInt(0, 4)),
      p.kind == kWhich ? " or " : "", p.kind == kWhich ? rng.Choice(category.words) : "", "?");
  csv.Int(p.id)
      .String(title)
      .String(Paragraph(rng, category, p.quality))
      .String(absl::StrCat("user", rng.UniformInt(1, 99999)))
      .String(absl::StrCat("https://", host, "/users/", rng.UniformInt(1, 300000)))
      .String(Paragraph(rng, category, std::clamp(p.quality + rng.Normal(0, 0.15), 0.0, 1.0)))
      .String(absl::StrCat("user", rng.UniformInt(1, 99999)))
      .String(absl::StrCat("https://", host, "/users/", rng.UniformInt(1, 300000)))
      .String(absl::StrCat("http://", host, "/questions/", rng.UniformInt(1000, 999999)))
      .String(category.name)
      .String(host);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  const std::vector<std::string> question_columns = {"qa_id",
                                                     "question_title",
                                                     "question_body",
                                                     "question_user_name",
                                                     "question_user_page",
                                                     "answer",
                                                     "answer_user_name",
                                                     "answer_user_page",
                                                     "url",
                                                     "category",
                                                     "host"};
  CsvTextBuilder train, test, sample;
  for (const std::string& name : question_columns) {
    train.String(name);
    test.String(name);
  }
  sample.String("qa_id");
  for (std::string_view target : kTargets) {
    train.String(target);
    sample.String(target);
  }
  train.EndRow();
  test.EndRow();
  sample.EndRow();

  // Distinct ids below 10000, train and test interleaved, as on Kaggle.
  std::set<int64_t> used;
  auto new_pair = [&] {
    int64_t id = rng.UniformInt(0, 9999);
    while (!used.insert(id).second) id = rng.UniformInt(0, 9999);
    return Pair{id, rng.Categorical(kCategoryWeights),
                static_cast<Kind>(rng.Categorical(kKindWeights)), rng.Uniform()};
  };
  std::vector<Pair> train_pairs, test_pairs;
  for (int i = 0; i < kNumTrain; ++i) train_pairs.push_back(new_pair());
  for (int i = 0; i < kNumTest; ++i) test_pairs.push_back(new_pair());
  // Kaggle's files list rows by qa_id.
  auto by_id = [](const Pair& a, const Pair& b) { return a.id < b.id; };
  std::sort(train_pairs.begin(), train_pairs.end(), by_id);
  std::sort(test_pairs.begin(), test_pairs.end(), by_id);
  for (const Pair& p : train_pairs) {
    WriteQuestionColumns(rng, p, train);
    for (double t : Targets(rng, p)) train.Float(t);
    train.EndRow();
  }
  for (const Pair& p : test_pairs) {
    WriteQuestionColumns(rng, p, test);
    test.EndRow();
    sample.Int(p.id);
    for (size_t i = 0; i < kTargets.size(); ++i) sample.Float(0.00308);
    sample.EndRow();
  }
  for (const auto& [name, csv] : {std::pair{"train.csv", &train}, std::pair{"test.csv", &test},
                                  std::pair{"sample_submission.csv", &sample}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, csv->text()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
