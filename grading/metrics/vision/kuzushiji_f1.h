#ifndef MLEBENCH_GRADING_METRICS_VISION_KUZUSHIJI_F1_H_
#define MLEBENCH_GRADING_METRICS_VISION_KUZUSHIJI_F1_H_

// kuzushiji-recognition's metric (upstream's kuzushiji_metric.py, Kaggle's
// published Python version): an F1 score over predicted character centre
// points. A prediction "label X Y" is a true positive for a ground-truth box
// "label X Y Width Height" when the labels are equal and the point lies
// strictly inside the box; each prediction matches at most one box.

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace mlebench {

struct KuzushijiCounts {
  int64_t true_positives = 0;
  int64_t false_positives = 0;
  int64_t false_negatives = 0;
};

// Upstream's score_page for one page. `preds` is "label X Y ..." and `truth`
// "label X Y Width Height ...", both split on single spaces as Python's
// `str.split(" ")`; nullopt is a missing (NaN) value. Boxes are visited in
// order and each takes the first unused matching prediction; unused
// predictions are false positives, unmatched boxes false negatives. Numbers
// are parsed as numpy's `astype(float)` of str (Python's float()).
// InvalidArgumentError where upstream raises: a token count not a multiple
// of 5 (truth) or 3 (preds), or a number that does not parse.
absl::StatusOr<KuzushijiCounts> ScoreKuzushijiPage(const std::optional<std::string>& preds,
                                                   const std::optional<std::string>& truth);

// Upstream's kuzushiji_f1 over pages paired by position: summed counts, then
// F1 (0 where there are no predictions, no boxes, or no true positives).
// Spans of different lengths, or any page's error: InvalidArgumentError.
absl::StatusOr<double> KuzushijiF1(absl::Span<const std::optional<std::string>> preds,
                                   absl::Span<const std::optional<std::string>> truths);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_VISION_KUZUSHIJI_F1_H_
