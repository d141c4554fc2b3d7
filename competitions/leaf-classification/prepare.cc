// Upstream's leaf-classification/prepare.py: a 90/10 split of the labelled
// train.csv inside Kaggle's train.csv.zip. Both splits' leaf images are
// copied from Kaggle's images.zip into public/images/; the answers and the
// sample submission are one-hot tables over the 99 species.
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/one_hot.h"
#include "competitions/common/preparer.h"
#include "competitions/leaf-classification/classes.h"
#include "formats/zip_archive.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using leaf_classification::Classes;

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, fs::path>;


absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  // Upstream extracts both archives into raw/; we leave raw/ untouched and
  // use scratch/.
  const fs::path extracted = scratch / "extracted";
  RETURN_IF_ERROR(ExtractZip(raw / "train.csv.zip", extracted));
  if (!fs::is_regular_file(extracted / "train.csv")) {
    return absl::NotFoundError(
        absl::StrCat((raw / "train.csv.zip").string(), " holds no train.csv at its root"));
  }
  RETURN_IF_ERROR(ExtractZip(raw / "images.zip", extracted));

  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((extracted / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  ASSIGN_OR_RETURN(Table new_test_without_labels, (DropColumns(split.test, {"species"})));
  ASSIGN_OR_RETURN(Table labels, (SelectColumns(split.test, {"id", "species"})));
  ASSIGN_OR_RETURN(Table new_test, DfToOneHot(labels, "id", "species", Classes()));

  // Upstream copies the images of both splits, then checks that as many
  // files arrived as there are rows (so repeated ids fail).
  ASSIGN_OR_RETURN(std::vector<std::string> train_images, IdFileNames(new_train, "train.csv", ".jpg"));
  ASSIGN_OR_RETURN(std::vector<std::string> test_images, IdFileNames(new_test_without_labels, "train.csv", ".jpg"));
  std::vector<std::string> images = std::move(train_images);
  images.insert(images.end(), test_images.begin(), test_images.end());
  if (std::set<std::string>(images.begin(), images.end()).size() != images.size()) {
    return CheckFailed(
        "Public images should have the same number of images as the sum of train and test");
  }
  std::error_code error;
  fs::create_directories(public_dir / "images", error);
  if (!error) fs::create_directories(private_dir / "images", error);  // upstream leaves it empty
  if (error) return absl::InternalError(absl::StrCat("cannot create images/: ", error.message()));
  for (const std::string& image : images) {
    const fs::path source = extracted / "images" / image;
    if (!fs::is_regular_file(source)) {
      return absl::NotFoundError(absl::StrCat("images.zip has no image images/", image));
    }
    if (!fs::copy_file(source, public_dir / "images" / image, fs::copy_options::overwrite_existing,
                       error)) {
      return absl::InternalError(absl::StrCat("cannot copy images/", image, ": ", error.message()));
    }
  }
  if (new_test_without_labels.num_rows() != new_test.num_rows()) {
    return CheckFailed("Public and Private tests should have equal length");
  }

  Table sample_submission = new_test;
  for (const std::string& name : Classes()) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, name, 1.0 / Classes().size()));
  }

  for (const auto& [table, path] : {
           CsvOutput{&new_train, public_dir / "train.csv"},
           CsvOutput{&new_test, private_dir / "test.csv"},
           CsvOutput{&new_test_without_labels, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
