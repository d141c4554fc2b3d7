#include "agent_runner/rootfs.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

class RootfsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* test_tmpdir = std::getenv("TEST_TMPDIR");
    ASSERT_NE(test_tmpdir, nullptr);
    rootfs_ = fs::path(test_tmpdir) /
              ::testing::UnitTest::GetInstance()->current_test_info()->name() / "rootfs";
    fs::remove_all(rootfs_.parent_path());
    fs::create_directories(rootfs_ / "usr" / "bin");
    fs::create_directories(rootfs_ / "etc");
    fs::create_directories(rootfs_ / "var" / "cache");  // not bound: not in the manifest
    std::ofstream(rootfs_ / "usr" / "bin" / "tool") << "#!/bin/sh\necho tool\n";
    fs::permissions(rootfs_ / "usr" / "bin" / "tool", fs::perms(0755));
    std::ofstream(rootfs_ / "etc" / "os-release") << "ID=test\n";
    std::ofstream(rootfs_ / "etc" / "name with space") << "x";
    fs::create_symlink("usr/bin", rootfs_ / "bin");
    fs::create_symlink("/proc/self/mounts", rootfs_ / "etc" / "mtab");  // dangling outside
    std::ofstream(rootfs_ / "var" / "cache" / "junk") << "x";
  }

  // The manifest as the repository rules make it (rootfs_manifest.py).
  std::string Manifest() {
    const std::string command = absl::StrCat(
        "/usr/bin/python3 -I -S agent_runner/rootfs/rootfs_manifest.py '", rootfs_.string(), "'");
    FILE* pipe = popen(command.c_str(), "r");
    EXPECT_NE(pipe, nullptr);
    std::string text;
    char buffer[4096];
    for (size_t n; (n = fread(buffer, 1, sizeof(buffer), pipe)) > 0;) text.append(buffer, n);
    EXPECT_EQ(pclose(pipe), 0);
    return text;
  }

  fs::path rootfs_;
};

TEST_F(RootfsTest, TheManifestListsTheBoundTreesAndMatchesThem) {
  const std::string manifest = Manifest();
  EXPECT_THAT(manifest, HasSubstr("l\t0777\t0\tusr/bin\tbin\n"));
  EXPECT_THAT(manifest, HasSubstr("d\t0755\t0\t-\tetc\n"));
  EXPECT_THAT(manifest, HasSubstr("l\t0777\t0\t/proc/self/mounts\tetc/mtab\n"));
  // sha256("#!/bin/sh\necho tool\n")
  EXPECT_THAT(manifest, HasSubstr("f\t0755\t20\t"));
  EXPECT_THAT(manifest, HasSubstr("\tetc/name with space\n"));
  EXPECT_THAT(manifest, Not(HasSubstr("var")));
  absl::StatusOr<RootfsSummary> summary = CheckRootfs(rootfs_, manifest);
  ASSERT_TRUE(summary.ok()) << summary.status();
  // bin, etc, its three entries, usr, usr/bin, the tool.
  EXPECT_EQ(summary->entries, 8);
  EXPECT_TRUE(summary->setid_files.empty());
}

TEST_F(RootfsTest, AnyChangeSinceTheManifestIsAnError) {
  const std::string manifest = Manifest();
  const auto expect_changed = [&](const std::string& what) {
    absl::StatusOr<RootfsSummary> summary = CheckRootfs(rootfs_, manifest);
    EXPECT_EQ(summary.status().code(), absl::StatusCode::kFailedPrecondition) << what;
    EXPECT_THAT(std::string(summary.status().message()), HasSubstr(what));
    EXPECT_THAT(std::string(summary.status().message()),
                HasSubstr("changed since its manifest was made"));
  };
  std::ofstream(rootfs_ / "etc" / "os-release", std::ios::app) << "more\n";
  expect_changed("etc/os-release is a file of mode 0644 and 13 bytes, the manifest says");
  std::ofstream(rootfs_ / "etc" / "os-release", std::ios::trunc) << "ID=test\n";
  ASSERT_TRUE(CheckRootfs(rootfs_, manifest).ok());

  fs::permissions(rootfs_ / "usr" / "bin" / "tool", fs::perms(0700));
  expect_changed("usr/bin/tool is a file of mode 0700");
  fs::permissions(rootfs_ / "usr" / "bin" / "tool", fs::perms(0755));

  std::ofstream(rootfs_ / "usr" / "bin" / "new") << "";
  expect_changed("usr/bin/new is not in the manifest");
  fs::remove(rootfs_ / "usr" / "bin" / "new");

  fs::remove(rootfs_ / "etc" / "mtab");
  expect_changed("etc/mtab is in the manifest but missing");
  fs::create_symlink("/elsewhere", rootfs_ / "etc" / "mtab");
  expect_changed("etc/mtab is a symlink to '/elsewhere'");
  fs::remove(rootfs_ / "etc" / "mtab");
  fs::create_symlink("/proc/self/mounts", rootfs_ / "etc" / "mtab");

  // What the sandbox does not bind may change.
  std::ofstream(rootfs_ / "var" / "cache" / "more") << "x";
  EXPECT_TRUE(CheckRootfs(rootfs_, manifest).ok());
}

TEST_F(RootfsTest, SetuidFilesAreCountedSpecialFilesRefused) {
  std::ofstream(rootfs_ / "usr" / "bin" / "su") << "x";
  ASSERT_EQ(chmod((rootfs_ / "usr" / "bin" / "su").c_str(), 04755), 0);
  std::ofstream(rootfs_ / "usr" / "bin" / "wall") << "x";
  ASSERT_EQ(chmod((rootfs_ / "usr" / "bin" / "wall").c_str(), 02755), 0);
  absl::StatusOr<RootfsSummary> summary = CheckRootfs(rootfs_, Manifest());
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_THAT(summary->setid_files, ElementsAre("usr/bin/su", "usr/bin/wall"));

  ASSERT_EQ(mkfifo((rootfs_ / "etc" / "fifo").c_str(), 0644), 0);
  absl::StatusOr<RootfsSummary> fifo = CheckRootfs(rootfs_, std::nullopt);
  EXPECT_EQ(fifo.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(fifo.status().message()), HasSubstr("socket, FIFO or device node"));
}

TEST_F(RootfsTest, MalformedManifestsAndTooManyEntriesAreErrors) {
  for (const std::string manifest :
       {"d\t0755\t0\t-\n", "x\t0755\t0\t-\tetc\n", "d\t755\t0\t-\tetc\n",
        "f\t0644\tten\tab\tetc/a\n", "d\t0755\t0\t-\t/etc\n",
        "d\t0755\t0\t-\tusr\nd\t0755\t0\t-\tetc\n"}) {
    absl::StatusOr<RootfsSummary> summary = CheckRootfs(rootfs_, manifest);
    EXPECT_EQ(summary.status().code(), absl::StatusCode::kFailedPrecondition) << manifest;
    EXPECT_THAT(std::string(summary.status().message()), HasSubstr("malformed")) << manifest;
  }
  EXPECT_EQ(CheckRootfs(rootfs_, std::nullopt, 3).status().code(),
            absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace mlebench
