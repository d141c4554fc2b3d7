#include "grading/grader.h"

#include "absl/strings/str_cat.h"

namespace mlebench {

namespace {
absl::StatusOr<TypedTable> Typed(absl::StatusOr<Table> table) {
  if (!table.ok()) return table.status();
  return TypedTable::FromTable(*std::move(table));
}

// Whether `table` has every column `options` asks for.
bool HasEveryColumnAskedFor(const TypedTable& table, const CsvReadOptions& options) {
  for (const std::string& name : options.only_columns) {
    if (table.Find(name) == nullptr) return false;
  }
  return true;
}

// Reads answers with the grader's answers_csv; where they lack a column it
// lists, reads them whole again, so that the grader meets malformed answers
// as they are (its checks, in their order, say what is wrong; a table
// without that column could have fewer rows as well).
template <typename Read>
absl::StatusOr<TypedTable> ReadCsvAnswers(const CompetitionGrader& grader, Read read) {
  absl::StatusOr<TypedTable> table = read(grader.answers_csv);
  if (!table.ok() || HasEveryColumnAskedFor(*table, grader.answers_csv)) return table;
  CsvReadOptions whole = grader.answers_csv;
  whole.only_columns.clear();
  return read(whole);
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
  return ReadCsvAnswers(grader, [&](const CsvReadOptions& options) {
    return ReadTypedCsvFile(path, options, shape);
  });
}

absl::StatusOr<TypedTable> ReadAnswersString(const CompetitionGrader& grader,
                                             std::string_view data, std::string_view source_name) {
  switch (grader.answers_format) {
    case AnswersFormat::kJsonLines:
      return Typed(ReadJsonLinesString(data, source_name));
    case AnswersFormat::kCsv:
      break;
  }
  return ReadCsvAnswers(grader, [&](const CsvReadOptions& options) {
    return ReadTypedCsvString(data, source_name, options);
  });
}

absl::StatusOr<double> GradeTables(const CompetitionGrader& grader, const TypedTable& submission,
                                   const TypedTable& answers) {
  if (grader.grade_typed != nullptr) return grader.grade_typed(submission, answers);
  if (grader.grade != nullptr) return grader.grade(submission.ToTable(), answers.ToTable());
  return absl::InternalError(absl::StrCat("grader ", grader.id, " has no grade function"));
}

}  // namespace mlebench
