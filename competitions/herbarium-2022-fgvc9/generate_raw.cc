// Synthetic raw download for herbarium-2022-fgvc9 (see WriteHerbarium2022Raw
// in competitions/families/fgvc/herbarium_raw.h).

#include <cstdint>
#include <filesystem>

#include "absl/status/status.h"
#include "synthetic/synthetic.h"
#include "competitions/families/fgvc/herbarium_raw.h"

namespace mlebench {
namespace {

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  return WriteHerbarium2022Raw(raw_dir, seed);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
