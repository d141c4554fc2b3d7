// Upstream's siim-isic-melanoma-classification/prepare.py: Kaggle's labelled
// train.csv split by TFRecord shard: the images of two fixed shards
// (train00-2071.tfrec and train06-2071.tfrec, about a tenth of the data)
// become the new test set. Their DICOM and JPEG files move to public/test
// and public/jpeg/test, the others to public/train and public/jpeg/train; the
// shards are renumbered into public/tfrecords as test00/test01 and
// train00..train13 (keeping their record counts in the names).
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
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
#include "base/files.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "formats/tfrecord.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Upstream's choice of test shards (a Python set: its order does not matter,
// the ids only feed `isin`).
constexpr const char* kTestShards[] = {"train00-2071.tfrec", "train06-2071.tfrec"};

const std::vector<std::string> kTestColumns = {"image_name", "patient_id", "sex", "age_approx",
                                               "anatom_site_general_challenge"};
const std::vector<std::string> kTrainColumns = {
    "image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge",
    "diagnosis", "benign_malignant", "target"};

// The image_name values of every record in the shard.
absl::StatusOr<std::vector<std::string>> ShardIds(const fs::path& shard) {
  ASSIGN_OR_RETURN(std::string bytes, ReadFileToString(shard));
  absl::StatusOr<std::vector<std::string>> records = ReadTfRecords(bytes);
  if (!records.ok()) {
    return absl::DataLossError(
        absl::StrCat(shard.filename().string(), ": ", records.status().message()));
  }
  std::vector<std::string> ids;
  for (size_t i = 0; i < records->size(); ++i) {
    absl::StatusOr<std::string> id = ExampleFirstBytesValue((*records)[i], "image_name");
    if (!id.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(shard.filename().string(), " record ", i,
                                                     ": ", id.status().message()));
    }
    ids.push_back(*std::move(id));
  }
  return ids;
}

// The image names of `table` as file name stems: text naming a file directly
// inside a folder (upstream builds paths from them).
absl::StatusOr<std::vector<std::string>> ImageNames(const Table& table) {
  ASSIGN_OR_RETURN(const Column* names, table.Get("image_name"));
  std::vector<std::string> out;
  for (size_t row = 0; row < names->cells.size(); ++row) {
    const std::string* name = std::get_if<std::string>(&names->cells[row]);
    if (name == nullptr || !IsPlainFileName(*name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "train.csv: 'image_name' must name an image file, got ",
          name == nullptr ? std::string("a missing or non-text value") : absl::StrCat("'", *name, "'")));
    }
    out.push_back(*name);
  }
  return out;
}

absl::Status MakeDirs(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
  return absl::OkStatus();
}

// The number of regular files in `dir` whose names end with `suffix`
// (upstream's `len(list(public.glob("<dir>/*<suffix>")))`).
size_t CountFiles(const fs::path& dir, std::string_view suffix) {
  size_t count = 0;
  std::error_code error;
  for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(),
                                                     std::string(suffix)) == 0) {
      ++count;
    }
  }
  return count;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));

  std::set<std::string> test_ids;
  for (const char* shard : kTestShards) {
    ASSIGN_OR_RETURN(std::vector<std::string> ids, ShardIds(raw / "tfrecords" / shard));
    test_ids.insert(ids.begin(), ids.end());
  }

  // `old_train["image_name"].isin(test_ids)`: only text can equal the ids.
  ASSIGN_OR_RETURN(const Column* names, old_train.Get("image_name"));
  std::vector<int64_t> train_rows, test_rows;
  for (size_t row = 0; row < names->cells.size(); ++row) {
    const std::string* name = std::get_if<std::string>(&names->cells[row]);
    (name != nullptr && test_ids.count(*name) > 0 ? test_rows : train_rows)
        .push_back(static_cast<int64_t>(row));
  }
  ASSIGN_OR_RETURN(Table new_train, TakeRows(old_train, train_rows));
  ASSIGN_OR_RETURN(Table test_rows_table, TakeRows(old_train, test_rows));
  ASSIGN_OR_RETURN(Table new_test_without_labels, SelectColumns(test_rows_table, kTestColumns));
  ASSIGN_OR_RETURN(Table new_test, (SelectColumns(test_rows_table, {"image_name", "target"})));
  Table sample_submission = new_test;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "target", int64_t{0}));
  // Upstream's column checks (it runs them last; they do not depend on files).
  if (new_train.ColumnNames() != kTrainColumns) return CheckFailed("new_train columns mismatch");

  ASSIGN_OR_RETURN(std::vector<std::string> train_names, ImageNames(new_train));
  ASSIGN_OR_RETURN(std::vector<std::string> test_names, ImageNames(new_test));

  for (const auto& [table, path] :
       {std::pair{&new_train, public_dir / "train.csv"},
        std::pair{&new_test_without_labels, public_dir / "test.csv"},
        std::pair{&sample_submission, public_dir / "sample_submission.csv"},
        std::pair{&new_test, private_dir / "test.csv"}}) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }

  // DICOMs and JPEGs, all from Kaggle's train folders.
  for (const auto& [names_of_split, split] :
       {std::pair{&train_names, "train"}, std::pair{&test_names, "test"}}) {
    RETURN_IF_ERROR(MakeDirs(public_dir / split));
    RETURN_IF_ERROR(MakeDirs(public_dir / "jpeg" / split));
    for (const std::string& name : *names_of_split) {
      RETURN_IF_ERROR(
          CopyRegularFile(raw / "train" / (name + ".dcm"), public_dir / split / (name + ".dcm")));
      RETURN_IF_ERROR(CopyRegularFile(raw / "jpeg" / "train" / (name + ".jpg"),
                                      public_dir / "jpeg" / split / (name + ".jpg")));
    }
  }

  // TFRecord shards, renumbered per split in sorted order.
  std::vector<std::string> shards;
  std::error_code error;
  for (auto it = fs::directory_iterator(raw / "tfrecords", error);
       !error && it != fs::directory_iterator(); it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() >= 11 && name.rfind("train", 0) == 0 &&
        name.compare(name.size() - 6, 6, ".tfrec") == 0) {
      shards.push_back(name);
    }
  }
  if (error) return absl::NotFoundError("cannot list raw/tfrecords");
  std::sort(shards.begin(), shards.end());
  const fs::path tfrecords = public_dir / "tfrecords";
  RETURN_IF_ERROR(MakeDirs(tfrecords));
  int train_count = 0, test_count = 0;
  for (const std::string& shard : shards) {
    // file.stem.split("-")[1]: the text between the first and second "-"
    // of the name without its last suffix.
    const std::string stem = shard.substr(0, shard.size() - 6);
    const size_t dash = stem.find('-');
    if (dash == std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("TFRecord shard ", shard, " has no record count after a '-'"));
    }
    const size_t next = stem.find('-', dash + 1);
    const std::string record_count =
        stem.substr(dash + 1, next == std::string::npos ? std::string::npos : next - dash - 1);
    const bool is_test = shard == kTestShards[0] || shard == kTestShards[1];
    const std::string target = absl::StrFormat("%s%02d-%s.tfrec", is_test ? "test" : "train",
                                               is_test ? test_count++ : train_count++, record_count);
    RETURN_IF_ERROR(CopyRegularFile(raw / "tfrecords" / shard, tfrecords / target));
  }

  // Upstream's remaining checks.
  if (CountFiles(public_dir / "train", ".dcm") != train_names.size()) {
    return CheckFailed("Train DICOM count mismatch");
  }
  if (CountFiles(public_dir / "test", ".dcm") != test_names.size()) {
    return CheckFailed("Test DICOM count mismatch");
  }
  if (CountFiles(public_dir / "jpeg" / "train", ".jpg") != train_names.size()) {
    return CheckFailed("Train JPEG count mismatch");
  }
  if (CountFiles(public_dir / "jpeg" / "test", ".jpg") != test_names.size()) {
    return CheckFailed("Test JPEG count mismatch");
  }
  const std::set<std::string> train_set(train_names.begin(), train_names.end());
  for (const std::string& name : test_names) {
    if (train_set.count(name) > 0) return CheckFailed("Train/Test overlap");
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
