// Upstream's aptos2019-blindness-detection/prepare.py: a 90/10 split
// (random_state 0) of Kaggle's labelled train.csv. The new test rows lose
// `diagnosis` in public/test.csv and keep it in private/test.csv; the sample
// submission is the test rows with every diagnosis 0. Each image
// raw/train_images/<id_code>.png is copied to public/train_images/ or
// public/test_images/ by its split.
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/python_str.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// The image file names of a split, f"{id_code}.png" as upstream formats them.
// A name that is not a plain file name would reach outside the image folders
// (we refuse it); one that starts with "." is missed by upstream's closing
// `glob("*.png")` counts, whose assert then fails; a repeated id is copied
// onto itself, which those counts (or the disjointness check) catch too.
absl::StatusOr<std::vector<std::string>> ImageNames(const Table& split, std::string_view folder,
                                                    const fs::path& raw) {
  ASSIGN_OR_RETURN(const Column* ids, split.Get("id_code"));
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const Cell& id : ids->cells) {
    const std::string name = PythonStr(id) + ".png";
    if (name.find_first_of(std::string_view("/\\\0", 3)) != std::string::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv: id_code '", PythonStr(id), "' must be a plain file name"));
    }
    if (!fs::is_regular_file(raw / "train_images" / name)) {
      return absl::NotFoundError(absl::StrCat("train_images/", name, " does not exist"));
    }
    if (name.starts_with(".") || !seen.insert(name).second) {
      return CheckFailed(absl::StrCat("Public ", std::string(folder),
                                      " images should have the same number of images as the "
                                      "length of the split (",
                                      name, ")"));
    }
    names.push_back(name);
  }
  return names;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& new_test = split.test;
  ASSIGN_OR_RETURN(Table new_test_without_labels, (DropColumns(new_test, {"diagnosis"})));

  // Upstream's copies and checks (it copies first and asserts after; we
  // check first so that bad input leaves no output).
  ASSIGN_OR_RETURN(std::vector<std::string> train_names,
                   ImageNames(new_train, "train_images", raw));
  ASSIGN_OR_RETURN(std::vector<std::string> test_names, ImageNames(new_test, "test_images", raw));
  const std::set<std::string> train_set(train_names.begin(), train_names.end());
  for (const std::string& name : test_names) {
    if (train_set.count(name) > 0) {
      return CheckFailed("Train and test sets should have no shared ids");
    }
  }

  Table sample = new_test;
  RETURN_IF_ERROR(SetConstantColumn(sample, "diagnosis", Cell(int64_t{0})));

  RETURN_IF_ERROR(CopyNamedFiles(raw / "train_images", public_dir / "test_images", test_names));
  RETURN_IF_ERROR(CopyNamedFiles(raw / "train_images", public_dir / "train_images", train_names));
  for (const auto& [table, path] : {
           std::pair{&new_train, public_dir / "train.csv"},
           std::pair{&new_test, private_dir / "test.csv"},
           std::pair{static_cast<const Table*>(&new_test_without_labels), public_dir / "test.csv"},
           std::pair{static_cast<const Table*>(&sample), public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
