#include "competitions/common/prepare_test_util.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "competitions/common/preparer.h"
#include "testdata/common/test_util.h"

namespace mlebench::testing {

absl::StatusOr<PreparedDirs> RunPreparer(std::string_view id, const std::filesystem::path& raw) {
  const std::filesystem::path root = NewTempDir("prepared");
  PreparedDirs dirs{root / "public", root / "private"};
  if (absl::Status s = RunRegisteredPreparer(id, raw, dirs.public_dir, dirs.private_dir, root / "scratch");
      !s.ok()) {
    return s;
  }
  return dirs;
}

}  // namespace mlebench::testing
