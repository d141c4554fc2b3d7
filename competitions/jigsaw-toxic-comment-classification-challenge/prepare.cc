// Upstream's jigsaw-toxic-comment-classification-challenge/prepare.py: Kaggle
// published the test labels after the competition, so nothing is split: the
// four zipped CSVs are read and written back (pandas formatting), with the
// sample submission's six labels set to 0.5 and test_labels.csv, whose
// unscored rows hold -1, as the answers.
#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, fs::path>;

// Upstream's classes.py, in its order.
constexpr std::array<std::string_view, 6> kClasses = {"toxic",  "severe_toxic", "obscene",
                                                      "threat", "insult",       "identity_hate"};

// Extracts `<stem>.csv.zip` from raw/ into `dir` and reads `<stem>.csv`.
absl::StatusOr<Table> ReadZippedCsv(const fs::path& raw, const fs::path& dir,
                                    std::string_view stem) {
  const std::string csv = absl::StrCat(std::string(stem), ".csv");
  const fs::path zip = raw / absl::StrCat(csv, ".zip");
  RETURN_IF_ERROR(ExtractZip(zip, dir));
  if (!fs::is_regular_file(dir / csv)) {
    return absl::NotFoundError(absl::StrCat(zip.string(), " holds no ", csv, " at its root"));
  }
  return ReadCsvFile((dir / csv).string());
}

// Python's `sorted(a["id"]) == sorted(b["id"])`.
absl::StatusOr<bool> SameSortedIds(const Table& a, const Table& b) {
  ASSIGN_OR_RETURN(const Column* a_ids, a.Get("id"));
  ASSIGN_OR_RETURN(const Column* b_ids, b.Get("id"));
  if (a_ids->cells.size() != b_ids->cells.size()) return false;
  ASSIGN_OR_RETURN(std::vector<size_t> a_order, SortValuesOrder(*a_ids));
  ASSIGN_OR_RETURN(std::vector<size_t> b_order, SortValuesOrder(*b_ids));
  for (size_t i = 0; i < a_order.size(); ++i) {
    if (!CellsEqual(a_ids->cells[(a_order)[i]], b_ids->cells[(b_order)[i]])) return false;
  }
  return true;
}

// `len(set(a["id"]) & set(b["id"]))`, from set sizes: |A & B| =
// (|A| + |B| - |A ^ B|) / 2, with |A| = |A ^ {}|.
absl::StatusOr<size_t> SharedIdCount(const Table& a, const Table& b) {
  ASSIGN_OR_RETURN(const Column* a_ids, a.Get("id"));
  ASSIGN_OR_RETURN(const Column* b_ids, b.Get("id"));
  const Column none;
  return (SymmetricDifferenceSize(*a_ids, none) + SymmetricDifferenceSize(*b_ids, none) -
          SymmetricDifferenceSize(*a_ids, *b_ids)) /
         2;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  // Upstream extracts the archives into raw/; we leave raw/ untouched.
  const fs::path extracted = scratch / "extracted";
  ASSIGN_OR_RETURN(Table train, ReadZippedCsv(raw, extracted, "train"));
  ASSIGN_OR_RETURN(Table test, ReadZippedCsv(raw, extracted, "test"));
  ASSIGN_OR_RETURN(Table answers, ReadZippedCsv(raw, extracted, "test_labels"));
  ASSIGN_OR_RETURN(Table sample_submission, ReadZippedCsv(raw, extracted, "sample_submission"));
  for (std::string_view name : kClasses) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, name, 0.5));
  }

  // Upstream's checks (it runs them after writing; we run them first so that
  // bad input leaves no output).
  if (answers.num_rows() != sample_submission.num_rows()) {
    return CheckFailed("Private test set and sample submission should be of the same length");
  }
  absl::StatusOr<bool> same = SameSortedIds(answers, test);
  if (!same.ok()) return same.status();
  if (!*same) return CheckFailed("Private and Public test IDs should match");
  same = SameSortedIds(sample_submission, test);
  if (!same.ok()) return same.status();
  if (!*same) return CheckFailed("Public test and sample submission IDs should match");
  ASSIGN_OR_RETURN(size_t shared, SharedIdCount(train, test));
  if (shared != 0) return CheckFailed("Train and test IDs should not overlap");

  for (const auto& [table, path] : {
           CsvOutput{&train, public_dir / "train.csv"},
           CsvOutput{&test, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
           CsvOutput{&answers, private_dir / "test.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
