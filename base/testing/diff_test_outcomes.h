#ifndef MLEBENCH_BASE_TESTING_DIFF_TEST_OUTCOMES_H_
#define MLEBENCH_BASE_TESTING_DIFF_TEST_OUTCOMES_H_

// Testonly: the comparison the metrics' differential tests make, case by
// case, between our StatusOr<double> and the reference script's answer line
// "ok <repr(value)>" or "raise <ExceptionName> [<hex message>]"
// (diff_test_text.h). Scores must agree within a relative tolerance, or the
// absolute one a case is given (0: bit for bit), NaN with NaN, infinities
// exactly; a reference raise must be our error.

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/testing/diff_test_text.h"
#include "gtest/gtest.h"

namespace mlebench::testing {

struct OutcomeOptions {
  std::string reference = "the reference";  // as problems name it ("sklearn")
  bool check_code = true;                   // our error must be InvalidArgumentError
  bool check_message = false;               // ... with the reference's message
  double relative_tolerance = 1e-9;
};

class DiffTestOutcomes {
 public:
  explicit DiffTestOutcomes(OutcomeOptions options) : options_(std::move(options)) {}

  // Compares one case; a mismatch is a test failure (the first 25 are
  // reported, labelled `label`). `absolute_tolerance`, when given, replaces
  // the options' relative tolerance for this case.
  void Add(const std::string& label, const absl::StatusOr<double>& ours,
           const std::vector<std::string>& expect,
           std::optional<double> absolute_tolerance = std::nullopt) {
    const std::string& name = options_.reference;
    std::string problem;
    if (expect.at(0) == "ok") {
      ++scored;
      const double reference = ParseDouble(expect.at(1));
      if (!ours.ok()) {
        problem =
            absl::StrCat(name, " returned ", reference, ", we failed: ", ours.status().ToString());
      } else if (!Close(*ours, reference, absolute_tolerance)) {
        problem = absl::StrCat("ours ", *ours, " vs ", name, "'s ", reference, " (differ by ",
                               *ours - reference, ")");
      } else {
        identical += *ours == reference || (std::isnan(*ours) && std::isnan(reference));
      }
    } else {
      ++raised;
      const std::string message = expect.size() > 2 ? Unhex(expect[2]) : "";
      if (ours.ok()) {
        problem =
            absl::StrCat(name, " raised ", expect.at(1), "(", message, "), we returned ", *ours);
      } else if (options_.check_code &&
                 ours.status().code() != absl::StatusCode::kInvalidArgument) {
        problem = absl::StrCat("wrong status code: ", ours.status().ToString());
      } else if (options_.check_message && std::string(ours.status().message()) != message) {
        problem = absl::StrCat("message differs: ", name, " \"", message, "\", ours \"",
                               std::string(ours.status().message()), "\"");
      }
    }
    if (!problem.empty() && ++failures <= 25) ADD_FAILURE() << label << ": " << problem;
  }

  std::string Summary() const {
    return absl::StrCat(scored, " scored (", identical, " bit-identical), ", raised, " raised, ",
                        failures, " mismatches");
  }

  int scored = 0, raised = 0, identical = 0, failures = 0;

 private:
  bool Close(double ours, double theirs, std::optional<double> absolute_tolerance) const {
    if (std::isnan(theirs)) return std::isnan(ours);
    if (std::isinf(theirs)) return ours == theirs;
    if (absolute_tolerance.has_value()) return std::fabs(ours - theirs) <= *absolute_tolerance;
    return std::fabs(ours - theirs) <=
           options_.relative_tolerance * std::max(1.0, std::fabs(theirs));
  }

  OutcomeOptions options_;
};

}  // namespace mlebench::testing

#endif  // MLEBENCH_BASE_TESTING_DIFF_TEST_OUTCOMES_H_
