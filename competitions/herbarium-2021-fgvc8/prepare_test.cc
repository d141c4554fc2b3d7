// herbarium_prepare_test_cases.h's tests on this competition's layout.
#include "competitions/herbarium-2020-fgvc7/herbarium_prepare_test_cases.h"
#include "gtest/gtest.h"
#include "testdata/herbarium-2020-fgvc7/herbarium_layout.h"

namespace mlebench {
namespace {

INSTANTIATE_TEST_SUITE_P(Herbarium2021, HerbariumPrepareTest,
                         ::testing::Values(kHerbarium2021Layout));

}  // namespace
}  // namespace mlebench
