// Synthetic raw download for herbarium-2022-fgvc9 (see WriteHerbarium2022Raw
// in testdata/herbarium-2020-fgvc7/herbarium_raw.h).

#include <cstdint>
#include <filesystem>

#include "absl/status/status.h"
#include "testdata/common/synthetic.h"
#include "testdata/herbarium-2020-fgvc7/herbarium_raw.h"

namespace mlebench {
namespace {

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  return WriteHerbarium2022Raw(raw_dir, seed);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = "herbarium-2022-fgvc9",
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
