#ifndef MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_PREPARE_TEST_CASES_H_
#define MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_PREPARE_TEST_CASES_H_

// Prepare tests shared by the herbarium competitions whose preparer is
// herbarium_prepare.h. A package's prepare_test instantiates them:
//
//   INSTANTIATE_TEST_SUITE_P(Herbarium2020, HerbariumPrepareTest,
//                            ::testing::Values(kHerbarium2020Layout));

#include "gtest/gtest.h"
#include "competitions/families/fgvc/herbarium_layout.h"

namespace mlebench {

class HerbariumPrepareTest : public ::testing::TestWithParam<HerbariumLayout> {};

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_PREPARE_TEST_CASES_H_
