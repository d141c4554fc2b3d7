// Upstream's new-york-city-taxi-fare-prediction/prepare.py: Kaggle's test set
// has no labels, so 9914 rows (the size of Kaggle's test set) of the
// labelled train.csv become the test set and the rest `labels.csv`.
//
// Kaggle's train.csv has 55M rows (5.7 GB): held as a Table (~40 bytes a
// cell) it needed ~56 GiB. A plain file (no quotes, lone "\r", NUL, blank
// lines, BOM or rows wider than the header; Kaggle's timestamps and numbers
// should be one) is streamed instead, 2**19 rows at a time (see
// PrepareStreaming and base/csv_segments.h); any other file is read whole
// into typed columns (PrepareInMemory). Both write exactly the bytes of upstream's steps on the
// whole file as one DataFrame (docs/performance.md).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/csv_segments.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "base/typed_csv_writer.h"
#include "base/typed_table.h"
#include "competitions/common/preparer.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, fs::path>;

constexpr int64_t kTestRows = 9914;
constexpr double kSampleFare = 11.35;  // the mean fare of Kaggle's train.csv
constexpr char kCoupons[] = "GCP-Coupons-Instructions.rtf";
// Train keys compared with the test keys at a time (see TrainKeysDisjoint).
constexpr size_t kKeyBlockRows = size_t{1} << 18;
// Rows formatted at a time, and rows of labels.csv per scratch bucket.
constexpr size_t kSliceRows = size_t{1} << 16;
constexpr size_t kBucketRows = size_t{1} << 20;

TrainTestSplitOptions SplitOptions() {
  TrainTestSplitOptions options;
  options.test_size = kTestRows;
  options.random_state = 0;
  return options;
}

// `set(a).isdisjoint(set(b))` with Python's set equality.
bool Disjoint(const Column& a, const Column& b) {
  const Column empty{a.name, a.dtype, {}};
  return SymmetricDifferenceSize(a, b) ==
         SymmetricDifferenceSize(a, empty) + SymmetricDifferenceSize(b, empty);
}

// `set(keys[rows]).isdisjoint(set(test_keys))`, a block of keys at a time:
// no block has a common element with the test keys exactly when the whole
// train side has none.
bool KeysDisjoint(const TypedColumn& keys, const std::vector<int64_t>& rows,
                  const Column& test_keys) {
  for (size_t begin = 0; begin < rows.size(); begin += kKeyBlockRows) {
    const size_t end = std::min(rows.size(), begin + kKeyBlockRows);
    Column block{keys.name(), keys.dtype(), {}};
    block.cells.reserve(end - begin);
    for (size_t i = begin; i < end; ++i) {
      block.cells.push_back(keys.CellAt(static_cast<size_t>(rows[i])));
    }
    if (!Disjoint(block, test_keys)) return false;
  }
  return true;
}

// upstream's new_test, new_test_without_labels and submission_df.
struct TestOutputs {
  Table test;
  Table without_labels;
  Table sample_submission;
};

absl::StatusOr<TestOutputs> MakeTestOutputs(Table new_test) {
  TestOutputs out;
  ASSIGN_OR_RETURN(out.without_labels, (DropColumns(new_test, {"fare_amount"})));
  ASSIGN_OR_RETURN(out.sample_submission, (SelectColumns(new_test, {"key"})));
  RETURN_IF_ERROR(SetConstantColumn(out.sample_submission, "fare_amount", kSampleFare));
  out.test = std::move(new_test);
  return out;
}

// Upstream's checks (it runs them after writing; we run them first so that
// bad input leaves no output). `disjoint`: whether no train key is a test key.
absl::Status CheckSplit(const TestOutputs& outputs, bool disjoint, size_t train_columns,
                        const fs::path& raw) {
  const Table& new_test = outputs.test;
  if (!disjoint) return CheckFailed("Train and test sets share samples!");
  if (new_test.num_columns() != 8) {
    return CheckFailed(
        absl::StrCat("Test set should have 8 columns, but has ", new_test.num_columns()));
  }
  if (outputs.without_labels.num_columns() != 7) {
    return CheckFailed(absl::StrCat("Test set without labels should have 7 columns, but has ",
                                    outputs.without_labels.num_columns()));
  }
  if (train_columns != 8) {
    return CheckFailed(absl::StrCat("Train set should have 8 columns, but has ", train_columns));
  }
  if (outputs.sample_submission.num_columns() != 2) {
    return CheckFailed(absl::StrCat("Sample submission should have 2 columns, but has ",
                                    outputs.sample_submission.num_columns()));
  }
  if (outputs.sample_submission.num_rows() != new_test.num_rows()) {
    return CheckFailed(absl::StrCat("Sample submission should have ", new_test.num_rows(),
                                    " rows, but has ", outputs.sample_submission.num_rows()));
  }
  if (!fs::is_regular_file(raw / kCoupons)) {
    return absl::NotFoundError(absl::StrCat("raw data has no file ", kCoupons));
  }
  return absl::OkStatus();
}

// Writes the test-side files and copies the coupon instructions.
absl::Status WriteTestOutputs(const TestOutputs& outputs, const fs::path& raw,
                              const fs::path& public_dir, const fs::path& private_dir) {
  for (const auto& [table, path] : {
           CsvOutput{&outputs.without_labels, public_dir / "test.csv"},
           CsvOutput{&outputs.sample_submission, public_dir / "sample_submission.csv"},
           CsvOutput{&outputs.test, private_dir / "test.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  std::error_code error;
  fs::copy_file(raw / kCoupons, public_dir / kCoupons, fs::copy_options::overwrite_existing, error);
  if (error) {
    return absl::InternalError(absl::StrCat("copying ", kCoupons, ": ", error.message()));
  }
  return absl::OkStatus();
}

// The whole file in typed columns (numbers as arrays, text as views into the
// mapped file: about 80 bytes a row besides the file's bytes); only the test
// rows become a Table, and labels.csv is written a slice at a time.
absl::Status PrepareInMemory(const fs::path& raw, const fs::path& public_dir,
                             const fs::path& private_dir) {
  ASSIGN_OR_RETURN(const TypedTable old_train, ReadTypedCsvFile((raw / "train.csv").string()));
  ASSIGN_OR_RETURN(
      const TrainTestIndices split,
      TrainTestSplitIndices(static_cast<int64_t>(old_train.num_rows()), SplitOptions()));
  ASSIGN_OR_RETURN(Table new_test, TakeRows(old_train, split.test_indices));
  ASSIGN_OR_RETURN(const TestOutputs outputs, MakeTestOutputs(std::move(new_test)));
  const bool disjoint =
      KeysDisjoint(*old_train.Find("key"), split.train_indices, *outputs.test.Find("key"));
  RETURN_IF_ERROR(CheckSplit(outputs, disjoint, old_train.num_columns(), raw));
  std::vector<const TypedColumn*> train_columns;
  for (const TypedColumn& column : old_train.columns()) train_columns.push_back(&column);
  RETURN_IF_ERROR(
      WriteTypedCsvRows(train_columns, split.train_indices, (public_dir / "labels.csv").string()));
  return WriteTestOutputs(outputs, raw, public_dir, private_dir);
}

// ---- The streaming path ----

// labels.csv's rows, spread over scratch files of kBucketRows rows of the
// output each (a row's 8-byte position, then its line), then written in order.
class LabelBuckets {
 public:
  LabelBuckets(fs::path scratch, size_t rows) : scratch_(std::move(scratch)), rows_(rows) {
    files_.resize((rows + kBucketRows - 1) / kBucketRows, nullptr);
  }
  ~LabelBuckets() {
    for (size_t b = 0; b < files_.size(); ++b) {
      if (files_[b] != nullptr) std::fclose(files_[b]);
      std::error_code ignored;
      fs::remove(Path(b), ignored);
    }
  }

  absl::Status Add(uint64_t position, std::string_view line) {
    const size_t b = position / kBucketRows;
    if (files_[b] == nullptr) {
      files_[b] = std::fopen(Path(b).c_str(), "wb");
      if (files_[b] == nullptr) {
        return absl::InternalError(absl::StrCat("cannot create '", Path(b).string(), "'"));
      }
    }
    if (std::fwrite(&position, sizeof(position), 1, files_[b]) != 1 ||
        std::fwrite(line.data(), 1, line.size(), files_[b]) != line.size()) {
      return absl::InternalError(absl::StrCat("cannot write '", Path(b).string(), "'"));
    }
    return absl::OkStatus();
  }

  // Writes `header` and the rows in position order to `path` (through a
  // temporary file renamed over it).
  absl::Status WriteTo(const std::string& header, const fs::path& path) {
    for (std::FILE*& f : files_) {
      if (f != nullptr && std::fclose(f) != 0) {
        f = nullptr;
        return absl::InternalError("cannot write a scratch file");
      }
      f = nullptr;
    }
    const fs::path temp = fs::path(path.string() + ".tmp");
    std::FILE* out = std::fopen(temp.c_str(), "wb");
    if (out == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("cannot create '", temp.string(), "'"));
    }
    bool ok = std::fwrite(header.data(), 1, header.size(), out) == header.size();
    absl::Status status;
    for (size_t b = 0; ok && status.ok() && b < files_.size(); ++b) {
      absl::StatusOr<std::string> bytes = ReadFileToString(Path(b));
      if (!bytes.ok()) {
        status = bytes.status();
        break;
      }
      const size_t first = b * kBucketRows;
      std::vector<std::string_view> slots(std::min(rows_, first + kBucketRows) - first);
      size_t filled = 0;
      for (size_t p = 0; p < bytes->size();) {
        uint64_t position;
        const size_t end = bytes->find('\n', p + sizeof(position));
        if (p + sizeof(position) > bytes->size() || end == std::string::npos) break;
        std::memcpy(&position, bytes->data() + p, sizeof(position));
        if (position < first || position - first >= slots.size() ||
            slots[position - first].data() != nullptr) {
          break;
        }
        slots[position - first] = std::string_view(*bytes).substr(p + 8, end + 1 - p - 8);
        ++filled;
        p = end + 1;
      }
      if (filled != slots.size()) {
        status = absl::InternalError(absl::StrCat("scratch bucket ", b, " is incomplete"));
        break;
      }
      for (const std::string_view line : slots) {
        ok = ok && std::fwrite(line.data(), 1, line.size(), out) == line.size();
      }
      std::error_code ignored;
      fs::remove(Path(b), ignored);
    }
    ok = std::fclose(out) == 0 && ok;
    if (!ok || !status.ok()) {
      std::remove(temp.c_str());
      return status.ok()
                 ? absl::InvalidArgumentError(absl::StrCat("cannot write '", temp.string(), "'"))
                 : status;
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
      std::remove(temp.c_str());
      return absl::InvalidArgumentError(absl::StrCat("cannot replace '", path.string(), "'"));
    }
    return absl::OkStatus();
  }

 private:
  fs::path Path(size_t b) const { return scratch_ / absl::StrCat("labels.", b); }

  fs::path scratch_;
  size_t rows_;
  std::vector<std::FILE*> files_;
};

// The streaming path: false (nothing written) where it does not apply.
// Passes over train.csv: one finds the row count (so the split), one builds
// the test rows' Table, one checks the train keys against the test keys and
// formats each train row into its scratch bucket; then labels.csv is
// assembled bucket by bucket. Memory: a segment's rows, a bucket, and 4
// bytes a row for where each row goes.
absl::StatusOr<bool> PrepareStreaming(const fs::path& raw, const fs::path& public_dir,
                                      const fs::path& private_dir, const fs::path& scratch) {
  const fs::path path = raw / "train.csv";
  const std::optional<PlainCsvFile> file = ScanPlainCsvFile(path);
  // Too few rows for the split: the in-memory path gives the error.
  if (!file.has_value() || file->rows <= static_cast<size_t>(kTestRows) ||
      file->rows >= (size_t{1} << 31)) {
    return false;
  }
  // Where each row goes: its position in labels.csv, or kTest + its test row.
  constexpr uint32_t kTest = uint32_t{1} << 31;
  std::vector<uint32_t> destination(file->rows);
  size_t train_rows = 0;
  {
    ASSIGN_OR_RETURN(const TrainTestIndices split,
                     TrainTestSplitIndices(static_cast<int64_t>(file->rows), SplitOptions()));
    for (size_t i = 0; i < split.train_indices.size(); ++i) {
      destination[static_cast<size_t>(split.train_indices[i])] = static_cast<uint32_t>(i);
    }
    for (size_t i = 0; i < split.test_indices.size(); ++i) {
      destination[static_cast<size_t>(split.test_indices[i])] = kTest | static_cast<uint32_t>(i);
    }
    train_rows = split.train_indices.size();
  }

  // The test rows.
  CsvColumnKinds kinds;
  std::vector<Column> test_columns;
  ASSIGN_OR_RETURN(
      bool applies,
      ForEachCsvSegment(path, *file, kinds, [&](const TypedTable& segment, size_t first_row) {
        if (test_columns.empty()) {
          for (const TypedColumn& c : segment.columns()) {
            test_columns.push_back(Column{c.name(), c.dtype(), {}});
            test_columns.back().cells.resize(static_cast<size_t>(kTestRows));
          }
        }
        for (size_t r = 0; r < segment.num_rows(); ++r) {
          const uint32_t d = destination[first_row + r];
          if ((d & kTest) == 0) continue;
          for (size_t j = 0; j < test_columns.size(); ++j) {
            test_columns[j].cells[d & ~kTest] = segment.columns()[j].CellAt(r);
          }
        }
        return absl::OkStatus();
      }));
  if (!applies) return false;
  const size_t train_columns = test_columns.size();
  ASSIGN_OR_RETURN(const TestOutputs outputs, MakeTestOutputs(Table(std::move(test_columns))));
  const Column& test_keys = *outputs.test.Find("key");

  // The train rows: their keys checked, their lines formatted into buckets.
  bool disjoint = true;
  std::string header;
  LabelBuckets buckets(scratch, train_rows);
  ASSIGN_OR_RETURN(
      applies,
      ForEachCsvSegment(path, *file, kinds, [&](const TypedTable& segment, size_t first_row) {
        std::vector<int64_t> rows;
        for (size_t r = 0; r < segment.num_rows(); ++r) {
          if ((destination[first_row + r] & kTest) == 0) rows.push_back(static_cast<int64_t>(r));
        }
        if (disjoint) disjoint = KeysDisjoint(*segment.Find("key"), rows, test_keys);
        if (header.empty()) {
          ASSIGN_OR_RETURN(const Table no_rows, TakeRows(segment, std::vector<int64_t>{}));
          header = WriteCsvString(no_rows);
        }
        for (size_t begin = 0; begin < rows.size(); begin += kSliceRows) {
          const std::vector<int64_t> slice(
              rows.begin() + static_cast<ptrdiff_t>(begin),
              rows.begin() + static_cast<ptrdiff_t>(std::min(rows.size(), begin + kSliceRows)));
          ASSIGN_OR_RETURN(const Table slice_rows, TakeRows(segment, slice));
          const std::string text = WriteCsvString(slice_rows);
          // No value holds a line end (the file has no quotes), so each row
          // is one line after the header.
          size_t p = header.size();
          for (const int64_t r : slice) {
            const size_t end = text.find('\n', p);
            if (end == std::string::npos) return absl::InternalError("a row without a line end");
            RETURN_IF_ERROR(buckets.Add(destination[first_row + static_cast<size_t>(r)],
                                        std::string_view(text).substr(p, end + 1 - p)));
            p = end + 1;
          }
          if (p != text.size()) return absl::InternalError("a row with a line end in a value");
        }
        return absl::OkStatus();
      }));
  if (!applies) return false;
  RETURN_IF_ERROR(CheckSplit(outputs, disjoint, train_columns, raw));
  RETURN_IF_ERROR(buckets.WriteTo(header, public_dir / "labels.csv"));
  RETURN_IF_ERROR(WriteTestOutputs(outputs, raw, public_dir, private_dir));
  return true;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  if (fs::is_regular_file(raw / "train.csv")) {
    ASSIGN_OR_RETURN(const bool done, PrepareStreaming(raw, public_dir, private_dir, scratch));
    if (done) return absl::OkStatus();
  }
  return PrepareInMemory(raw, public_dir, private_dir);
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
