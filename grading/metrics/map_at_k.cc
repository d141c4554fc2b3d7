#include "grading/metrics/map_at_k.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "grading/metrics/python_str.h"
#include "grading/metrics/numpy_sum.h"

namespace mlebench {

double AveragePrecisionAtK(const std::set<std::string>& actual,
                           absl::Span<const std::string> predicted, int k) {
  const size_t cut = std::min(predicted.size(), static_cast<size_t>(k));
  double score = 0.0;
  double hits = 0.0;
  for (size_t i = 0; i < cut; ++i) {
    const std::string& p = predicted[i];
    if (actual.count(p) == 0) continue;
    if (std::find(predicted.begin(), predicted.begin() + i, p) != predicted.begin() + i) continue;
    hits += 1.0;
    score += hits / (static_cast<double>(i) + 1.0);
  }
  if (actual.empty()) return 0.0;
  return score / static_cast<double>(std::min(actual.size(), static_cast<size_t>(k)));
}

absl::StatusOr<double> MeanAveragePrecisionAtK(
    const std::vector<std::set<std::string>>& actual,
    const std::vector<std::vector<std::string>>& predicted, int k) {
  if (k < 1) return absl::InvalidArgumentError(absl::StrCat("k must be positive, got ", k));
  const size_t n = std::min(actual.size(), predicted.size());
  std::vector<double> precisions(n);
  for (size_t i = 0; i < n; ++i) precisions[i] = AveragePrecisionAtK(actual[i], predicted[i], k);
  return NumpyMean(precisions);
}

std::vector<std::string> SplitOnSpace(std::string_view text) {
  std::vector<std::string> pieces;
  size_t start = 0;
  while (true) {
    const size_t space = text.find(' ', start);
    if (space == std::string_view::npos) {
      pieces.emplace_back(text.substr(start));
      return pieces;
    }
    pieces.emplace_back(text.substr(start, space - start));
    start = space + 1;
  }
}

std::vector<std::vector<std::string>> LabelLists(const Column& column) {
  std::vector<std::vector<std::string>> lists;
  lists.reserve(column.cells.size());
  for (const Cell& cell : column.cells) lists.push_back(SplitOnSpace(PythonStr(cell)));
  return lists;
}

std::vector<std::set<std::string>> LabelSets(const Column& column) {
  std::vector<std::set<std::string>> sets;
  sets.reserve(column.cells.size());
  for (const Cell& cell : column.cells) {
    std::vector<std::string> labels = SplitOnSpace(PythonStr(cell));
    sets.emplace_back(labels.begin(), labels.end());
  }
  return sets;
}

namespace {

std::vector<std::string> IdTexts(const Column& ids) {
  std::vector<std::string> texts;
  texts.reserve(ids.cells.size());
  for (const Cell& cell : ids.cells) texts.push_back(PythonStr(cell));
  return texts;
}

}  // namespace

bool SameIdSets(const Column& submission_ids, const Column& answer_ids) {
  const std::vector<std::string> a = IdTexts(submission_ids);
  const std::vector<std::string> b = IdTexts(answer_ids);
  return std::set<std::string>(a.begin(), a.end()) == std::set<std::string>(b.begin(), b.end());
}

absl::StatusOr<double> MapAtKAlignedOnIds(const Column& submission_ids,
                                          const Column& submission_labels,
                                          const Column& answer_ids, const Column& answer_labels,
                                          int k) {
  const std::vector<std::string> sub_keys = IdTexts(submission_ids);
  const std::vector<std::string> ans_keys = IdTexts(answer_ids);
  if (sub_keys.size() != ans_keys.size() || submission_labels.cells.size() != sub_keys.size() ||
      answer_labels.cells.size() != ans_keys.size() || !SameIdSets(submission_ids, answer_ids)) {
    return absl::InvalidArgumentError("MapAtKAlignedOnIds needs checked, matching ids");
  }
  std::map<std::string, size_t> answer_row;
  for (size_t row = 0; row < ans_keys.size(); ++row) {
    if (!answer_row.emplace(ans_keys[row], row).second) {
      return absl::FailedPreconditionError(
          absl::StrCat("answers have a repeated id '", ans_keys[row], "'"));
    }
  }
  // Same id set and length as unique answer ids: the submission's ids are
  // unique too, and sorting both by id pairs rows by id.
  std::map<std::string, size_t> submission_row;
  for (size_t row = 0; row < sub_keys.size(); ++row) submission_row.emplace(sub_keys[row], row);
  const std::vector<std::set<std::string>> sets = LabelSets(answer_labels);
  const std::vector<std::vector<std::string>> lists = LabelLists(submission_labels);
  std::vector<std::set<std::string>> actual;
  std::vector<std::vector<std::string>> predicted;
  actual.reserve(answer_row.size());
  predicted.reserve(answer_row.size());
  for (const auto& [id, row] : answer_row) {
    actual.push_back(sets[row]);
    predicted.push_back(lists[submission_row.at(id)]);
  }
  return MeanAveragePrecisionAtK(actual, predicted, k);
}

}  // namespace mlebench
