// Upstream's freesound-audio-tagging-2019/prepare.py: the raw Kaggle download
// is copied to public/ as it is (everything except FSDKaggle2019.meta*), and
// the test clips' labels, released after the competition in Zenodo record
// 3612637 (FSDKaggle2019.meta.zip), become private/test.csv: one row per
// clip of the "Private" usage, `fname` then a 0/1 column per class.
//
// Upstream downloads FSDKaggle2019.meta.zip into raw/ at prepare time. We
// run offline and never write to raw/, so the archive must already be in
// raw/ (put it there next to the Kaggle files); it is extracted into the
// scratch folder, and its absence is a clear error.
#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/preparer.h"
#include "competitions/freesound-audio-tagging-2019/class_names.h"
#include "formats/zip_archive.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using freesound::ClassNames;

constexpr char kMetaName[] = "FSDKaggle2019.meta";
constexpr char kMetaZip[] = "FSDKaggle2019.meta.zip";

// Copies every entry of raw/ whose name does not contain
// "FSDKaggle2019.meta" into public/ (folders recursively), then upstream's
// count check.
absl::Status CopyRaw(const fs::path& raw, const fs::path& public_dir) {
  std::error_code error;
  std::vector<fs::path> items;
  for (auto it = fs::directory_iterator(raw, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    if (it->path().filename().string().find(kMetaName) == std::string::npos) {
      items.push_back(it->path());
    }
  }
  if (error) return absl::NotFoundError(absl::StrCat("cannot list raw data: ", error.message()));
  std::sort(items.begin(), items.end());
  for (const fs::path& item : items) {
    const fs::path dest = public_dir / item.filename();
    if (fs::is_directory(item)) {
      fs::copy(item, dest, fs::copy_options::recursive, error);
    } else {
      fs::copy_file(item, dest, error);
    }
    if (error) {
      return absl::InternalError(absl::StrCat("cannot copy ", item.filename().string(),
                                              " to public: ", error.message()));
    }
  }
  size_t count = 0;
  for (auto it = fs::directory_iterator(public_dir, error);
       !error && it != fs::directory_iterator(); it.increment(error)) {
    ++count;
  }
  if (error || count != items.size()) {
    return CheckFailed("Expected all files in raw to be copied to public");
  }
  return absl::OkStatus();
}

// private_test rows as upstream's many-hot DataFrame: fname, then 1 where
// the class is among the comma-separated labels.
absl::StatusOr<Table> ManyHotTest(const Table& post_competition) {
  for (const char* name : {"fname", "labels", "usage"}) {
    if (absl::StatusOr<const Column*> column = post_competition.Get(name); !column.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          kMetaName, "/test_post_competition.csv has no '", name, "' column"));
    }
  }
  const Column& fnames = *post_competition.Find("fname");
  const Column& labels = *post_competition.Find("labels");
  const Column& usage = *post_competition.Find("usage");
  Column fname_column{.name = "fname", .dtype = fnames.dtype};
  std::vector<Column> class_columns;
  for (const std::string& name : ClassNames()) {
    class_columns.push_back(Column{.name = name, .dtype = Dtype::kInt64});
  }
  for (size_t row = 0; row < fnames.cells.size(); ++row) {
    if (!CellsEqual(usage.cells[row], Cell(std::string("Private")))) continue;
    const std::string* text = std::get_if<std::string>(&labels.cells[row]);
    if (text == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "test_post_competition.csv row ", row, ": 'labels' is not text, so it cannot be split"));
    }
    const std::vector<std::string> clip_labels = absl::StrSplit(*text, ',');
    fname_column.cells.push_back(fnames.cells[row]);
    for (size_t c = 0; c < ClassNames().size(); ++c) {
      const bool has = std::find(clip_labels.begin(), clip_labels.end(), ClassNames()[c]) !=
                       clip_labels.end();
      class_columns[c].cells.emplace_back(int64_t{has ? 1 : 0});
    }
  }
  if (fname_column.cells.empty()) {
    // pandas builds an empty frame's columns as object.
    fname_column.dtype = Dtype::kObject;
    for (Column& column : class_columns) column.dtype = Dtype::kObject;
  }
  std::vector<Column> columns = {std::move(fname_column)};
  for (Column& column : class_columns) columns.push_back(std::move(column));
  return Table(std::move(columns));
}

// The `fname` values of `table` in sort_values("fname") order.
absl::StatusOr<std::vector<Cell>> SortedFnames(const Table& table) {
  const Column* fnames = table.Find("fname");
  if (fnames == nullptr) return absl::InvalidArgumentError("no 'fname' column");
  ASSIGN_OR_RETURN(std::vector<size_t> order, SortValuesOrder(*fnames));
  return TakeCells(*fnames, order).cells;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  RETURN_IF_ERROR(CopyRaw(raw, public_dir));

  const fs::path meta_zip = raw / kMetaZip;
  if (!fs::is_regular_file(meta_zip)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "raw data has no ", kMetaZip, ": upstream downloads it from "
        "https://zenodo.org/records/3612637 (the test labels released after the competition); "
        "put it in the raw folder next to Kaggle's files"));
  }
  RETURN_IF_ERROR(ExtractZip(meta_zip, scratch));
  ASSIGN_OR_RETURN(Table post_competition,
                   ReadCsvFile((scratch / kMetaName / "test_post_competition.csv").string()));
  ASSIGN_OR_RETURN(Table new_test, ManyHotTest(post_competition));
  RETURN_IF_ERROR(WriteCsvFile(new_test, (private_dir / "test.csv").string()));

  ASSIGN_OR_RETURN(Table submission, ReadCsvFile((public_dir / "sample_submission.csv").string()));
  if (submission.num_rows() != new_test.num_rows()) {
    return CheckFailed(absl::StrCat("Expected ", new_test.num_rows(), " rows in test.csv, but got ",
                                    submission.num_rows()));
  }
  const std::vector<std::string> names = submission.ColumnNames();
  if (names.empty() || std::vector<std::string>(names.begin() + 1, names.end()) != ClassNames()) {
    return CheckFailed(
        "Expected class names to match between test.csv and sample_submission.csv");
  }
  if (names != new_test.ColumnNames()) {
    return CheckFailed("Expected columns to match between test.csv and sample_submission.csv");
  }
  ASSIGN_OR_RETURN(std::vector<Cell> test_fnames, SortedFnames(new_test));
  ASSIGN_OR_RETURN(std::vector<Cell> submission_fnames, SortedFnames(submission));
  for (size_t row = 0; row < test_fnames.size(); ++row) {
    if (!CellsEqual((test_fnames)[row], (submission_fnames)[row])) {
      return CheckFailed("Expected 'fname' to match between test.csv and sample_submission.csv");
    }
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
