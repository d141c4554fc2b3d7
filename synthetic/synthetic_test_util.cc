#include "synthetic/synthetic_test_util.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/testing/test_util.h"
#include "synthetic/synthetic.h"

namespace mlebench::testing {

namespace fs = std::filesystem;

absl::StatusOr<fs::path> GenerateSynthetic(std::string_view id, uint64_t seed) {
  const SyntheticDataset* dataset = SyntheticRegistry::Find(id);
  if (dataset == nullptr) {
    return absl::NotFoundError(absl::StrCat("no generator '", std::string(id), "' linked"));
  }
  const fs::path dir = NewTempDir(absl::StrCat(std::string(id), "_seed", seed));
  RETURN_IF_ERROR(dataset->generate(dir, seed));
  return dir;
}

absl::StatusOr<std::map<std::string, std::string>> DeterministicSyntheticTree(std::string_view id) {
  ASSIGN_OR_RETURN(std::filesystem::path a, GenerateSynthetic(id, 0));
  ASSIGN_OR_RETURN(std::filesystem::path b, GenerateSynthetic(id, 0));
  ASSIGN_OR_RETURN(std::filesystem::path c, GenerateSynthetic(id, 1));
  std::map<std::string, std::string> tree = ReadTree(a);
  const std::map<std::string, std::string> again = ReadTree(b);
  const std::map<std::string, std::string> other = ReadTree(c);
  if (tree.empty()) return absl::InternalError("the generator wrote no files");
  if (again != tree) {
    for (const auto& [name, bytes] : tree) {
      auto same = again.find(name);
      if (same == again.end() || same->second != bytes) {
        return absl::InternalError(absl::StrCat(name, " differs between two runs with seed 0"));
      }
    }
    return absl::InternalError("two runs with seed 0 wrote different file sets");
  }
  if (other == tree) return absl::InternalError("seeds 0 and 1 gave byte-identical data");
  return tree;
}

}  // namespace mlebench::testing
