// Synthetic raw download of text-normalization-challenge-english-language:
// en_train.csv.zip, en_test_2.csv.zip and en_sample_submission_2.csv.zip
// (see text_normalization_raw.h), with invented English-looking words,
// numbers spelled out the way Kaggle's data does ("one hundred twenty three")
// and abbreviations spelled letter by letter ("ABC" -> "a b c").
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "synthetic/synthetic.h"
#include "competitions/families/text_normalization/text_normalization_raw.h"

namespace mlebench {
namespace {

std::string EnglishCardinal(int number) {
  static const char* const kSmall[] = {
      "zero",    "one",     "two",       "three",    "four",     "five",    "six",
      "seven",   "eight",   "nine",      "ten",      "eleven",   "twelve",  "thirteen",
      "fourteen", "fifteen", "sixteen",  "seventeen", "eighteen", "nineteen"};
  static const char* const kTens[] = {"",      "",      "twenty",  "thirty", "forty",
                                      "fifty", "sixty", "seventy", "eighty", "ninety"};
  std::string words;
  if (number >= 100) {
    words = std::string(kSmall[number / 100]) + " hundred";
    number %= 100;
    if (number == 0) return words;
    words += ' ';
  }
  if (number < 20) return words + kSmall[number];
  words += kTens[number / 10];
  if (number % 10 != 0) words += std::string(" ") + kSmall[number % 10];
  return words;
}

const TextNormalizationLanguage& English() {
  static const auto* language = [] {
    auto* l = new TextNormalizationLanguage;
    l->prefix = "en";
    l->syllables = {"ba", "ker", "lo", "ton", "mi", "sa", "den", "ri", "ful", "pe",  "an",
                    "or", "ing", "ve", "tu", "gra", "sh", "ly", "con", "ex", "ple", "wor"};
    for (char c = 'A'; c <= 'Z'; ++c) {
      l->letters.emplace_back(std::string(1, c), std::string(1, static_cast<char>(c - 'A' + 'a')));
    }
    l->cardinal = &EnglishCardinal;
    return l;
  }();
  return *language;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  return GenerateTextNormalizationRaw(English(), raw_dir, seed);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
