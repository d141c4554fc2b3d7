// Upstream's plant-seedlings-classification/prepare.py: Kaggle's labelled
// images raw/train/<species>/<file>.png are listed (species folders and
// files in sorted order, only names ending in ".png"), split 86/14
// (random_state 0), and copied to public/train/<species>/<file> and
// public/test/<file>. private/answers.csv lists the test files with their
// species; the sample submission names every test file "Sugar beet".
#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Sorted names in `dir` (Python's sorted(os.listdir()): by code point, which
// is byte order for UTF-8).
absl::StatusOr<std::vector<std::string>> SortedEntries(const fs::path& dir) {
  std::error_code error;
  std::vector<std::string> names;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    names.push_back(it->path().filename().string());
  }
  if (error) {
    return absl::NotFoundError(
        absl::StrCat("cannot list ", dir.filename().string(), ": ", error.message()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

// create_dataframe_from_directory(raw/train): columns file and species.
absl::StatusOr<Table> ListImages(const fs::path& train_dir) {
  Column files{"file", Dtype::kObject, {}}, species{"species", Dtype::kObject, {}};
  ASSIGN_OR_RETURN(std::vector<std::string> labels, SortedEntries(train_dir));
  for (const std::string& label : labels) {
    if (!fs::is_directory(train_dir / label)) continue;
    ASSIGN_OR_RETURN(std::vector<std::string> names, SortedEntries(train_dir / label));
    for (const std::string& name : names) {
      if (!name.ends_with(".png")) continue;
      files.cells.push_back(name);
      species.cells.push_back(label);
    }
  }
  if (files.cells.empty()) {
    return absl::InvalidArgumentError("raw/train holds no <species>/*.png images");
  }
  return Table({std::move(files), std::move(species)});
}

std::string Text(const Table& table, std::string_view column, size_t row) {
  return std::get<std::string>(table.Find(column)->cells[row]);
}

// Upstream's closing glob counts ("train/**/*.png", "test/*.png") skip
// hidden names, and a test file listed twice is copied onto itself: either
// makes a count differ from the rows.
absl::Status CheckGlobCounts(const Table& train, const Table& test) {
  for (size_t row = 0; row < train.num_rows(); ++row) {
    if (Text(train, "species", row).starts_with(".") || Text(train, "file", row).starts_with(".")) {
      return CheckFailed(absl::StrCat(
          "Public train images should have the same number of images "
          "as the train DataFrame (",
          Text(train, "species", row), "/", Text(train, "file", row), " is hidden from glob)"));
    }
  }
  std::set<std::string> test_files;
  for (size_t row = 0; row < test.num_rows(); ++row) {
    const std::string file = Text(test, "file", row);
    if (file.starts_with(".") || !test_files.insert(file).second) {
      return CheckFailed(
          absl::StrCat("Public test images should have the same number of images "
                       "as the answers DataFrame (",
                       file, ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  const fs::path train_dir = raw / "train";
  ASSIGN_OR_RETURN(Table old_train, ListImages(train_dir));
  TrainTestSplitOptions options;
  options.test_size = 0.14;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& train = split.train;
  const Table& test = split.test;
  Table sample = test;
  RETURN_IF_ERROR(SetConstantColumn(sample, "species", std::string("Sugar beet")));

  // Upstream's checks, before anything is written.
  std::set<std::string> train_files;
  for (size_t row = 0; row < train.num_rows(); ++row) train_files.insert(Text(train, "file", row));
  for (size_t row = 0; row < test.num_rows(); ++row) {
    if (train_files.count(Text(test, "file", row)) > 0) {
      return CheckFailed("new_train and answers should not share any image");
    }
  }
  RETURN_IF_ERROR(CheckGlobCounts(train, test));

  RETURN_IF_ERROR(WriteCsvFile(test, (private_dir / "answers.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(sample, (public_dir / "sample_submission.csv").string()));
  std::error_code error;
  fs::create_directories(public_dir / "test", error);
  fs::create_directories(public_dir / "train", error);
  for (size_t row = 0; row < train.num_rows(); ++row) {
    const std::string species = Text(train, "species", row), file = Text(train, "file", row);
    RETURN_IF_ERROR(
        CopyRegularFile(train_dir / species / file, public_dir / "train" / species / file));
  }
  for (size_t row = 0; row < test.num_rows(); ++row) {
    const std::string species = Text(test, "species", row), file = Text(test, "file", row);
    RETURN_IF_ERROR(CopyRegularFile(train_dir / species / file, public_dir / "test" / file));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
