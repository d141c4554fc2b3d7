#include "agent_runner/remove_tree.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::WriteFileOrFail;

// Makes a chain of `depth` directories named `name` below `dir`, the way an
// agent does it (relative to the last one, never by a long path); returns a
// descriptor of the deepest.
int MakeChain(int dir_fd, int depth, const char* name) {
  int fd = dup(dir_fd);
  for (int i = 0; i < depth; ++i) {
    if (mkdirat(fd, name, 0755) != 0) return -1;
    const int next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    close(fd);
    if (next < 0) return -1;
    fd = next;
  }
  return fd;
}

TEST(RemoveTreeTest, AMissingPathIsNotAnError) {
  EXPECT_TRUE(RemoveTree(NewTempDir("missing") / "nothing").ok());
  EXPECT_TRUE(RemoveTree("/nonexistent-dir/nothing").ok());
}

TEST(RemoveTreeTest, FilesSymlinksAndOddNames) {
  const fs::path root = NewTempDir("odd") / "tree";
  const fs::path outside = NewTempDir("outside") / "keep.txt";
  WriteFileOrFail(outside, "keep");
  WriteFileOrFail(root / "a.txt", "a");
  WriteFileOrFail(root / "sub" / "line\nbreak \x01\xff name", "b");
  fs::create_symlink(outside, root / "link-to-outside");
  fs::create_symlink(outside.parent_path(), root / "sub" / "dir-link-to-outside");
  ASSERT_EQ(mkfifo((root / "fifo").c_str(), 0600), 0);
  ASSERT_TRUE(RemoveTree(root).ok());
  EXPECT_FALSE(fs::exists(fs::symlink_status(root)));
  // Links were removed, not followed.
  EXPECT_TRUE(fs::exists(outside));
  // A file (or a link) as the path itself.
  const fs::path file = NewTempDir("file") / "f";
  WriteFileOrFail(file, "x");
  ASSERT_TRUE(RemoveTree(file).ok());
  EXPECT_FALSE(fs::exists(file));
}

TEST(RemoveTreeTest, ModesThatLockTheOwnerOut) {
  const fs::path root = NewTempDir("modes") / "tree";
  WriteFileOrFail(root / "r" / "inside.txt", "x");
  WriteFileOrFail(root / "w" / "inside.txt", "x");
  WriteFileOrFail(root / "n" / "deeper" / "inside.txt", "x");
  WriteFileOrFail(root / "ro.txt", "x");
  ASSERT_EQ(chmod((root / "ro.txt").c_str(), 0), 0);
  ASSERT_EQ(chmod((root / "r").c_str(), 0500), 0);   // not writable
  ASSERT_EQ(chmod((root / "w").c_str(), 0300), 0);   // not readable
  ASSERT_EQ(chmod((root / "n" / "deeper").c_str(), 0), 0);
  ASSERT_EQ(chmod((root / "n").c_str(), 0), 0);      // nothing at all
  ASSERT_EQ(chmod(root.c_str(), 0555), 0);
  ASSERT_TRUE(RemoveTree(root).ok());
  EXPECT_FALSE(fs::exists(root));
}

TEST(RemoveTreeTest, DeeperThanTheStackOrTheDescriptorLimitAllow) {
  // 100,000 levels (the review's tree crashed run_agent's recursive removal
  // and `bazel clean` at a few thousand), joined from chains with rename as
  // the agent did, under a descriptor limit of 64.
  const fs::path root = NewTempDir("deep") / "tree";
  fs::create_directories(root);
  const int root_fd = open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(root_fd, 0);
  const int first_end = MakeChain(root_fd, 50000, "d");
  ASSERT_GE(first_end, 0);
  const int second_end = MakeChain(root_fd, 50000, "e");
  ASSERT_GE(second_end, 0);
  ASSERT_EQ(renameat(root_fd, "e", first_end, "e"), 0);  // the second chain below the first
  ASSERT_EQ(mkdirat(second_end, "last", 0), 0);
  close(first_end);
  close(second_end);
  close(root_fd);
  struct rlimit before;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &before), 0);
  struct rlimit low = {64, before.rlim_max};
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
  const absl::Status removed = RemoveTree(root);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &before), 0);
  ASSERT_TRUE(removed.ok()) << removed;
  EXPECT_FALSE(fs::exists(root));
}

TEST(RemoveTreeTest, Wide) {
  const fs::path root = NewTempDir("wide") / "tree";
  fs::create_directories(root);
  for (int i = 0; i < 20000; ++i) {
    if (i % 2 == 0) {
      fs::create_directory(root / absl::StrCat("d", i));
      WriteFileOrFail(root / absl::StrCat("d", i) / "f", "");
    } else {
      WriteFileOrFail(root / absl::StrCat("f", i), "");
    }
  }
  ASSERT_TRUE(RemoveTree(root).ok());
  EXPECT_FALSE(fs::exists(root));
}

TEST(RemoveTreeTest, AMountPointIsNotEntered) {
  // In a child with a mount namespace of its own (and a user namespace when
  // not root), a tmpfs holding a file is mounted inside the tree: removal
  // must stop there, not empty the other file system.
  const fs::path root = NewTempDir("mount") / "tree";
  fs::create_directories(root / "a" / "mnt");
  const pid_t pid = fork();
  if (pid == 0) {
    const int flags = CLONE_NEWNS | (geteuid() == 0 ? 0 : CLONE_NEWUSER);
    if (unshare(flags) != 0) _exit(2);
    if (mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) _exit(2);
    if (mount("tmpfs", (root / "a" / "mnt").c_str(), "tmpfs", 0, nullptr) != 0) _exit(2);
    const fs::path kept = root / "a" / "mnt" / "kept.txt";
    if (FILE* f = fopen(kept.c_str(), "w")) fclose(f);
    const absl::Status status = RemoveTree(root);
    const bool refused = absl::IsFailedPrecondition(status) &&
                         absl::StrContains(status.message(), "'mnt' is a mount point");
    _exit(refused && fs::exists(kept) ? 0 : 1);
  }
  int wait_status = 0;
  ASSERT_EQ(waitpid(pid, &wait_status, 0), pid);
  ASSERT_TRUE(WIFEXITED(wait_status));
  if (WEXITSTATUS(wait_status) == 2) GTEST_SKIP() << "no mount namespace here";
  EXPECT_EQ(WEXITSTATUS(wait_status), 0);
  // Outside the child's namespace the mount never existed: the tree goes.
  EXPECT_TRUE(RemoveTree(root).ok());
  EXPECT_FALSE(fs::exists(root));
}

}  // namespace
}  // namespace mlebench
