#include "competitions/families/text_normalization/text_normalization.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "base/table.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(PythonStrTest, EveryCellKind) {
  EXPECT_EQ(PythonStr(Cell()), "nan");
  EXPECT_EQ(PythonStr(Cell(std::nan(""))), "nan");
  EXPECT_EQ(PythonStr(Cell(true)), "True");
  EXPECT_EQ(PythonStr(Cell(false)), "False");
  EXPECT_EQ(PythonStr(Cell(int64_t{-12})), "-12");
  EXPECT_EQ(PythonStr(Cell(1.0)), "1.0");
  EXPECT_EQ(PythonStr(Cell(1e16)), "1e+16");
  EXPECT_EQ(PythonStr(Cell(std::numeric_limits<double>::infinity())), "inf");
  EXPECT_EQ(PythonStr(Cell(std::string("сто"))), "сто");
}

TEST(WriteCsvQuoteNonnumericTest, QuotesTextAndMissingButNotNumbers) {
  // pandas 1.5 and 2.2 print exactly this for
  // DataFrame({"a": [1, 2], "b": ['x"y', nan], "c": [1.5, nan],
  //            "d": [True, False], "e": ["1", 2.0]}).to_csv(
  //     index=False, quoting=csv.QUOTE_NONNUMERIC)
  const Table table({
      Column{"a", Dtype::kInt64, {int64_t{1}, int64_t{2}}},
      Column{"b", Dtype::kObject, {std::string("x\"y"), Cell()}},
      Column{"c", Dtype::kFloat64, {1.5, std::nan("")}},
      Column{"d", Dtype::kBool, {true, false}},
      Column{"e", Dtype::kObject, {std::string("1"), 2.0}},
  });
  EXPECT_EQ(WriteCsvQuoteNonnumeric(table),
            "\"a\",\"b\",\"c\",\"d\",\"e\"\n"
            "1,\"x\"\"y\",1.5,True,\"1\"\n"
            "2,\"\",\"\",False,2.0\n");
}

TEST(WriteCsvQuoteNonnumericTest, TextWithSeparatorsAndNewlines) {
  const Table table({Column{"t", Dtype::kObject, {std::string("a,b"), std::string("c\nd"),
                                                   std::string("")}}});
  EXPECT_EQ(WriteCsvQuoteNonnumeric(table), "\"t\"\n\"a,b\"\n\"c\nd\"\n\"\"\n");
  EXPECT_EQ(WriteCsvQuoteNonnumeric(Table({Column{"t", Dtype::kObject, {}}})), "\"t\"\n");
  EXPECT_EQ(WriteCsvQuoteNonnumeric(Table()), "\n");
}

}  // namespace
}  // namespace mlebench
