// The shared text-normalization raw-data tests
// (testdata/text-normalization-challenge-english-language/raw_testing.cc)
// on this competition's generator.
#include "gtest/gtest.h"
#include "testdata/text-normalization-challenge-english-language/raw_testing.h"

namespace mlebench::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(Russian, TextNormalizationRawTest,
                         ::testing::Values(TextNormalizationRawCase{
                             .competition_id = "text-normalization-challenge-russian-language",
                             .prefix = "ru",
                             .letter_pattern = "[а-я]",
                         }));

}  // namespace
}  // namespace mlebench::testing
