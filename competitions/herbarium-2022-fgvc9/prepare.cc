// Upstream's herbarium-2022-fgvc9/prepare.py: an 80:20 split of every
// category of the labelled train_metadata.json, with renamed train and test
// images; see PrepareHerbarium2022 in
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
  return PrepareHerbarium2022(raw, public_dir, private_dir);
}

}  // namespace

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID,
    .prepare = &Prepare,
});

}  // namespace mlebench
