// Upstream's dog-breed-identification/prepare.py: a 90/10 split of Kaggle's
// labelled labels.csv (id, breed); the held-out labels become one-hot
// answers, and each split's images are copied from the extracted train/
// folder of the raw download into public/train/ and public/test/.
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/one_hot.h"
#include "competitions/common/preparer.h"
#include "competitions/dog-breed-identification/classes.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using dog_breed_identification::Breeds;

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, fs::path>;

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "labels.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  ASSIGN_OR_RETURN(Table new_test, DfToOneHot(split.test, "id", "breed", Breeds()));

  ASSIGN_OR_RETURN(std::vector<std::string> train_images, IdFileNames(new_train, "labels.csv", ".jpg"));
  ASSIGN_OR_RETURN(std::vector<std::string> test_images, IdFileNames(new_test, "labels.csv", ".jpg"));
  // Upstream copies, then asserts as many .jpg files arrived as there are
  // rows, so a repeated id fails; we check before writing anything.
  if (std::set<std::string>(train_images.begin(), train_images.end()).size() !=
      train_images.size()) {
    return CheckFailed("public/train should hold one image per row of labels.csv");
  }
  if (std::set<std::string>(test_images.begin(), test_images.end()).size() != test_images.size()) {
    return CheckFailed("public/test should hold one image per row of the answers");
  }

  Table sample_submission = new_test;
  for (const std::string& breed : Breeds()) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, breed, 1.0 / Breeds().size()));
  }
  if (sample_submission.num_columns() != Breeds().size() + 1 ||
      sample_submission.num_rows() != new_test.num_rows()) {
    return CheckFailed("the sample submission should have an id column and 120 breed columns");
  }

  for (const auto& [table, path] : {
           CsvOutput{&new_train, public_dir / "labels.csv"},
           CsvOutput{&new_test, private_dir / "test.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train", public_dir / "train", train_images));
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train", public_dir / "test", test_images));
  return WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
