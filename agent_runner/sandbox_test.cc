#include "agent_runner/sandbox.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "agent_runner/processes.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::Not;

// True if `needle` occurs in `haystack` as consecutive elements.
bool HasRun(const std::vector<std::string>& haystack, const std::vector<std::string>& needle) {
  return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end()) !=
         haystack.end();
}

class BwrapOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* test_tmpdir = std::getenv("TEST_TMPDIR");
    ASSERT_NE(test_tmpdir, nullptr);
    root_ = fs::path(test_tmpdir) / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    fs::create_directories(root_ / "workspace");
    agent_ = root_ / "agent";
    std::ofstream(agent_) << "#!/bin/sh\n";
  }

  SandboxSpec Spec() const {
    return {.workspace = root_ / "workspace", .agent = agent_, .share_network = true};
  }

  fs::path root_;
  fs::path agent_;
};

TEST_F(BwrapOptionsTest, RelativePathsAreAnError) {
  SandboxSpec spec = Spec();
  spec.workspace = "workspace";
  EXPECT_FALSE(BwrapOptions(spec).ok());
  spec = Spec();
  spec.agent = "agent";
  EXPECT_FALSE(BwrapOptions(spec).ok());
}

TEST_F(BwrapOptionsTest, NewNamespacesNoCapabilitiesAndNetworkOnlyWhenShared) {
  absl::StatusOr<std::vector<std::string>> shared = BwrapOptions(Spec());
  ASSERT_TRUE(shared.ok()) << shared.status();
  EXPECT_TRUE(HasRun(*shared, {"--unshare-all", "--share-net"}));
  EXPECT_TRUE(HasRun(*shared, {"--cap-drop", "ALL"}));
  EXPECT_THAT(*shared, Contains("--die-with-parent"));
  // A new session would take the sandbox out of bwrap's process group.
  EXPECT_THAT(*shared, Not(Contains("--new-session")));

  SandboxSpec spec = Spec();
  spec.share_network = false;
  absl::StatusOr<std::vector<std::string>> isolated = BwrapOptions(spec);
  ASSERT_TRUE(isolated.ok()) << isolated.status();
  EXPECT_THAT(*isolated, Contains("--unshare-all"));
  EXPECT_THAT(*isolated, Not(Contains("--share-net")));
}

TEST_F(BwrapOptionsTest, WorkspaceReadWriteAndAgentReadOnlyAtTheirOwnPaths) {
  // The agent is reached through a symlink, as Bazel's sandboxes present it.
  const fs::path link = root_ / "agent_link";
  fs::create_symlink(agent_, link);
  SandboxSpec spec = Spec();
  spec.agent = link;
  absl::StatusOr<std::vector<std::string>> options = BwrapOptions(spec);
  ASSERT_TRUE(options.ok()) << options.status();
  const std::string ws = spec.workspace.string();
  EXPECT_TRUE(HasRun(*options, {"--bind", ws, ws}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", agent_.string(), link.string()}));
  EXPECT_TRUE(HasRun(*options, {"--tmpfs", "/tmp"}));
  EXPECT_TRUE(HasRun(*options, {"--proc", "/proc", "--dev", "/dev"}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", "/usr", "/usr"}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", "/etc", "/etc"}));
  ASSERT_GE(options->size(), 4u);
  EXPECT_EQ(std::vector<std::string>(options->end() - 4, options->end()),
            (std::vector<std::string>{"--remount-ro", "/", "--chdir", ws}));
}

TEST_F(BwrapOptionsTest, MountsNothingButSystemWorkspaceAndAgent) {
  absl::StatusOr<std::vector<std::string>> options = BwrapOptions(Spec());
  ASSERT_TRUE(options.ok()) << options.status();
  const std::vector<std::string> system_prefixes = {"/usr", "/etc",  "/sys", "/dev/",
                                                    "/bin", "/sbin", "/lib", "/run/"};
  for (size_t i = 0; i + 2 < options->size(); ++i) {
    const std::string& op = (*options)[i];
    if (op != "--bind" && op != "--ro-bind" && op != "--dev-bind") continue;
    const std::string& source = (*options)[i + 1];
    const bool system =
        std::any_of(system_prefixes.begin(), system_prefixes.end(),
                    [&](const std::string& p) { return absl::StartsWith(source, p); });
    EXPECT_TRUE(system || source == Spec().workspace.string() || source == agent_.string())
        << op << " " << source;
    EXPECT_EQ(op == "--bind", source == Spec().workspace.string()) << op << " " << source;
  }
  EXPECT_THAT(*options, Not(Contains("/root")));
  EXPECT_THAT(*options, Not(Contains("/home")));
}

TEST_F(BwrapOptionsTest, WhatEtcHidesFromOtherUsersIsMasked) {
  absl::StatusOr<std::vector<std::string>> options = BwrapOptions(Spec());
  ASSERT_TRUE(options.ok()) << options.status();
  int masked = 0;
  for (const char* path : {"/etc/shadow", "/etc/gshadow", "/etc/ssl/private"}) {
    struct stat st;
    if (lstat(path, &st) != 0 || (st.st_mode & S_IROTH) != 0) continue;
    ++masked;
    if (S_ISDIR(st.st_mode)) {
      EXPECT_TRUE(HasRun(*options, {"--tmpfs", path, "--remount-ro", path})) << path;
    } else {
      EXPECT_TRUE(HasRun(*options, {"--ro-bind", "/dev/null", path})) << path;
    }
  }
  EXPECT_GT(masked, 0) << "expected Debian's /etc/shadow to be readable by root only";
  EXPECT_FALSE(HasRun(*options, {"--ro-bind", "/dev/null", "/etc/passwd"}));
}

TEST_F(BwrapOptionsTest, RunfilesSymlinksAreReplacedByTheirTargets) {
  const fs::path runfiles = root_ / "agent.runfiles";
  const fs::path elsewhere = root_ / "output_base";
  fs::create_directories(elsewhere / "tree");
  std::ofstream(elsewhere / "lib.py") << "x = 1\n";
  fs::create_directories(runfiles / "repo" / "empty");
  std::ofstream(runfiles / "MANIFEST") << "repo/lib.py " << (elsewhere / "lib.py").string() << "\n";
  fs::create_symlink(elsewhere / "lib.py", runfiles / "repo" / "lib.py");
  fs::create_directory_symlink(elsewhere / "tree", runfiles / "repo" / "tree");
  fs::create_symlink(root_ / "vanished", runfiles / "repo" / "dangling");
  ASSERT_EQ(mkfifo((runfiles / "repo" / "fifo").c_str(), 0644), 0);

  absl::StatusOr<std::vector<std::string>> options = BwrapOptions(Spec());
  ASSERT_TRUE(options.ok()) << options.status();
  const std::string r = runfiles.string();
  // clang-format off
  const std::vector<std::string> expected = {
      "--tmpfs", r,
      "--ro-bind", r + "/MANIFEST", r + "/MANIFEST",
      "--dir", r + "/repo",
      "--dir", r + "/repo/empty",
      "--ro-bind", (elsewhere / "lib.py").string(), r + "/repo/lib.py",
      "--ro-bind", (elsewhere / "tree").string(), r + "/repo/tree",
      "--remount-ro", r,
  };
  // clang-format on
  EXPECT_TRUE(HasRun(*options, expected)) << "got: " << ::testing::PrintToString(*options);
}

// Starts `sh -c script` as a child; kills and reaps it when destroyed.
class ShellChild {
 public:
  explicit ShellChild(const char* script) {
    pid_ = fork();
    if (pid_ == 0) {
      execl("/bin/sh", "sh", "-c", script, static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~ShellChild() {
    for (pid_t child : ChildrenOf(pid_)) kill(child, SIGKILL);
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_;
};

std::vector<pid_t> ChildrenSoon(pid_t parent) {
  for (int i = 0; i < 250; ++i) {
    std::vector<pid_t> children = ChildrenOf(parent);
    if (!children.empty()) return children;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return {};
}

TEST(ProcessesTest, ChildrenAndPidNamespaces) {
  ShellChild shell("sleep 30; true");  // `; true`: the shell forks rather than execs
  const std::vector<pid_t> children = ChildrenSoon(shell.pid());
  ASSERT_EQ(children.size(), 1u);
  EXPECT_THAT(ChildrenOf(getpid()), Contains(shell.pid()));
  const std::optional<std::string> own = PidNamespaceOf(getpid());
  ASSERT_TRUE(own.has_value());
  EXPECT_TRUE(absl::StartsWith(*own, "pid:[")) << *own;
  EXPECT_EQ(PidNamespaceOf(children[0]), own);
  const std::vector<pid_t> members = ProcessesInPidNamespace(*own);
  EXPECT_THAT(members, Contains(getpid()));
  EXPECT_THAT(members, Contains(children[0]));
  EXPECT_EQ(PidNamespaceOf(999999999), std::nullopt);
}

TEST(SignalSandboxedProcessesTest, NeverSignalsTheCallersOwnNamespace) {
  // A "bwrap" whose child shares our pid namespace: signalling "the sandbox"
  // would hit every process we can see, so nothing may be signalled.
  ShellChild shell("sleep 30; true");
  const std::vector<pid_t> children = ChildrenSoon(shell.pid());
  ASSERT_EQ(children.size(), 1u);
  SignalSandboxedProcesses(shell.pid(), SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(kill(shell.pid(), 0), 0);
  EXPECT_EQ(kill(children[0], 0), 0);
  EXPECT_EQ(waitpid(shell.pid(), nullptr, WNOHANG), 0) << "the shell was signalled";
}

}  // namespace
}  // namespace mlebench
