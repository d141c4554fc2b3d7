// Upstream's imet-2020-fgvc7/prepare.py: an 85/15 split of Kaggle's
// labelled train.csv (id, attribute_ids). The test rows become
// private/answers.csv; the sample submission predicts "0 1 2" everywhere;
// labels.csv is copied as is; each split's images are copied from
// raw/train/<id>.png to public/train/ or public/test/.
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
#include "pycompat/python_str.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// The image file names f"{id}.png" of a table's ids (Python's str of the
// cell, so pandas' numeric ids too), which must stay inside raw/train/.
absl::StatusOr<std::vector<std::string>> ImageNames(const Table& table) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get("id"));
  std::vector<std::string> names;
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string id = PythonStr(ids->cells[row]);
    if (id.find_first_of(std::string_view("/\\\0", 3)) != std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv row ", row, ": 'id' must name an image in train/"));
    }
    names.push_back(id + ".png");
  }
  return names;
}

// Copies raw/train/<name> to `dest`/<name> for each name, then runs
// upstream's check that `dest` holds one .png per row.
absl::Status CopyImages(const fs::path& raw, const std::vector<std::string>& names,
                        const fs::path& dest, std::string_view what) {
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train", dest, names));
  size_t pngs = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dest)) {
    pngs += entry.path().filename().string().ends_with(".png");  // pathlib's glob("*.png")
  }
  if (pngs != names.size()) {
    return CheckFailed(absl::StrCat(std::string(what), " images should have the same number of ",
                                    "images as the ", std::string(what), " (", pngs,
                                    " .png files for ", names.size(), " rows)"));
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.15;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& answers = split.test;

  Table sample_submission = answers;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "attribute_ids", std::string("0 1 2")));
  // SetConstantColumn appends a column that was missing; upstream then
  // fails its column check.
  if (sample_submission.ColumnNames() != old_train.ColumnNames()) {
    return CheckFailed("Sample submission and old train should have the same columns");
  }
  ASSIGN_OR_RETURN(std::vector<std::string> train_images, ImageNames(new_train));
  ASSIGN_OR_RETURN(std::vector<std::string> test_images, ImageNames(answers));
  // Python's set of ids; their file names are distinct exactly when the ids
  // are, except for numbers that print alike, which upstream's set also
  // merges (1 == 1.0).
  const std::set<std::string> train_set(train_images.begin(), train_images.end());
  for (const std::string& image : test_images) {
    if (train_set.contains(image)) {
      return CheckFailed(absl::StrCat("New train and answers should have no overlap of rows (",
                                      image, ")"));
    }
  }

  for (const auto& [table, path] : {
           std::pair{&answers, private_dir / "answers.csv"},
           std::pair{&new_train, public_dir / "train.csv"},
           std::pair{static_cast<const Table*>(&sample_submission),
                     public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  std::error_code error;
  fs::copy_file(raw / "labels.csv", public_dir / "labels.csv",
                fs::copy_options::overwrite_existing, error);
  if (error) return absl::NotFoundError(absl::StrCat("cannot copy labels.csv: ", error.message()));
  for (const char* dir : {"test", "train"}) {
    fs::create_directories(public_dir / dir, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create public/", dir));
  }
  RETURN_IF_ERROR(CopyImages(raw, train_images, public_dir / "train", "Train"));
  return CopyImages(raw, test_images, public_dir / "test", "Test");
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
