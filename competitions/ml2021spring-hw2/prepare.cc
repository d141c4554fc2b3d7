// Upstream's ml2021spring-hw2/prepare.py: a new split of Kaggle's labelled
// TIMIT frames (timit_11/timit_11/train_11.npy with train_label_11.npy).
// The test fraction is Kaggle's own, len(test) / (len(train) + len(test))
// (about 0.268), taken by sklearn's train_test_split over the row positions
// with random_state=0. The feature arrays are re-saved with np.save; the
// test labels become answers.csv (Id = 0..n-1 in split order, ClassId =
// the label as stored, e.g. the text "36"), and the sample submission
// predicts class 0 everywhere.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/utf8.h"
#include "competitions/common/preparer.h"
#include "formats/npy.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// The UTF-8 text of one UCS-4 element of a 'U' array, without the trailing
// NULs numpy strips.
absl::StatusOr<std::string> DecodeUcs4(std::string_view bytes, bool big_endian) {
  std::vector<uint32_t> code_points;
  for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
    uint32_t c = 0;
    for (size_t k = 0; k < 4; ++k) {
      const uint32_t b = static_cast<unsigned char>(bytes[i + k]);
      c |= big_endian ? b << (8 * (3 - k)) : b << (8 * k);
    }
    code_points.push_back(c);
  }
  while (!code_points.empty() && code_points.back() == 0) code_points.pop_back();
  std::string text;
  for (uint32_t c : code_points) {
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
      return absl::InvalidArgumentError(absl::StrCat("invalid code point ", c, " in a label"));
    }
    AppendUtf8(static_cast<char32_t>(c), text);
  }
  return text;
}

// pd.DataFrame({"ClassId": labels})["ClassId"] for a 1-D label array:
// text labels (Kaggle's '<U2') become an object column, integers and
// booleans keep their values. Other dtypes would need pandas' float32 or
// bytes formatting and are not supported.
absl::StatusOr<Column> LabelColumn(const NpyArray& labels) {
  if (labels.shape.size() != 1) {
    return absl::InvalidArgumentError(
        "train_label_11.npy: Per-column arrays must each be 1-dimensional");
  }
  ASSIGN_OR_RETURN(int64_t item_size, NpyItemSize(labels.descr));
  const char order = labels.descr[0];
  const char kind = labels.descr[1];
  Column column{"ClassId", Dtype::kObject, {}};
  for (int64_t row = 0; row < labels.shape[0]; ++row) {
    const std::string_view bytes =
        std::string_view(labels.data)
            .substr(static_cast<size_t>(row * item_size), static_cast<size_t>(item_size));
    if (kind == 'U') {
      ASSIGN_OR_RETURN(std::string text, DecodeUcs4(bytes, order == '>'));
      column.cells.push_back(text);
    } else if (kind == 'b') {
      column.dtype = Dtype::kBool;
      column.cells.push_back(bytes[0] != 0);
    } else if ((kind == 'i' && item_size <= 8) || (kind == 'u' && item_size <= 4)) {
      column.dtype = Dtype::kInt64;
      uint64_t value = 0;
      for (int64_t k = 0; k < item_size; ++k) {
        const uint64_t b = static_cast<unsigned char>(bytes[static_cast<size_t>(k)]);
        value |= order == '>' ? b << (8 * (item_size - 1 - k)) : b << (8 * k);
      }
      if (kind == 'i' && item_size < 8 && (value >> (8 * item_size - 1)) != 0) {
        value |= ~uint64_t{0} << (8 * item_size);  // sign-extend
      }
      column.cells.push_back(static_cast<int64_t>(value));
    } else {
      return absl::UnimplementedError(absl::StrCat(
          "train_label_11.npy: labels of dtype ", labels.descr,
          " are not supported (expected text like Kaggle's '<U2', integers or booleans)"));
    }
  }
  return column;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  const fs::path raw_timit = raw / "timit_11" / "timit_11";
  ASSIGN_OR_RETURN(NpyArray old_train, ReadNpyFile(raw_timit / "train_11.npy"));
  ASSIGN_OR_RETURN(NpyArray old_train_label, ReadNpyFile(raw_timit / "train_label_11.npy"));
  ASSIGN_OR_RETURN(NpyArray old_test, ReadNpyFile(raw_timit / "test_11.npy"));
  if (old_train.shape.empty() || old_test.shape.empty()) {
    return absl::InvalidArgumentError(
        "len() of a 0-d array: train_11.npy and test_11.npy "
        "must have at least one axis");
  }
  const int64_t n_train = old_train.shape[0];
  const int64_t n_test = old_test.shape[0];
  if (n_train + n_test == 0) {
    return absl::InvalidArgumentError("ZeroDivisionError: train_11.npy and test_11.npy are empty");
  }
  // Python's true division of the two lengths.
  const double old_test_prop = static_cast<double>(n_test) / static_cast<double>(n_train + n_test);
  TrainTestSplitOptions options;
  options.test_size = old_test_prop;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split, TrainTestSplitIndices(n_train, options));

  ASSIGN_OR_RETURN(NpyArray new_train, TakeNpyRows(old_train, split.train_indices));
  ASSIGN_OR_RETURN(NpyArray new_train_label, TakeNpyRows(old_train_label, split.train_indices));
  ASSIGN_OR_RETURN(NpyArray new_test, TakeNpyRows(old_train, split.test_indices));
  ASSIGN_OR_RETURN(NpyArray new_test_label, TakeNpyRows(old_train_label, split.test_indices));

  Column ids{"Id", Dtype::kInt64, {}};
  for (int64_t i = 0; i < new_test.shape[0]; ++i) ids.cells.push_back(i);
  ASSIGN_OR_RETURN(Column labels, LabelColumn(new_test_label));
  const Table answers({ids, labels});
  const Table sample({ids, Column{"ClassId", Dtype::kInt64,
                                  std::vector<Cell>(ids.cells.size(), Cell(int64_t{0}))}});

  if (new_train.shape[0] + new_test.shape[0] != n_train) {
    return absl::FailedPreconditionError(absl::StrCat(
        "check failed: expected ", n_train, " samples in combined new train and test splits"));
  }

  const fs::path public_timit = public_dir / "timit_11" / "timit_11";
  std::error_code error;
  fs::create_directories(public_timit, error);
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot create public/timit_11/timit_11: ", error.message()));
  }
  RETURN_IF_ERROR(WriteNpyFile(new_train, public_timit / "train_11.npy"));
  RETURN_IF_ERROR(WriteNpyFile(new_train_label, public_timit / "train_label_11.npy"));
  RETURN_IF_ERROR(WriteNpyFile(new_test, public_timit / "test_11.npy"));
  RETURN_IF_ERROR(WriteCsvFile(sample, (public_dir / "sampleSubmission.csv").string()));
  return WriteCsvFile(answers, (private_dir / "answers.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
