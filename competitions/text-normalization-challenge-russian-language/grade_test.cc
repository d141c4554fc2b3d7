// The shared text-normalization grade tests
// (competitions/families/text_normalization/text_normalization_testing.cc) on this competition.
#include "competitions/families/text_normalization/text_normalization_testing.h"
#include "gtest/gtest.h"

namespace mlebench::testing {
namespace {

INSTANTIATE_TEST_SUITE_P(
    Russian, TextNormalizationGradeTest,
    ::testing::Values(TextNormalizationCase{
        .competition_id = MLEBENCH_COMPETITION_ID,
        .language = "ru",
        .tokens = {{"123", "сто двадцать три"}, {"Привет", "Привет"}, {"ФСБ", "ф с б"}, {"мир", "мир"}},
    }));

}  // namespace
}  // namespace mlebench::testing
