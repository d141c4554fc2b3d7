// Upstream's kuzushiji-recognition/prepare.py: a 90/10 split of Kaggle's
// train.csv (sklearn's train_test_split, random_state 0), the held-out pages
// becoming the test set.
//  - public/train.csv, private/test.csv: the split rows (image_id, labels);
//  - public/train_images.zip, public/test_images.zip: the pages' JPEGs from
//    raw/train_images.zip, at the archive root as "<image_id>.jpg";
//  - public/unicode_translation.csv: copied;
//  - public/sample_submission.csv: the test pages, each with the constant
//    guess "U+003F 1 1 U+FF2F 2 2";
//  - private/gold_submission.csv: each test box "label X Y W H" turned into
//    the point "label X+1 Y+1".
// The raw zip is extracted into scratch (upstream extracts into raw).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/python_str.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Python's `str.split()` on ASCII whitespace (including \x1c-\x1f).
// ASSUMPTION: non-ASCII whitespace, which Python also splits on, does not
// occur in Kaggle's labels.
std::vector<std::string> SplitWhitespace(const std::string& s) {
  auto is_space = [](unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); };
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    const size_t start = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i > start) tokens.push_back(s.substr(start, i - start));
  }
  return tokens;
}

// `str(int(token) + 1)` for an ASCII integer token (sign, digits, single
// underscores between digits), or an error where Python's int() raises.
absl::StatusOr<std::string> PlusOne(const std::string& token) {
  size_t i = 0;
  bool negative = false;
  if (i < token.size() && (token[i] == '+' || token[i] == '-')) negative = token[i++] == '-';
  std::string digits;
  bool last_digit = false;
  for (; i < token.size(); ++i) {
    const char c = token[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits.push_back(c);
      last_digit = true;
    } else if (c == '_' && last_digit && i + 1 < token.size()) {
      last_digit = false;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("invalid literal for int() with base 10: '", token, "'"));
    }
  }
  if (digits.empty() || !last_digit) {
    return absl::InvalidArgumentError(absl::StrCat("invalid literal for int() with base 10: '", token, "'"));
  }
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
  if (digits.size() > 17) return absl::OutOfRangeError(absl::StrCat("coordinate too large: ", token));
  const int64_t value = (negative ? -1 : 1) * std::stoll(digits) + 1;
  return absl::StrCat(value);
}

absl::StatusOr<Table> GoldSubmission(const Table& test) {
  Table gold = test;
  Column* labels = gold.FindMutable("labels");
  if (labels == nullptr) return absl::NotFoundError("train.csv has no 'labels' column");
  for (size_t row = 0; row < labels->cells.size(); ++row) {
    Cell& cell = labels->cells[row];
    const std::string* text = std::get_if<std::string>(&cell);
    if (text == nullptr) {
      // Upstream calls .split() on the value: a float NaN raises.
      return absl::InvalidArgumentError(
          absl::StrCat("test labels row ", row, ": '", PythonStr(cell), "' is not a label string"));
    }
    const std::vector<std::string> tokens = SplitWhitespace(*text);
    if (tokens.size() % 5 != 0) return CheckFailed(absl::StrCat("test labels row ", row, " is not label X Y W H groups"));
    std::vector<std::string> points;
    for (size_t i = 0; i < tokens.size(); i += 5) {
      ASSIGN_OR_RETURN(std::string x, PlusOne(tokens[i + 1]));
      ASSIGN_OR_RETURN(std::string y, PlusOne(tokens[i + 2]));
      points.push_back(absl::StrCat(tokens[i], " ", x, " ", y));
    }
    cell = absl::StrJoin(points, " ");
  }
  labels->dtype = Dtype::kObject;
  return gold;
}

// The split's pages as zip entries "<image_id>.jpg" from the extracted
// images, in name order (as ZipDirectory orders them).
absl::StatusOr<std::vector<ZipEntry>> ImageEntries(const Table& split, const fs::path& images) {
  const Column* ids = split.Find("image_id");
  if (ids == nullptr) return absl::NotFoundError("train.csv has no 'image_id' column");
  std::set<std::string> names;
  for (const Cell& cell : ids->cells) {
    const std::string name = absl::StrCat(PythonStr(cell), ".jpg");
    if (name.find('/') != std::string::npos || name.find('\0') != std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat("image_id '", PythonStr(cell), "' is not a file name"));
    }
    std::error_code error;
    if (!fs::is_regular_file(images / name, error)) {
      return absl::NotFoundError(absl::StrCat("train_images.zip has no ", name));
    }
    names.insert(name);
  }
  if (names.size() != ids->cells.size()) {
    return CheckFailed("repeated image_id: fewer images than rows");
  }
  std::vector<ZipEntry> entries;
  for (const std::string& name : names) entries.push_back(ZipEntry::FromFile(name, images / name));
  return entries;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  const fs::path images = scratch / "train";
  RETURN_IF_ERROR(ExtractZip(raw / "train_images.zip", images));
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));

  ASSIGN_OR_RETURN(std::vector<ZipEntry> train_images, ImageEntries(split.train, images));
  ASSIGN_OR_RETURN(std::vector<ZipEntry> test_images, ImageEntries(split.test, images));
  ASSIGN_OR_RETURN(Table gold, GoldSubmission(split.test));
  Table sample_submission = split.test;
  RETURN_IF_ERROR(
      SetConstantColumn(sample_submission, "labels", std::string("U+003F 1 1 U+FF2F 2 2")));

  RETURN_IF_ERROR(WriteCsvFile(split.train, (public_dir / "train.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(split.test, (private_dir / "test.csv").string()));
  RETURN_IF_ERROR(WriteZip(public_dir / "train_images.zip", train_images));
  RETURN_IF_ERROR(WriteZip(public_dir / "test_images.zip", test_images));
  std::error_code error;
  fs::copy_file(raw / "unicode_translation.csv", public_dir / "unicode_translation.csv", error);
  if (error) return absl::NotFoundError(absl::StrCat("copying unicode_translation.csv: ", error.message()));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));
  return WriteCsvFile(gold, (private_dir / "gold_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
