#ifndef MLEBENCH_GRADING_METRICS_TEXT_LEVENSHTEIN_H_
#define MLEBENCH_GRADING_METRICS_TEXT_LEVENSHTEIN_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace mlebench {

// Upstream's `Levenshtein.distance(a, b)` (the `levenshtein` package >=
// 0.25, i.e. rapidfuzz's uniform Levenshtein distance): the least number of
// single-element insertions, deletions and substitutions turning `a` into
// `b`. On Python `str` values the elements are code points, not bytes.

// Distance between two code point sequences.
size_t LevenshteinDistance(std::u32string_view a, std::u32string_view b);

// Distance between two UTF-8 texts, counted in code points (as Python
// counts the characters of the `str` that pandas decodes from a CSV).
// InvalidArgumentError when a text is not valid UTF-8.
absl::StatusOr<size_t> Utf8LevenshteinDistance(std::string_view a, std::string_view b);

// `np.mean([distance(t, p) for t, p in zip(truths, predictions)])`: the
// integer distances summed exactly and divided by their count (numpy's
// float64 mean of integers below 2**53 is exactly that); NaN when there are
// no pairs. InvalidArgumentError when the lengths differ or a text is not
// valid UTF-8 (naming the first such row).
absl::StatusOr<double> MeanLevenshteinDistance(absl::Span<const std::string_view> truths,
                                               absl::Span<const std::string_view> predictions);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_METRICS_TEXT_LEVENSHTEIN_H_
