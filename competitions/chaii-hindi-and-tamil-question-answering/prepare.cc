// Upstream's chaii-hindi-and-tamil-question-answering/prepare.py: a 90/10
// split of Kaggle's labelled train.csv. The held-out answers, as `id` and
// `PredictionString`, are the private answers; the sample submission answers
// "dummy text" everywhere.
#include <filesystem>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

using CsvOutput = std::pair<const Table*, std::filesystem::path>;

absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  ASSIGN_OR_RETURN(Table test_without_labels,
                   (DropColumns(split.test, {"answer_start", "answer_text"})));
  ASSIGN_OR_RETURN(Table answers, (SelectColumns(split.test, {"id", "answer_text"})));
  answers.mutable_columns()[1].name = "PredictionString";
  Table sample_submission = answers;
  RETURN_IF_ERROR(
      SetConstantColumn(sample_submission, "PredictionString", std::string("dummy text")));

  for (const auto& [table, path] : {
           CsvOutput{&split.train, public_dir / "train.csv"},
           CsvOutput{&test_without_labels, public_dir / "test.csv"},
           CsvOutput{&answers, private_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
