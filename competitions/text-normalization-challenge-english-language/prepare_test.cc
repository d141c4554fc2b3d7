// The shared text-normalization prepare tests
// (competitions/common/text_normalization_testing.cc) on this competition.
#include "competitions/common/text_normalization_testing.h"
#include "gtest/gtest.h"

namespace mlebench::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(
    English, TextNormalizationPrepareTest,
    ::testing::Values(TextNormalizationCase{
        .competition_id = "text-normalization-challenge-english-language",
        .language = "en",
        .tokens = {{"123", "one hundred twenty three"}, {"Hello", "Hello"}, {"ABC", "a b c"}, {"world", "world"}},
    }));

}  // namespace
}  // namespace mlebench::testing
