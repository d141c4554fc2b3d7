#include "grading/metrics/classification/auc_roc.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/parallel.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "grading/metrics/sklearn_checks.h"
#include "pycompat/internal/radix_sort.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

// What sklearn's type_of_target makes of a 1-D y_true, and its labels.
struct TrueLabels {
  enum Kind { kBinary, kMulticlass, kContinuous } kind = kBinary;
  int distinct = 0;   // 0, 1 or 2 for kBinary
  double high = 0.0;  // the greater label: the positive class
};

absl::StatusOr<TrueLabels> ClassifyTrue(absl::Span<const double> y_true) {
  TrueLabels labels;
  // Branch-free scans: labels come in random order, and a mispredicted
  // branch per label costs more than the test.
  bool integral = true;
  for (double v : y_true) integral &= IsNumpyIntegral(v);
  if (!integral) {
    RETURN_IF_ERROR(AssertAllFinite(y_true, "y_true"));
    labels.kind = TrueLabels::kContinuous;
    return labels;
  }
  if (y_true.empty()) return labels;
  const double first = y_true[0];
  size_t i = 1;
  while (i < y_true.size() && y_true[i] == first) ++i;
  if (i == y_true.size()) {
    labels.distinct = 1;
    labels.high = first;
    return labels;
  }
  const double second = y_true[i];
  bool third = false;
  for (; i < y_true.size(); ++i) third |= (y_true[i] != first) & (y_true[i] != second);
  if (third) {
    labels.kind = TrueLabels::kMulticlass;
    return labels;
  }
  labels.distinct = 2;
  labels.high = std::max(first, second);
  return labels;
}

// Checks on y_true that sklearn makes after validating y_score.
absl::Status CheckTrueKind(const TrueLabels& labels) {
  switch (labels.kind) {
    case TrueLabels::kMulticlass:
      return absl::InvalidArgumentError("multi_class must be in ('ovo', 'ovr')");
    case TrueLabels::kContinuous:
      return absl::InvalidArgumentError("continuous format is not supported");
    case TrueLabels::kBinary:
      break;
  }
  if (labels.distinct != 2) {
    return absl::InvalidArgumentError(
        "Only one class present in y_true. ROC AUC score is not defined in that case.");
  }
  return absl::OkStatus();
}

using internal::OrderedDoubleKey;
using internal::SortKeys;
using internal::VisitScoreRuns;

// numpy's trapz(tpr, fpr) over ROC points fed in curve order, with numpy's
// arithmetic: each term is (fpr[i+1] - fpr[i]) * (tpr[i+1] + tpr[i]) / 2.0,
// and the terms are summed as np.sum does, block by block (numpy_sum.h), so
// no array of terms longer than one block is ever held.
class RocTrapezoid {
 public:
  RocTrapezoid(uint64_t num_neg, uint64_t num_pos)
      : num_neg_(static_cast<double>(num_neg)), num_pos_(static_cast<double>(num_pos)) {}

  // The next point of the curve, as counts: fpr = fp / fps[-1], tpr = tp /
  // tps[-1], the divisions roc_curve makes. The curve starts at (0, 0).
  void AddPoint(uint64_t fp, uint64_t tp) {
    const double fpr = static_cast<double>(fp) / num_neg_;
    const double tpr = static_cast<double>(tp) / num_pos_;
    area_.Add((fpr - fpr_) * (tpr + tpr_) / 2.0);
    fpr_ = fpr;
    tpr_ = tpr;
  }

  double Area() const { return area_.Sum(); }

 private:
  double num_neg_;
  double num_pos_;
  double fpr_ = 0.0;
  double tpr_ = 0.0;
  NumpyStreamSum area_;
};

// The points sklearn's roc_curve(drop_intermediate=True) keeps, as counts
// (fp, tp), in curve order, for positive scores against negative ones (as
// OrderedKey values, consumed; either may be empty), without the (0, 0)
// roc_curve prepends. The steps, as sklearn takes them:
//  - _binary_clf_curve sorts the scores descending and takes, at the last
//    row of each run of equal scores, the cumulative counts of positives
//    (tps) and negatives (fps). They are integers (float64 sums of 0/1, exact
//    below 2**53), so the order of tied rows, which sklearn's reversed
//    mergesort puts backwards, cannot change them: sorting positives and
//    negatives apart and merging gives the same points.
//  - roc_curve(drop_intermediate=True) keeps the first and last points and
//    each point where np.diff(fps, 2) or np.diff(tps, 2) is non-zero, i.e.
//    where the step (dfp, dtp) into the point differs from the step out of
//    it (exact integer arithmetic in float64, done here in integers); then
//    prepends (0, 0) and divides by the totals.
// `sort_apart`: whether the two sorts may run on two threads (not where the
// caller already runs columns on both cores).
template <typename Visit>
void VisitKeptRocPoints(std::vector<uint64_t>& pos, std::vector<uint64_t>& neg, Visit visit,
                        bool sort_apart = true) {
  // The two sorts are independent; a thread pays off on long inputs only.
  if (sort_apart && pos.size() + neg.size() >= (size_t{1} << 16)) {
    RunInParallel(2, [&](size_t k) { SortKeys(k == 0 ? pos : neg); });
  } else {
    SortKeys(pos);
    SortKeys(neg);
  }
  struct Point {
    uint64_t fp = 0;
    uint64_t tp = 0;
  };
  // The run points P0, ..., Pk arrive one at a time; Pi (0 < i < k) is kept
  // when the step into it differs from the step out of it, so it is decided
  // when P(i + 1) arrives.
  Point before, current;
  size_t seen = 0;
  VisitScoreRuns(pos, neg, [&](uint64_t tp, uint64_t fp) {
    const Point next{fp, tp};
    if (seen == 0) {
      visit(next.fp, next.tp);  // the first point is always kept
    } else if (seen >= 2 && (current.fp - before.fp != next.fp - current.fp ||
                             current.tp - before.tp != next.tp - current.tp)) {
      visit(current.fp, current.tp);
    }
    before = current;
    current = next;
    ++seen;
  });
  if (seen >= 2) visit(current.fp, current.tp);  // the last point, (all negatives, all positives), too
}

// scikit-learn's roc_auc_score for positive scores against negative ones
// (both non-empty), bit for bit: the float sklearn 1.5 computes, not the
// exact area (they can differ in the last bit, which decides round(score, 5)
// at a tie). auc(fpr, tpr): fpr never decreases (a monotonic division of
// increasing counts), so the direction is 1 and the area is trapz's sum.
double SklearnRocAuc(std::vector<uint64_t>& pos, std::vector<uint64_t>& neg,
                     bool sort_apart = true) {
  RocTrapezoid area(neg.size(), pos.size());
  VisitKeptRocPoints(
      pos, neg, [&](uint64_t fp, uint64_t tp) { area.AddPoint(fp, tp); }, sort_apart);
  return area.Area();
}

absl::Status CheckScores(absl::Span<const double> y_score) {
  RETURN_IF_ERROR(CheckNonEmpty(y_score.size(), 1, /*one_dimensional=*/true));
  return AssertAllFinite(y_score, "");
}

// What type_of_target makes of a 2-D y_true with two or more columns: an
// indicator matrix has at most two distinct values, all integral; anything
// else is a *-multioutput type, which roc_auc_score rejects after checking
// y_score. NaN/inf among non-integral values fail at once, as check_array.
struct IndicatorLabels {
  bool integral = true;
  int distinct = 0;  // 0 to 3 (3: more than two)
  double low = 0.0;
  double high = 0.0;
};

absl::StatusOr<IndicatorLabels> ClassifyIndicator(MatrixView y_true) {
  IndicatorLabels labels;
  // One pass: whether every value is integral, and up to three distinct
  // values (NaN, equal to nothing, is a new one each time).
  double seen[2] = {0.0, 0.0};
  for (double v : y_true.values) {
    labels.integral = labels.integral && IsNumpyIntegral(v);
    if (labels.distinct == 3 || (labels.distinct > 0 && v == seen[0]) ||
        (labels.distinct > 1 && v == seen[1])) {
      continue;
    }
    if (labels.distinct == 2) {
      labels.distinct = 3;
    } else {
      seen[labels.distinct++] = v;
    }
  }
  if (!labels.integral) {
    RETURN_IF_ERROR(AssertAllFinite(y_true.values, "y_true"));
  }
  labels.low = labels.distinct == 2 ? std::min(seen[0], seen[1]) : seen[0];
  labels.high = labels.distinct == 2 ? std::max(seen[0], seen[1]) : seen[0];
  return labels;
}

absl::Status CheckIndicatorKind(const IndicatorLabels& labels) {
  if (!labels.integral) {
    return absl::InvalidArgumentError("continuous-multioutput format is not supported");
  }
  if (labels.distinct > 2) {
    return absl::InvalidArgumentError("multiclass-multioutput format is not supported");
  }
  return absl::OkStatus();
}

// The checks _binary_roc_auc_score and roc_curve make on column `c`.
absl::Status CheckIndicatorColumn(MatrixView y_true, size_t c, const IndicatorLabels& labels) {
  bool has[2] = {false, false};  // has[0]: the lower value, has[1]: the higher
  for (size_t r = 0; r < y_true.rows; ++r) has[y_true.at(r, c) == labels.high ? 1 : 0] = true;
  if (!(has[0] && has[1]) || labels.low == labels.high) {
    return absl::InvalidArgumentError(
        "Only one class present in y_true. ROC AUC score is not defined in that case.");
  }
  // roc_curve needs pos_label unless the classes are {0, 1} or {-1, 1}.
  if (labels.high != 1.0 || (labels.low != 0.0 && labels.low != -1.0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "y_true takes value in {", FormatPythonFloat(labels.low), ", ",
        FormatPythonFloat(labels.high),
        "} and pos_label is not specified: either make y_true take value in {0, 1} or "
        "{-1, 1} or pass pos_label explicitly."));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckRocAucTrue(absl::Span<const double> y_true) {
  ASSIGN_OR_RETURN(TrueLabels labels, ClassifyTrue(y_true));
  RETURN_IF_ERROR(CheckNonEmpty(y_true.size(), 1, /*one_dimensional=*/true));
  return CheckTrueKind(labels);
}

absl::StatusOr<double> RocAucScore(absl::Span<const double> y_true,
                                   absl::Span<const double> y_score) {
  ASSIGN_OR_RETURN(TrueLabels labels, ClassifyTrue(y_true));
  RETURN_IF_ERROR(CheckNonEmpty(y_true.size(), 1, /*one_dimensional=*/true));
  RETURN_IF_ERROR(CheckScores(y_score));
  RETURN_IF_ERROR(CheckTrueKind(labels));
  RETURN_IF_ERROR(CheckConsistentLength(y_true.size(), y_score.size()));

  size_t num_pos = 0;
  for (double v : y_true) num_pos += v == labels.high;
  std::vector<uint64_t> pos(num_pos);
  std::vector<uint64_t> neg(y_true.size() - num_pos);
  // Without a branch on the (random) label: each key goes to the end of the
  // list its label selects.
  uint64_t* const lists[2] = {neg.data(), pos.data()};
  size_t ends[2] = {0, 0};
  for (size_t i = 0; i < y_true.size(); ++i) {
    const size_t positive = y_true[i] == labels.high;
    lists[positive][ends[positive]++] = OrderedDoubleKey(y_score[i]);
  }
  return SklearnRocAuc(pos, neg);
}

absl::Status CheckMacroRocAucTrue(MatrixView y_true) {
  if (!y_true.size_ok()) {
    return absl::InvalidArgumentError("matrix values do not match its rows * cols");
  }
  if (y_true.cols == 1) return CheckRocAucTrue(y_true.values);
  if (y_true.cols == 0) return CheckNonEmpty(y_true.rows, 0, /*one_dimensional=*/false);
  ASSIGN_OR_RETURN(IndicatorLabels labels, ClassifyIndicator(y_true));
  RETURN_IF_ERROR(CheckNonEmpty(y_true.rows, y_true.cols, false));
  RETURN_IF_ERROR(CheckIndicatorKind(labels));
  for (size_t c = 0; c < y_true.cols; ++c) {
    RETURN_IF_ERROR(CheckIndicatorColumn(y_true, c, labels));
  }
  return absl::OkStatus();
}

absl::StatusOr<double> MacroRocAucScore(MatrixView y_true, MatrixView y_score) {
  if (!y_true.size_ok() || !y_score.size_ok()) {
    return absl::InvalidArgumentError("matrix values do not match its rows * cols");
  }
  if (y_true.cols == 1 && y_score.cols == 1) return RocAucScore(y_true.values, y_score.values);
  // A matrix without columns is not even a target type; check_array rejects it.
  if (y_true.cols == 0) return CheckNonEmpty(y_true.rows, 0, /*one_dimensional=*/false);

  ASSIGN_OR_RETURN(IndicatorLabels labels, ClassifyIndicator(y_true));
  RETURN_IF_ERROR(CheckNonEmpty(y_true.rows, y_true.cols, false));
  RETURN_IF_ERROR(CheckNonEmpty(y_score.rows, y_score.cols, false));
  RETURN_IF_ERROR(AssertAllFinite(y_score.values, ""));
  RETURN_IF_ERROR(CheckIndicatorKind(labels));
  RETURN_IF_ERROR(CheckConsistentLength(y_true.rows, y_score.rows));
  // sklearn scores y_score's columns only; we reject fewer columns outright.
  if (y_true.cols > y_score.cols) {
    return absl::InvalidArgumentError(
        absl::StrCat("y_true has ", y_true.cols, " columns but y_score has ", y_score.cols));
  }

  // sklearn takes column c of y_true for each column of y_score, in order:
  // the first column whose check fails decides the error, then one past
  // y_true's last. Each column's AUC depends on that column alone, so large
  // matrices are scored two columns at a time (columns 0, 2, ... on one
  // thread, 1, 3, ... on another) and the errors read in column order.
  const size_t scored = std::min(y_score.cols, y_true.cols);
  std::vector<absl::Status> checks(scored);
  std::vector<double> per_column(scored);
  constexpr size_t kParallelValues = size_t{1} << 16;
  const size_t threads = scored > 1 && y_true.rows * scored >= kParallelValues ? 2 : 1;
  RunInParallel(threads, [&](size_t thread) {
    std::vector<uint64_t> pos, neg;
    for (size_t c = thread; c < scored; c += threads) {
      checks[c] = CheckIndicatorColumn(y_true, c, labels);
      if (!checks[c].ok()) continue;
      pos.clear();
      neg.clear();
      for (size_t r = 0; r < y_true.rows; ++r) {
        (y_true.at(r, c) == labels.high ? pos : neg).push_back(OrderedDoubleKey(y_score.at(r, c)));
      }
      per_column[c] = SklearnRocAuc(pos, neg, /*sort_apart=*/threads == 1);
    }
  });
  for (const absl::Status& check : checks) RETURN_IF_ERROR(check);
  if (y_score.cols > y_true.cols) {
    return absl::InvalidArgumentError(absl::StrCat(
        "index ", y_true.cols, " is out of bounds for axis 1 with size ", y_true.cols));
  }
  return NumpyMean(per_column);
}

std::vector<RocCount> RocCurveCounts(absl::Span<const double> y_true,
                                     absl::Span<const double> y_score) {
  std::vector<uint64_t> pos, neg;
  for (size_t i = 0; i < y_true.size() && i < y_score.size(); ++i) {
    (y_true[i] == 1.0 ? pos : neg).push_back(OrderedDoubleKey(y_score[i]));
  }
  std::vector<RocCount> points = {RocCount{}};
  VisitKeptRocPoints(pos, neg, [&](uint64_t fp, uint64_t tp) {
    points.push_back(RocCount{.fp = fp, .tp = tp});
  });
  return points;
}

}  // namespace mlebench
