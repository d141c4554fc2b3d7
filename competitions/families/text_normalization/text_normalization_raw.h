#ifndef MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_TEXT_NORMALIZATION_RAW_H_
#define MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_TEXT_NORMALIZATION_RAW_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"

namespace mlebench {

// The synthetic raw download of a text-normalization competition, shared by
// the English and the Russian one (same layout, different words).

struct TextNormalizationLanguage {
  std::string prefix;  // file prefix: "en", "ru"
  // UTF-8 syllables from which ordinary words are invented.
  std::vector<std::string> syllables;
  // Capital letters and their lower-case forms, for abbreviations.
  std::vector<std::pair<std::string, std::string>> letters;
  // A number in [0, 999] spelled out in words ("one hundred twenty three").
  std::string (*cardinal)(int number) = nullptr;
};

// Writes Kaggle's three archives into `raw_dir`:
//   <prefix>_train.csv.zip   <prefix>_train.csv: sentence_id, token_id, class, before, after
//   <prefix>_test_2.csv.zip  <prefix>_test_2.csv: sentence_id, token_id, before
//   <prefix>_sample_submission_2.csv.zip  <prefix>_sample_submission_2.csv:
//                            id ("<sentence>_<token>"), after (= before)
// Strings are quoted, numbers bare, as in Kaggle's files. Sentences are
// numbered from 0, tokens within a sentence from 0. Token classes: PLAIN
// words and PUNCT marks (unchanged), CARDINAL numbers (spelled out) and
// LETTERS abbreviations (spelled letter by letter in lower case), so a model
// that learns the mapping per token clearly beats copying `before`.
absl::Status GenerateTextNormalizationRaw(const TextNormalizationLanguage& language,
                                          const std::filesystem::path& raw_dir, uint64_t seed);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_TEXT_NORMALIZATION_RAW_H_
