// Synthetic raw download for herbarium-2020-fgvc7 (see herbarium_raw.h):
// nybg2020/{train,test}/ with latin-1 metadata and "regions".

#include <cstdint>
#include <filesystem>

#include "absl/status/status.h"
#include "synthetic/synthetic.h"
#include "competitions/families/fgvc/herbarium_raw.h"

namespace mlebench {
namespace {

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  return WriteHerbariumRaw({.data_dir = "nybg2020",
                            .group_key = "regions",
                            .group_id_key = "region_id",
                            .latin1_names = true,
                            .with_order = false},
                           raw_dir, seed);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
