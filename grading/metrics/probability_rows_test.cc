#include "grading/metrics/probability_rows.h"

#include <cmath>
#include <string>

#include "base/csv.h"
#include "grading/grader_testing.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

absl::Status Check(std::string_view csv) {
  absl::StatusOr<Table> table = ReadCsvString(csv, "probabilities.csv");
  EXPECT_TRUE(table.ok()) << table.status();
  std::vector<const Column*> columns;
  for (const Column& c : table->columns()) columns.push_back(&c);
  return CheckProbabilityRows(columns, "rows must sum to one", "values must be in [0, 1]");
}

void ExpectInvalid(const absl::Status& status, std::string_view needle) {
  testing::ExpectInvalid(absl::StatusOr<double>(status), needle);
}

TEST(CheckProbabilityRows, AcceptsRowsWithinNumpysIscloseTolerance) {
  EXPECT_TRUE(Check("a,b\n0.5,0.5\n1,0\n0.500011,0.5\n").ok());  // 1e-6 + 1e-5 * 1
  ExpectInvalid(Check("a,b\n0.500012,0.5\n"), "rows must sum to one (row 0 sums to 1.000012).");
}

TEST(CheckProbabilityRows, NanIsSkippedInTheSumButFailsTheRange) {
  ExpectInvalid(Check("a,b\n,1\n"), "values must be in [0, 1] (column 'a', row 0).");
  ExpectInvalid(Check("a,b\n,0.5\n"), "rows must sum to one (row 0 sums to 0.5).");
}

TEST(CheckProbabilityRows, SumsAreCheckedBeforeRanges) {
  ExpectInvalid(Check("a,b\n1.5,-0.5\n2,0\n"), "rows must sum to one (row 1");
  ExpectInvalid(Check("a,b\n1.5,-0.5\n"), "values must be in [0, 1] (column 'a', row 0).");
  ExpectInvalid(Check("a,b\ninf,0\n"), "rows must sum to one");
}

TEST(CheckProbabilityRows, TextCannotBeSummed) {
  ExpectInvalid(Check("a,b\n0.5,x\n"),
                "rows must sum to one, but column 'b' holds the text 'x' in row 0, which "
                "cannot be summed");
}

TEST(CheckProbabilityRows, BooleansCountAsZeroAndOne) {
  EXPECT_TRUE(Check("a,b\nTrue,False\n").ok());
}

}  // namespace
}  // namespace mlebench
