// The shared text-normalization raw-data tests
// (testdata/text-normalization-challenge-english-language/raw_testing.cc)
// on this competition's generator.
#include "gtest/gtest.h"
#include "testdata/text-normalization-challenge-english-language/raw_testing.h"

namespace mlebench::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(English, TextNormalizationRawTest,
                         ::testing::Values(TextNormalizationRawCase{
                             .competition_id = "text-normalization-challenge-english-language",
                             .prefix = "en",
                             .letter_pattern = "[a-z]",
                         }));

}  // namespace
}  // namespace mlebench::testing
