#include "base/testing/diff_test_outcomes.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"

namespace mlebench::testing {
namespace {

using Tokens = std::vector<std::string>;

TEST(DiffTestOutcomesTest, AgreementIsCountedAndNotAFailure) {
  DiffTestOutcomes outcomes({.reference = "sklearn", .check_message = true});
  outcomes.Add("a", 0.5, Tokens{"ok", "0.5"});
  outcomes.Add("b", 0.5 + 1e-12, Tokens{"ok", "0.5"});  // within 1e-9, not identical
  outcomes.Add("c", std::nan(""), Tokens{"ok", "nan"});
  outcomes.Add("d", absl::InvalidArgumentError("ab"), Tokens{"raise", "ValueError", "6162"});
  EXPECT_EQ(outcomes.scored, 3);
  EXPECT_EQ(outcomes.identical, 2);
  EXPECT_EQ(outcomes.raised, 1);
  EXPECT_EQ(outcomes.failures, 0);
  EXPECT_EQ(outcomes.Summary(), "3 scored (2 bit-identical), 1 raised, 0 mismatches");
}

TEST(DiffTestOutcomesTest, EveryKindOfDisagreementFails) {
  DiffTestOutcomes outcomes({.reference = "sklearn", .check_message = true});
  EXPECT_NONFATAL_FAILURE(outcomes.Add("a", 0.6, Tokens{"ok", "0.5"}), "ours 0.6 vs sklearn's 0.5");
  EXPECT_NONFATAL_FAILURE(outcomes.Add("b", std::nan(""), Tokens{"ok", "0.5"}), "vs sklearn's");
  EXPECT_NONFATAL_FAILURE(outcomes.Add("c", 0.5, Tokens{"ok", "inf"}), "vs sklearn's");
  EXPECT_NONFATAL_FAILURE(outcomes.Add("d", absl::InvalidArgumentError("x"), Tokens{"ok", "1"}),
                          "we failed");
  EXPECT_NONFATAL_FAILURE(outcomes.Add("e", 1.0, Tokens{"raise", "ValueError", "6162"}),
                          "sklearn raised ValueError(ab), we returned 1");
  EXPECT_NONFATAL_FAILURE(
      outcomes.Add("f", absl::InternalError("ab"), Tokens{"raise", "ValueError", "6162"}),
      "wrong status code");
  EXPECT_NONFATAL_FAILURE(
      outcomes.Add("g", absl::InvalidArgumentError("abc"), Tokens{"raise", "ValueError", "6162"}),
      "message differs");
  EXPECT_EQ(outcomes.failures, 7);
}

TEST(DiffTestOutcomesTest, AnAbsoluteToleranceReplacesTheRelativeOne) {
  DiffTestOutcomes outcomes({.reference = "numpy"});
  const double next = std::nextafter(0.5, 1.0);
  EXPECT_NONFATAL_FAILURE(outcomes.Add("exact", next, Tokens{"ok", "0.5"}, 0.0), "vs numpy's 0.5");
  outcomes.Add("same bits", 0.5, Tokens{"ok", "0.5"}, 0.0);
  outcomes.Add("within", 0.5 + 1e-6, Tokens{"ok", "0.5"}, 2e-6);  // far outside 1e-9
  EXPECT_NONFATAL_FAILURE(outcomes.Add("outside", 0.5 + 3e-6, Tokens{"ok", "0.5"}, 2e-6),
                          "vs numpy's 0.5");
  outcomes.Add("nan", std::nan(""), Tokens{"ok", "nan"}, 0.0);
  EXPECT_NONFATAL_FAILURE(outcomes.Add("inf", 1e308, Tokens{"ok", "inf"}, 1e308), "vs numpy's");
  EXPECT_EQ(outcomes.failures, 3);
  EXPECT_EQ(outcomes.identical, 2);
}

TEST(DiffTestOutcomesTest, CodeAndMessageChecksCanBeOff) {
  DiffTestOutcomes outcomes({.check_code = false, .check_message = false});
  outcomes.Add("a", absl::InternalError("other"), Tokens{"raise", "ValueError", "6162"});
  EXPECT_EQ(outcomes.failures, 0);
}

}  // namespace
}  // namespace mlebench::testing
