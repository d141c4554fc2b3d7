#ifndef MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_TEXT_NORMALIZATION_H_
#define MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_TEXT_NORMALIZATION_H_

#include <filesystem>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pycompat/python_str.h"
#include "base/table.h"

namespace mlebench {

// What upstream's two text-normalization competitions (English and Russian)
// share: their grade.py and prepare.py are the same code but for the file
// prefix ("en" or "ru").

// Upstream's grade(): upstream's prepare_for_accuracy_metric checks on the
// `id` and `after` columns (lengths, columns, ids equal after sorting), then
// both `after` columns as text (`astype(str)`, so a NaN prediction is the
// text "nan" and 1.0 differs from "1") and sklearn's accuracy_score. Errors
// as PrepareForAccuracyMetric (grading/metrics/metric_inputs.h).
absl::StatusOr<double> GradeTextNormalization(const Table& submission, const Table& answers);

// pandas' `df.to_csv(index=False, quotechar='"', quoting=csv.QUOTE_NONNUMERIC)`:
// header names and string cells quoted (quotes doubled), missing values as a
// quoted empty string `""`, numbers and bools bare (ints in decimal, floats
// as Python's repr), "," separators and "\n" line ends. A Table without
// columns is "\n".
std::string WriteCsvQuoteNonnumeric(const Table& table);

// Upstream's prepare(): reads `<language>_train.csv` from
// `<language>_train.csv.zip` in `raw` (which must also hold
// `<language>_test_2.csv.zip` and `<language>_sample_submission_2.csv.zip`,
// as upstream extracts them too; archives are extracted under `scratch`, raw
// stays untouched). The columns must be exactly sentence_id, token_id, class,
// before, after (upstream's asserts), the two ids integers. Whole sentences
// are split 90/10 (sklearn's train_test_split of the unique sentence ids in
// order of appearance, test_size=0.1, random_state=0), rows keep their
// order, and each part's sentence ids are renumbered 0, 1, ... by first
// appearance. Writes, all with QUOTE_NONNUMERIC:
//   public/<language>_train.csv.zip            sentence_id,token_id,class,before,after
//   public/<language>_test_2.csv.zip           sentence_id,token_id,before
//   public/<language>_sample_submission_2.csv.zip  id,after (after = before)
//   private/answers.csv                        id,after
//   private/sample_submission.csv              id,after (after = before)
// where id is "<sentence_id>_<token_id>" and each zip holds the one CSV of
// the same name.
absl::Status PrepareTextNormalization(std::string_view language, const std::filesystem::path& raw,
                                      const std::filesystem::path& public_dir,
                                      const std::filesystem::path& private_dir,
                                      const std::filesystem::path& scratch);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_FAMILIES_TEXT_NORMALIZATION_TEXT_NORMALIZATION_H_
