#ifndef MLEBENCH_TESTDATA_HERBARIUM_2020_FGVC7_HERBARIUM_RAW_TEST_CASES_H_
#define MLEBENCH_TESTDATA_HERBARIUM_2020_FGVC7_HERBARIUM_RAW_TEST_CASES_H_

// Generator tests shared by herbarium-2020-fgvc7 and herbarium-2021-fgvc8;
// each package's generate_raw_test instantiates HerbariumRawTest with its
// layout (herbarium_layout.h).

#include "gtest/gtest.h"
#include "testdata/herbarium-2020-fgvc7/herbarium_layout.h"

namespace mlebench {

class HerbariumRawTest : public ::testing::TestWithParam<HerbariumLayout> {};

}  // namespace mlebench

#endif  // MLEBENCH_TESTDATA_HERBARIUM_2020_FGVC7_HERBARIUM_RAW_TEST_CASES_H_
