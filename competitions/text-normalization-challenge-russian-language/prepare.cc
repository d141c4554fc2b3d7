// Upstream's text-normalization-challenge-russian-language/prepare.py: whole sentences of
// ru_train.csv split 90/10, see PrepareTextNormalization.
#include <filesystem>

#include "absl/status/status.h"
#include "competitions/common/preparer.h"
#include "competitions/families/text_normalization/text_normalization.h"

namespace mlebench {
namespace {

absl::Status Prepare(const std::filesystem::path& raw, const std::filesystem::path& public_dir,
                     const std::filesystem::path& private_dir,
                     const std::filesystem::path& scratch) {
  return PrepareTextNormalization("ru", raw, public_dir, private_dir, scratch);
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
