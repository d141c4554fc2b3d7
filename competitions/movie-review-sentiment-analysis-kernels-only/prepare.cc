// Upstream's movie-review-sentiment-analysis-kernels-only/prepare.py: a 70/30
// split of the labelled phrases in Kaggle's train.tsv.zip. The public train
// and test tables are tab-separated and zipped again, as on Kaggle; the
// answers and the sample submission are comma-separated CSV.
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr char kId[] = "PhraseId";
constexpr char kTarget[] = "Sentiment";

// The PhraseIds as set elements. Python compares the ids of an int column
// as ints and of a text column as strings (a chunk-mixed object column may
// hold both, and 1 != "1"); missing ids have no sound set semantics (pandas'
// is_unique counts NaNs as one value, Python's set of NaN floats does not),
// so they are an error here.
absl::StatusOr<std::vector<std::string>> IdKeys(const Table& table, std::string_view what) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get(kId));
  std::vector<std::string> keys;
  keys.reserve(ids->cells.size());
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const Cell& cell = ids->cells[row];
    if (const auto* i = std::get_if<int64_t>(&cell)) {
      keys.push_back(absl::StrCat("i", *i));
    } else if (const auto* s = std::get_if<std::string>(&cell)) {
      keys.push_back(absl::StrCat("s", *s));
    } else {
      return absl::InvalidArgumentError(absl::StrCat(std::string(what), " row ", row, ": '", kId,
                                                     "' must be an integer or text"));
    }
  }
  return keys;
}

absl::Status WriteZippedTsv(const Table& table, const fs::path& zip, const std::string& name) {
  ASSIGN_OR_RETURN(std::string tsv, (WriteCsvString(table, CsvWriteOptions{.separator = '\t'})));
  return WriteZip(zip, {ZipEntry::FromBytes(name, std::move(tsv))});
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  // Upstream extracts into raw/; we leave raw/ untouched and use scratch/.
  const fs::path extracted = scratch / "train_tsv_zip";
  RETURN_IF_ERROR(ExtractZip(raw / "train.tsv.zip", extracted));
  if (!fs::is_regular_file(extracted / "train.tsv")) {
    return absl::NotFoundError(
        absl::StrCat((raw / "train.tsv.zip").string(), " holds no train.tsv at its root"));
  }
  // Upstream calls pandas' read_csv itself (not mlebench's round-trip
  // wrapper); the table has no float columns, so the float parser does not
  // matter.
  CsvReadOptions tsv;
  tsv.separator = '\t';
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((extracted / "train.tsv").string(), tsv));

  TrainTestSplitOptions options;
  options.test_size = 0.3;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& answers = split.test;
  ASSIGN_OR_RETURN(Table new_test, (DropColumns(answers, {kTarget})));
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(answers, {kId, kTarget})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, kTarget, int64_t{2}));

  // Upstream's checks.
  ASSIGN_OR_RETURN(std::vector<std::string> train_ids, IdKeys(new_train, "train.tsv"));
  ASSIGN_OR_RETURN(std::vector<std::string> test_ids, IdKeys(new_test, "train.tsv"));
  const std::set<std::string> train_id_set(train_ids.begin(), train_ids.end());
  const std::set<std::string> test_id_set(test_ids.begin(), test_ids.end());
  if (train_id_set.size() != train_ids.size()) {
    return CheckFailed("PhraseId in new_train should be unique");
  }
  if (test_id_set.size() != test_ids.size()) {
    return CheckFailed("PhraseId in new_test should be unique");
  }
  for (const std::string& id : test_id_set) {
    if (train_id_set.count(id) > 0) {
      return CheckFailed("PhraseId in new_train and new_test should be disjoint");
    }
  }
  if (new_train.num_rows() + new_test.num_rows() != old_train.num_rows()) {
    return CheckFailed(
        "New train and new test should have the same number of rows as the old train set");
  }
  if (new_train.ColumnNames() != old_train.ColumnNames()) {
    return CheckFailed("New train and old train should have the same columns");
  }
  if (new_test.ColumnNames() != std::vector<std::string>{"PhraseId", "SentenceId", "Phrase"}) {
    return CheckFailed("new_test should have columns ['PhraseId', 'SentenceId', 'Phrase']");
  }

  // Upstream writes train.tsv and test.tsv, zips each with
  // shutil.make_archive (one entry named like the file) and deletes them; we
  // write the archives directly.
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  RETURN_IF_ERROR(WriteZippedTsv(new_train, public_dir / "train.tsv.zip", "train.tsv"));
  RETURN_IF_ERROR(WriteZippedTsv(new_test, public_dir / "test.tsv.zip", "test.tsv"));
  return WriteCsvFile(sample_submission, (public_dir / "sampleSubmission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
