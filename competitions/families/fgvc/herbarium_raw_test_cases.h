#ifndef MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_RAW_TEST_CASES_H_
#define MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_RAW_TEST_CASES_H_

// Generator tests shared by herbarium-2020-fgvc7 and herbarium-2021-fgvc8;
// each package's generate_raw_test instantiates HerbariumRawTest with its
// layout (herbarium_layout.h).

#include "gtest/gtest.h"
#include "competitions/families/fgvc/herbarium_layout.h"

namespace mlebench {

class HerbariumRawTest : public ::testing::TestWithParam<HerbariumLayout> {};

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_FAMILIES_FGVC_HERBARIUM_RAW_TEST_CASES_H_
