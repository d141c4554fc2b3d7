// Upstream's spooky-author-identification/prepare.py: a 90/10 split of the
// labelled train.csv inside Kaggle's train.zip; answers and sample
// submission are one-hot tables over the three authors.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/one_hot.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, std::filesystem::path>;

// Upstream's classes.py, in its order (the one-hot column order).
const std::vector<std::string>& Classes() {
  static const auto* classes = new std::vector<std::string>{"EAP", "HPL", "MWS"};
  return *classes;
}

// The sample submission's constant probabilities per class (upstream's
// figures, which follow Kaggle's own sample submission).
constexpr double kSampleProbabilities[] = {0.403493538995863, 0.287808366106543,
                                           0.308698094897594};

absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& scratch) {
  // Upstream extracts into raw/; we leave raw/ untouched and use scratch/.
  const std::filesystem::path extracted = scratch / "train_zip";
  RETURN_IF_ERROR(ExtractZip(raw / "train.zip", extracted));
  if (!std::filesystem::is_regular_file(extracted / "train.csv")) {
    return absl::NotFoundError(
        absl::StrCat((raw / "train.zip").string(), " holds no train.csv at its root"));
  }
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((extracted / "train.csv").string()));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  ASSIGN_OR_RETURN(Table public_test, (DropColumns(split.test, {"author"})));

  ASSIGN_OR_RETURN(Table labels, (DropColumns(split.test, {"text"})));
  ASSIGN_OR_RETURN(Table answers, DfToOneHot(labels, "id", "author", Classes()));
  Table sample_submission = answers;
  for (size_t i = 0; i < Classes().size(); ++i) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, Classes()[i], kSampleProbabilities[i]));
  }

  for (const auto& [table, path] : {
           CsvOutput{&split.train, public_dir / "train.csv"},
           CsvOutput{&public_test, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
           CsvOutput{&answers, private_dir / "test.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
