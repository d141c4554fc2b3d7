#include "competitions/common/prepare_test_util.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "competitions/common/preparer.h"
#include "testdata/common/test_util.h"

namespace mlebench::testing {

absl::StatusOr<PreparedDirs> RunPreparer(std::string_view id, const std::filesystem::path& raw) {
  const CompetitionPreparer* preparer = PreparerRegistry::Find(id);
  if (preparer == nullptr) {
    return absl::NotFoundError(absl::StrCat("no preparer registered for '", std::string(id), "'"));
  }
  const std::filesystem::path root = NewTempDir("prepared");
  PreparedDirs dirs{root / "public", root / "private"};
  std::filesystem::create_directories(dirs.public_dir);
  std::filesystem::create_directories(dirs.private_dir);
  std::filesystem::create_directories(root / "scratch");
  if (absl::Status s = preparer->prepare(raw, dirs.public_dir, dirs.private_dir, root / "scratch");
      !s.ok()) {
    return s;
  }
  return dirs;
}

}  // namespace mlebench::testing
