// Upstream's vesuvius-challenge-ink-detection/prepare.py: Kaggle's three
// labelled fragments; fragments 1 and 2 stay training data, fragment 3
// becomes the test fragment "a" without its labels (inklabels.png,
// inklabels_rle.csv) and its infrared photo (ir.png), whose size goes into
// the answers.

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// The width and height in a PNG file's IHDR chunk (what PIL's Image.size
// reports).
absl::StatusOr<std::pair<int64_t, int64_t>> PngSize(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char header[24];
  if (!in.read(header, sizeof(header)) ||
      std::string_view(header, 8) != std::string_view("\x89PNG\r\n\x1a\n", 8) ||
      std::string_view(header + 12, 4) != "IHDR") {
    return absl::InvalidArgumentError(
        absl::StrCat(path.filename().string(), " is not a PNG image"));
  }
  auto big_endian = [&](int offset) {
    int64_t value = 0;
    for (int i = 0; i < 4; ++i) value = (value << 8) | static_cast<uint8_t>(header[offset + i]);
    return value;
  };
  return std::pair{big_endian(16), big_endian(20)};
}

// len(list(dir.rglob("*"))): files and folders below `dir`.
int64_t CountEntries(const fs::path& dir) {
  int64_t count = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end;
       it.increment(error)) {
    ++count;
  }
  return count;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  const fs::path fragment = raw / "train" / "3";
  ASSIGN_OR_RETURN(Table inklabels, ReadCsvFile((fragment / "inklabels_rle.csv").string()));
  if (inklabels.num_rows() != 1) {
    return CheckFailed(absl::StrCat("Expected a single row in `inklabels_rle.csv`, got ",
                                    inklabels.num_rows(), " rows."));
  }
  if (!fs::is_regular_file(fragment / "ir.png")) {
    return CheckFailed("Expected image file at train/3/ir.png, but it does not exist.");
  }
  absl::StatusOr<std::pair<int64_t, int64_t>> size = PngSize(fragment / "ir.png");
  if (!size.ok()) return size.status();
  for (const auto& [name, value] : {std::pair<std::string, Cell>{"width", size->first},
                                    {"height", size->second},
                                    {"Id", std::string("a")}}) {
    RETURN_IF_ERROR(SetConstantColumn(inklabels, name, value));
  }
  ASSIGN_OR_RETURN(Table gold, (DropColumns(inklabels, {"width", "height"})));
  if (inklabels.Find("Predicted") == nullptr) {
    return CheckFailed("Expected column `Predicted` in `inklabels_rle.csv`.");
  }

  // The test fragment's files: every file must be a png, csv or tif (checked
  // before any is copied, as upstream's loop raises on the first other one).
  std::vector<fs::path> test_files;
  std::error_code error;
  for (fs::recursive_directory_iterator it(fragment, error), end; !error && it != end;
       it.increment(error)) {
    if (!it->is_regular_file()) continue;
    const std::string suffix = it->path().extension().string();
    if (suffix != ".png" && suffix != ".csv" && suffix != ".tif") {
      return CheckFailed(absl::StrCat("Expected file with extension png, csv, or tif, got `",
                                      suffix, "` for file `",
                                      it->path().lexically_relative(raw).string(), "`"));
    }
    const std::string name = it->path().filename().string();
    if (name == "inklabels.png" || name == "inklabels_rle.csv" || name == "ir.png") continue;
    test_files.push_back(it->path().lexically_relative(fragment));
  }
  if (error) return absl::InternalError("cannot list train/3");

  RETURN_IF_ERROR(CopyFolderTree(raw / "train" / "1", public_dir / "train" / "1"));
  RETURN_IF_ERROR(CopyFolderTree(raw / "train" / "2", public_dir / "train" / "2"));
  RETURN_IF_ERROR(WriteCsvFile(inklabels, (private_dir / "inklabels_rle.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(gold, (private_dir / "gold_submission.csv").string()));
  const fs::path test_dir = public_dir / "test" / "a";
  for (const fs::path& relative : test_files) {
    fs::create_directories((test_dir / relative).parent_path(), error);
    fs::copy_file(fragment / relative, test_dir / relative, fs::copy_options::overwrite_existing,
                  error);
    if (error) return absl::InternalError(absl::StrCat("cannot copy train/3/", relative.string()));
  }
  const Table sample_submission({Column{"Id", Dtype::kObject, {std::string("a")}},
                                 Column{"Predicted", Dtype::kObject, {std::string("1 1 5 1")}}});
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));

  // Upstream's counts of files and folders.
  for (const char* train : {"1", "2"}) {
    if (CountEntries(public_dir / "train" / train) != CountEntries(raw / "train" / train)) {
      return CheckFailed(
          absl::StrCat("Expected as many files in `public/train/", train, "` as in the raw data"));
    }
  }
  const int64_t expected = CountEntries(fragment) - 3;
  const int64_t actual = CountEntries(test_dir);
  if (actual != expected) {
    return CheckFailed(
        absl::StrCat("Expected ", expected, " files in `public/test/a`, got ", actual, " files."));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
