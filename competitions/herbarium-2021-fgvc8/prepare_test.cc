// herbarium_prepare_test_cases.h's tests on this competition's layout.
#include "competitions/families/fgvc/herbarium_prepare_test_cases.h"
#include "gtest/gtest.h"
#include "competitions/families/fgvc/herbarium_layout.h"

namespace mlebench::prepare_test {
namespace {

INSTANTIATE_TEST_SUITE_P(Herbarium2021, HerbariumPrepareTest,
                         ::testing::Values(kHerbarium2021Layout));

}  // namespace
}  // namespace mlebench::prepare_test
