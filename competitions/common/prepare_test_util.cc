#include "competitions/common/prepare_test_util.h"

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/testing/test_util.h"
#include "competitions/common/preparer.h"
#include "gtest/gtest.h"

namespace mlebench::testing {

absl::StatusOr<PreparedDirs> RunPreparer(std::string_view id, const std::filesystem::path& raw) {
  const std::filesystem::path root = NewTempDir("prepared");
  PreparedDirs dirs{root / "public", root / "private"};
  RETURN_IF_ERROR(
      RunRegisteredPreparer(id, raw, dirs.public_dir, dirs.private_dir, root / "scratch"));
  return dirs;
}

std::optional<PreparedDirs> ExpectDeterministicAndRawUntouched(std::string_view id,
                                                               const std::filesystem::path& raw) {
  const auto raw_before = ReadTree(raw);
  absl::StatusOr<PreparedDirs> first = RunPreparer(id, raw);
  absl::StatusOr<PreparedDirs> second = RunPreparer(id, raw);
  EXPECT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(second.ok()) << second.status();
  if (!first.ok() || !second.ok()) return std::nullopt;
  EXPECT_TRUE(ReadTree(first->public_dir) == ReadTree(second->public_dir))
      << "two runs wrote different public/ trees";
  EXPECT_TRUE(ReadTree(first->private_dir) == ReadTree(second->private_dir))
      << "two runs wrote different private/ trees";
  EXPECT_TRUE(ReadTree(raw) == raw_before) << "the preparer changed raw/";
  return *first;
}

Table ReadCsvOrFail(const std::filesystem::path& path) {
  absl::StatusOr<Table> table = ReadCsvFile(path.string());
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : Table();
}

std::vector<std::string> FileNames(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& [name, bytes] : ReadTree(dir)) names.push_back(name);
  return names;
}

}  // namespace mlebench::testing
