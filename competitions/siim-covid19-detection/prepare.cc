// Upstream's siim-covid19-detection/prepare.py: a 90/10 train_test_split of
// Kaggle's studies (train_study_level.csv), each part sorted by id; the
// image rows (train_image_level.csv) follow their study; every study folder
// train/<study>/<series>/<image>.dcm is copied whole into public/train or
// public/test; the answers list the held-out studies ("<label> 1 0 0 1 1",
// the label from the one-hot columns) then their images (their `label`
// boxes); the sample submission predicts "negative" and "none".
#include <filesystem>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr const char* kStudyLabels[] = {"negative", "typical", "indeterminate", "atypical"};

// `table.sort_values(by=column)` with pandas' defaults.
absl::StatusOr<Table> SortedBy(const Table& table, std::string_view column, std::string_view file) {
  const Column* key = table.Find(column);
  if (key == nullptr) {
    return absl::NotFoundError(
        absl::StrCat(std::string(file), " has no '", std::string(column), "' column"));
  }
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(*key);
  if (!order.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("cannot sort ", std::string(file), " by ",
                                                   std::string(column), ": ",
                                                   std::string(order.status().message())));
  }
  const std::vector<int64_t> rows(order->begin(), order->end());
  return TakeRows(table, rows);
}

// The text cells of `column`; upstream concatenates and replaces on them,
// which fails for anything else.
absl::StatusOr<std::vector<std::string>> TextCells(const Table& table, std::string_view column,
                                                   std::string_view file) {
  absl::StatusOr<const Column*> cells = table.Get(column);
  if (!cells.ok()) {
    return absl::NotFoundError(
        absl::StrCat(std::string(file), " has no '", std::string(column), "' column"));
  }
  std::vector<std::string> texts;
  for (size_t row = 0; row < (*cells)->cells.size(); ++row) {
    const std::string* text = std::get_if<std::string>(&(*cells)->cells[row]);
    if (text == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          std::string(file), " row ", row, ": '", std::string(column), "' must be text, got a ",
          std::string(PythonTypeName((*cells)->cells[row]))));
    }
    texts.push_back(*text);
  }
  return texts;
}

// The rows of `images` whose StudyInstanceUID + "_study" is one of
// `study_ids` (upstream's isin filter), in their order.
Table ImagesOfStudies(const Table& images, const std::vector<std::string>& image_studies,
                      const std::vector<std::string>& study_ids) {
  const absl::flat_hash_set<std::string> wanted(study_ids.begin(), study_ids.end());
  std::vector<int64_t> rows;
  for (size_t row = 0; row < image_studies.size(); ++row) {
    if (wanted.contains(image_studies[row] + "_study")) rows.push_back(static_cast<int64_t>(row));
  }
  return *TakeRows(images, rows);
}

// shutil.copytree(raw/train/<study>, dest/<study>) for each study id with
// every "_study" removed, then upstream's count of dest's entries.
absl::Status CopyStudies(const fs::path& raw_train, const std::vector<std::string>& study_ids,
                         const fs::path& dest) {
  std::error_code error;
  fs::create_directories(dest, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", dest.string()));
  for (const std::string& id : study_ids) {
    const std::string folder = absl::StrReplaceAll(id, {{"_study", ""}});
    if (!IsPlainFileName(folder)) {
      return absl::InvalidArgumentError(
          absl::StrCat("train_study_level.csv: id '", id, "' does not name a study folder"));
    }
    const fs::path source = raw_train / folder;
    if (!fs::is_directory(source)) {
      return absl::NotFoundError(absl::StrCat("raw data has no study folder train/", folder));
    }
    if (fs::exists(dest / folder)) {  // copytree's FileExistsError
      return absl::AlreadyExistsError(
          absl::StrCat("study folder ", folder, " would be copied twice (repeated id)"));
    }
    fs::create_directories(dest / folder, error);
    if (!error) fs::copy(source, dest / folder, fs::copy_options::recursive, error);
    if (error) {
      return absl::InternalError(absl::StrCat("cannot copy train/", folder, ": ", error.message()));
    }
  }
  size_t entries = 0;
  for (auto it = fs::directory_iterator(dest, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    ++entries;
  }
  if (error) return absl::InternalError(absl::StrCat("cannot list ", dest.string()));
  if (entries != study_ids.size()) {
    return CheckFailed(absl::StrCat("Expected ", study_ids.size(), " studies"));
  }
  return absl::OkStatus();
}

// `["negative", "typical", "indeterminate", "atypical"][row[1:].argmax()]`:
// the first largest of the columns after `id`.
absl::StatusOr<std::string> StudyLabel(const Table& studies, size_t row) {
  int best = -1;
  double best_value = 0;
  for (size_t c = 1; c < studies.num_columns(); ++c) {
    const std::optional<double> value = NumericValue(studies.columns()[c].cells[row]);
    if (!value.has_value() || *value != *value) {
      return absl::InvalidArgumentError(
          absl::StrCat("train_study_level.csv: the label columns must be numbers, column '",
                       studies.columns()[c].name, "' is not"));
    }
    if (best < 0 || *value > best_value) {
      best = static_cast<int>(c) - 1;
      best_value = *value;
    }
  }
  if (best < 0 || best >= 4) {
    return absl::InvalidArgumentError(
        "train_study_level.csv: expected id then the four study label columns");
  }
  return std::string(kStudyLabels[best]);
}

Table IdPredictionTable(std::vector<Cell> ids, std::vector<Cell> predictions) {
  return Table(
      {Column{.name = "id", .dtype = Dtype::kObject, .cells = std::move(ids)},
       Column{
           .name = "PredictionString", .dtype = Dtype::kObject, .cells = std::move(predictions)}});
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table studies, ReadCsvFile((raw / "train_study_level.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(studies, options));
  ASSIGN_OR_RETURN(Table train_studies, SortedBy(split.train, "id", "train_study_level.csv"));
  ASSIGN_OR_RETURN(Table test_studies, SortedBy(split.test, "id", "train_study_level.csv"));
  RETURN_IF_ERROR(WriteCsvFile(train_studies, (public_dir / "train_study_level.csv").string()));

  ASSIGN_OR_RETURN(Table images, ReadCsvFile((raw / "train_image_level.csv").string()));
  ASSIGN_OR_RETURN(std::vector<std::string> image_studies,
                   TextCells(images, "StudyInstanceUID", "train_image_level.csv"));
  ASSIGN_OR_RETURN(std::vector<std::string> train_ids,
                   TextCells(train_studies, "id", "train_study_level.csv"));
  ASSIGN_OR_RETURN(std::vector<std::string> test_ids,
                   TextCells(test_studies, "id", "train_study_level.csv"));
  ASSIGN_OR_RETURN(Table train_images, SortedBy(ImagesOfStudies(images, image_studies, train_ids),
                                                "id", "train_image_level.csv"));
  ASSIGN_OR_RETURN(Table test_images, SortedBy(ImagesOfStudies(images, image_studies, test_ids),
                                               "id", "train_image_level.csv"));
  if (train_images.num_rows() + test_images.num_rows() != images.num_rows()) {
    return CheckFailed(absl::StrCat("Expected ", images.num_rows(), " images"));
  }
  RETURN_IF_ERROR(WriteCsvFile(train_images, (public_dir / "train_image_level.csv").string()));

  RETURN_IF_ERROR(CopyStudies(raw / "train", train_ids, public_dir / "train"));
  RETURN_IF_ERROR(CopyStudies(raw / "train", test_ids, public_dir / "test"));

  std::vector<Cell> ids, truths, samples;
  for (size_t row = 0; row < test_ids.size(); ++row) {
    ASSIGN_OR_RETURN(std::string label, StudyLabel(test_studies, row));
    ids.push_back((test_ids)[row]);
    truths.push_back(absl::StrCat(label, " 1 0 0 1 1"));
    samples.push_back(std::string("negative 1 0 0 1 1"));
  }
  const Column* image_ids = test_images.Find("id");
  absl::StatusOr<const Column*> image_labels = test_images.Get("label");
  if (!image_labels.ok()) {
    return absl::NotFoundError("train_image_level.csv has no 'label' column");
  }
  for (size_t row = 0; row < test_images.num_rows(); ++row) {
    ids.push_back(image_ids->cells[row]);
    truths.push_back((*image_labels)->cells[row]);
    samples.push_back(std::string("none 1 0 0 1 1"));
  }
  RETURN_IF_ERROR(
      WriteCsvFile(IdPredictionTable(ids, std::move(truths)), (private_dir / "test.csv").string()));
  return WriteCsvFile(IdPredictionTable(std::move(ids), std::move(samples)),
                      (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
