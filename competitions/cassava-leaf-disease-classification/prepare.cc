// Upstream's cassava-leaf-disease-classification/prepare.py. Kaggle's test
// images are hidden, so the new split comes from its labelled data, and it
// is made by TFRecord file, not by row: the sorted train_tfrecords/*.tfrec
// are split by sklearn's train_test_split (test_size=0.1, random_state=0),
// and the rows of train.csv whose image_id is the `image_name` of a record
// in a test file form the new test set (all other rows stay in train, in
// train.csv's order). The files are renamed to ld_train<i:02d>-<count>.tfrec
// and ld_test<i:02d>-<count>.tfrec, where <count> is the text after the
// first '-' of the original name; images are copied into train_images/ and
// test_images/; the sample submission predicts label 4 everywhere.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "formats/tfrecord.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr uintmax_t kMaxTfRecordBytes = uintmax_t{1} << 31;

// The regular files in `dir` whose pathlib suffix is ".tfrec", sorted by
// name as Python sorts paths.
absl::StatusOr<std::vector<fs::path>> TfRecordFiles(const fs::path& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    return absl::NotFoundError(absl::StrCat(dir.string(), " is not a directory"));
  }
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    // pathlib: ".tfrec" alone is a stem without suffix.
    if (name.size() > 6 && name.ends_with(".tfrec") && entry.is_regular_file(error)) {
      files.push_back(entry.path());
    }
  }
  if (error) return absl::InternalError(absl::StrCat("cannot list ", dir.string()));
  std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
    return a.filename().string() < b.filename().string();
  });
  return files;
}

// `path.stem.split("-")[1]`: the record count that Kaggle's names carry.
absl::StatusOr<std::string> RecordCountPart(const fs::path& path) {
  const std::string stem = path.stem().string();
  const size_t dash = stem.find('-');
  if (dash == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat("IndexError: ", path.filename().string(),
                                                   " has no '-<count>' part in its name"));
  }
  const size_t end = stem.find('-', dash + 1);
  return stem.substr(dash + 1, end == std::string::npos ? std::string::npos : end - dash - 1);
}

absl::StatusOr<std::vector<std::string>> ImageNames(const fs::path& path) {
  std::error_code error;
  const uintmax_t size = fs::file_size(path, error);
  if (error || size > kMaxTfRecordBytes) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read ", path.string()));
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  absl::StatusOr<std::vector<std::string>> records = ReadTfRecords(content.str());
  if (!records.ok()) {
    return absl::Status(records.status().code(),
                        absl::StrCat(path.filename().string(), ": ", records.status().message()));
  }
  std::vector<std::string> names;
  for (size_t i = 0; i < records->size(); ++i) {
    absl::StatusOr<std::string> name = ExampleFirstBytesValue((*records)[i], "image_name");
    if (!name.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path.filename().string(), " record ", i, ": ", name.status().message()));
    }
    names.push_back(*std::move(name));
  }
  return names;
}

// The image file name of a row, when it can name one entry of
// train_images/ (upstream joins it into a path).
absl::StatusOr<std::string> ImageFileName(const Cell& cell, size_t row) {
  const std::string* text = std::get_if<std::string>(&cell);
  if (text == nullptr || !IsPlainFileName(*text)) {
    return absl::InvalidArgumentError(
        absl::StrCat("train.csv row ", row, ": image_id must be a plain file name"));
  }
  return *text;
}

struct Copy {
  fs::path from;  // relative to raw/
  fs::path to;    // relative to public/
};

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(std::vector<fs::path> tfrecords, TfRecordFiles(raw / "train_tfrecords"));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(tfrecords.size()), options));

  std::set<std::string> test_ids;
  for (int64_t index : split.test_indices) {
    ASSIGN_OR_RETURN(std::vector<std::string> names, ImageNames((tfrecords)[index]));
    test_ids.insert(names.begin(), names.end());
  }

  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  ASSIGN_OR_RETURN(const Column* image_ids, old_train.Get("image_id"));
  std::vector<int64_t> train_rows, test_rows;
  for (size_t row = 0; row < old_train.num_rows(); ++row) {
    // `isin` with text ids: a number or a missing id is never in it.
    const std::string* id = std::get_if<std::string>(&image_ids->cells[row]);
    (id != nullptr && test_ids.count(*id) > 0 ? test_rows : train_rows)
        .push_back(static_cast<int64_t>(row));
  }
  ASSIGN_OR_RETURN(Table new_train, TakeRows(old_train, train_rows));
  ASSIGN_OR_RETURN(Table new_test, TakeRows(old_train, test_rows));
  Table sample = new_test;
  RETURN_IF_ERROR(SetConstantColumn(sample, "label", int64_t{4}));

  // Upstream's checks (it runs them after copying; we run them first so that
  // bad input leaves no output).
  const std::vector<std::string> expected_columns = {"image_id", "label"};
  if (new_train.ColumnNames() != expected_columns || new_test.ColumnNames() != expected_columns ||
      sample.ColumnNames() != expected_columns) {
    return CheckFailed(
        "Expected new train, new test and sample submission columns to be "
        "['image_id', 'label']");
  }
  std::vector<Copy> copies;
  for (const auto& [table, folder] :
       {std::pair{&new_train, "train_images"}, std::pair{&new_test, "test_images"}}) {
    std::set<std::string> names;
    const Column& ids = table->columns()[0];
    for (size_t row = 0; row < ids.cells.size(); ++row) {
      ASSIGN_OR_RETURN(std::string name, ImageFileName(ids.cells[row], row));
      if (!fs::is_regular_file(raw / "train_images" / name)) {
        return absl::NotFoundError(absl::StrCat("train_images/", name, " does not exist"));
      }
      names.insert(name);
      copies.push_back({fs::path("train_images") / name, fs::path(folder) / name});
    }
    // A repeated id copies one file twice: the folder then holds fewer
    // images than the table has rows.
    if (names.size() != ids.cells.size()) {
      return CheckFailed(absl::StrCat("Mismatch in number of expected ",
                                      folder == std::string_view("train_images") ? "train" : "test",
                                      " images copied"));
    }
  }
  for (const auto& [index, prefix] :
       {std::pair{&split.train_indices, "ld_train"}, std::pair{&split.test_indices, "ld_test"}}) {
    const std::string folder =
        prefix == std::string_view("ld_train") ? "train_tfrecords" : "test_tfrecords";
    for (size_t i = 0; i < index->size(); ++i) {
      const fs::path& from = (tfrecords)[(*index)[i]];
      ASSIGN_OR_RETURN(std::string count, RecordCountPart(from));
      copies.push_back({fs::path("train_tfrecords") / from.filename(),
                        fs::path(folder) / absl::StrFormat("%s%02d-%s.tfrec", prefix, i, count)});
    }
  }
  copies.push_back({"label_num_to_disease_map.json", "label_num_to_disease_map.json"});

  RETURN_IF_ERROR(WriteCsvFile(new_train, (public_dir / "train.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(new_test, (private_dir / "test.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(sample, (public_dir / "sample_submission.csv").string()));
  std::error_code error;
  for (const char* folder : {"train_tfrecords", "test_tfrecords", "train_images", "test_images"}) {
    fs::create_directories(public_dir / folder, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create public/", folder));
  }
  for (const Copy& copy : copies) {
    fs::copy_file(raw / copy.from, public_dir / copy.to, fs::copy_options::overwrite_existing,
                  error);
    if (error) {
      return absl::InternalError(absl::StrCat("cannot copy ", copy.from.string(), " to public/",
                                              copy.to.string(), ": ", error.message()));
    }
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
