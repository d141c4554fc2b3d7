#ifndef MLEBENCH_GRADING_GRADER_H_
#define MLEBENCH_GRADING_GRADER_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/csv.h"
#include "base/id_registry.h"
#include "base/json_lines.h"
#include "base/table.h"
#include "base/typed_table.h"
#include "grading/outcome.h"

namespace mlebench {

// A competition's grading function: upstream's `grade(submission, answers)`.
// Returns the raw (unrounded) score, or
//  - an *invalid submission* status (made with InvalidSubmission()) in every
//    case where upstream's grader raises for this submission, with a specific
//    reason a person can act on;
//  - any other non-OK status for internal errors (e.g. malformed answers),
//    which the caller reports loudly instead of blaming the submission.
using GradeFn = absl::StatusOr<double> (*)(const Table& submission, const Table& answers);
// The same, for graders that read their columns in typed storage
// (typed_table.h), which spares building a Cell per value: the fast path for
// large submissions.
using TypedGradeFn = absl::StatusOr<double> (*)(const TypedTable& submission,
                                                const TypedTable& answers);

// The format of a competition's answers file.
enum class AnswersFormat {
  kCsv,        // read with ReadCsvFile and CompetitionGrader::answers_csv
  kJsonLines,  // one JSON object per line, read by ReadJsonLinesFile
               // (json_lines.h: one column per top-level key, nested values
               // as their JSON text); answers_csv is unused
};

// Which rows the public validator (public_validation.h) requires where the
// grader cannot take the sample submission as answers: see
// CompetitionGrader::sample_rows.
enum class SampleRows {
  kEachIdOnce,      // every id of the sample once, no other (and so its row count)
  kEachIdAnyTimes,  // every id of the sample, repeats allowed, no other
  kSomeIds,         // ids of the sample only, any of them, any number of times
  kAnyRows,         // no requirement on rows or ids
};

struct CompetitionGrader {
  // Upstream's competition id, e.g. "spaceship-titanic" (in a competition's
  // own sources: MLEBENCH_COMPETITION_ID). Its metric's name is in
  // competitions/competitions.tsv, not repeated here.
  std::string id;
  // Exactly one of the two is set.
  GradeFn grade = nullptr;
  TypedGradeFn grade_typed = nullptr;
  // How to read the submission and the answers (e.g. id columns kept as text).
  CsvReadOptions submission_csv;
  // answers_csv.only_columns lists the answers' columns the grader reads,
  // where they hold others (upstream's prepared answers often keep every
  // column of the original data): those are then never parsed. Answers
  // lacking a listed column are read whole (ReadAnswersFile), and the
  // grading limits always count the whole file.
  CsvReadOptions answers_csv;
  AnswersFormat answers_format = AnswersFormat::kCsv;
  // What the public validator may require of a submission where this
  // grader cannot take the sample submission as answers (the answers hold
  // columns the sample lacks): by default the sample's ids each once and no
  // other, and finite numbers wherever the sample has numbers. A grader that
  // takes less says so, so that the validator never rejects a submission the
  // grader would score.
  SampleRows sample_rows = SampleRows::kEachIdOnce;
  bool missing_numbers_allowed = false;  // NaN and +-inf where the sample has numbers
};

// The grader's answers, read from a file or from in-memory text (named
// `source_name` in errors) in its answers_format: of a CSV, the columns of
// answers_csv.only_columns where it lists any and the file has them all,
// else every column. With `shape`, also sets *shape to the file's rows and
// columns, all of them (CsvShape).
absl::StatusOr<TypedTable> ReadAnswersFile(const CompetitionGrader& grader,
                                           const std::string& path, CsvShape* shape = nullptr);
absl::StatusOr<TypedTable> ReadAnswersString(const CompetitionGrader& grader,
                                             std::string_view data, std::string_view source_name);

// Grades with whichever function `grader` has: grade_typed on the tables as
// they are, or grade on their cells. InternalError for a grader with neither.
absl::StatusOr<double> GradeTables(const CompetitionGrader& grader, const TypedTable& submission,
                                   const TypedTable& answers);

// Process-wide registry of graders, filled at static-initialisation time by
// MLEBENCH_REGISTER_GRADER in alwayslink libraries.
using GraderRegistry = IdRegistry<CompetitionGrader>;

}  // namespace mlebench

// Registers a CompetitionGrader at static-initialisation time.
#define MLEBENCH_REGISTER_GRADER(...) MLEBENCH_REGISTER_IN(::mlebench::GraderRegistry, __VA_ARGS__)

#endif  // MLEBENCH_GRADING_GRADER_H_
