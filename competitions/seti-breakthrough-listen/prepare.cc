// Upstream's seti-breakthrough-listen/prepare.py: a 90/10 split of the
// labelled train_labels.csv; each split's .npy cadence snippets are copied
// from raw/train/<first character of id>/<id>.npy into public/train/ or
// public/test/ under the same sub-folder, and Kaggle's old_leaky_data/ folder
// is copied to public/ as it is.
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

// The `id` column as text that names a file "<id>.npy" directly inside a
// folder. Upstream takes `id[0]`, which fails on a non-text id; a path
// separator or "."/".." would reach outside the data folders.
absl::StatusOr<std::vector<std::string>> SnippetIds(const Table& table, std::string_view what) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get("id"));
  std::vector<std::string> names;
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const std::string* id = std::get_if<std::string>(&ids->cells[row]);
    if (id == nullptr || !IsPlainFileName(*id)) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(what), " row ", row, ": 'id' must be a file name, got ",
                       id == nullptr ? std::string("a missing or non-text value")
                                     : absl::StrCat("'", *id, "'")));
    }
    names.push_back(*id);
  }
  return names;
}

// Python's `id[0]`: the first character, which in UTF-8 text may take up to
// four bytes.
std::string FirstCharacter(const std::string& id) {
  const unsigned char lead = static_cast<unsigned char>(id[0]);
  size_t length = 1;
  if (lead >= 0xf0) {
    length = 4;
  } else if (lead >= 0xe0) {
    length = 3;
  } else if (lead >= 0xc0) {
    length = 2;
  }
  return id.substr(0, length);
}

// Copies raw/train/<c>/<id>.npy to `dest`/<c>/<id>.npy for every id.
absl::Status CopySnippets(const fs::path& raw, const std::vector<std::string>& ids,
                          const fs::path& dest) {
  std::vector<std::string> files;
  for (const std::string& id : ids) files.push_back(FirstCharacter(id) + "/" + id + ".npy");
  return CopyNamedFiles(raw / "train", dest, files);
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train_labels.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& new_test = split.test;
  ASSIGN_OR_RETURN(std::vector<std::string> train_ids, SnippetIds(new_train, "train_labels.csv"));
  ASSIGN_OR_RETURN(std::vector<std::string> test_ids, SnippetIds(new_test, "train_labels.csv"));
  Table sample_submission = new_test;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "target", 0.5));

  // Upstream's checks, run before anything is written. Upstream counts the
  // copied files by name, so a repeated id gives fewer files than rows.
  const std::set<std::string> train_id_set(train_ids.begin(), train_ids.end());
  const std::set<std::string> test_id_set(test_ids.begin(), test_ids.end());
  for (const std::string& id : test_id_set) {
    if (train_id_set.count(id) > 0) {
      return CheckFailed("There are overlapping IDs in train and test sets.");
    }
  }
  if (train_id_set.size() != train_ids.size()) {
    return CheckFailed("Number of train files does not match the number of train records.");
  }
  if (test_id_set.size() != test_ids.size()) {
    return CheckFailed("Number of test files does not match the number of test records.");
  }
  const fs::path leaky = raw / "old_leaky_data";
  if (!fs::is_directory(leaky)) {
    return absl::NotFoundError("raw data has no folder old_leaky_data/");
  }

  RETURN_IF_ERROR(WriteCsvFile(new_train, (public_dir / "train_labels.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(new_test, (private_dir / "test.csv").string()));
  std::error_code error;
  fs::copy(leaky, public_dir / "old_leaky_data",
           fs::copy_options::recursive | fs::copy_options::overwrite_existing, error);
  if (error) {
    return absl::InternalError(absl::StrCat("cannot copy old_leaky_data/: ", error.message()));
  }
  RETURN_IF_ERROR(CopySnippets(raw, train_ids, public_dir / "train"));
  RETURN_IF_ERROR(CopySnippets(raw, test_ids, public_dir / "test"));
  return WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
