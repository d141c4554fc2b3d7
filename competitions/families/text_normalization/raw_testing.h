#ifndef MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_RAW_TESTING_H_
#define MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_RAW_TESTING_H_

#include <ostream>
#include <string>

#include "gtest/gtest.h"

namespace mlebench::testing {

// The generate_raw tests shared by both text-normalization competitions
// (testonly, alwayslink); each generate_raw_test instantiates
// TextNormalizationRawTest with its case.
struct TextNormalizationRawCase {
  std::string competition_id;
  std::string prefix;           // "en", "ru"
  std::string letter_pattern;   // regex of the language's letters, e.g. "[a-z]"
};

inline std::ostream& operator<<(std::ostream& os, const TextNormalizationRawCase& c) {
  return os << c.competition_id;
}

class TextNormalizationRawTest : public ::testing::TestWithParam<TextNormalizationRawCase> {};

}  // namespace mlebench::testing

#endif  // MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_RAW_TESTING_H_
