// Upstream's dogs-vs-cats-redux-kernels-edition/prepare.py: Kaggle's 25,000
// labelled training images (train.zip: train/cat.<n>.jpg, train/dog.<n>.jpg)
// split 90/10. The public train images are renumbered per class, the test
// images become 1.jpg, 2.jpg, ... (their label hidden in the answers), and
// each split is written both as a folder and as a zip of that folder.
#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// The names of the entries of `dir` ending in ".jpg", sorted as Python sorts
// the paths of one folder (by name, code point order).
absl::StatusOr<std::vector<std::string>> JpgNames(const fs::path& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    return absl::NotFoundError("train.zip holds no train/ folder");
  }
  std::vector<std::string> names;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() < 4 || name.compare(name.size() - 4, 4, ".jpg") != 0) continue;
    if (!it->is_regular_file()) {
      return absl::InvalidArgumentError(absl::StrCat("train/", name, " is not a file"));
    }
    names.push_back(name);
  }
  if (error) return absl::InternalError(absl::StrCat("cannot list train/: ", error.message()));
  std::sort(names.begin(), names.end());
  return names;
}

absl::Status MakeDir(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
  return absl::OkStatus();
}

bool Contains(const std::string& name, std::string_view part) {
  return name.find(std::string(part)) != std::string::npos;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  // Upstream extracts both archives into raw/ (test.zip only to delete it
  // again); we extract into scratch/ and leave raw/ alone.
  const fs::path extracted = scratch / "extracted";
  RETURN_IF_ERROR(ExtractZip(raw / "train.zip", extracted));
  RETURN_IF_ERROR(ExtractZip(raw / "test.zip", extracted));
  ASSIGN_OR_RETURN(std::vector<std::string> all_images, JpgNames(extracted / "train"));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(all_images.size()), options));

  // Train images: "cat" anywhere in the name makes it a cat, anything else a
  // dog, each class numbered from 0 in split order.
  RETURN_IF_ERROR(MakeDir(public_dir / "train"));
  int64_t cats = 0, dogs = 0;
  for (int64_t index : split.train_indices) {
    const std::string& name = (all_images)[index];
    const std::string renamed = Contains(name, "cat") ? absl::StrCat("cat.", cats++, ".jpg")
                                                      : absl::StrCat("dog.", dogs++, ".jpg");
    const fs::path target = public_dir / "train" / renamed;
    RETURN_IF_ERROR(CopyRegularFile(extracted / "train" / name, target));
  }

  // Test images: 1.jpg, 2.jpg, ... in split order; the label is whether
  // "dog" is in the original name (a separate test from the "cat" one above,
  // as upstream's).
  RETURN_IF_ERROR(MakeDir(public_dir / "test"));
  Column answer_ids{"id", Dtype::kInt64, {}}, answer_labels{"label", Dtype::kInt64, {}};
  Column sample_labels{"label", Dtype::kFloat64, {}};
  for (size_t i = 0; i < split.test_indices.size(); ++i) {
    const std::string& name = (all_images)[split.test_indices[i]];
    const int64_t id = static_cast<int64_t>(i) + 1;
    const fs::path target = public_dir / "test" / absl::StrCat(id, ".jpg");
    RETURN_IF_ERROR(CopyRegularFile(extracted / "train" / name, target));
    answer_ids.cells.push_back(id);
    answer_labels.cells.push_back(int64_t{Contains(name, "dog") ? 1 : 0});
    sample_labels.cells.push_back(0.5);
  }

  RETURN_IF_ERROR(ZipDirectory(public_dir / "train", public_dir / "train.zip"));
  RETURN_IF_ERROR(ZipDirectory(public_dir / "test", public_dir / "test.zip"));
  const Table answers({answer_ids, answer_labels});
  const Table sample_submission({answer_ids, sample_labels});
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  return WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
