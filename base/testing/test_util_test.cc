#include "base/testing/test_util.h"

#include <linux/magic.h>
#include <stdlib.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::ExitedWithCode;
using ::testing::StartsWith;

bool OnTmpfs(const fs::path& path) {
  struct statfs stats;
  return statfs(path.c_str(), &stats) == 0 && stats.f_type == TMPFS_MAGIC;
}

TEST(NewTempDirTest, FreshEmptyDirectoriesUnderTheScratchRoot) {
  const fs::path a = NewTempDir("label");
  const fs::path b = NewTempDir("label");
  EXPECT_NE(a, b);
  for (const fs::path& dir : {a, b}) {
    EXPECT_TRUE(fs::is_directory(dir));
    EXPECT_TRUE(fs::is_empty(dir));
    EXPECT_EQ(dir.parent_path(), TestScratchRoot());
    EXPECT_THAT(dir.filename().string(), StartsWith("label_"));
  }
}

// Where /dev/shm is a tmpfs with room (as on most Linux machines), the
// scratch is in memory there, in a directory only this user can enter.
TEST(TestScratchRootTest, OnTheSharedMemoryTmpfsWhenThereIsOne) {
  struct statfs stats;
  if (statfs("/dev/shm", &stats) != 0 || stats.f_type != TMPFS_MAGIC ||
      static_cast<uint64_t>(stats.f_bavail) * stats.f_bsize < (uint64_t{2} << 30)) {
    GTEST_SKIP() << "no /dev/shm tmpfs with 2 GiB free here";
  }
  const fs::path& root = TestScratchRoot();
  EXPECT_EQ(root.parent_path(), "/dev/shm");
  EXPECT_THAT(root.filename().string(), StartsWith("mlebench-test-"));
  EXPECT_TRUE(OnTmpfs(root));
  EXPECT_EQ(fs::status(root).permissions() & fs::perms::all, fs::perms::owner_all);
}

bool ScratchOnSharedMemory() { return TestScratchRoot().parent_path() == "/dev/shm"; }

// A threadsafe death test re-executes this binary and runs the test again up
// to the statement; what the parent knows reaches the child through the
// environment (set only where it is not yet set, i.e. in the parent).

// The child chooses a root of its own: the parent's survives the child's
// start and exit.
TEST(TestScratchRootDeathTest, AChildProcessNeverRemovesTheParentsScratch) {
  if (!ScratchOnSharedMemory()) GTEST_SKIP() << "the scratch is not on /dev/shm here";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("SCRATCH_TEST_PARENT_ROOT", TestScratchRoot().c_str(), /*overwrite=*/0);
  const fs::path parent_root = std::getenv("SCRATCH_TEST_PARENT_ROOT");
  const fs::path kept = parent_root / "kept.txt";
  if (TestScratchRoot() == parent_root) WriteFileOrFail(kept, "kept");
  EXPECT_EXIT(
      std::exit(TestScratchRoot() != parent_root && ReadFileOrEmpty(kept) == "kept" ? 0 : 1),
      ExitedWithCode(0), "");
  EXPECT_EQ(ReadFileOrEmpty(kept), "kept");
  unsetenv("SCRATCH_TEST_PARENT_ROOT");
}

// A fast death test's child is a fork: its exit() runs this process's exit
// handlers, which must leave the scratch alone.
TEST(TestScratchRootDeathTest, AForkedChildsExitKeepsTheScratch) {
  GTEST_FLAG_SET(death_test_style, "fast");
  const fs::path mine = NewTempDir("survivor");
  WriteFileOrFail(mine / "kept.txt", "kept");
  EXPECT_EXIT(std::exit(0), ExitedWithCode(0), "");
  EXPECT_EQ(ReadFileOrEmpty(mine / "kept.txt"), "kept");
}

// A process's root on the tmpfs is gone once it exits normally.
TEST(TestScratchRootDeathTest, RemovedWhenTheProcessExits) {
  if (!ScratchOnSharedMemory()) GTEST_SKIP() << "the scratch is not on /dev/shm here";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("SCRATCH_TEST_RECORD", (TestScratchRoot() / "child_root.txt").c_str(), /*overwrite=*/0);
  const fs::path record = std::getenv("SCRATCH_TEST_RECORD");
  EXPECT_EXIT(
      {
        WriteFileOrFail(record, TestScratchRoot().string());
        WriteFileOrFail(NewTempDir("data") / "file", "bytes");
        std::exit(0);
      },
      ExitedWithCode(0), "");
  unsetenv("SCRATCH_TEST_RECORD");
  const std::string child_root = ReadFileOrFail(record);
  ASSERT_THAT(child_root, StartsWith("/dev/shm/mlebench-test-"));
  EXPECT_NE(fs::path(child_root), TestScratchRoot());
  EXPECT_FALSE(fs::exists(child_root));
}

// MLEBENCH_TEST_SCRATCH names the root, which is the caller's: it stays.
TEST(TestScratchRootDeathTest, TheEnvironmentNamesARootThatStays) {
  const char* test_tmpdir = std::getenv("TEST_TMPDIR");
  if (test_tmpdir == nullptr) GTEST_SKIP() << "no TEST_TMPDIR";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const fs::path chosen = fs::path(test_tmpdir) / "chosen_scratch";
  fs::create_directories(chosen);
  if (std::getenv("MLEBENCH_TEST_SCRATCH") == nullptr) {
    (void)TestScratchRoot();  // the parent's, chosen before the variable is set
    setenv("MLEBENCH_TEST_SCRATCH", chosen.c_str(), 1);
  }
  EXPECT_EXIT(
      {
        WriteFileOrFail(NewTempDir("data") / "file", "bytes");
        std::exit(TestScratchRoot() == chosen ? 0 : 1);
      },
      ExitedWithCode(0), "");
  unsetenv("MLEBENCH_TEST_SCRATCH");
  EXPECT_EQ(ReadFileOrEmpty(chosen / "data_0" / "file"), "bytes");
}

}  // namespace
}  // namespace mlebench::testing
