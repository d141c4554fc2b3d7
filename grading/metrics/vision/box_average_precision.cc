#include "grading/metrics/vision/box_average_precision.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "pycompat/internal/radix_sort.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/python_list_sort.h"

namespace mlebench {
namespace {

// Python's builtin max(a, b) / min(a, b): the first argument unless the
// second compares strictly beyond it (so a NaN first argument sticks).
double PyMax(double a, double b) { return b > a ? b : a; }
double PyMin(double a, double b) { return b < a ? b : a; }

// Indices of `keys` sorted ascending as numpy's stable argsort
// (kind="mergesort") sorts float64: NaN after everything, ties in order.
std::vector<size_t> StableArgsortNanLast(const std::vector<double>& keys) {
  std::vector<size_t> order(keys.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const double x = keys[a], y = keys[b];
    if (std::isnan(x)) return false;
    if (std::isnan(y)) return true;
    return x < y;
  });
  return order;
}

// `boxes.sort(key=lambda b: b.confidence, reverse=True)` in CPython.
void SortByConfidenceAsPython(std::vector<const LabeledBox*>& boxes) {
  std::vector<double> confidences;
  confidences.reserve(boxes.size());
  for (const LabeledBox* box : boxes) confidences.push_back(box->confidence);
  const std::vector<size_t> order = PythonSortedOrder(confidences, /*reverse=*/true);
  std::vector<const LabeledBox*> sorted;
  sorted.reserve(boxes.size());
  for (size_t i : order) sorted.push_back(boxes[i]);
  boxes = std::move(sorted);
}

}  // namespace

absl::StatusOr<double> BinaryAveragePrecision(const std::vector<int>& y_true,
                                              const std::vector<double>& y_score) {
  if (y_true.size() != y_score.size()) {
    return absl::InvalidArgumentError(absl::StrCat("average precision: ", y_true.size(),
                                                   " labels but ", y_score.size(), " scores"));
  }
  for (int label : y_true) {
    if (label != 0 && label != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("average precision: label ", label, " is not 0 or 1"));
    }
  }
  for (double score : y_score) {
    if (!std::isfinite(score)) {
      return absl::InvalidArgumentError("average precision: scores contain NaN or infinity");
    }
  }
  // The cumulative counts at the end of each run of equal scores, from the
  // highest score down (the order inside a run is irrelevant): the
  // positives' and the negatives' score keys sorted apart, then walked
  // together from their tops.
  std::vector<uint64_t> positive, negative;
  for (size_t i = 0; i < y_score.size(); ++i) {
    (y_true[i] == 1 ? positive : negative).push_back(internal::OrderedDoubleKey(y_score[i]));
  }
  internal::SortKeys(positive);
  internal::SortKeys(negative);
  std::vector<double> tps, fps;
  internal::VisitScoreRuns(positive, negative, [&](uint64_t tp, uint64_t fp) {
    tps.push_back(static_cast<double>(tp));
    fps.push_back(static_cast<double>(fp));
  });
  if (tps.empty() || tps.back() == 0) {
    return absl::InvalidArgumentError("average precision: no positive label");
  }
  // sklearn lists the points from the highest threshold down, appends
  // (precision 1, recall 0), and takes AP = -sum(diff(recall) * precision[:-1]).
  const size_t n = tps.size();
  std::vector<double> precision(n + 1), recall(n + 1);
  for (size_t i = 0; i < n; ++i) {
    const size_t j = n - 1 - i;
    const double predicted = tps[j] + fps[j];
    precision[i] = predicted != 0 ? tps[j] / predicted : 0.0;
    recall[i] = tps[j] / tps.back();
  }
  precision[n] = 1;
  recall[n] = 0;
  std::vector<double> terms(n);
  for (size_t i = 0; i < n; ++i) terms[i] = (recall[i + 1] - recall[i]) * precision[i];
  return -NumpySum(terms);
}

double CornerBoxIou(const CornerBox& a, const CornerBox& b) {
  const double inter_x_min = PyMax(a.x_min, b.x_min);
  const double inter_y_min = PyMax(a.y_min, b.y_min);
  const double inter_x_max = PyMin(a.x_max, b.x_max);
  const double inter_y_max = PyMin(a.y_max, b.y_max);
  // max(0, d): Python returns the int 0 unless d > 0; 0 * inf is NaN in
  // Python too, so doubles reproduce it.
  const double inter_width = PyMax(0.0, inter_x_max - inter_x_min);
  const double inter_height = PyMax(0.0, inter_y_max - inter_y_min);
  const double inter_area = inter_width * inter_height;
  const double area_a = (a.x_max - a.x_min) * (a.y_max - a.y_min);
  const double area_b = (b.x_max - b.x_min) * (b.y_max - b.y_min);
  const double union_area = area_a + area_b - inter_area;
  return union_area > 0 ? inter_area / union_area : 0.0;
}

absl::StatusOr<double> GreedyBoxMeanAveragePrecision(
    const std::vector<std::vector<LabeledBox>>& predictions,
    const std::vector<std::vector<LabeledBox>>& truths, double iou_threshold) {
  if (predictions.size() != truths.size()) {
    return absl::InvalidArgumentError(absl::StrCat("mean average precision: ", predictions.size(),
                                                   " predicted samples but ", truths.size(),
                                                   " true samples"));
  }
  // The labels of the truths, in std::string order (Python's str order on
  // UTF-8).
  absl::flat_hash_set<std::string_view> distinct_labels;
  for (const auto& sample : truths) {
    for (const LabeledBox& box : sample) distinct_labels.insert(box.label);
  }
  std::vector<std::string> labels(distinct_labels.begin(), distinct_labels.end());
  std::sort(labels.begin(), labels.end());
  // Each sample's predictions, in the order upstream's list holds them, and
  // whether a confidence is NaN.
  std::vector<std::vector<const LabeledBox*>> sorted(predictions.size());
  std::vector<uint8_t> any_nan(predictions.size(), 0);
  for (size_t s = 0; s < predictions.size(); ++s) {
    for (const LabeledBox& box : predictions[s]) {
      sorted[s].push_back(&box);
      any_nan[s] |= std::isnan(box.confidence) ? 1 : 0;
    }
  }
  std::vector<double> aps;
  std::vector<const CornerBox*> gt_boxes;
  std::vector<uint8_t> matched;
  for (size_t l = 0; l < labels.size(); ++l) {
    const std::string& label = labels[l];
    // Upstream sorts each sample's list in place, by confidence with
    // reverse=True, again for every label: Python's list.sort, whose order
    // for NaN confidences only CPython's algorithm reproduces. Without NaN
    // the sort is a stable sort by a total order, so a list it sorted is
    // its own sort: only lists holding NaN are sorted again (and lists
    // shorter than two never).
    for (size_t s = 0; s < sorted.size(); ++s) {
      if (sorted[s].size() >= 2 && (l == 0 || any_nan[s])) SortByConfidenceAsPython(sorted[s]);
    }
    std::vector<int> y_true;
    std::vector<double> y_score;
    y_true.reserve(truths.size());
    y_score.reserve(truths.size());
    for (size_t s = 0; s < truths.size(); ++s) {
      gt_boxes.clear();
      for (const LabeledBox& box : truths[s]) {
        if (box.label == label) gt_boxes.push_back(&box.box);
      }
      matched.assign(gt_boxes.size(), 0);
      size_t yielded = 0;
      for (const LabeledBox* pred : sorted[s]) {
        if (pred->label != label) continue;
        double best_iou = 0;
        int best = -1;
        for (size_t g = 0; g < gt_boxes.size(); ++g) {
          if (matched[g]) continue;
          const double iou = CornerBoxIou(pred->box, *gt_boxes[g]);
          if (iou > best_iou && iou > iou_threshold) {
            best_iou = iou;
            best = static_cast<int>(g);
          }
        }
        if (best != -1) matched[best] = 1;
        y_true.push_back(best != -1 ? 1 : 0);
        y_score.push_back(pred->confidence);
        ++yielded;
      }
      for (const uint8_t m : matched) {
        if (m == 0) {
          y_true.push_back(1);
          y_score.push_back(0);
          ++yielded;
        }
      }
      if (yielded == 0) {
        y_true.push_back(0);
        y_score.push_back(0);
      }
    }
    if (std::all_of(y_true.begin(), y_true.end(), [](int y) { return y == 1; })) {
      return absl::InvalidArgumentError(
          absl::StrCat("mean average precision: every pair of label '", label,
                       "' is positive (upstream asserts against this; AP would be undefined)"));
    }
    absl::StatusOr<double> ap = BinaryAveragePrecision(y_true, y_score);
    if (!ap.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("label '", label, "': ", std::string(ap.status().message())));
    }
    aps.push_back(*ap);
  }
  return aps.empty() ? 0.0 : NumpyMean(aps);
}

namespace {

// pycocotools' bbIou for one detection and one (non-crowd) ground truth,
// boxes as x, y, width, height.
double CocoIou(const double d[4], const double g[4]) {
  const double w = std::fmin(d[2] + d[0], g[2] + g[0]) - std::fmax(d[0], g[0]);
  if (w <= 0) return 0;
  const double h = std::fmin(d[3] + d[1], g[3] + g[1]) - std::fmax(d[1], g[1]);
  if (h <= 0) return 0;
  const double inter = w * h;
  return inter / (d[2] * d[3] + g[2] * g[3] - inter);
}

constexpr double kAreaMax = 1e5 * 1e5;  // areaRng "all": [0, 1e5 ** 2]
constexpr size_t kMaxDets = 100;
constexpr int kRecallPoints = 101;

}  // namespace

absl::StatusOr<double> CocoBoxAveragePrecision(int64_t num_images,
                                               const std::vector<CocoBox>& truths,
                                               const std::vector<CocoBox>& detections,
                                               double iou_threshold) {
  if (num_images < 0) return absl::InvalidArgumentError("negative image count");
  std::set<int64_t> categories;
  for (const CocoBox& t : truths) {
    if (t.image >= 0 && t.image < num_images) categories.insert(t.category);
  }
  // Annotation indices per (category, image), in annotation order.
  std::map<std::pair<int64_t, int64_t>, std::vector<size_t>> gts, dts;
  for (size_t i = 0; i < truths.size(); ++i) {
    const CocoBox& t = truths[i];
    if (t.image >= 0 && t.image < num_images) gts[{t.category, t.image}].push_back(i);
  }
  for (size_t i = 0; i < detections.size(); ++i) {
    const CocoBox& d = detections[i];
    if (d.image >= 0 && d.image < num_images && categories.count(d.category)) {
      dts[{d.category, d.image}].push_back(i);
    }
  }
  const double threshold = std::min(iou_threshold, 1 - 1e-10);
  auto outside_all = [](double area) { return area < 0 || area > kAreaMax; };
  // recThrs = np.linspace(0, 1, 101): i * 0.01, last exactly 1.
  std::vector<double> recall_thresholds(kRecallPoints);
  const double step = 1.0 / (kRecallPoints - 1);
  for (int i = 0; i < kRecallPoints; ++i) recall_thresholds[i] = i * step;
  recall_thresholds.back() = 1.0;

  // precision[r][k] for categories that have a result (others stay -1 and
  // are left out of the mean, which runs over r-major, k-minor order).
  std::vector<std::vector<double>> precision(kRecallPoints);
  std::vector<bool> has_result;
  for (int64_t category : categories) {
    std::vector<double> scores;
    std::vector<bool> matched, ignored;
    size_t non_ignored_truths = 0;
    bool any_image = false;
    for (int64_t image = 0; image < num_images; ++image) {
      static const std::vector<size_t> kNone;
      auto git = gts.find({category, image});
      auto dit = dts.find({category, image});
      const std::vector<size_t>& g_all = git == gts.end() ? kNone : git->second;
      const std::vector<size_t>& d_all = dit == dts.end() ? kNone : dit->second;
      if (g_all.empty() && d_all.empty()) continue;
      any_image = true;
      // Ground truths: not-ignored first (stable), as evaluateImg orders them.
      std::vector<size_t> g_order;
      std::vector<int> g_ignore;
      for (int pass = 0; pass < 2; ++pass) {
        for (size_t i : g_all) {
          const int ig = outside_all(truths[i].area) ? 1 : 0;
          if (ig == pass) {
            g_order.push_back(i);
            g_ignore.push_back(ig);
          }
        }
      }
      for (int ig : g_ignore) non_ignored_truths += ig == 0;
      std::vector<double> neg_scores;
      for (size_t i : d_all) neg_scores.push_back(-detections[i].score);
      std::vector<size_t> d_rank = StableArgsortNanLast(neg_scores);
      if (d_rank.size() > kMaxDets) d_rank.resize(kMaxDets);
      // Stored matches are annotation ids; 0 reads as "unmatched".
      std::vector<double> gt_match(g_order.size(), 0);
      for (size_t r : d_rank) {
        const size_t det = d_all[r];
        double best = threshold;
        int m = -1;
        if (!g_order.empty()) {
          for (size_t g = 0; g < g_order.size(); ++g) {
            if (gt_match[g] > 0) continue;
            if (m > -1 && g_ignore[m] == 0 && g_ignore[g] == 1) break;
            const double iou = CocoIou(detections[det].bbox, truths[g_order[g]].bbox);
            if (iou < best) continue;
            best = iou;
            m = static_cast<int>(g);
          }
        }
        double dt_match = 0;
        bool dt_ignore = false;
        if (m != -1) {
          dt_ignore = g_ignore[m] == 1;
          dt_match = static_cast<double>(g_order[m]);
          gt_match[m] = static_cast<double>(det);
        }
        if (dt_match == 0 && outside_all(detections[det].area)) dt_ignore = true;
        scores.push_back(detections[det].score);
        matched.push_back(dt_match != 0);
        ignored.push_back(dt_ignore);
      }
    }
    if (!any_image || non_ignored_truths == 0) {
      has_result.push_back(false);
      for (auto& row : precision) row.push_back(-1);
      continue;
    }
    has_result.push_back(true);
    std::vector<double> neg_scores(scores.size());
    for (size_t i = 0; i < scores.size(); ++i) neg_scores[i] = -scores[i];
    const std::vector<size_t> order = StableArgsortNanLast(neg_scores);
    std::vector<double> rc, pr;
    double tp = 0, fp = 0;
    for (size_t i : order) {
      if (!ignored[i]) (matched[i] ? tp : fp) += 1;
      rc.push_back(tp / static_cast<double>(non_ignored_truths));
      pr.push_back(tp / (fp + tp + 2.220446049250313e-16));  // np.spacing(1)
    }
    for (size_t i = pr.size(); i-- > 1;) {
      if (pr[i] > pr[i - 1]) pr[i - 1] = pr[i];
    }
    for (int r = 0; r < kRecallPoints; ++r) {
      // searchsorted(rc, thr, side="left"); past the end the rest stay 0.
      const size_t pi = static_cast<size_t>(
          std::lower_bound(rc.begin(), rc.end(), recall_thresholds[r]) - rc.begin());
      precision[r].push_back(pi < pr.size() ? pr[pi] : 0.0);
    }
  }
  std::vector<double> kept;
  for (int r = 0; r < kRecallPoints; ++r) {
    for (double p : precision[r]) {
      if (p > -1) kept.push_back(p);
    }
  }
  if (kept.empty()) return -1.0;
  return NumpyMean(kept);
}

}  // namespace mlebench
