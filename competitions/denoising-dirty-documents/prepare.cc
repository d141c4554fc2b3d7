// Upstream's denoising-dirty-documents/prepare.py: Kaggle's train.zip (noisy
// scans, train/<n>.png) and train_cleaned.zip (their clean versions,
// train_cleaned/<n>.png) are extracted into public/; a 20% split of the
// sorted train images (sklearn's train_test_split, random_state 0) moves to
// public/test/, and their clean versions become private/answers.csv: one row
// per pixel, id "<stem>_<row>_<col>" (1-based), value = gray level / 255, as
// PIL's convert("L") reads it. public/sampleSubmission.csv has the same ids
// with value 1.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/preparer.h"
#include "competitions/denoising-dirty-documents/pil_gray_png.h"
#include "formats/zip_archive.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// pathlib's `dir.glob("*.png")` names, sorted as Python sorts them (code
// point order, which is UTF-8 byte order).
std::vector<std::string> PngNames(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  if (!fs::is_directory(dir, error)) return names;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() >= 4 && name.ends_with(".png") && entry.is_regular_file()) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// pathlib's `Path(name).stem`.
std::string Stem(const std::string& name) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 || dot + 1 == name.size() ? name : name.substr(0, dot);
}

absl::StatusOr<std::string> ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in.good() && !in.eof()) return absl::InternalError(absl::StrCat("cannot read ", path.string()));
  return bytes.str();
}

absl::Status Move(const fs::path& from, const fs::path& to) {
  std::error_code error;
  fs::rename(from, to, error);
  if (error == std::errc::cross_device_link) {
    // Like shutil.move across file systems: copy, then remove the source.
    error.clear();
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, error);
    if (!error) fs::remove(from, error);
  }
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot move ", from.string(), " to ", to.string(), ": ", error.message()));
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  RETURN_IF_ERROR(ExtractZip(raw / "train.zip", public_dir));
  const std::vector<std::string> old_train = PngNames(public_dir / "train");
  TrainTestSplitOptions options;
  options.test_size = 0.2;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split =
      TrainTestSplitIndices(static_cast<int64_t>(old_train.size()), options);
  if (!split.ok()) {
    return absl::Status(split.status().code(),
                        absl::StrCat("splitting the ", old_train.size(), " images of train.zip: ",
                                     split.status().message()));
  }
  std::set<std::string> test_names;
  for (int64_t index : split->test_indices) test_names.insert(old_train[index]);

  fs::create_directories(public_dir / "test");
  for (const std::string& name : test_names) {
    RETURN_IF_ERROR(Move(public_dir / "train" / name, public_dir / "test" / name));
  }
  RETURN_IF_ERROR(ExtractZip(raw / "train_cleaned.zip", public_dir));
  // Upstream moves the test images' clean versions to private/ and deletes
  // them once read; they go to scratch instead.
  const fs::path held_out = scratch / "train_cleaned";
  fs::create_directories(held_out);
  for (const std::string& name : PngNames(public_dir / "train_cleaned")) {
    if (test_names.count(name) == 0) continue;
    RETURN_IF_ERROR(Move(public_dir / "train_cleaned" / name, held_out / name));
  }

  Column ids{.name = "id", .dtype = Dtype::kObject, .cells = {}};
  Column values{.name = "value", .dtype = Dtype::kFloat64, .cells = {}};
  std::set<std::string> seen_ids;
  for (const std::string& name : PngNames(held_out)) {
    ASSIGN_OR_RETURN(std::string bytes, ReadBytes(held_out / name));
    ASSIGN_OR_RETURN(GrayImage image,
                     DecodePngAsPilGray(bytes, absl::StrCat("train_cleaned/", name)));
    const std::string stem = Stem(name);
    for (int row = 0; row < image.height; ++row) {
      for (int col = 0; col < image.width; ++col) {
        std::string id = absl::StrCat(stem, "_", row + 1, "_", col + 1);
        // Upstream checks that the answers' rows are unique; distinct files
        // cannot give one id, but a check is cheap.
        if (!seen_ids.insert(id).second) {
          return absl::FailedPreconditionError(
              absl::StrCat("check failed: Expected `answers.csv` to have unique rows; ", id, " repeats"));
        }
        ids.cells.push_back(std::move(id));
        values.cells.push_back(image.pixels[static_cast<size_t>(row) * image.width + col] / 255.0);
      }
    }
  }
  Column ones{.name = "value", .dtype = Dtype::kInt64,
              .cells = std::vector<Cell>(ids.cells.size(), Cell(int64_t{1}))};
  const Table answers({ids, std::move(values)});
  const Table sample({std::move(ids), std::move(ones)});
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  return WriteCsvFile(sample, (public_dir / "sampleSubmission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
