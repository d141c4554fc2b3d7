// herbarium_raw_test_cases.h's tests on this competition's layout.
#include "gtest/gtest.h"
#include "testdata/herbarium-2020-fgvc7/herbarium_layout.h"
#include "testdata/herbarium-2020-fgvc7/herbarium_raw_test_cases.h"

namespace mlebench {
namespace {

INSTANTIATE_TEST_SUITE_P(Herbarium2020, HerbariumRawTest, ::testing::Values(kHerbarium2020Layout));

}  // namespace
}  // namespace mlebench
