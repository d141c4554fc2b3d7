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
                                           const std::string& path, CsvShape* shape) {
  switch (grader.answers_format) {
    case AnswersFormat::kJsonLines: {
      absl::StatusOr<TypedTable> table = Typed(ReadJsonLinesFile(path));
      if (table.ok() && shape != nullptr) {
        *shape = CsvShape{.rows = static_cast<int64_t>(table->num_rows()),
                          .columns = static_cast<int64_t>(table->num_columns())};
      }
      return table;
    }
    case AnswersFormat::kCsv:
      break;
  }
  return ReadTypedCsvFile(path, grader.answers_csv, shape);
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
