// Synthetic raw download of text-normalization-challenge-russian-language:
// ru_train.csv.zip, ru_test_2.csv.zip and ru_sample_submission_2.csv.zip
// (see text_normalization_raw.h in the English package), with invented
// Cyrillic words, numbers spelled out in Russian ("сто двадцать три") and
// abbreviations spelled letter by letter ("ФСБ" -> "ф с б").
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "synthetic/synthetic.h"
#include "competitions/families/text_normalization/text_normalization_raw.h"

namespace mlebench {
namespace {

std::string RussianCardinal(int number) {
  static const char* const kSmall[] = {
      "ноль",         "один",        "два",          "три",          "четыре",
      "пять",         "шесть",       "семь",         "восемь",       "девять",
      "десять",       "одиннадцать", "двенадцать",   "тринадцать",   "четырнадцать",
      "пятнадцать",   "шестнадцать", "семнадцать",   "восемнадцать", "девятнадцать"};
  static const char* const kTens[] = {"",          "",          "двадцать",   "тридцать",
                                      "сорок",     "пятьдесят", "шестьдесят", "семьдесят",
                                      "восемьдесят", "девяносто"};
  static const char* const kHundreds[] = {"",          "сто",      "двести",   "триста",
                                          "четыреста", "пятьсот",  "шестьсот", "семьсот",
                                          "восемьсот", "девятьсот"};
  std::string words;
  if (number >= 100) {
    words = kHundreds[number / 100];
    number %= 100;
    if (number == 0) return words;
    words += ' ';
  }
  if (number < 20) return words + kSmall[number];
  words += kTens[number / 10];
  if (number % 10 != 0) words += std::string(" ") + kSmall[number % 10];
  return words;
}

const TextNormalizationLanguage& Russian() {
  static const auto* language = [] {
    auto* l = new TextNormalizationLanguage;
    l->prefix = "ru";
    l->syllables = {"ка", "ро", "ми", "ло", "ст", "на", "ва", "ре", "до", "ль", "ти",
                    "жи", "ску", "бе", "ше", "ый", "ов", "ен", "пра", "зо", "ук", "ня"};
    l->letters = {{"А", "а"}, {"Б", "б"}, {"В", "в"}, {"Г", "г"}, {"Д", "д"}, {"Е", "е"},
                  {"Ж", "ж"}, {"З", "з"}, {"И", "и"}, {"К", "к"}, {"Л", "л"}, {"М", "м"},
                  {"Н", "н"}, {"О", "о"}, {"П", "п"}, {"Р", "р"}, {"С", "с"}, {"Т", "т"},
                  {"У", "у"}, {"Ф", "ф"}, {"Х", "х"}, {"Ц", "ц"}, {"Ч", "ч"}, {"Ш", "ш"},
                  {"Э", "э"}, {"Ю", "ю"}, {"Я", "я"}};
    l->cardinal = &RussianCardinal;
    return l;
  }();
  return *language;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  return GenerateTextNormalizationRaw(Russian(), raw_dir, seed);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
