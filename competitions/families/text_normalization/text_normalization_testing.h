#ifndef MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_TEXT_NORMALIZATION_TESTING_H_
#define MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_TEXT_NORMALIZATION_TESTING_H_

#include <ostream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench::testing {

// The grade and prepare tests shared by both text-normalization competitions
// (testonly, alwayslink): each competition's grade_test / prepare_test
// instantiates them with its own case, e.g.
//   INSTANTIATE_TEST_SUITE_P(English, TextNormalizationGradeTest,
//                            ::testing::Values(TextNormalizationCase{...}));
// (and likewise TextNormalizationPrepareTest).
struct TextNormalizationCase {
  std::string competition_id;  // the grader and preparer registered under it
  std::string language;        // the raw files' prefix: "en", "ru"
  // Tokens of the language (UTF-8) and their normalised forms, used as
  // before/after values; at least four pairs.
  std::vector<std::pair<std::string, std::string>> tokens;
};

inline std::ostream& operator<<(std::ostream& os, const TextNormalizationCase& c) {
  return os << c.competition_id;
}

class TextNormalizationGradeTest : public ::testing::TestWithParam<TextNormalizationCase> {};
class TextNormalizationPrepareTest : public ::testing::TestWithParam<TextNormalizationCase> {};

}  // namespace mlebench::testing

#endif  // MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_TEXT_NORMALIZATION_TESTING_H_
