// The shared text-normalization prepare tests
// (competitions/families/text_normalization/text_normalization_testing.cc) on this competition.
#include "competitions/families/text_normalization/text_normalization_testing.h"
#include "gtest/gtest.h"

namespace mlebench::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(
    English, TextNormalizationPrepareTest,
    ::testing::Values(TextNormalizationCase{
        .competition_id = MLEBENCH_COMPETITION_ID,
        .language = "en",
        .tokens = {{"123", "one hundred twenty three"}, {"Hello", "Hello"}, {"ABC", "a b c"}, {"world", "world"}},
    }));

}  // namespace
}  // namespace mlebench::testing
