// A preparer for prepare_main_test and data_dir_test: copies raw/in.txt (and
// raw/meta.parquet when there is one) to public/ and private/,
// records the scratch directory it was given, and fails on request.
#include <filesystem>
#include <fstream>

#include "absl/status/status.h"
#include "competitions/common/preparer.h"

namespace mlebench {
namespace {

absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& scratch) {
  std::ofstream(private_dir / "scratch_path.txt") << scratch.string();
  std::ofstream(scratch / "leftover.txt") << "x";
  if (std::filesystem::exists(raw / "fail")) return absl::DataLossError("raw/fail exists");
  std::filesystem::copy_file(raw / "in.txt", public_dir / "in.txt");
  std::filesystem::copy_file(raw / "in.txt", private_dir / "in.txt");
  if (std::filesystem::exists(raw / "meta.parquet")) {
    std::filesystem::copy_file(raw / "meta.parquet", public_dir / "meta.parquet");
    std::filesystem::copy_file(raw / "meta.parquet", private_dir / "meta.parquet");
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = "fake-competition", .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
