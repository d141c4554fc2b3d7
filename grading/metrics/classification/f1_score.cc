#include "grading/metrics/classification/f1_score.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "base/status_macros.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

absl::Status CheckOptions(const FScoreOptions& options) {
  if (std::isnan(options.beta) || options.beta < 0) {
    return absl::InvalidArgumentError("beta should be >=0 in the F-beta score");
  }
  const double zd = options.zero_division;
  if (!(zd == 0.0 || zd == 1.0 || std::isnan(zd))) {
    return absl::InvalidArgumentError(
        absl::StrCat("The 'zero_division' parameter must be 'warn', 0.0, 1.0 or nan; got ", zd));
  }
  return absl::OkStatus();
}

// sklearn's _prf_divide for one entry.
double Divide(double numerator, double denominator, double zero_division) {
  return denominator == 0.0 ? zero_division : numerator / denominator;
}

PrecisionRecallFScore ScoreOne(const LabelCounts& c, const FScoreOptions& options) {
  const double tp = static_cast<double>(c.true_positives);
  const double predicted = static_cast<double>(c.predicted);
  const double actual = static_cast<double>(c.actual);
  PrecisionRecallFScore s;
  s.precision = Divide(tp, predicted, options.zero_division);
  s.recall = Divide(tp, actual, options.zero_division);
  if (std::isinf(options.beta)) {
    s.f_score = s.recall;
  } else if (options.beta == 0.0) {
    s.f_score = s.precision;
  } else {
    const double beta2 = options.beta * options.beta;
    s.f_score = Divide((1 + beta2) * tp, beta2 * actual + predicted, options.zero_division);
  }
  return s;
}

// sklearn's _nanaverage without weights: np.nanmean, NaN when empty or all NaN.
double NanMean(const std::vector<double>& values) {
  std::vector<double> kept(values.size());
  size_t count = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    // np.nanmean replaces NaN by 0 in place and sums the whole array.
    if (std::isnan(values[i])) {
      kept[i] = 0.0;
    } else {
      kept[i] = values[i];
      ++count;
    }
  }
  if (count == 0) return std::numeric_limits<double>::quiet_NaN();
  return NumpySum(kept) / static_cast<double>(count);
}

// Per-label counts of a multiclass problem whose labels are already dense ids
// in [0, num_labels).
std::vector<LabelCounts> CountMulticlass(const std::vector<int>& true_ids,
                                         const std::vector<int>& pred_ids, size_t num_labels) {
  std::vector<LabelCounts> counts(num_labels);
  for (size_t i = 0; i < true_ids.size(); ++i) {
    ++counts[true_ids[i]].actual;
    ++counts[pred_ids[i]].predicted;
    if (true_ids[i] == pred_ids[i]) ++counts[true_ids[i]].true_positives;
  }
  return counts;
}

// Maps both vectors to ids of their sorted union and scores them.
template <typename Label>
absl::StatusOr<PrecisionRecallFScore> ScoreMulticlass(std::span<const Label> y_true,
                                                      std::span<const Label> y_pred,
                                                      const FScoreOptions& options) {
  RETURN_IF_ERROR(CheckOptions(options));
  if (y_true.size() != y_pred.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Found input variables with inconsistent numbers of samples: [", y_true.size(), ", ",
        y_pred.size(), "]"));
  }
  absl::flat_hash_map<Label, int> provisional;
  // Copies, not pointers into `provisional`: rehashing moves its keys.
  std::vector<Label> distinct;
  auto id_of = [&](const Label& label) {
    auto [it, inserted] = provisional.try_emplace(label, static_cast<int>(distinct.size()));
    if (inserted) distinct.push_back(label);
    return it->second;
  };
  std::vector<int> true_ids(y_true.size()), pred_ids(y_pred.size());
  for (size_t i = 0; i < y_true.size(); ++i) true_ids[i] = id_of(y_true[i]);
  for (size_t i = 0; i < y_pred.size(); ++i) pred_ids[i] = id_of(y_pred[i]);
  // Sorted order of the distinct labels -> remap provisional ids.
  std::vector<int> order(distinct.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return distinct[a] < distinct[b]; });
  std::vector<int> rank(distinct.size());
  for (size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int>(r);
  for (int& id : true_ids) id = rank[id];
  for (int& id : pred_ids) id = rank[id];
  return PrecisionRecallFScoreFromCounts(CountMulticlass(true_ids, pred_ids, distinct.size()),
                                         options);
}

}  // namespace

absl::StatusOr<PrecisionRecallFScore> PrecisionRecallFScoreFromCounts(
    absl::Span<const LabelCounts> per_label, const FScoreOptions& options) {
  RETURN_IF_ERROR(CheckOptions(options));
  for (size_t i = 0; i < per_label.size(); ++i) {
    const LabelCounts& c = per_label[i];
    if (c.true_positives < 0 || c.true_positives > c.predicted ||
        c.true_positives > c.actual) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Inconsistent counts for label ", i, ": true_positives=", c.true_positives,
          ", predicted=", c.predicted, ", actual=", c.actual));
    }
  }
  if (options.average == FScoreAverage::kMicro) {
    LabelCounts total;
    for (const LabelCounts& c : per_label) {
      total.true_positives += c.true_positives;
      total.predicted += c.predicted;
      total.actual += c.actual;
    }
    return ScoreOne(total, options);
  }
  std::vector<double> precision, recall, f_score;
  precision.reserve(per_label.size());
  recall.reserve(per_label.size());
  f_score.reserve(per_label.size());
  for (const LabelCounts& c : per_label) {
    const PrecisionRecallFScore s = ScoreOne(c, options);
    precision.push_back(s.precision);
    recall.push_back(s.recall);
    f_score.push_back(s.f_score);
  }
  return PrecisionRecallFScore{NanMean(precision), NanMean(recall), NanMean(f_score)};
}

absl::StatusOr<PrecisionRecallFScore> MulticlassPrecisionRecallFScore(
    const std::vector<std::string>& y_true, const std::vector<std::string>& y_pred,
    const FScoreOptions& options) {
  return ScoreMulticlass<std::string>(y_true, y_pred, options);
}

absl::StatusOr<PrecisionRecallFScore> MulticlassPrecisionRecallFScore(
    const std::vector<int64_t>& y_true, const std::vector<int64_t>& y_pred,
    const FScoreOptions& options) {
  return ScoreMulticlass<int64_t>(y_true, y_pred, options);
}

absl::StatusOr<double> MulticlassFScore(const std::vector<std::string>& y_true,
                                        const std::vector<std::string>& y_pred,
                                        const FScoreOptions& options) {
  ASSIGN_OR_RETURN(PrecisionRecallFScore s, ScoreMulticlass<std::string>(y_true, y_pred, options));
  return s.f_score;
}

absl::StatusOr<double> MulticlassFScore(const std::vector<int64_t>& y_true,
                                        const std::vector<int64_t>& y_pred,
                                        const FScoreOptions& options) {
  ASSIGN_OR_RETURN(PrecisionRecallFScore s, ScoreMulticlass<int64_t>(y_true, y_pred, options));
  return s.f_score;
}

absl::StatusOr<double> MulticlassFScore(std::span<const std::string_view> y_true,
                                        std::span<const std::string_view> y_pred,
                                        const FScoreOptions& options) {
  ASSIGN_OR_RETURN(PrecisionRecallFScore s,
                   ScoreMulticlass<std::string_view>(y_true, y_pred, options));
  return s.f_score;
}

absl::StatusOr<PrecisionRecallFScore> MultilabelPrecisionRecallFScore(
    const std::vector<std::vector<std::string>>& y_true,
    const std::vector<std::vector<std::string>>& y_pred, const std::vector<std::string>& classes,
    const FScoreOptions& options) {
  RETURN_IF_ERROR(CheckOptions(options));
  if (y_true.size() != y_pred.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Found input variables with inconsistent numbers of samples: [", y_true.size(), ", ",
        y_pred.size(), "]"));
  }
  absl::flat_hash_map<std::string, int> class_ids;
  for (size_t i = 0; i < classes.size(); ++i) {
    if (!class_ids.try_emplace(classes[i], static_cast<int>(i)).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("The classes argument contains duplicate classes (", classes[i],
                       "). Remove these duplicates before passing them to MultiLabelBinarizer."));
    }
  }
  if (classes.empty()) {
    return absl::InvalidArgumentError(
        "unknown is not supported (no classes: the binarized targets have no columns)");
  }
  if (classes.size() == 1) {
    return absl::InvalidArgumentError(
        "A sparse matrix was passed, but dense data is required (a single class: the binarized "
        "targets are one column, which sklearn does not treat as multilabel)");
  }
  std::vector<LabelCounts> counts(classes.size());
  // The class ids of a row, each once (MultiLabelBinarizer builds a set).
  std::vector<int> true_row, pred_row;
  auto row_ids = [&](const std::vector<std::string>& labels, std::vector<int>& ids) {
    ids.clear();
    for (const std::string& label : labels) {
      auto it = class_ids.find(label);
      if (it != class_ids.end()) ids.push_back(it->second);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  };
  for (size_t i = 0; i < y_true.size(); ++i) {
    row_ids(y_true[i], true_row);
    row_ids(y_pred[i], pred_row);
    for (int id : true_row) ++counts[id].actual;
    for (int id : pred_row) ++counts[id].predicted;
    // Both rows are sorted: merge to find the intersection.
    size_t a = 0, b = 0;
    while (a < true_row.size() && b < pred_row.size()) {
      if (true_row[a] < pred_row[b]) {
        ++a;
      } else if (pred_row[b] < true_row[a]) {
        ++b;
      } else {
        ++counts[true_row[a]].true_positives;
        ++a;
        ++b;
      }
    }
  }
  return PrecisionRecallFScoreFromCounts(counts, options);
}

absl::StatusOr<double> MultilabelFScore(const std::vector<std::vector<std::string>>& y_true,
                                        const std::vector<std::vector<std::string>>& y_pred,
                                        const std::vector<std::string>& classes,
                                        const FScoreOptions& options) {
  ASSIGN_OR_RETURN(PrecisionRecallFScore s,
                   MultilabelPrecisionRecallFScore(y_true, y_pred, classes, options));
  return s.f_score;
}

}  // namespace mlebench
