// Upstream's facebook-recruiting-iii-keyword-extraction/prepare.py: a 90/10
// split of Kaggle's Train.csv (Id, Title, Body, Tags; Id and Tags read as
// text), extracted from Train.zip. The test rows without Tags become
// public/test.csv, with them private/test.csv; the sample submission gives
// every test question the tags "javascript c# python php java".
#include <filesystem>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  // Upstream extracts into raw/; we leave raw/ untouched and use scratch/.
  const fs::path extracted = scratch / "Train_zip";
  RETURN_IF_ERROR(ExtractZip(raw / "Train.zip", extracted));
  if (!fs::is_regular_file(extracted / "Train.csv")) {
    return absl::NotFoundError(
        absl::StrCat((raw / "Train.zip").string(), " holds no Train.csv at its root"));
  }
  CsvReadOptions read_options;
  read_options.string_columns = {"Id", "Tags"};
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((extracted / "Train.csv").string(), read_options));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  ASSIGN_OR_RETURN(Table test_without_labels, (DropColumns(split.test, {"Tags"})));
  Table sample_submission = test_without_labels;
  RETURN_IF_ERROR(
      SetConstantColumn(sample_submission, "Tags", std::string("javascript c# python php java")));
  for (const auto& [table, path] : {
           std::pair{static_cast<const Table*>(&split.train), public_dir / "train.csv"},
           std::pair{static_cast<const Table*>(&test_without_labels), public_dir / "test.csv"},
           std::pair{static_cast<const Table*>(&sample_submission),
                     public_dir / "sample_submission.csv"},
           std::pair{static_cast<const Table*>(&split.test), private_dir / "test.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  // Upstream's length checks hold by construction of the split.
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
