#include "grading/metrics/ranking/map_at_k.h"

#include <algorithm>
#include <deque>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/parallel.h"
#include "pycompat/python_str.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {

namespace {

// AP@k of one row (see AveragePrecisionAtK), over any containers:
// `predicted[i]` compares with ==, `in_actual(p)` says whether p is an actual
// label, `actual_size` counts the distinct actual labels.
template <typename Predicted, typename InActual>
double AveragePrecision(const Predicted& predicted, size_t actual_size, InActual in_actual,
                        int k) {
  const size_t cut = std::min(predicted.size(), static_cast<size_t>(k));
  double score = 0.0;
  double hits = 0.0;
  for (size_t i = 0; i < cut; ++i) {
    const auto& p = predicted[i];
    if (!in_actual(p)) continue;
    if (std::find(predicted.begin(), predicted.begin() + i, p) != predicted.begin() + i) continue;
    hits += 1.0;
    score += hits / (static_cast<double>(i) + 1.0);
  }
  if (actual_size == 0) return 0.0;
  return score / static_cast<double>(std::min(actual_size, static_cast<size_t>(k)));
}

// Python's `text.split(" ")` as views into `text`, into `pieces`.
void SplitOnSpaceInto(std::string_view text, std::vector<std::string_view>& pieces) {
  pieces.clear();
  // A byte loop: ids are a few bytes long, shorter than memchr's set-up.
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ' ') {
      pieces.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  pieces.push_back(text.substr(start));
}

// The pandas str() of each cell, as views: into the cell itself for strings,
// else into `storage` (a deque, so earlier views stay valid).
// The pandas str() of each value, as views: the column's own text views when
// it is text without missing values, else views into `built` (and strings
// made in `storage`, a deque, so earlier views stay valid).
std::span<const std::string_view> CellTexts(const TypedColumn& column,
                                            std::deque<std::string>& storage,
                                            std::vector<std::string_view>& built) {
  if (column.storage() == TypedColumn::Storage::kText &&
      std::none_of(column.text().begin(), column.text().end(), TypedColumn::IsMissingText)) {
    return column.text();
  }
  built.reserve(column.size());
  if (column.storage() == TypedColumn::Storage::kText) {
    for (std::string_view t : column.text()) {
      built.push_back(TypedColumn::IsMissingText(t)
                          ? std::string_view(storage.emplace_back(PythonStr(Cell(std::monostate()))))
                          : t);
    }
  } else if (column.storage() == TypedColumn::Storage::kCells) {
    for (const Cell& cell : column.cells()) {
      if (const std::string* s = std::get_if<std::string>(&cell)) {
        built.emplace_back(*s);
      } else {
        built.emplace_back(storage.emplace_back(PythonStr(cell)));
      }
    }
  } else {
    for (size_t row = 0; row < column.size(); ++row) {
      built.emplace_back(storage.emplace_back(PythonStr(column.CellAt(row))));
    }
  }
  return built;
}

// Whether a and b hold the same texts in the same order; compared in two
// halves at once when they are long (each text is a cache miss).
bool SameTexts(std::span<const std::string_view> a, std::span<const std::string_view> b) {
  if (a.size() != b.size()) return false;
  constexpr size_t kTextsForAThread = size_t{1} << 16;
  bool same[2] = {true, true};
  ForEachHalf(a.size(), a.size() >= kTextsForAThread, [&](size_t half, size_t begin, size_t end) {
    same[half] = std::equal(a.begin() + begin, a.begin() + end, b.begin() + begin);
  });
  return same[0] && same[1];
}

bool SameTextSets(std::span<const std::string_view> a, std::span<const std::string_view> b) {
  // The usual submission lists the answers' ids in their order.
  if (SameTexts(a, b)) return true;
  const absl::flat_hash_set<std::string_view> set_b(b.begin(), b.end());
  for (std::string_view t : a) {
    if (!set_b.contains(t)) return false;
  }
  // a is a subset of set(b); equal sets when set(a) is as large.
  return absl::flat_hash_set<std::string_view>(a.begin(), a.end()).size() == set_b.size();
}

}  // namespace

double AveragePrecisionAtK(const std::set<std::string>& actual,
                           absl::Span<const std::string> predicted, int k) {
  return AveragePrecision(
      predicted, actual.size(), [&](const std::string& p) { return actual.count(p) > 0; }, k);
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

bool SameIdSets(const Column& submission_ids, const Column& answer_ids) {
  return SameIdSets(TypedColumn::CellsView(submission_ids), TypedColumn::CellsView(answer_ids));
}

bool SameIdSets(const TypedColumn& submission_ids, const TypedColumn& answer_ids) {
  std::deque<std::string> storage;
  std::vector<std::string_view> built_submission, built_answers;
  return SameTextSets(CellTexts(submission_ids, storage, built_submission),
                      CellTexts(answer_ids, storage, built_answers));
}

absl::StatusOr<double> MapAtKAlignedOnIds(const Column& submission_ids,
                                          const Column& submission_labels,
                                          const Column& answer_ids, const Column& answer_labels,
                                          int k) {
  return MapAtKAlignedOnIds(TypedColumn::CellsView(submission_ids),
                            TypedColumn::CellsView(submission_labels),
                            TypedColumn::CellsView(answer_ids),
                            TypedColumn::CellsView(answer_labels), k);
}

absl::StatusOr<double> MapAtKAlignedOnIds(const TypedColumn& submission_ids,
                                          const TypedColumn& submission_labels,
                                          const TypedColumn& answer_ids,
                                          const TypedColumn& answer_labels, int k) {
  if (k < 1) return absl::InvalidArgumentError(absl::StrCat("k must be positive, got ", k));
  std::deque<std::string> storage;
  std::vector<std::string_view> built[4];
  const std::span<const std::string_view> sub_keys = CellTexts(submission_ids, storage, built[0]);
  const std::span<const std::string_view> ans_keys = CellTexts(answer_ids, storage, built[1]);
  if (sub_keys.size() != ans_keys.size() || submission_labels.size() != sub_keys.size() ||
      answer_labels.size() != ans_keys.size()) {
    return absl::InvalidArgumentError("MapAtKAlignedOnIds needs checked, matching ids");
  }
  // Both tables sorted by id pair rows by id: answers' rows in id order, each
  // with the submission's row of the same id.
  const std::vector<size_t> order =
      DistinctTextArgsort(absl::Span<const std::string_view>(ans_keys.data(), ans_keys.size()));
  if (order.size() != ans_keys.size()) {
    absl::flat_hash_set<std::string_view> seen;
    for (std::string_view id : ans_keys) {
      if (!seen.insert(id).second) {
        return absl::FailedPreconditionError(
            absl::StrCat("answers have a repeated id '", std::string(id), "'"));
      }
    }
  }
  // Each answer row's submission row: the same row when the submission
  // lists the answers' (distinct) ids in their order, else found by id.
  const bool same_order = SameTexts(sub_keys, ans_keys);
  absl::flat_hash_map<std::string_view, size_t> submission_row;
  if (!same_order) {
    submission_row.reserve(sub_keys.size());
    for (size_t row = 0; row < sub_keys.size(); ++row) {
      if (!submission_row.emplace(sub_keys[row], row).second) {
        return absl::InvalidArgumentError("MapAtKAlignedOnIds needs checked, matching ids");
      }
    }
  }
  const std::span<const std::string_view> truths = CellTexts(answer_labels, storage, built[2]);
  const std::span<const std::string_view> guesses =
      CellTexts(submission_labels, storage, built[3]);
  // Each answer row's precision on its own, in the file's row order (the
  // texts read in id order were a cache miss a row), in parts over the rows
  // on two threads for large inputs; the mean sums them in id order as numpy
  // does.
  std::vector<double> row_precisions(order.size());
  constexpr size_t kRowsForAThread = size_t{1} << 16;
  const size_t parts = order.size() >= kRowsForAThread ? 2 : 1;
  std::vector<char> unmatched(parts, 0);
  RunInParallel(parts, [&](size_t part) {
    std::vector<std::string_view> actual, predicted;
    const size_t end = order.size() * (part + 1) / parts;
    for (size_t answer = order.size() * part / parts; answer < end; ++answer) {
      size_t guess_row = answer;
      if (!same_order) {
        auto it = submission_row.find(ans_keys[answer]);
        if (it == submission_row.end()) {
          unmatched[part] = 1;
          return;
        }
        guess_row = it->second;
      }
      SplitOnSpaceInto(truths[answer], actual);
      std::sort(actual.begin(), actual.end());
      actual.erase(std::unique(actual.begin(), actual.end()), actual.end());
      SplitOnSpaceInto(guesses[guess_row], predicted);
      row_precisions[answer] = AveragePrecision(
          predicted, actual.size(),
          [&](std::string_view p) { return std::binary_search(actual.begin(), actual.end(), p); },
          k);
    }
  });
  if (std::find(unmatched.begin(), unmatched.end(), 1) != unmatched.end()) {
    return absl::InvalidArgumentError("MapAtKAlignedOnIds needs checked, matching ids");
  }
  std::vector<double> precisions(order.size());
  for (size_t i = 0; i < order.size(); ++i) precisions[i] = row_precisions[order[i]];
  return NumpyMean(precisions);
}

}  // namespace mlebench
