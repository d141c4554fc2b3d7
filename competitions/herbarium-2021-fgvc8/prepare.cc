// Upstream's herbarium-2021-fgvc8/prepare.py: a per-category split of the
// labelled train/ (metadata.json read as UTF-8), see
// competitions/families/fgvc/herbarium_prepare.h.

#include <filesystem>

#include "absl/status/status.h"
#include "competitions/common/preparer.h"
#include "competitions/families/fgvc/herbarium_prepare.h"

namespace mlebench {
namespace {

absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& /*scratch*/) {
  return PrepareHerbarium(
      {.data_dir = "", .latin1_metadata = false, .dropped_test_key = "institutions"}, raw,
      public_dir, private_dir);
}

}  // namespace

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID,
    .prepare = &Prepare,
});

}  // namespace mlebench
