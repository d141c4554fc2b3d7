// Upstream's herbarium-2020-fgvc7/prepare.py: a per-category split of the
// labelled nybg2020/train (metadata.json read as latin-1), see
// herbarium_prepare.h.

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
      {.data_dir = "nybg2020", .latin1_metadata = true, .dropped_test_key = "regions"}, raw,
      public_dir, private_dir);
}

}  // namespace

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID,
    .prepare = &Prepare,
});

}  // namespace mlebench
