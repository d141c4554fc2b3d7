#include "competitions/herbarium-2020-fgvc7/id_label_macro_f1.h"

#include <cstdint>
#include <limits>
#include <string>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(PythonIntOfCellTest, NumbersAndBools) {
  EXPECT_EQ(PythonIntOfCell(Cell(int64_t{-7})), -7);
  EXPECT_EQ(PythonIntOfCell(Cell(true)), 1);
  EXPECT_EQ(PythonIntOfCell(Cell(false)), 0);
  EXPECT_EQ(PythonIntOfCell(Cell(2.9)), 2);
  EXPECT_EQ(PythonIntOfCell(Cell(-2.9)), -2);
  EXPECT_EQ(PythonIntOfCell(Cell(-0.5)), 0);
  EXPECT_EQ(PythonIntOfCell(Cell(std::numeric_limits<double>::quiet_NaN())), std::nullopt);
  EXPECT_EQ(PythonIntOfCell(Cell(std::numeric_limits<double>::infinity())), std::nullopt);
  EXPECT_EQ(PythonIntOfCell(Cell(1e19)), std::nullopt);
  EXPECT_EQ(PythonIntOfCell(Cell(-9223372036854775808.0)), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(PythonIntOfCell(Cell()), std::nullopt);
}

TEST(PythonIntOfCellTest, StringsParseAsPythonInt) {
  EXPECT_EQ(PythonIntOfCell(Cell(std::string("42"))), 42);
  EXPECT_EQ(PythonIntOfCell(Cell(std::string(" \t-0042\n"))), -42);
  EXPECT_EQ(PythonIntOfCell(Cell(std::string("+1_000"))), 1000);
  EXPECT_EQ(PythonIntOfCell(Cell(std::string("-9223372036854775808"))),
            std::numeric_limits<int64_t>::min());
  for (const char* bad : {"", " ", "1.0", "1e3", "abc", "1__0", "_1", "1_", "0x10", "+",
                          "9223372036854775808", "1 2"}) {
    EXPECT_EQ(PythonIntOfCell(Cell(std::string(bad))), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace mlebench
