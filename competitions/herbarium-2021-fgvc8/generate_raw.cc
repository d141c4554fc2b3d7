// Synthetic raw download for herbarium-2021-fgvc8 (see
// competitions/families/fgvc/herbarium_raw.h):
// train/ and test/ at the top, UTF-8 metadata and "institutions".

#include <cstdint>
#include <filesystem>

#include "absl/status/status.h"
#include "synthetic/synthetic.h"
#include "competitions/families/fgvc/herbarium_raw.h"

namespace mlebench {
namespace {

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  return WriteHerbariumRaw({.data_dir = "",
                            .group_key = "institutions",
                            .group_id_key = "institution_id",
                            .latin1_names = false,
                            .with_order = true},
                           raw_dir, seed);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
