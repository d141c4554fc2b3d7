// Upstream's predict-volcanic-eruptions-ingv-oe/prepare.py: a 90/10 split
// of Kaggle's labelled train.csv (segment_id, time_to_eruption). public/
// gets train.csv, a sample submission (the test ids with time_to_eruption
// 0) and each segment's sensor CSV, raw/train/<segment_id>.csv, copied into
// train/ or test/ by split; private/test.csv is the test rows with labels.
#include <filesystem>
#include <set>
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
#include "pycompat/python_str.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kIdColumn = "segment_id";
constexpr std::string_view kTargetColumn = "time_to_eruption";

// The segment ids as upstream formats them into file names (f"{file_id}"),
// each naming a file directly in raw/train/ (anything else would reach
// outside it).
absl::StatusOr<std::vector<std::string>> SegmentFileStems(const Table& table) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get(kIdColumn));
  std::vector<std::string> stems;
  stems.reserve(ids->cells.size());
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const Cell& cell = ids->cells[row];
    std::string stem = PythonStr(cell);
    if (IsMissing(cell) || !IsPlainFileName(stem)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "train.csv row ", row, ": 'segment_id' must name a segment file in train/"));
    }
    stems.push_back(std::move(stem));
  }
  return stems;
}

// Copies raw/train/<stem>.csv into `to_dir` for each stem; returns how many
// .csv files `to_dir` then holds (upstream's glob("*.csv") count).
absl::StatusOr<size_t> CopySegments(const fs::path& raw, const std::vector<std::string>& stems,
                                    const fs::path& to_dir) {
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train", to_dir, stems, ".csv"));
  std::error_code error;
  size_t count = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(to_dir, error)) {
    count += entry.path().extension() == ".csv";
  }
  if (error) return absl::InternalError("cannot list the copied segments");
  return count;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& answers = split.test;
  Table sample_submission = answers;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, kTargetColumn, Cell(int64_t{0})));

  // Upstream's checks, in its order (the length ones hold by construction).
  ASSIGN_OR_RETURN(std::vector<std::string> train_stems, SegmentFileStems(new_train));
  ASSIGN_OR_RETURN(std::vector<std::string> test_stems, SegmentFileStems(answers));
  // `isin` compares values; ids with equal values have equal str() here
  // except for 1 vs 1.0 in one float column, where str() is the same too.
  const std::set<std::string> test_stem_set(test_stems.begin(), test_stems.end());
  for (const std::string& stem : train_stems) {
    if (test_stem_set.contains(stem)) {
      return CheckFailed("No segment_id should be in both train and answers");
    }
  }
  const std::vector<std::string> expected_columns = {std::string(kIdColumn),
                                                     std::string(kTargetColumn)};
  if (new_train.ColumnNames() != expected_columns) {
    return CheckFailed("new_train should have columns 'segment_id' and 'time_to_eruption'");
  }

  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "test.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(new_train, (public_dir / "train.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));
  ASSIGN_OR_RETURN(size_t train_files, CopySegments(raw, train_stems, public_dir / "train"));
  ASSIGN_OR_RETURN(size_t test_files, CopySegments(raw, test_stems, public_dir / "test"));
  if (train_files != new_train.num_rows()) {
    return CheckFailed("Public train should have the same number of files as new_train");
  }
  if (test_files != answers.num_rows()) {
    return CheckFailed("Public test should have the same number of files as answers");
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
