#ifndef MLEBENCH_SYNTHETIC_SYNTHETIC_H_
#define MLEBENCH_SYNTHETIC_SYNTHETIC_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "base/id_registry.h"

namespace mlebench {

// Writes a small synthetic raw download for one competition into `raw_dir`
// (an existing empty directory), laid out like the Kaggle download that
// upstream's prepare.py expects: same file names, archive structure, columns,
// value types and id formats. Deterministic: the same `seed` gives
// byte-identical files. The data has real, learnable signal.
using GenerateRawFn = absl::Status (*)(const std::filesystem::path& raw_dir, uint64_t seed);

struct SyntheticDataset {
  std::string id;
  GenerateRawFn generate = nullptr;
};

using SyntheticRegistry = IdRegistry<SyntheticDataset>;

}  // namespace mlebench

#define MLEBENCH_REGISTER_SYNTHETIC(...) MLEBENCH_REGISTER_IN(::mlebench::SyntheticRegistry, __VA_ARGS__)

#endif  // MLEBENCH_SYNTHETIC_SYNTHETIC_H_
