// Upstream's iwildcam-2019-fgvc6/prepare.py: the camera locations of the
// labelled train.csv are split 90/10 (sklearn train_test_split on
// location.unique(), random_state=8), so train and test never share a
// camera. Writes public/train.csv, public/test.csv (no category_id),
// public/sample_submission.csv (Id, Category = 0, with pandas' index column:
// upstream writes it with index=True), public/{train,test}_images.zip, and
// private/test.csv (the test rows with labels), private/answers.csv (Id,
// Category).

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// `Series.unique()`: values in first-seen order; all NaN count as one.
std::vector<Cell> Unique(const Column& column) {
  std::vector<Cell> unique;
  bool seen_missing = false;
  for (const Cell& cell : column.cells) {
    if (IsMissing(cell)) {
      if (!seen_missing) unique.push_back(cell);
      seen_missing = true;
      continue;
    }
    bool seen = false;
    for (const Cell& u : unique) seen = seen || CellsEqual(u, cell);
    if (!seen) unique.push_back(cell);
  }
  return unique;
}

// The ids as `unique()` / Python's set hold them, compared by str() (exact
// for the text ids of this data; a missing id is "nan", as its file name).
std::set<std::string> IdSet(const Column& ids) {
  std::set<std::string> set;
  for (const Cell& cell : ids.cells) set.insert(PythonStr(cell));
  return set;
}

bool IsJpgName(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".jpg") == 0;
}

// `len(list(dir.glob("*.jpg")))`.
size_t CountJpgs(const fs::path& dir) {
  size_t count = 0;
  std::error_code error;
  for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    count += IsJpgName(it->path());
  }
  return count;
}

// The image file names "<id>.jpg" of `ids`, each a plain name (InvalidArgument
// otherwise), so that no copy reaches outside the image folder.
absl::StatusOr<std::vector<std::string>> ImageFileNames(const Column& ids) {
  std::vector<std::string> names;
  for (const Cell& cell : ids.cells) {
    std::string name = absl::StrCat(PythonStr(cell), ".jpg");
    if (!IsPlainFileName(name)) {
      return absl::InvalidArgumentError(absl::StrCat("train.csv: bad image id '", name, "'"));
    }
    names.push_back(std::move(name));
  }
  return names;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  const Column* locations = old_train.Find("location");
  const Column* ids = old_train.Find("id");
  if (locations == nullptr || ids == nullptr || old_train.Find("category_id") == nullptr) {
    return absl::InvalidArgumentError("train.csv needs 'id', 'location' and 'category_id' columns");
  }

  const std::vector<Cell> unique_locations = Unique(*locations);
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 8;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(unique_locations.size()), options));
  std::vector<int64_t> train_rows;
  std::vector<int64_t> test_rows;
  for (size_t row = 0; row < locations->cells.size(); ++row) {
    // `loc in test_locations` on a numpy array: any element == loc.
    bool in_test = false;
    for (int64_t i : split.test_indices) {
      in_test = in_test || CellsEqual(unique_locations[static_cast<size_t>(i)], locations->cells[row]);
    }
    (in_test ? test_rows : train_rows).push_back(static_cast<int64_t>(row));
  }
  ASSIGN_OR_RETURN(Table new_train, TakeRows(old_train, train_rows));
  ASSIGN_OR_RETURN(Table answers, TakeRows(old_train, test_rows));
  ASSIGN_OR_RETURN(Table new_test, (DropColumns(answers, {"category_id"})));
  ASSIGN_OR_RETURN(Table gold, (SelectColumns(answers, {"id", "category_id"})));
  gold.mutable_columns()[0].name = "Id";
  gold.mutable_columns()[1].name = "Category";

  // Upstream extracts the images next to the raw data; we use scratch.
  const fs::path raw_images = scratch / "train_images";
  RETURN_IF_ERROR(ExtractZip(raw / "train_images.zip", raw_images));
  if (CountJpgs(raw_images) != IdSet(*ids).size()) {
    return CheckFailed(absl::StrCat(
        "Raw train images should have the same number of images as the unique ids in the old "
        "train set, but got ",
        CountJpgs(raw_images), " files and ", IdSet(*ids).size(), " ids"));
  }

  // The sample submission keeps the test rows' original index labels.
  const std::vector<Cell> index(test_rows.begin(), test_rows.end());
  Table sample(
      {Column{"", Dtype::kInt64, index}, gold.columns()[0],
       Column{"Category", Dtype::kInt64, std::vector<Cell>(test_rows.size(), int64_t{0})}});

  const Column& train_ids = *new_train.Find("id");
  const Column& test_ids = *new_test.Find("id");
  const std::set<std::string> train_id_set = IdSet(train_ids);
  for (const std::string& id : IdSet(test_ids)) {
    if (train_id_set.count(id) != 0) return CheckFailed("new_train and new_test are not disjoint");
  }

  struct Output {
    const Table* table;
    fs::path path;
  };
  for (const Output& out :
       {Output{&answers, private_dir / "test.csv"}, Output{&gold, private_dir / "answers.csv"},
        Output{&new_train, public_dir / "train.csv"}, Output{&new_test, public_dir / "test.csv"},
        Output{&sample, public_dir / "sample_submission.csv"}}) {
    RETURN_IF_ERROR(WriteCsvFile(*out.table, out.path.string()));
  }

  // The images, zipped (upstream copies them to folders, zips and deletes
  // the folders; ours are staged in scratch).
  const fs::path staged_train = scratch / "public_train_images";
  const fs::path staged_test = scratch / "public_test_images";
  ASSIGN_OR_RETURN(const std::vector<std::string> train_names, ImageFileNames(train_ids));
  ASSIGN_OR_RETURN(const std::vector<std::string> test_names, ImageFileNames(test_ids));
  RETURN_IF_ERROR(CopyNamedFiles(raw_images, staged_train, train_names));
  RETURN_IF_ERROR(CopyNamedFiles(raw_images, staged_test, test_names));
  if (CountJpgs(staged_test) != IdSet(test_ids).size()) {
    return CheckFailed("Public test images should have the same number of images as the unique "
                       "ids in the test set");
  }
  if (CountJpgs(staged_train) != train_id_set.size()) {
    return CheckFailed("Public train images should have the same number of images as the unique "
                       "ids in the train set");
  }
  RETURN_IF_ERROR(ZipDirectory(staged_train, public_dir / "train_images.zip"));
  return ZipDirectory(staged_test, public_dir / "test_images.zip");
}

}  // namespace

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID,
    .prepare = &Prepare,
});

}  // namespace mlebench
