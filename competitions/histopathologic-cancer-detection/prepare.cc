// Upstream's histopathologic-cancer-detection/prepare.py: the labelled
// train_labels.csv is split so that the new test set has the share of images
// that Kaggle's unlabelled test/ folder had; each split's .tif images are
// copied into public/train/ and public/test/.
#include <filesystem>
#include <set>
#include <string>
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

// The `id` column as text that can name a file "<id>.tif" directly inside a
// folder (upstream joins it to a path; anything else would reach outside the
// image folder).
absl::StatusOr<std::vector<std::string>> ImageIds(const Table& table) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get("id"));
  std::vector<std::string> names;
  names.reserve(ids->cells.size());
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&ids->cells[row]);
    if (id == nullptr || !IsPlainFileName(*id)) {
      return absl::InvalidArgumentError(
          absl::StrCat("train_labels.csv row ", row, ": 'id' must be an image name, got ",
                       id == nullptr ? std::string("a missing or non-text value")
                                     : absl::StrCat("'", *id, "'")));
    }
    names.push_back(*id);
  }
  return names;
}

// pathlib's `len(list(dir.glob("*.tif")))`: entries (of any kind, hidden ones
// too) whose name ends in ".tif"; a missing folder, or a file, has none.
absl::StatusOr<int64_t> CountTifs(const fs::path& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) return 0;
  int64_t count = 0;
  fs::directory_iterator it(dir, error);
  if (error)
    return absl::InternalError(absl::StrCat("cannot list ", dir.string(), ": ", error.message()));
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    count += name.size() >= 4 && name.compare(name.size() - 4, 4, ".tif") == 0;
  }
  return count;
}

// The rows of `table` whose id is in `keep`, in the table's order (pandas'
// `table[table["id"].isin(keep)]`).
absl::StatusOr<Table> RowsWithIds(const Table& table, const std::vector<std::string>& ids,
                                  const std::set<std::string>& keep) {
  std::vector<int64_t> rows;
  for (size_t row = 0; row < ids.size(); ++row) {
    if (keep.count(ids[row]) > 0) rows.push_back(static_cast<int64_t>(row));
  }
  return TakeRows(table, rows);
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train_labels.csv").string()));
  ASSIGN_OR_RETURN(std::vector<std::string> ids, ImageIds(old_train));

  ASSIGN_OR_RETURN(int64_t num_test, CountTifs(raw / "test"));
  TrainTestSplitOptions options;
  options.test_size = static_cast<double>(num_test) /
                      static_cast<double>(static_cast<int64_t>(old_train.num_rows()) + num_test);
  options.random_state = 0;
  // Upstream splits the id column alone, then selects rows by id.
  ASSIGN_OR_RETURN(TrainTestIndices split, TrainTestSplitIndices(old_train.num_rows(), options));
  std::vector<std::string> new_train_ids, new_test_ids;
  for (int64_t row : split.train_indices) new_train_ids.push_back((ids)[row]);
  for (int64_t row : split.test_indices) new_test_ids.push_back((ids)[row]);
  const std::set<std::string> train_id_set(new_train_ids.begin(), new_train_ids.end());
  const std::set<std::string> test_id_set(new_test_ids.begin(), new_test_ids.end());
  ASSIGN_OR_RETURN(Table new_train, RowsWithIds(old_train, ids, train_id_set));
  ASSIGN_OR_RETURN(Table new_test, RowsWithIds(old_train, ids, test_id_set));

  // Upstream's checks, run before anything is written. A repeated id makes
  // fewer files than ids, which upstream's final file-count checks catch.
  for (const std::string& id : test_id_set) {
    if (train_id_set.count(id) > 0)
      return CheckFailed("Train should not contain id's of test images");
  }
  if (train_id_set.size() != new_train_ids.size()) {
    return CheckFailed(
        "Number of train images should be equal to the number of unique id's in the train set");
  }
  if (test_id_set.size() != new_test_ids.size()) {
    return CheckFailed(
        "Number of test images should be equal to the number of unique id's in the test set");
  }

  Table sample_submission = new_test;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "label", int64_t{0}));

  RETURN_IF_ERROR(CopyNamedFiles(raw / "train", public_dir / "train", new_train_ids, ".tif"));
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train", public_dir / "test", new_test_ids, ".tif"));
  RETURN_IF_ERROR(WriteCsvFile(new_train, (public_dir / "train_labels.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(new_test, (private_dir / "answers.csv").string()));
  return WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
