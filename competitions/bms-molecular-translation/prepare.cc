// Upstream's bms-molecular-translation/prepare.py: an 80/20 split of Kaggle's
// labelled train_labels.csv (image_id, InChI), the images of each part copied
// into public/train/ and public/test/ under the same three-level folders
// (the first three characters of the id), a sample submission that guesses
// water for every test image, and extra_approved_InChIs.csv copied as is.
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
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

constexpr char kSampleInchi[] = "InChI=1S/H2O/h1H2";

// `Path(id[0]) / id[1] / id[2] / f"{id}.png"`. The id must be text of at
// least three characters (upstream's indexing fails otherwise) that names a
// file: no path separators or NUL, and none of the three folder characters a
// dot (".." would leave the image folder).
absl::StatusOr<fs::path> ImageSubpath(const Cell &cell, size_t row) {
  const std::string *id = std::get_if<std::string>(&cell);
  if (id == nullptr || id->size() < 3 ||
      id->find_first_of(std::string_view("/\\\0", 3)) != std::string::npos ||
      id->substr(0, 3).find('.') != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("train_labels.csv row ", row,
                     ": 'image_id' must be text of at least three characters "
                     "naming an image file"));
  }
  return fs::path(id->substr(0, 1)) / id->substr(1, 1) / id->substr(2, 1) / (*id + ".png");
}

// Copies the images of `table`'s rows from raw/train/ to `dest`.
absl::Status CopyImages(const Table &table, const fs::path &raw_train, const fs::path &dest) {
  const Column &ids = *table.Find("image_id");
  std::vector<std::string> subpaths;
  for (size_t row = 0; row < ids.cells.size(); ++row) {
    ASSIGN_OR_RETURN(fs::path subpath, ImageSubpath(ids.cells[row], row));
    subpaths.push_back(subpath.string());
  }
  return CopyNamedFiles(raw_train, dest, subpaths);
}

// `len(list(dir.glob("**/*.png")))`: the files under `dir` named *.png.
size_t CountPngs(const fs::path &dir) {
  size_t count = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end;
       it.increment(error)) {
    if (it->is_regular_file() && it->path().extension() == ".png") ++count;
  }
  return count;
}

absl::Status Prepare(const fs::path &raw, const fs::path &public_dir, const fs::path &private_dir,
                     const fs::path & /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train_labels.csv").string()));
  if (old_train.Find("image_id") == nullptr) {
    return absl::InvalidArgumentError("train_labels.csv has no 'image_id' column");
  }

  TrainTestSplitOptions options;
  options.test_size = 0.2;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& new_test = split.test;
  RETURN_IF_ERROR(WriteCsvFile(new_train, (public_dir / "train_labels.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(new_test, (private_dir / "test.csv").string()));

  RETURN_IF_ERROR(CopyImages(new_train, raw / "train", public_dir / "train"));
  RETURN_IF_ERROR(CopyImages(new_test, raw / "train", public_dir / "test"));

  Table sample_submission = new_test;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "InChI", Cell(std::string(kSampleInchi))));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));

  std::error_code error;
  fs::copy_file(raw / "extra_approved_InChIs.csv", public_dir / "extra_approved_InChIs.csv",
                fs::copy_options::overwrite_existing, error);
  if (error) {
    return absl::NotFoundError(
        absl::StrCat("cannot copy extra_approved_InChIs.csv: ", error.message()));
  }

  // Upstream's checks.
  if (new_train.num_rows() + new_test.num_rows() != old_train.num_rows()) {
    return CheckFailed(absl::StrCat("Expected ", old_train.num_rows(),
                                    " total images in new_train (", new_train.num_rows(),
                                    ") and new_test (", new_test.num_rows(), ")"));
  }
  if (const size_t n = CountPngs(public_dir / "train"); n != new_train.num_rows()) {
    return CheckFailed(absl::StrCat("Expected ", new_train.num_rows(),
                                    " train images in public/train, but got ", n));
  }
  if (const size_t n = CountPngs(public_dir / "test"); n != new_test.num_rows()) {
    return CheckFailed(
        absl::StrCat("Expected ", new_test.num_rows(), " test images in public/test, but got ", n));
  }
  return absl::OkStatus();
}

}  // namespace

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID,
    .prepare = &Prepare,
});

}  // namespace mlebench
