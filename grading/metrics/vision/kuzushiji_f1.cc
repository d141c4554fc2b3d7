#include "grading/metrics/vision/kuzushiji_f1.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "pycompat/object_float_cast.h"

namespace mlebench {
namespace {

// Python's `s.split(" ")`: empty tokens kept.
std::vector<std::string_view> SplitOnSpaces(const std::string& s) {
  std::vector<std::string_view> tokens;
  size_t start = 0;
  while (true) {
    const size_t space = s.find(' ', start);
    if (space == std::string::npos) break;
    tokens.push_back(std::string_view(s).substr(start, space - start));
    start = space + 1;
  }
  tokens.push_back(std::string_view(s).substr(start));
  return tokens;
}

absl::StatusOr<double> ParseNumber(std::string_view token) {
  std::optional<double> value = PythonFloatFromString(token);
  if (!value) {
    return absl::InvalidArgumentError(
        absl::StrCat("could not convert string to float: '", std::string(token), "'"));
  }
  return *value;
}

}  // namespace

absl::StatusOr<KuzushijiCounts> ScoreKuzushijiPage(const std::optional<std::string>& preds,
                                                   const std::optional<std::string>& truth) {
  KuzushijiCounts counts;
  if (!truth && !preds) return counts;
  if (!truth) {
    counts.false_positives = static_cast<int64_t>(SplitOnSpaces(*preds).size()) / 3;
    return counts;
  }
  if (!preds) {
    counts.false_negatives = static_cast<int64_t>(SplitOnSpaces(*truth).size()) / 5;
    return counts;
  }
  const std::vector<std::string_view> truth_tokens = SplitOnSpaces(*truth);
  if (truth_tokens.size() % 5 != 0) return absl::InvalidArgumentError("Malformed solution string");
  struct Box {
    std::string_view label;
    double xmin, xmax, ymin, ymax;
  };
  std::vector<Box> boxes;
  for (size_t i = 0; i < truth_tokens.size(); i += 5) {
    double v[4];
    for (int k = 0; k < 4; ++k) {
      ASSIGN_OR_RETURN(double parsed, ParseNumber(truth_tokens[i + 1 + k]));
      v[k] = parsed;
    }
    // xmax = xmin + width, ymax = ymin + height, as upstream adds them.
    boxes.push_back(Box{truth_tokens[i], v[0], v[0] + v[2], v[1], v[1] + v[3]});
  }
  const std::vector<std::string_view> pred_tokens = SplitOnSpaces(*preds);
  if (pred_tokens.size() % 3 != 0) return absl::InvalidArgumentError("Malformed prediction string");
  struct Point {
    std::string_view label;
    double x, y;
  };
  std::vector<Point> points;
  // numpy parses every X before any Y; either failure raises the same way.
  for (size_t i = 0; i < pred_tokens.size(); i += 3) {
    ASSIGN_OR_RETURN(double x, ParseNumber(pred_tokens[i + 1]));
    points.push_back(Point{pred_tokens[i], x, 0});
  }
  for (size_t i = 0; i < pred_tokens.size(); i += 3) {
    ASSIGN_OR_RETURN(double y, ParseNumber(pred_tokens[i + 2]));
    points[i / 3].y = y;
  }
  std::vector<bool> unused(points.size(), true);
  int64_t remaining = static_cast<int64_t>(points.size());
  for (const Box& box : boxes) {
    bool matched = false;
    for (size_t p = 0; p < points.size(); ++p) {
      const Point& point = points[p];
      if (unused[p] && box.xmin < point.x && box.xmax > point.x && box.ymin < point.y &&
          box.ymax > point.y && point.label == box.label) {
        unused[p] = false;
        --remaining;
        matched = true;
        break;
      }
    }
    if (matched) {
      ++counts.true_positives;
    } else {
      ++counts.false_negatives;
    }
  }
  counts.false_positives += remaining;
  return counts;
}

absl::StatusOr<double> KuzushijiF1(absl::Span<const std::optional<std::string>> preds,
                                   absl::Span<const std::optional<std::string>> truths) {
  if (preds.size() != truths.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("kuzushiji_f1: ", preds.size(), " predictions for ", truths.size(), " pages"));
  }
  KuzushijiCounts total;
  for (size_t i = 0; i < preds.size(); ++i) {
    absl::StatusOr<KuzushijiCounts> page = ScoreKuzushijiPage(preds[i], truths[i]);
    if (!page.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("page ", i, ": ", page.status().message()));
    }
    total.true_positives += page->true_positives;
    total.false_positives += page->false_positives;
    total.false_negatives += page->false_negatives;
  }
  const int64_t tp = total.true_positives, fp = total.false_positives, fn = total.false_negatives;
  if (tp + fp == 0 || tp + fn == 0) return 0.0;
  const double precision = static_cast<double>(tp) / static_cast<double>(tp + fp);
  const double recall = static_cast<double>(tp) / static_cast<double>(tp + fn);
  if (precision > 0 && recall > 0) return (2 * precision * recall) / (precision + recall);
  return 0.0;
}

}  // namespace mlebench
