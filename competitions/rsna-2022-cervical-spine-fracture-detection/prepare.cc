// Upstream's rsna-2022-cervical-spine-fracture-detection/prepare.py. A tenth
// of Kaggle's training studies (Python's round(0.1 * n)) stays as the new
// train set, the rest becomes the test set. The new train set keeps the
// proportions of studies with bounding boxes, with segmentations and with
// both: Python's random.Random(0).sample picks, in upstream's order, a tenth
// of the overlap, then of the other segmented studies, then of the other
// boxed studies, then fills up from train.csv's remaining studies. The test
// labels are melted to one row per (study, prediction type) with
// row_id = "<study>_<type>". Study folders of DICOM slices are copied to
// public/train_images or public/test_images, the chosen segmentations
// (<study>.nii, copied as they are) to public/segmentations.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/python_random.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr char kStudy[] = "StudyInstanceUID";
constexpr double kTrainRatio = 0.1;

// Python's round(n * 0.1): to nearest, ties to even.
int64_t RoundedTenth(size_t n) {
  return static_cast<int64_t>(std::nearbyint(static_cast<double>(n) * kTrainRatio));
}

// The study ids of `table`, in row order; each must be text usable as a
// folder name.
absl::StatusOr<std::vector<std::string>> StudyIds(const Table& table, std::string_view file) {
  absl::StatusOr<const Column*> column = table.Get(kStudy);
  if (!column.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(file), " has no ", kStudy, " column"));
  }
  std::vector<std::string> ids;
  for (const Cell& cell : (*column)->cells) {
    const std::string* id = std::get_if<std::string>(&cell);
    if (id == nullptr || !IsPlainFileName(*id)) {
      return absl::InvalidArgumentError(absl::StrCat(std::string(file), ": ", kStudy,
                                                     " values must be study folder names"));
    }
    ids.push_back(*id);
  }
  return ids;
}

std::vector<int64_t> RowsWhere(const std::vector<std::string>& ids, const std::set<std::string>& set,
                               bool member) {
  std::vector<int64_t> rows;
  for (size_t row = 0; row < ids.size(); ++row) {
    if (set.count(ids[row]) == static_cast<size_t>(member)) rows.push_back(static_cast<int64_t>(row));
  }
  return rows;
}

// `frame.melt(id_vars=StudyInstanceUID, var_name="prediction_type",
// value_name="fractured")`: every other column in turn, all rows each.
absl::StatusOr<Table> Melt(const Table& frame) {
  Column studies{.name = kStudy, .dtype = frame.Find(kStudy)->dtype};
  Column types{.name = "prediction_type", .dtype = Dtype::kObject};
  Column values{.name = "fractured"};
  std::set<Dtype> dtypes;
  for (const Column& column : frame.columns()) {
    if (column.name != kStudy) dtypes.insert(column.dtype);
  }
  // numpy's common type of the melted columns.
  values.dtype = dtypes.size() == 1 ? *dtypes.begin()
                 : (dtypes == std::set<Dtype>{Dtype::kInt64, Dtype::kFloat64}) ? Dtype::kFloat64
                                                                                : Dtype::kObject;
  for (const Column& column : frame.columns()) {
    if (column.name == kStudy) continue;
    for (size_t row = 0; row < column.cells.size(); ++row) {
      studies.cells.push_back(frame.Find(kStudy)->cells[row]);
      types.cells.emplace_back(column.name);
      const Cell& cell = column.cells[row];
      if (values.dtype == Dtype::kFloat64 && std::holds_alternative<int64_t>(cell)) {
        values.cells.emplace_back(static_cast<double>(std::get<int64_t>(cell)));
      } else {
        values.cells.push_back(cell);
      }
    }
  }
  return Table({std::move(studies), std::move(types), std::move(values)});
}

size_t CountEntries(const fs::path& dir, std::string_view extension) {
  size_t count = 0;
  std::error_code error;
  for (auto it = fs::directory_iterator(dir, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    count += extension.empty() || it->path().extension() == extension;
  }
  return count;
}

// The stems of raw/segmentations/*.nii, sorted.
absl::StatusOr<std::vector<std::string>> SegmentationIds(const fs::path& segmentation_dir) {
  std::vector<std::string> ids;
  std::error_code error;
  for (auto it = fs::directory_iterator(segmentation_dir, error);
       !error && it != fs::directory_iterator(); it.increment(error)) {
    if (it->path().extension() == ".nii") ids.push_back(it->path().stem().string());
  }
  if (error) {
    return absl::NotFoundError(absl::StrCat("cannot list raw segmentations/: ", error.message()));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

// The studies that stay in train, drawn as upstream draws them with
// random.seed(0): a tenth of the studies with both boxes and a
// segmentation, then a tenth of the segmentations and of the boxes with
// those, then train studies up to a tenth of train.csv.
struct TrainChoice {
  std::vector<std::string> train_ids, bbox_ids, segmentation_ids;
};

absl::StatusOr<TrainChoice> ChooseTrainStudies(const std::vector<std::string>& train_study_ids,
                                               int64_t num_train_samples,
                                               const std::vector<std::string>& old_bbox_ids,
                                               const std::vector<std::string>& old_segmentation_ids) {
  PythonRandom rng(0);
  const std::set<std::string> segmentation_set(old_segmentation_ids.begin(),
                                               old_segmentation_ids.end());
  const int64_t new_num_bbox_ids = RoundedTenth(old_bbox_ids.size());
  const int64_t new_num_segmentation_ids = RoundedTenth(old_segmentation_ids.size());
  std::vector<std::string> old_overlap_ids;
  for (const std::string& id : old_bbox_ids) {
    if (segmentation_set.count(id)) old_overlap_ids.push_back(id);
  }
  const std::set<std::string> overlap_set(old_overlap_ids.begin(), old_overlap_ids.end());
  const int64_t new_num_overlap = RoundedTenth(old_overlap_ids.size());

  ASSIGN_OR_RETURN(std::vector<std::string> new_overlap_ids,
                   rng.Sample(old_overlap_ids, new_num_overlap));
  TrainChoice choice{new_overlap_ids, new_overlap_ids, new_overlap_ids};
  auto not_overlapping = [&](const std::vector<std::string>& ids) {
    std::vector<std::string> pool;
    for (const std::string& id : ids) {
      if (!overlap_set.count(id)) pool.push_back(id);
    }
    return pool;
  };
  ASSIGN_OR_RETURN(std::vector<std::string> more_segmentations,
                   rng.Sample(not_overlapping(old_segmentation_ids),
                              new_num_segmentation_ids - new_num_overlap));
  choice.segmentation_ids.insert(choice.segmentation_ids.end(), more_segmentations.begin(),
                                 more_segmentations.end());
  choice.train_ids.insert(choice.train_ids.end(), more_segmentations.begin(),
                          more_segmentations.end());
  ASSIGN_OR_RETURN(std::vector<std::string> more_bboxes,
                   rng.Sample(not_overlapping(old_bbox_ids), new_num_bbox_ids - new_num_overlap));
  choice.bbox_ids.insert(choice.bbox_ids.end(), more_bboxes.begin(), more_bboxes.end());
  choice.train_ids.insert(choice.train_ids.end(), more_bboxes.begin(), more_bboxes.end());
  std::vector<std::string> pool;
  const std::set<std::string> chosen(choice.train_ids.begin(), choice.train_ids.end());
  for (const std::string& id : train_study_ids) {
    if (!chosen.count(id)) pool.push_back(id);
  }
  ASSIGN_OR_RETURN(
      std::vector<std::string> rest,
      rng.Sample(pool, num_train_samples - static_cast<int64_t>(choice.train_ids.size())));
  choice.train_ids.insert(choice.train_ids.end(), rest.begin(), rest.end());
  return choice;
}

// The test studies of the melted answers, each once, in order.
std::vector<std::string> TestStudies(const Table& answers) {
  std::vector<std::string> studies;
  std::set<std::string> seen;
  for (const Cell& cell : answers.columns()[0].cells) {
    if (seen.insert(std::get<std::string>(cell)).second) {
      studies.push_back(std::get<std::string>(cell));
    }
  }
  return studies;
}

// The chosen segmentations and each side's image folders, copied, with
// upstream's count checks.
absl::Status CopyImages(const fs::path& raw, const fs::path& public_dir,
                        const std::vector<std::string>& segmentation_ids, const Table& train,
                        const std::vector<std::string>& test_studies) {
  RETURN_IF_ERROR(CopyNamedFiles(raw / "segmentations", public_dir / "segmentations",
                                 segmentation_ids, ".nii"));
  std::error_code error;
  fs::create_directories(public_dir / "train_images", error);
  for (const Cell& cell : train.Find(kStudy)->cells) {
    const std::string& id = std::get<std::string>(cell);
    RETURN_IF_ERROR(CopyFolderTree(raw / "train_images" / id, public_dir / "train_images" / id));
  }
  fs::create_directories(public_dir / "test_images", error);
  for (const std::string& id : test_studies) {
    RETURN_IF_ERROR(CopyFolderTree(raw / "train_images" / id, public_dir / "test_images" / id));
  }
  if (CountEntries(public_dir / "segmentations", ".nii") != segmentation_ids.size()) {
    return CheckFailed("Incorrect number of segmentations copied");
  }
  if (CountEntries(public_dir / "train_images", "") != train.num_rows()) {
    return CheckFailed("Incorrect number of train images copied");
  }
  if (CountEntries(public_dir / "test_images", "") != test_studies.size()) {
    return CheckFailed("Incorrect number of test images copied");
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  ASSIGN_OR_RETURN(std::vector<std::string> train_study_ids, StudyIds(old_train, "train.csv"));
  ASSIGN_OR_RETURN(Table old_bboxes, ReadCsvFile((raw / "train_bounding_boxes.csv").string()));
  ASSIGN_OR_RETURN(std::vector<std::string> bbox_rows_ids,
                   StudyIds(old_bboxes, "train_bounding_boxes.csv"));
  const std::set<std::string> bbox_set(bbox_rows_ids.begin(), bbox_rows_ids.end());
  ASSIGN_OR_RETURN(std::vector<std::string> old_segmentation_ids,
                   SegmentationIds(raw / "segmentations"));
  ASSIGN_OR_RETURN(TrainChoice choice,
                   ChooseTrainStudies(train_study_ids, RoundedTenth(old_train.num_rows()),
                                      std::vector<std::string>(bbox_set.begin(), bbox_set.end()),
                                      old_segmentation_ids));

  // public/train.csv and train_bounding_boxes.csv: the chosen studies.
  const std::set<std::string> train_set(choice.train_ids.begin(), choice.train_ids.end());
  ASSIGN_OR_RETURN(Table train, TakeRows(old_train, RowsWhere(train_study_ids, train_set, true)));
  RETURN_IF_ERROR(WriteCsvFile(train, (public_dir / "train.csv").string()));
  const std::set<std::string> bbox_chosen(choice.bbox_ids.begin(), choice.bbox_ids.end());
  ASSIGN_OR_RETURN(Table train_bboxes,
                   TakeRows(old_bboxes, RowsWhere(bbox_rows_ids, bbox_chosen, true)));
  RETURN_IF_ERROR(WriteCsvFile(train_bboxes, (public_dir / "train_bounding_boxes.csv").string()));

  // The rest, melted to one row per (study, vertebra or patient_overall):
  // private/answers.csv, the sample submission and public/test.csv.
  ASSIGN_OR_RETURN(Table held_out,
                   TakeRows(old_train, RowsWhere(train_study_ids, train_set, false)));
  ASSIGN_OR_RETURN(Table answers, Melt(held_out));
  Column row_ids{.name = "row_id", .dtype = Dtype::kObject};
  for (size_t row = 0; row < answers.num_rows(); ++row) {
    row_ids.cells.emplace_back(
        absl::StrCat(std::get<std::string>(answers.columns()[0].cells[row]), "_",
                     std::get<std::string>(answers.columns()[1].cells[row])));
  }
  answers.mutable_columns().push_back(std::move(row_ids));
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(answers, {"row_id", "fractured"})));
  if (answers.num_rows() > 0) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, "fractured", 0.5));
  }
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));
  ASSIGN_OR_RETURN(Table public_test, (DropColumns(answers, {"fractured"})));
  RETURN_IF_ERROR(WriteCsvFile(public_test, (public_dir / "test.csv").string()));

  // Upstream's checks, in its order.
  const std::vector<std::string> test_studies = TestStudies(answers);
  if (test_studies.size() * 8 != answers.num_rows()) {
    return CheckFailed("Melting failed, incorrect length");
  }
  if (train.ColumnNames() != std::vector<std::string>{kStudy, "patient_overall", "C1", "C2", "C3",
                                                      "C4", "C5", "C6", "C7"}) {
    return CheckFailed("Train columns are wrong");
  }
  if (train_bboxes.ColumnNames() !=
      std::vector<std::string>{kStudy, "x", "y", "width", "height", "slice_number"}) {
    return CheckFailed("Bounding box columns are wrong");
  }
  if (static_cast<int64_t>(choice.train_ids.size()) != RoundedTenth(old_train.num_rows())) {
    return CheckFailed("Incorrect number of training samples.");
  }
  if (train.num_rows() + test_studies.size() != old_train.num_rows()) {
    return CheckFailed(
        "Incorrect number of training samples. New train and test splits don't sum to the length "
        "of the original train set.");
  }
  return CopyImages(raw, public_dir, choice.segmentation_ids, train, test_studies);
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
