// Upstream's plant-pathology-2021-fgvc8/prepare.py: an 80/20 split of
// Kaggle's labelled train.csv (image, labels). The test rows' labels become
// private/answers.csv; the sample submission predicts "healthy" everywhere;
// each split's images are copied from raw/train_images/ to
// public/train_images/ or public/test_images/ under their own names.
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

// The `image` column as file names directly inside train_images/ (upstream
// joins them to a path; anything else would reach outside that folder).
absl::StatusOr<std::vector<std::string>> ImageNames(const Table& table) {
  ASSIGN_OR_RETURN(const Column* images, table.Get("image"));
  std::vector<std::string> names;
  for (size_t row = 0; row < images->cells.size(); ++row) {
    const std::string* name = std::get_if<std::string>(&images->cells[row]);
    if (name == nullptr || !IsPlainFileName(*name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "train.csv row ", row, ": 'image' must be text naming a file in train_images/"));
    }
    names.push_back(*name);
  }
  return names;
}

// Copies raw/train_images/<name> to `dest`/<name> for each name, then runs
// upstream's check that `dest` holds one .jpg per row.
absl::Status CopyImages(const fs::path& raw, const std::vector<std::string>& names,
                        const fs::path& dest, std::string_view what) {
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train_images", dest, names));
  size_t jpgs = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dest)) {
    jpgs += entry.path().filename().string().ends_with(".jpg");  // pathlib's glob("*.jpg")
  }
  if (jpgs != names.size()) {
    return CheckFailed(absl::StrCat(std::string(what),
                                    " images should have the same number of images as the ",
                                    std::string(what), " DataFrame (", jpgs, " .jpg files for ",
                                    names.size(), " rows)"));
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.2;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& answers = split.test;

  Table submission = answers;
  RETURN_IF_ERROR(SetConstantColumn(submission, "labels", std::string("healthy")));
  if (new_train.Find("image") == nullptr || new_train.Find("labels") == nullptr) {
    return CheckFailed("Train DataFrame must have 'image' and 'labels' columns");
  }
  ASSIGN_OR_RETURN(std::vector<std::string> train_images, ImageNames(new_train));
  ASSIGN_OR_RETURN(std::vector<std::string> test_images, ImageNames(answers));
  const std::set<std::string> train_set(train_images.begin(), train_images.end());
  for (const std::string& image : test_images) {
    if (train_set.contains(image)) {
      return CheckFailed(absl::StrCat("new_train and answers should not share any image (",
                                      image, ")"));
    }
  }

  for (const auto& [table, path] : {
           std::pair{&answers, private_dir / "answers.csv"},
           std::pair{&new_train, public_dir / "train.csv"},
           std::pair{static_cast<const Table*>(&submission), public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  RETURN_IF_ERROR(CopyImages(raw, train_images, public_dir / "train_images", "Public train"));
  return CopyImages(raw, test_images, public_dir / "test_images", "Public test");
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
