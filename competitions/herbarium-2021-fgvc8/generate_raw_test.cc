// herbarium_raw_test_cases.h's tests on this competition's layout.
#include "gtest/gtest.h"
#include "competitions/families/fgvc/herbarium_layout.h"
#include "competitions/families/fgvc/herbarium_raw_test_cases.h"

namespace mlebench::generate_raw_test {
namespace {

INSTANTIATE_TEST_SUITE_P(Herbarium2021, HerbariumRawTest, ::testing::Values(kHerbarium2021Layout));

}  // namespace
}  // namespace mlebench::generate_raw_test
