// A generator registered only in generate_main_test's binary: it writes one
// file holding the seed, and fails for seed 13 to exercise error reporting.
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

absl::Status GenerateFake(const std::filesystem::path& raw_dir, uint64_t seed) {
  if (seed == 13) return absl::InternalError("unlucky seed");
  return WriteStringToFile(raw_dir / "seed.txt", absl::StrCat(seed, "\n"));
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = "fake-competition", .generate = &GenerateFake});

}  // namespace
}  // namespace mlebench
