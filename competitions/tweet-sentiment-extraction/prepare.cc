// Upstream's tweet-sentiment-extraction/prepare.py: a 90/10 split of
// Kaggle's labelled train.csv; the held-out rows, selected_text included,
// are the answers.
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
  ASSIGN_OR_RETURN(Table test_without_labels, (DropColumns(split.test, {"selected_text"})));
  // Every selected_text of the sample submission is the empty string.
  ASSIGN_OR_RETURN(Table sample_submission,
                   (SelectColumns(split.test, {"textID", "selected_text"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "selected_text", std::string()));

  for (const auto& [table, path] : {
           CsvOutput{&split.train, public_dir / "train.csv"},
           CsvOutput{&split.test, private_dir / "test.csv"},
           CsvOutput{&test_without_labels, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
