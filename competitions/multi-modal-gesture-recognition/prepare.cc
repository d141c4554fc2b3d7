// Upstream's multi-modal-gesture-recognition/prepare.py: Kaggle's labelled
// training4 videos become the test set.
//   - test ids: the last 4 characters of the stem of every "*.zip" that
//     extracting raw/training4.tar.gz puts at the top level ("Sample00300.zip"
//     -> "0300"), sorted. We read the names from the archive instead of
//     extracting it into raw/ as upstream does (raw stays untouched).
//   - public/training.csv: raw/training.csv (Id and Sequence read as text)
//     without the test ids; private/test.csv: the rows with them, in file
//     order; public/test.csv: the test ids.
//   - public/randomPredictions.csv: per test id, after random.seed(0),
//     " ".join(random.sample(range(1, 21), 20)).
//   - copies: training4.tar.gz as test.tar.gz, training1-3 and validation1-3
//     .tar.gz, devel01-40.7z, valid_all_files_combined.7z and
//     sample_code_mmrgc.zip, unopened.
// Upstream's asserts (each test id in training.csv exactly once) are
// FailedPrecondition errors.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "formats/tar_archive.h"
#include "pycompat/python_random.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// `fp.stem[-4:]` for the top-level names glob("*.zip") matches (hidden
// names excluded, as glob's "*" does), sorted as Python sorts str.
std::vector<std::string> TestIds(const std::vector<std::string>& top_level_names) {
  std::vector<std::string> ids;
  for (const std::string& name : top_level_names) {
    if (name.size() < 4 || name[0] == '.' || name.compare(name.size() - 4, 4, ".zip") != 0) {
      continue;
    }
    const std::string stem = name.substr(0, name.size() - 4);
    std::optional<std::u32string> code_points = DecodeUtf8(stem);
    if (code_points) {
      ids.push_back(EncodeUtf8(code_points->substr(code_points->size() - std::min<size_t>(4, code_points->size()))));
    } else {
      ids.push_back(stem.substr(stem.size() - std::min<size_t>(4, stem.size())));
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(std::vector<std::string> names, TarTopLevelNames(raw / "training4.tar.gz"));
  const std::vector<std::string> test_ids = TestIds(names);
  const std::set<std::string> test_id_set(test_ids.begin(), test_ids.end());

  CsvReadOptions options;
  options.string_columns = {"Id", "Sequence"};
  ASSIGN_OR_RETURN(Table training, ReadCsvFile((raw / "training.csv").string(), options));
  const Column* ids = training.Find("Id");
  if (ids == nullptr) return absl::InvalidArgumentError("training.csv has no 'Id' column");
  std::vector<int64_t> train_rows;
  std::vector<int64_t> test_rows;
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&ids->cells[row]);
    (id != nullptr && test_id_set.count(*id) ? test_rows : train_rows)
        .push_back(static_cast<int64_t>(row));
  }
  if (train_rows.size() + test_ids.size() != training.num_rows()) {
    return absl::FailedPreconditionError(
        absl::StrCat("check failed: Expected ", training.num_rows() - test_ids.size(),
                     " samples in training.csv, but got ", train_rows.size()));
  }
  if (test_rows.size() != test_ids.size()) {
    return absl::FailedPreconditionError(
        absl::StrCat("check failed: Expected ", test_ids.size(),
                     " samples in private/test.csv, but got ", test_rows.size()));
  }
  ASSIGN_OR_RETURN(Table new_training, TakeRows(training, train_rows));
  ASSIGN_OR_RETURN(Table answers, TakeRows(training, test_rows));
  RETURN_IF_ERROR(WriteCsvFile(new_training, (public_dir / "training.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "test.csv").string()));

  const std::vector<Cell> id_cells(test_ids.begin(), test_ids.end());
  RETURN_IF_ERROR(WriteCsvFile(Table({Column{"Id", Dtype::kObject, id_cells}}),
                               (public_dir / "test.csv").string()));
  PythonRandom random(0);
  std::vector<Cell> predictions;
  for (size_t i = 0; i < test_ids.size(); ++i) {
    ASSIGN_OR_RETURN(std::vector<int64_t> picks, random.SampleIndices(20, 20));
    for (int64_t& pick : picks) pick += 1;  // range(1, 21)
    predictions.push_back(absl::StrJoin(picks, " "));
  }
  RETURN_IF_ERROR(WriteCsvFile(Table({Column{"Id", Dtype::kObject, id_cells},
                                      Column{"Sequence", Dtype::kObject, predictions}}),
                               (public_dir / "randomPredictions.csv").string()));

  RETURN_IF_ERROR(CopyRegularFile(raw / "training4.tar.gz", public_dir / "test.tar.gz"));
  for (const char* file :
       {"training1.tar.gz", "training2.tar.gz", "training3.tar.gz", "validation1.tar.gz",
        "validation2.tar.gz", "validation3.tar.gz", "devel01-40.7z",
        "valid_all_files_combined.7z", "sample_code_mmrgc.zip"}) {
    RETURN_IF_ERROR(CopyRegularFile(raw / file, public_dir / file));
  }
  return absl::OkStatus();
}

}  // namespace

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID,
    .prepare = &Prepare,
});

}  // namespace mlebench
