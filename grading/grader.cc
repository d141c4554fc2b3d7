#include "grading/grader.h"

#include "absl/strings/str_cat.h"

namespace mlebench {

namespace {
absl::StatusOr<TypedTable> Typed(absl::StatusOr<Table> table) {
  if (!table.ok()) return table.status();
  return TypedTable::FromTable(*std::move(table));
}
}  // namespace

absl::StatusOr<TypedTable> ReadAnswersFile(const CompetitionGrader& grader,
                                           const std::string& path) {
  switch (grader.answers_format) {
    case AnswersFormat::kJsonLines:
      return Typed(ReadJsonLinesFile(path));
    case AnswersFormat::kCsv:
      break;
  }
  return ReadTypedCsvFile(path, grader.answers_csv);
}

absl::StatusOr<TypedTable> ReadAnswersString(const CompetitionGrader& grader,
                                             std::string_view data, std::string_view source_name) {
  switch (grader.answers_format) {
    case AnswersFormat::kJsonLines:
      return Typed(ReadJsonLinesString(data, source_name));
    case AnswersFormat::kCsv:
      break;
  }
  return ReadTypedCsvString(data, source_name, grader.answers_csv);
}

absl::StatusOr<double> GradeTables(const CompetitionGrader& grader, const TypedTable& submission,
                                   const TypedTable& answers) {
  if (grader.grade_typed != nullptr) return grader.grade_typed(submission, answers);
  if (grader.grade != nullptr) return grader.grade(submission.ToTable(), answers.ToTable());
  return absl::InternalError(absl::StrCat("grader ", grader.id, " has no grade function"));
}

}  // namespace mlebench
