// Upstream's whale-categorization-playground/prepare.py: Kaggle's labelled
// train.csv (Image, Id) split about 90/10 so that every whale with two or
// more photos has one in each split, with photos copied from raw/train/ to
// public/train/ and public/test/. Whales seen only in the test split become
// "new_whale" there, as Kaggle's unseen whales were.

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/numpy_default_rng.h"
#include "pycompat/numpy_random.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr char kNewWhale[] = "new_whale";
constexpr char kSampleIds[] = "new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46";
constexpr double kTestSize = 0.1;

enum class Split { kUndecided, kTrain, kTest };

// A column of text cells, or an error naming the column.
absl::StatusOr<std::vector<std::string>> TextColumn(const Table& table, std::string_view name) {
  ASSIGN_OR_RETURN(const Column* column, table.Get(name));
  std::vector<std::string> texts;
  texts.reserve(column->cells.size());
  for (size_t row = 0; row < column->cells.size(); ++row) {
    const std::string* text = std::get_if<std::string>(&column->cells[row]);
    if (text == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("train.csv row ", row, ": '", std::string(name),
                                                     "' must be text, got a missing or other value"));
    }
    texts.push_back(*text);
  }
  return texts;
}

// Upstream's per-whale assignment, then train_test_split of the rest.
absl::StatusOr<std::vector<Split>> AssignSplits(const std::vector<std::string>& whale_ids) {
  const size_t n = whale_ids.size();
  std::vector<Split> split(n, Split::kUndecided);
  // `old_train["Id"].unique()` order: first appearance.
  std::vector<std::string> order;
  std::map<std::string, std::vector<int64_t>> rows_of;
  for (size_t row = 0; row < n; ++row) {
    std::vector<int64_t>& rows = rows_of[whale_ids[row]];
    if (rows.empty()) order.push_back(whale_ids[row]);
    rows.push_back(static_cast<int64_t>(row));
  }
  NumpyDefaultRng rng(0);
  for (const std::string& whale : order) {
    const std::vector<int64_t>& rows = rows_of[whale];
    if (rows.size() >= 2) {
      // `rows.sample(2, random_state=0)`: RandomState(0).permutation(len)[:2].
      const std::vector<int64_t> picked = NumpyRandomState(0).Permutation(rows.size());
      split[rows[picked[0]]] = Split::kTrain;
      split[rows[picked[1]]] = Split::kTest;
    } else {
      // `rng.choice(["train", "test"], replace=False, p=[0.9, 0.1])`: one
      // random() against the cumulative [0.9, 1.0], searchsorted right.
      split[rows[0]] = rng.Random() < 1 - kTestSize ? Split::kTrain : Split::kTest;
    }
  }
  std::vector<int64_t> remaining;
  for (size_t row = 0; row < n; ++row) {
    if (split[row] == Split::kUndecided) remaining.push_back(static_cast<int64_t>(row));
  }
  TrainTestSplitOptions options;
  options.test_size = kTestSize;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices rest,
                   TrainTestSplitIndices(static_cast<int64_t>(remaining.size()), options));
  for (int64_t i : rest.train_indices) split[remaining[i]] = Split::kTrain;
  for (int64_t i : rest.test_indices) split[remaining[i]] = Split::kTest;
  return split;
}

// Upstream counts `public/<dir>/*.jpg` after copying: the split's distinct
// names ending in ".jpg" must be as many as its rows.
bool EveryRowHasItsOwnJpeg(const std::vector<std::string>& images) {
  std::set<std::string> jpegs;
  for (const std::string& image : images) {
    if (image.size() > 4 && image.compare(image.size() - 4, 4, ".jpg") == 0) jpegs.insert(image);
  }
  return jpegs.size() == images.size();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  ASSIGN_OR_RETURN(std::vector<std::string> images, TextColumn(old_train, "Image"));
  ASSIGN_OR_RETURN(std::vector<std::string> whale_ids, TextColumn(old_train, "Id"));
  for (const std::string& image : images) {
    if (!IsPlainFileName(image)) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv: 'Image' must be an image file name, got '", image, "'"));
    }
  }
  if (old_train.num_columns() != 2) return CheckFailed("Train should have exactly 2 columns");

  ASSIGN_OR_RETURN(std::vector<Split> split, AssignSplits(whale_ids));
  std::vector<int64_t> train_rows, test_rows;
  for (size_t row = 0; row < split.size(); ++row) {
    ((split)[row] == Split::kTrain ? train_rows : test_rows).push_back(static_cast<int64_t>(row));
  }
  ASSIGN_OR_RETURN(Table new_train, TakeRows(old_train, train_rows));
  ASSIGN_OR_RETURN(Table answers, TakeRows(old_train, test_rows));

  std::set<std::string> train_whales;
  for (int64_t row : train_rows) train_whales.insert((whale_ids)[row]);
  bool has_new_whale = false;
  for (Cell& id : answers.FindMutable("Id")->cells) {
    if (train_whales.count(std::get<std::string>(id)) == 0) id = std::string(kNewWhale);
    has_new_whale = has_new_whale || std::get<std::string>(id) == kNewWhale;
  }
  Table sample_submission = answers;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "Id", std::string(kSampleIds)));

  // Upstream's checks that can fail (it runs the file checks after copying;
  // we run them first so that bad input leaves no output).
  if (!has_new_whale) {
    return CheckFailed("Answers should contain at least some values with 'new_whale' in the 'Id' column");
  }
  std::vector<std::string> train_images, test_images;
  for (int64_t row : train_rows) train_images.push_back((images)[row]);
  for (int64_t row : test_rows) test_images.push_back((images)[row]);
  if (!EveryRowHasItsOwnJpeg(train_images)) {
    return CheckFailed("Train dir should have the same number of images as the length of train set");
  }
  if (!EveryRowHasItsOwnJpeg(test_images)) {
    return CheckFailed("Test dir should have the same number of images as the length of test set");
  }

  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "test.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(new_train, (public_dir / "train.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train", public_dir / "test", test_images));
  return CopyNamedFiles(raw / "train", public_dir / "train", train_images);
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
