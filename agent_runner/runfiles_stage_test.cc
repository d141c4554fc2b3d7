#include "agent_runner/runfiles_stage.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::ReadFileOrEmpty;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::AllOf;
using ::testing::HasSubstr;

void WriteFile(const fs::path& path, const std::string& content, mode_t mode) {
  WriteFileOrFail(path, content);
  ASSERT_EQ(chmod(path.c_str(), mode), 0) << path;
}

void Symlink(const fs::path& target, const fs::path& link) {
  fs::create_directories(link.parent_path());
  fs::create_symlink(target, link);
}

struct stat Lstat(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(lstat(path.c_str(), &st), 0) << path;
  return st;
}

mode_t Mode(const fs::path& path) { return Lstat(path).st_mode & 07777; }

// Each test gets a fresh directory: `outputs` (an allowed root, standing in
// for Bazel's output tree), `outside` (not allowed), the runfiles tree to
// stage, and a destination that does not exist yet.
class RunfilesStageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* test_tmpdir = std::getenv("TEST_TMPDIR");
    ASSERT_NE(test_tmpdir, nullptr);
    root_ = fs::canonical(test_tmpdir) /
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ASSERT_TRUE(RemoveStaged(root_).ok());
    fs::create_directories(root_);
    outputs_ = root_ / "outputs";
    outside_ = root_ / "outside";
    tree_ = root_ / "agent.runfiles";
    staged_ = root_ / "staged";
    fs::create_directories(outputs_);
    fs::create_directories(outside_);
    fs::create_directories(tree_);
    WriteFile(outside_ / "answers.csv", "id,answer\n1,42\n", 0444);
  }

  // Staged directories are read-only; only RemoveStaged gets rid of them
  // for a user other than root.
  void TearDown() override { EXPECT_TRUE(RemoveStaged(root_).ok()); }

  StagingPolicy Policy() const { return {.allowed_roots = {outputs_}}; }

  absl::StatusOr<StagingStats> Stage() const { return StageRunfiles(tree_, staged_, Policy()); }

  fs::path root_, outputs_, outside_, tree_, staged_;
};

TEST_F(RunfilesStageTest, StagesLayoutContentsModesAndHardLinks) {
  const std::string binary("\x7f" "ELF\0\1\2\xff", 8);
  WriteFile(outputs_ / "a.txt", "alpha\n", 0444);
  WriteFile(outputs_ / "tool.sh", "#!/bin/sh\necho hi\n", 0555);
  WriteFile(outputs_ / "lib/x.py", "print(1)\n", 0444);
  WriteFile(outputs_ / "lib/deep/y.bin", binary, 0644);  // writable: copied, not linked
  WriteFile(outputs_ / "lib/deep/run", "#!/bin/sh\n", 0755);
  Symlink("a.txt", outputs_ / "hop");  // a symlink inside the allowed root
  WriteFile(tree_ / "MANIFEST", "_main/pkg/a.txt ...\n", 0644);
  Symlink(outputs_ / "a.txt", tree_ / "_main/pkg/a.txt");
  Symlink(outputs_ / "tool.sh", tree_ / "_main/pkg/tool");
  Symlink(outputs_ / "lib", tree_ / "_main/lib");  // a directory, staged recursively
  // A chain: relative, then absolute, then the allowed root's own symlink.
  Symlink("../c2", tree_ / "_main/pkg/chain");
  Symlink(outputs_ / "hop", tree_ / "_main/c2");

  absl::StatusOr<StagingStats> stats = Stage();
  ASSERT_TRUE(stats.ok()) << stats.status();

  const std::vector<std::pair<std::string, std::string>> files = {
      {"MANIFEST", "_main/pkg/a.txt ...\n"},
      {"_main/c2", "alpha\n"},
      {"_main/lib/deep/run", "#!/bin/sh\n"},
      {"_main/lib/deep/y.bin", binary},
      {"_main/lib/x.py", "print(1)\n"},
      {"_main/pkg/a.txt", "alpha\n"},
      {"_main/pkg/chain", "alpha\n"},
      {"_main/pkg/tool", "#!/bin/sh\necho hi\n"},
  };
  std::vector<std::string> found;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(staged_)) {
    const struct stat st = Lstat(entry.path());
    ASSERT_FALSE(S_ISLNK(st.st_mode)) << entry.path();
    if (S_ISDIR(st.st_mode)) {
      EXPECT_EQ(st.st_mode & 07777, 0555) << entry.path();
    } else {
      ASSERT_TRUE(S_ISREG(st.st_mode)) << entry.path();
      found.push_back(entry.path().lexically_relative(staged_).string());
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> expected;
  for (const auto& [rel, content] : files) {
    expected.push_back(rel);
    EXPECT_EQ(ReadFileOrEmpty(staged_ / rel), content) << rel;
  }
  EXPECT_EQ(found, expected);
  EXPECT_EQ(Mode(staged_), 0555);

  EXPECT_EQ(Mode(staged_ / "_main/pkg/a.txt"), 0444);
  EXPECT_EQ(Mode(staged_ / "_main/pkg/tool"), 0555);
  EXPECT_EQ(Mode(staged_ / "_main/lib/deep/run"), 0555);
  EXPECT_EQ(Mode(staged_ / "_main/lib/deep/y.bin"), 0444);
  EXPECT_EQ(Mode(staged_ / "MANIFEST"), 0444);
  // Hard links to the resolved file where its mode already fits...
  EXPECT_EQ(Lstat(staged_ / "_main/pkg/a.txt").st_ino, Lstat(outputs_ / "a.txt").st_ino);
  EXPECT_EQ(Lstat(staged_ / "_main/pkg/chain").st_ino, Lstat(outputs_ / "a.txt").st_ino);
  EXPECT_EQ(Lstat(staged_ / "_main/pkg/tool").st_ino, Lstat(outputs_ / "tool.sh").st_ino);
  // ...copies otherwise, leaving the sources' modes alone.
  EXPECT_NE(Lstat(staged_ / "MANIFEST").st_ino, Lstat(tree_ / "MANIFEST").st_ino);
  EXPECT_EQ(Mode(tree_ / "MANIFEST"), 0644);
  EXPECT_EQ(Mode(outputs_ / "lib/deep/y.bin"), 0644);
  EXPECT_EQ(Mode(outputs_ / "lib/deep/run"), 0755);

  EXPECT_EQ(stats->files, 8);
  EXPECT_EQ(stats->directories, 5);  // staged, _main, _main/pkg, _main/lib, _main/lib/deep
  EXPECT_EQ(stats->hard_links, 5);
  EXPECT_EQ(stats->copies, 3);
  EXPECT_EQ(stats->bytes_copied,
            static_cast<int64_t>(std::string("_main/pkg/a.txt ...\n").size() + binary.size() +
                                 std::string("#!/bin/sh\n").size()));
  EXPECT_EQ(stats->dangling_skipped, 0);

  ASSERT_TRUE(RemoveStaged(staged_).ok());
  EXPECT_FALSE(fs::exists(fs::symlink_status(staged_)));
  EXPECT_EQ(ReadFileOrEmpty(outputs_ / "a.txt"), "alpha\n");
  EXPECT_EQ(Mode(outputs_ / "a.txt"), 0444);
}

TEST_F(RunfilesStageTest, SourceReachedThroughSymlinkIsFine) {
  WriteFile(outputs_ / "a.txt", "alpha\n", 0444);
  Symlink(outputs_ / "a.txt", tree_ / "a.txt");
  Symlink(tree_, root_ / "alias.runfiles");
  absl::StatusOr<StagingStats> stats = StageRunfiles(root_ / "alias.runfiles", staged_, Policy());
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(ReadFileOrEmpty(staged_ / "a.txt"), "alpha\n");
}

TEST_F(RunfilesStageTest, SymlinkToRootFileSystemIsRefused) {
  WriteFile(outputs_ / "a.txt", "alpha\n", 0444);
  Symlink(outputs_ / "a.txt", tree_ / "_main/a.txt");
  Symlink("/", tree_ / "_main/rootfs");
  absl::StatusOr<StagingStats> stats = Stage();
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(stats.status().message(),
              AllOf(HasSubstr("_main/rootfs"), HasSubstr("resolves to /,"),
                    HasSubstr("outside every allowed root"), HasSubstr(outputs_.string())));
  // Nothing half-staged is left behind.
  EXPECT_FALSE(fs::exists(fs::symlink_status(staged_)));
}

TEST_F(RunfilesStageTest, SymlinkToFileOutsideIsRefused) {
  Symlink(outside_ / "answers.csv", tree_ / "_main/answers.csv");
  absl::StatusOr<StagingStats> stats = Stage();
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(stats.status().message(),
              AllOf(HasSubstr("_main/answers.csv"), HasSubstr((outside_ / "answers.csv").string()),
                    HasSubstr("outside every allowed root")));
}

TEST_F(RunfilesStageTest, RelativeSymlinkEscapingIsRefused) {
  WriteFile(outputs_ / "a.txt", "alpha\n", 0444);
  // From agent.runfiles/_main/pkg, ../../../ is root_.
  Symlink("../../../outside/answers.csv", tree_ / "_main/pkg/escape");
  absl::StatusOr<StagingStats> stats = Stage();
  ASSERT_FALSE(stats.ok());
  EXPECT_THAT(stats.status().message(),
              AllOf(HasSubstr("_main/pkg/escape"), HasSubstr((outside_ / "answers.csv").string())));
}

TEST_F(RunfilesStageTest, ForbiddenRootInsideAllowedRootIsRefused) {
  const fs::path data = root_ / "x";
  const fs::path private_dir = data / "competition_data/private";
  WriteFile(data / "competition_data/public/train.csv", "id\n1\n", 0444);
  WriteFile(private_dir / "answers.csv", "id,answer\n", 0444);
  StagingPolicy policy{.allowed_roots = {data}, .forbidden_roots = {private_dir}};

  Symlink(data / "competition_data/public/train.csv", tree_ / "train.csv");
  absl::StatusOr<StagingStats> stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_TRUE(RemoveStaged(staged_).ok());

  Symlink(private_dir / "answers.csv", tree_ / "answers.csv");
  stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(stats.status().message(),
              AllOf(HasSubstr("answers.csv"), HasSubstr("forbidden root"),
                    HasSubstr(private_dir.string())));
  fs::remove(tree_ / "answers.csv");

  // Reached through a directory symlink, and through a symlinked root.
  Symlink(data / "competition_data", tree_ / "data");
  stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_FALSE(stats.ok());
  EXPECT_THAT(stats.status().message(),
              AllOf(HasSubstr("data/private"), HasSubstr("forbidden root")));
  Symlink(private_dir, root_ / "private_alias");
  policy.forbidden_roots = {root_ / "private_alias"};
  stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_FALSE(stats.ok());
  EXPECT_THAT(stats.status().message(), HasSubstr(private_dir.string()));
}

TEST_F(RunfilesStageTest, TheMoreSpecificRootDecides) {
  // The output base under the source tree (a layout users choose): the
  // source tree is allowed, the output base in it forbidden, and the agent's
  // own outputs inside that allowed again.
  const fs::path source = root_ / "src";
  const fs::path output_base = source / "ob";
  const fs::path agent_outputs = output_base / "execroot/m/bazel-out/exec/bin";
  const fs::path answers = output_base / "execroot/m/bazel-out/k8/bin/c/c_data/private/a.csv";
  WriteFile(source / "agent.py", "print(1)\n", 0444);
  WriteFile(agent_outputs / "tool", "#!/bin/sh\n", 0555);
  WriteFile(answers, "id,answer\n", 0444);
  StagingPolicy policy{.allowed_roots = {source, agent_outputs},
                       .forbidden_roots = {output_base}};
  Symlink(source / "agent.py", tree_ / "agent.py");
  Symlink(agent_outputs / "tool", tree_ / "tool");
  absl::StatusOr<StagingStats> stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_TRUE(RemoveStaged(staged_).ok());
  // A source symlink to the answers: the forbidden output base is the more
  // specific root.
  Symlink(answers, source / "link_to_answers.csv");
  Symlink(source / "link_to_answers.csv", tree_ / "answers.csv");
  stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_FALSE(stats.ok());
  EXPECT_THAT(stats.status().message(),
              AllOf(HasSubstr("answers.csv"), HasSubstr("forbidden root " + output_base.string())));
  // A tie refuses.
  policy.forbidden_roots = {agent_outputs};
  fs::remove(tree_ / "answers.csv");
  stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_FALSE(stats.ok());
  EXPECT_THAT(stats.status().message(), HasSubstr("tool"));
}

TEST_F(RunfilesStageTest, HoldersOfAnswersAreRefusedWhateverTheLayout) {
  // Inside an allowed source tree, with no forbidden root named: an output
  // base, a disk cache, a repository cache, a data dir and prepared data,
  // each recognised by what it holds.
  const fs::path source = root_ / "src";
  WriteFile(source / "ok/agent.py", "print(1)\n", 0444);
  const std::vector<std::pair<fs::path, std::string>> holders = {
      {source / "ob/execroot/m/bazel-out/k8/bin/x.csv", "a Bazel output base"},
      {source / "cache/cas/ab/cdef", "a Bazel disk cache"},
      {source / "repos/v1/content_addressable/sha256/x", "Bazel's repository cache"},
      {source / "data/spaceship-titanic/raw/train.csv", "a competition's data directory"},
      {source / "pkg/spaceship-titanic_data/private/test.csv", "a competition's prepared data"},
  };
  for (const auto& [file, kind] : holders) WriteFile(file, "secret\n", 0444);
  fs::create_directories(source / "ob/action_cache");
  fs::create_directories(source / "cache/ac");
  fs::create_directories(source / "data/spaceship-titanic/prepared/private");
  fs::create_directories(source / "pkg/spaceship-titanic_data/public");
  // Look-alikes that are not holders: a lone private/, public+private in a
  // directory of another name.
  WriteFile(source / "lib/private/x.py", "x\n", 0444);
  WriteFile(source / "lib/public/y.py", "y\n", 0444);
  StagingPolicy policy{.allowed_roots = {source}, .refuse_answer_holders = true};
  Symlink(source / "ok", tree_ / "ok");
  Symlink(source / "lib", tree_ / "lib");
  absl::StatusOr<StagingStats> stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_TRUE(RemoveStaged(staged_).ok());
  for (const auto& [file, kind] : holders) {
    SCOPED_TRACE(kind);
    Symlink(file, tree_ / "leak");
    stats = StageRunfiles(tree_, staged_, policy);
    ASSERT_FALSE(stats.ok());
    EXPECT_EQ(stats.status().code(), absl::StatusCode::kPermissionDenied);
    EXPECT_THAT(stats.status().message(), AllOf(HasSubstr("leak"), HasSubstr(kind)));
    fs::remove(tree_ / "leak");
  }
  // Without the option, only the roots judge.
  policy.refuse_answer_holders = false;
  Symlink(holders[0].first, tree_ / "leak");
  stats = StageRunfiles(tree_, staged_, policy);
  EXPECT_TRUE(stats.ok()) << stats.status();
}

TEST_F(RunfilesStageTest, AFileReachedManyTimesIsCopiedOnceAndCopiesAreCapped) {
  // One 1 MiB file that must be copied (mode 0644), reached through 64
  // directory symlinks: 64 paths, one copy, 63 links to it.
  WriteFile(outputs_ / "big/blob.bin", std::string(1 << 20, 'x'), 0644);
  for (int i = 0; i < 64; ++i) Symlink(outputs_ / "big", tree_ / absl::StrCat("d", i));
  absl::StatusOr<StagingStats> stats = Stage();
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->files, 64);
  EXPECT_EQ(stats->copies, 1);
  EXPECT_EQ(stats->copies_linked, 63);
  EXPECT_EQ(stats->bytes_copied, 1 << 20);
  EXPECT_EQ(Lstat(staged_ / "d0/blob.bin").st_ino, Lstat(staged_ / "d63/blob.bin").st_ino);
  EXPECT_EQ(ReadFileOrEmpty(staged_ / "d7/blob.bin"), std::string(1 << 20, 'x'));
  ASSERT_TRUE(RemoveStaged(staged_).ok());
  // Distinct files beyond the cap: an error before the copy that passes it.
  WriteFile(outputs_ / "big/other.bin", std::string(1 << 20, 'y'), 0644);
  StagingPolicy policy = Policy();
  policy.max_copied_bytes = (1 << 20) + 1000;
  stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(stats.status().message(), HasSubstr("would copy more than 1049576 bytes"));
  EXPECT_FALSE(fs::exists(staged_));
}

TEST(IsInsideTest, ComparesWholeComponents) {
  EXPECT_TRUE(IsInside("/a/b", "/a/b"));
  EXPECT_TRUE(IsInside("/a/b/c", "/a/b"));
  EXPECT_TRUE(IsInside("/a/b/c/", "/a/b/"));
  EXPECT_FALSE(IsInside("/a/bc", "/a/b"));
  EXPECT_FALSE(IsInside("/a/bc/d", "/a/b"));
  EXPECT_FALSE(IsInside("/a", "/a/b"));
  EXPECT_FALSE(IsInside("/a/b/../bc", "/a/b"));
  EXPECT_TRUE(IsInside("/anything", "/"));
  EXPECT_TRUE(IsInside("/", "/"));
  EXPECT_FALSE(IsInside("a/b", "/a"));
}

TEST_F(RunfilesStageTest, PrefixOfAllowedRootIsNotInside) {
  WriteFile(root_ / "a/b/ok.txt", "ok\n", 0444);
  WriteFile(root_ / "a/bc/secret.txt", "secret\n", 0444);
  Symlink(root_ / "a/b/ok.txt", tree_ / "ok.txt");
  Symlink(root_ / "a/bc/secret.txt", tree_ / "secret.txt");
  absl::StatusOr<StagingStats> stats =
      StageRunfiles(tree_, staged_, {.allowed_roots = {root_ / "a/b"}});
  ASSERT_FALSE(stats.ok());
  EXPECT_THAT(stats.status().message(), HasSubstr("a/bc/secret.txt"));
}

TEST_F(RunfilesStageTest, FifoIsAnErrorAndNeverOpened) {
  ASSERT_EQ(mkfifo((outputs_ / "pipe").c_str(), 0644), 0);
  Symlink(outputs_ / "pipe", tree_ / "_main/pipe");
  absl::StatusOr<StagingStats> stats = Stage();
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(stats.status().message(), AllOf(HasSubstr("_main/pipe"), HasSubstr("FIFO")));

  // A FIFO in the tree itself, not behind a symlink.
  fs::remove(tree_ / "_main/pipe");
  ASSERT_EQ(mkfifo((tree_ / "_main/pipe").c_str(), 0644), 0);
  stats = Stage();
  ASSERT_FALSE(stats.ok());
  EXPECT_THAT(stats.status().message(), HasSubstr("FIFO"));
}

TEST_F(RunfilesStageTest, DanglingSymlinksAreSkippedAndCounted) {
  WriteFile(outputs_ / "a.txt", "alpha\n", 0444);
  Symlink(outputs_ / "a.txt", tree_ / "a.txt");
  Symlink(outputs_ / "missing", tree_ / "gone");
  Symlink(outputs_ / "a.txt/below", tree_ / "not_a_dir");  // ENOTDIR on the way
  Symlink(outside_ / "missing", tree_ / "gone_outside");
  absl::StatusOr<StagingStats> stats = Stage();
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->dangling_skipped, 3);
  EXPECT_EQ(stats->files, 1);
  EXPECT_TRUE(fs::exists(staged_ / "a.txt"));
  EXPECT_FALSE(fs::exists(fs::symlink_status(staged_ / "gone")));
  EXPECT_FALSE(fs::exists(fs::symlink_status(staged_ / "not_a_dir")));
}

TEST_F(RunfilesStageTest, SymlinkLoopIsAnError) {
  Symlink(outputs_ / "b", outputs_ / "a");
  Symlink(outputs_ / "a", outputs_ / "b");
  Symlink(outputs_ / "a", tree_ / "loop");
  absl::StatusOr<StagingStats> stats = Stage();
  ASSERT_FALSE(stats.ok());
  EXPECT_THAT(stats.status().message(), HasSubstr("loop"));
}

TEST_F(RunfilesStageTest, DirectoryCycleIsAnError) {
  WriteFile(outputs_ / "lib/a.txt", "alpha\n", 0444);
  Symlink("..", outputs_ / "lib/up");  // lib/up -> outputs, which holds lib
  Symlink(outputs_ / "lib", tree_ / "lib");
  absl::StatusOr<StagingStats> stats = Stage();
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(stats.status().message(), AllOf(HasSubstr("lib/up/lib"), HasSubstr("cycle")));
  EXPECT_FALSE(fs::exists(fs::symlink_status(staged_)));

  // Back to the tree's own root.
  fs::remove(tree_ / "lib");
  Symlink(".", tree_ / "self");
  stats = Stage();
  ASSERT_FALSE(stats.ok());
  EXPECT_THAT(stats.status().message(), AllOf(HasSubstr("self"), HasSubstr("cycle")));
}

TEST_F(RunfilesStageTest, SameDirectoryTwiceIsNoCycle) {
  WriteFile(outputs_ / "lib/a.txt", "alpha\n", 0444);
  Symlink(outputs_ / "lib", tree_ / "one");
  Symlink(outputs_ / "lib", tree_ / "two");
  absl::StatusOr<StagingStats> stats = Stage();
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(ReadFileOrEmpty(staged_ / "one/a.txt"), "alpha\n");
  EXPECT_EQ(ReadFileOrEmpty(staged_ / "two/a.txt"), "alpha\n");
}

TEST_F(RunfilesStageTest, MaxEntriesIsEnforced) {
  for (int i = 0; i < 10; ++i) {
    WriteFile(outputs_ / absl::StrCat("f", i), "x", 0444);
    Symlink(outputs_ / absl::StrCat("f", i), tree_ / absl::StrCat("f", i));
  }
  StagingPolicy policy = Policy();
  policy.max_entries = 11;  // the destination plus 10 files
  absl::StatusOr<StagingStats> stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_TRUE(stats.ok()) << stats.status();
  ASSERT_TRUE(RemoveStaged(staged_).ok());

  policy.max_entries = 10;
  stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_FALSE(fs::exists(fs::symlink_status(staged_)));
}

TEST_F(RunfilesStageTest, ExistingDestinationIsAnError) {
  fs::create_directories(staged_);
  EXPECT_EQ(Stage().status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_TRUE(fs::is_directory(staged_));  // left alone
  fs::remove(staged_);

  // A symlink there is not followed, dangling or not.
  Symlink(root_ / "elsewhere", staged_);
  EXPECT_EQ(Stage().status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_FALSE(fs::exists(root_ / "elsewhere"));
}

TEST_F(RunfilesStageTest, BadArgumentsAreErrors) {
  EXPECT_EQ(StageRunfiles(tree_, staged_, {.allowed_roots = {"relative"}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(StageRunfiles(tree_, tree_ / "staged", Policy()).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(StageRunfiles(root_ / "missing", staged_, Policy()).ok());
  WriteFile(outputs_ / "a.txt", "alpha\n", 0444);
  EXPECT_EQ(StageRunfiles(outputs_ / "a.txt", staged_, Policy()).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST_F(RunfilesStageTest, CopiesWhenHardLinksAreOff) {
  const std::string big(1 << 20, 'z');
  WriteFile(outputs_ / "a.txt", "alpha\n", 0444);
  WriteFile(outputs_ / "big", big, 0555);
  Symlink(outputs_ / "a.txt", tree_ / "a.txt");
  Symlink(outputs_ / "big", tree_ / "big");
  StagingPolicy policy = Policy();
  policy.hard_links = false;
  absl::StatusOr<StagingStats> stats = StageRunfiles(tree_, staged_, policy);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->copies, 2);
  EXPECT_EQ(stats->hard_links, 0);
  EXPECT_EQ(stats->bytes_copied, 6 + (1 << 20));
  EXPECT_NE(Lstat(staged_ / "a.txt").st_ino, Lstat(outputs_ / "a.txt").st_ino);
  EXPECT_EQ(ReadFileOrEmpty(staged_ / "big"), big);
  EXPECT_EQ(Mode(staged_ / "big"), 0555);
  EXPECT_EQ(Mode(staged_ / "a.txt"), 0444);
}

// Hard links cannot cross file systems: of /dev/shm (a tmpfs) and /tmp, one
// usually differs from TEST_TMPDIR's (on disk, or on /dev/shm where Bazel's
// sandboxes are; ./bazelw's machine.bazelrc).
TEST_F(RunfilesStageTest, CopiesAcrossFileSystems) {
  fs::path other;
  for (const char* candidate : {"/dev/shm", "/tmp"}) {
    std::string pattern = absl::StrCat(candidate, "/runfiles_stage_test.XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr) continue;
    if (Lstat(pattern).st_dev != Lstat(root_).st_dev) {
      other = pattern;
      break;
    }
    fs::remove_all(pattern);
  }
  if (other.empty()) GTEST_SKIP() << "neither /dev/shm nor /tmp is another file system here";
  const std::string binary("\0\1\2\3 bytes \xfe\xff", 14);
  WriteFile(other / "data.bin", binary, 0444);
  WriteFile(other / "tool", "#!/bin/sh\n", 0555);
  Symlink(other / "data.bin", tree_ / "data.bin");
  Symlink(other / "tool", tree_ / "tool");
  absl::StatusOr<StagingStats> stats =
      StageRunfiles(tree_, staged_, {.allowed_roots = {outputs_, other}});
  fs::remove_all(other);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->copies, 2);
  EXPECT_EQ(stats->hard_links, 0);
  EXPECT_EQ(stats->bytes_copied, static_cast<int64_t>(binary.size() + 10));
  EXPECT_EQ(ReadFileOrEmpty(staged_ / "data.bin"), binary);
  EXPECT_EQ(Mode(staged_ / "data.bin"), 0444);
  EXPECT_EQ(Mode(staged_ / "tool"), 0555);
}

// More files than bwrap takes arguments (one bind each was ~3,000 at most).
// Symlinks share 30 targets, as creating 30,000 files would dominate the time.
TEST_F(RunfilesStageTest, ManyFilesStage) {
  constexpr int kDirs = 30, kPerDir = 1000;
  for (int d = 0; d < kDirs; ++d) {
    const fs::path target = outputs_ / absl::StrCat("target", d);
    WriteFile(target, absl::StrCat("content ", d), 0444);
    fs::create_directories(tree_ / absl::StrCat("d", d));
    for (int f = 0; f < kPerDir; ++f) {
      const fs::path link = tree_ / absl::StrCat("d", d, "/f", f);
      ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0) << link;
    }
  }
  absl::StatusOr<StagingStats> stats = Stage();
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->files, kDirs * kPerDir);
  EXPECT_EQ(stats->hard_links, kDirs * kPerDir);
  EXPECT_EQ(stats->directories, kDirs + 1);
  EXPECT_EQ(ReadFileOrEmpty(staged_ / "d0/f0"), "content 0");
  EXPECT_EQ(ReadFileOrEmpty(staged_ / "d17/f503"), "content 17");
  EXPECT_EQ(ReadFileOrEmpty(staged_ / "d29/f999"), "content 29");
}

TEST_F(RunfilesStageTest, StageFileLinksOrCopiesOneFile) {
  WriteFile(outputs_ / "agent", "#!/bin/sh\n", 0555);
  Symlink(outputs_ / "agent", root_ / "bin/agent");
  absl::StatusOr<StagingStats> stats = StageFile(root_ / "bin/agent", root_ / "agent", Policy());
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->hard_links, 1);
  EXPECT_EQ(Lstat(root_ / "agent").st_ino, Lstat(outputs_ / "agent").st_ino);
  EXPECT_EQ(Mode(root_ / "agent"), 0555);

  EXPECT_EQ(StageFile(root_ / "bin/agent", root_ / "agent", Policy()).status().code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(StageFile(outside_ / "answers.csv", root_ / "x", Policy()).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(StageFile(outputs_, root_ / "x", Policy()).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(StageFile(outputs_ / "missing", root_ / "x", Policy()).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_FALSE(fs::exists(fs::symlink_status(root_ / "x")));
}

}  // namespace
}  // namespace mlebench
