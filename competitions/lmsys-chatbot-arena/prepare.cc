// Upstream's lmsys-chatbot-arena/prepare.py: a 90/10 split of Kaggle's
// labelled train.csv; the held-out rows, all columns kept, are the answers.
#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

using CsvOutput = std::pair<const Table*, std::filesystem::path>;

// Upstream's sample submission: the same 0.3333333333333333 for each outcome.
constexpr double kUniform = 0.3333333333333333;

absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& answers = split.test;
  ASSIGN_OR_RETURN(Table new_test,
                   (SelectColumns(answers, {"id", "prompt", "response_a", "response_b"})));
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(answers, {"id"})));
  for (const char* name : {"winner_model_a", "winner_model_b", "winner_tie"}) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, name, kUniform));
  }

  // Upstream's assert that the split keeps the ids apart.
  const std::vector<Cell>& train_ids = split.train.Find("id")->cells;
  const std::vector<Cell>& test_ids = new_test.Find("id")->cells;
  std::vector<Cell> sorted_train_ids = train_ids;
  std::sort(sorted_train_ids.begin(), sorted_train_ids.end());
  for (const Cell& id : test_ids) {
    if (std::binary_search(sorted_train_ids.begin(), sorted_train_ids.end(), id)) {
      return absl::FailedPreconditionError(
          "train.csv repeats an id across the new train and test splits");
    }
  }

  for (const auto& [table, path] : {
           CsvOutput{&answers, private_dir / "answers.csv"},
           CsvOutput{&split.train, public_dir / "train.csv"},
           CsvOutput{&new_test, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
