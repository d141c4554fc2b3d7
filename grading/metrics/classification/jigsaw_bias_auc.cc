#include "grading/metrics/classification/jigsaw_bias_auc.h"

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "grading/metrics/classification/auc_roc.h"

namespace mlebench {
namespace {

// RocAucScore over the rows where `keep` holds, in row order.
template <typename Keep>
absl::StatusOr<double> AucWhere(absl::Span<const double> toxic, absl::Span<const double> score,
                                Keep keep, const std::string& what) {
  std::vector<double> y_true, y_score;
  for (size_t i = 0; i < toxic.size(); ++i) {
    if (!keep(i)) continue;
    y_true.push_back(toxic[i]);
    y_score.push_back(score[i]);
  }
  absl::StatusOr<double> auc = RocAucScore(y_true, y_score);
  if (!auc.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": ", std::string(auc.status().message())));
  }
  return auc;
}

}  // namespace

absl::StatusOr<double> JigsawBiasAuc(absl::Span<const double> toxic,
                                     absl::Span<const double> score,
                                     const std::vector<std::vector<bool>>& identities,
                                     double power, double weight) {
  if (toxic.size() != score.size()) {
    return absl::InvalidArgumentError(absl::StrCat("labels and scores differ in length: ",
                                                   toxic.size(), " vs ", score.size()));
  }
  for (size_t i = 0; i < toxic.size(); ++i) {
    if (toxic[i] != 0.0 && toxic[i] != 1.0) {
      return absl::InvalidArgumentError(absl::StrCat("label ", i, " is not 0 or 1"));
    }
  }
  if (identities.empty()) return absl::InvalidArgumentError("no identity columns");
  for (size_t g = 0; g < identities.size(); ++g) {
    if (identities[g].size() != toxic.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("identity ", g, " has ", identities[g].size(), " rows, not ", toxic.size()));
    }
  }
  if (power == 0.0) return absl::InvalidArgumentError("power must not be 0");

  absl::StatusOr<double> overall =
      AucWhere(toxic, score, [](size_t) { return true; }, "overall AUC");
  if (!overall.ok()) return overall.status();

  // sums[k] = sum over identities of AUC_k^power, left to right from 0.
  std::array<double, 3> sums = {0.0, 0.0, 0.0};
  for (size_t g = 0; g < identities.size(); ++g) {
    const std::vector<bool>& in = identities[g];
    const auto is_toxic = [&](size_t i) { return toxic[i] == 1.0; };
    std::array<absl::StatusOr<double>, 3> aucs = {
        AucWhere(toxic, score, [&](size_t i) { return bool(in[i]); },
                 absl::StrCat("subgroup AUC of identity ", g)),
        AucWhere(toxic, score, [&](size_t i) { return in[i] != is_toxic(i); },
                 absl::StrCat("BPSN AUC of identity ", g)),
        AucWhere(toxic, score, [&](size_t i) { return in[i] == is_toxic(i); },
                 absl::StrCat("BNSP AUC of identity ", g)),
    };
    for (size_t k = 0; k < 3; ++k) {
      if (!aucs[k].ok()) return aucs[k].status();
      sums[k] += std::pow(*aucs[k], power);
    }
  }
  const double count = static_cast<double>(identities.size());
  const double inverse_power = 1.0 / power;
  double bias = 0.0;
  for (double sum : sums) bias += weight * std::pow(sum / count, inverse_power);
  return weight * *overall + bias;
}

}  // namespace mlebench
