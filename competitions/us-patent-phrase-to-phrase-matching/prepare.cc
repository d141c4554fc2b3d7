// Upstream's us-patent-phrase-to-phrase-matching/prepare.py: a 90/10 split
// of Kaggle's labelled train.csv (id, anchor, target, context, score). The
// answers are the held-out rows with every column, the public test drops
// `score`, and the sample submission is (id, score = 0).
#include <filesystem>
#include <string>
#include <utility>

#include "absl/status/status.h"
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

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  ASSIGN_OR_RETURN(Table public_test, (DropColumns(split.test, {"score"})));

  // `new_test.copy()[["id", "score"]]` with score set to the int 0.
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(split.test, {"id", "score"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "score", Cell(int64_t{0})));

  for (const auto& [table, path] : {
           CsvOutput{&split.train, public_dir / "train.csv"},
           CsvOutput{&split.test, private_dir / "test.csv"},
           CsvOutput{&public_test, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
