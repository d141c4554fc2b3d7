// Upstream's playground-series-s3e18/prepare.py: a 90/10 split of Kaggle's
// labelled train.csv (id, 31 molecular descriptors, EC1..EC6). The answers
// are the held-out rows with every column; the public test drops the six
// labels; the sample submission keeps id, EC1 and EC2, set to 0.5.
#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, fs::path>;

// `df.drop(df.columns.difference(keep), axis=1)`: the columns named in
// `keep`, in the table's own order; names in `keep` that are not columns are
// ignored.
Table KeepColumns(const Table& table, const std::vector<std::string>& keep) {
  std::vector<Column> columns;
  for (const Column& c : table.columns()) {
    if (std::find(keep.begin(), keep.end(), c.name) != keep.end()) columns.push_back(c);
  }
  return Table(std::move(columns));
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& new_test = split.test;

  Table sample_submission = new_test;
  for (const char* target : {"EC1", "EC2"}) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, target, 0.5));
  }
  sample_submission = KeepColumns(sample_submission, {"id", "EC1", "EC2"});
  ASSIGN_OR_RETURN(Table public_test,
                   (DropColumns(new_test, {"EC1", "EC2", "EC3", "EC4", "EC5", "EC6"})));

  // Upstream's checks (it runs them after writing; we run them first so that
  // bad input leaves no output).
  if (public_test.num_columns() != 32) {
    return CheckFailed(absl::StrCat("Public test set should have 32 columns (it has ",
                                    public_test.num_columns(), ")"));
  }
  if (new_train.num_columns() != 38) {
    return CheckFailed(absl::StrCat("Public train set should have 38 columns (it has ",
                                    new_train.num_columns(), ")"));
  }
  if (new_train.num_rows() + new_test.num_rows() != old_train.num_rows()) {
    return CheckFailed("Length of new_train and new_test should equal length of old_train");
  }

  for (const auto& [table, path] : {
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
           CsvOutput{&new_test, private_dir / "test.csv"},
           CsvOutput{&new_train, public_dir / "train.csv"},
           CsvOutput{&public_test, public_dir / "test.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
