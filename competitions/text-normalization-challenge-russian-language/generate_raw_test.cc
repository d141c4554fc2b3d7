// The shared text-normalization raw-data tests
// (competitions/families/text_normalization/raw_testing.cc)
// on this competition's generator.
#include "gtest/gtest.h"
#include "competitions/families/text_normalization/raw_testing.h"

namespace mlebench::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(Russian, TextNormalizationRawTest,
                         ::testing::Values(TextNormalizationRawCase{
                             .competition_id = MLEBENCH_COMPETITION_ID,
                             .prefix = "ru",
                             .letter_pattern = "[а-я]",
                         }));

}  // namespace
}  // namespace mlebench::testing
