// Upstream's hotel-id-2021-fgvc8/prepare.py: a 90/10 split of the labelled
// train.csv (Kaggle's test images are hidden), with images copied from
// train_images/<chain>/<image> to public/train_images/<chain>/<image> and,
// for the test split, flat into public/test_images/<image>.

#include <filesystem>
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
#include "pycompat/python_str.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Upstream drops this image: Kaggle's train.csv lists it twice, so it could
// land in both splits.
constexpr char kDroppedImage[] = "ce27d36c9147cc19.jpg";
constexpr char kSampleHotelIds[] = "36363 53586 18807 64314 60181";

// One row's image: `chain` as str(chain) (the folder) and `image` (the file).
struct ImageRef {
  std::string chain;
  std::string image;
};

absl::StatusOr<std::vector<ImageRef>> ImageRefs(const Table& table) {
  ASSIGN_OR_RETURN(const Column* images, table.Get("image"));
  ASSIGN_OR_RETURN(const Column* chains, table.Get("chain"));
  std::vector<ImageRef> refs;
  refs.reserve(table.num_rows());
  for (size_t row = 0; row < table.num_rows(); ++row) {
    const std::string* image = std::get_if<std::string>(&images->cells[row]);
    std::string chain = PythonStr(chains->cells[row]);
    if (image == nullptr || !IsPlainFileName(*image)) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv: 'image' must be an image file name, got ",
                       image == nullptr ? std::string("a missing or non-text value")
                                        : absl::StrCat("'", *image, "'")));
    }
    if (!IsPlainFileName(chain)) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.csv: 'chain' must name a folder, got '", chain, "'"));
    }
    refs.push_back({std::move(chain), *image});
  }
  return refs;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table all_rows, ReadCsvFile((raw / "train.csv").string()));
  ASSIGN_OR_RETURN(const Column* image_column, all_rows.Get("image"));
  std::vector<int64_t> kept;
  for (size_t row = 0; row < all_rows.num_rows(); ++row) {
    const Cell& image = image_column->cells[row];
    if (!(std::holds_alternative<std::string>(image) && std::get<std::string>(image) == kDroppedImage)) {
      kept.push_back(static_cast<int64_t>(row));
    }
  }
  ASSIGN_OR_RETURN(Table old_train, TakeRows(all_rows, kept));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  const Table& new_train = split.train;
  const Table& new_test = split.test;
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(new_test, {"image", "hotel_id"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "hotel_id", std::string(kSampleHotelIds)));

  ASSIGN_OR_RETURN(std::vector<ImageRef> train_refs, ImageRefs(new_train));
  ASSIGN_OR_RETURN(std::vector<ImageRef> test_refs, ImageRefs(new_test));

  // Upstream's checks that can fail (it runs them after writing; we run them
  // first so that bad input leaves no output).
  std::set<std::string> train_images;
  for (const ImageRef& ref : train_refs) train_images.insert(ref.image);
  for (const ImageRef& ref : test_refs) {
    if (train_images.count(ref.image) > 0) return CheckFailed("Train and test ids overlap");
  }

  RETURN_IF_ERROR(WriteCsvFile(new_train, (public_dir / "train.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));
  const fs::path source = raw / "train_images";
  fs::create_directories(public_dir / "train_images");
  for (const ImageRef& ref : train_refs) {
    RETURN_IF_ERROR(CopyRegularFile(source / ref.chain / ref.image,
                                    public_dir / "train_images" / ref.chain / ref.image));
  }
  fs::create_directories(public_dir / "test_images");
  for (const ImageRef& ref : test_refs) {
    RETURN_IF_ERROR(
        CopyRegularFile(source / ref.chain / ref.image, public_dir / "test_images" / ref.image));
  }
  return WriteCsvFile(new_test, (private_dir / "test.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
