// Upstream's chaii-hindi-and-tamil-question-answering/grade.py: scikit-learn's
// sample-averaged Jaccard score between the predicted and the true answer,
// each taken as the set of its lower-cased whitespace-separated words, rows
// aligned on `id`.

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/sorted_id_pairing.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

constexpr std::string_view kIdColumn = "id";
constexpr std::string_view kTextColumn = "PredictionString";

using WordSet = std::set<std::u32string>;

// `set(value.lower().split())` after `fillna("")`: missing cells are the
// empty string; any other non-string cell (a number in a numeric column, a
// bool) has no `.lower()`, Python's AttributeError, and so has text that is
// not UTF-8 (pandas cannot have read it).
absl::StatusOr<std::vector<WordSet>> WordSets(const Column& column) {
  std::vector<WordSet> sets;
  sets.reserve(column.cells.size());
  for (const Cell& cell : column.cells) {
    if (IsMissing(cell)) {
      sets.emplace_back();
      continue;
    }
    const std::string* text = std::get_if<std::string>(&cell);
    if (text == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", std::string(PythonTypeName(cell)), "' object has no attribute 'lower'"));
    }
    std::optional<std::u32string> decoded = DecodeUtf8(*text);
    if (!decoded.has_value()) return absl::InvalidArgumentError("text is not valid UTF-8");
    std::vector<std::u32string> words = PythonSplit(PythonLower(*decoded));
    sets.emplace_back(words.begin(), words.end());
  }
  return sets;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat(
        "Submission should be the same length as the answers (submission ",
        submission.num_rows(), " rows, answers ", answers.num_rows(), ")."));
  }
  if (submission.Find(kTextColumn) == nullptr) {
    return InvalidSubmission("Submission must have a `PredictionString` column");
  }
  if (submission.Find(kIdColumn) == nullptr) {
    return InvalidSubmission("Submission must have an `id` column");
  }
  ASSIGN_OR_RETURN(IdPairedRows paired,
                   PairRowsById(submission, answers, kIdColumn, kTextColumn,
                                "Submission does not contain same IDs as test"));

  // Upstream lower-cases the submission's texts first, then the answers'.
  absl::StatusOr<std::vector<WordSet>> predicted = WordSets(paired.submission_values);
  if (!predicted.ok()) {
    return InvalidSubmission(absl::StrCat("Cannot split a PredictionString into words: ",
                                          std::string(predicted.status().message())));
  }
  absl::StatusOr<std::vector<WordSet>> truth = WordSets(paired.answer_values);
  if (!truth.ok()) {
    return MalformedAnswers(
        absl::StrCat("PredictionString: ", std::string(truth.status().message())));
  }

  // Upstream binarizes the sets over the vocabulary of all of them; with
  // fewer than two words in all, scikit-learn does not see a multilabel
  // indicator matrix and raises (ValueError or TypeError).
  WordSet vocabulary;
  for (const std::vector<WordSet>* sets : {&*predicted, &*truth}) {
    for (const WordSet& set : *sets) {
      vocabulary.insert(set.begin(), set.end());
      if (vocabulary.size() >= 2) break;
    }
    if (vocabulary.size() >= 2) break;
  }
  if (vocabulary.size() < 2) {
    return InvalidSubmission(absl::StrCat(
        "jaccard_score(average=\"samples\") needs a multilabel target: the submission and the "
        "answers hold ",
        vocabulary.size(), " distinct word(s) in all"));
  }

  // Per row |T & P| / |T | P|, 0 where both are empty (scikit-learn's
  // zero_division default), then np.average.
  std::vector<double> scores;
  scores.reserve(truth->size());
  for (size_t i = 0; i < truth->size(); ++i) {
    const WordSet& p = (*predicted)[i];
    const WordSet& t = (*truth)[i];
    size_t both = 0;
    for (const std::u32string& word : p) both += t.count(word);
    const size_t either = p.size() + t.size() - both;
    scores.push_back(either == 0 ? 0.0
                                 : static_cast<double>(both) / static_cast<double>(either));
  }
  return NumpyMean(scores);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
});

}  // namespace mlebench
