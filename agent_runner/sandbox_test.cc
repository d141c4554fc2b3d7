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
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
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
    fs::create_directories(root_ / "staged" / "runfiles");
    agent_ = root_ / "bin" / "agent";
    std::ofstream(root_ / "staged" / "agent") << "#!/bin/sh\n";
    std::ofstream(root_ / "entry") << "";
  }

  SandboxSpec Spec() const {
    return {.workspace = root_ / "workspace",
            .agent = agent_,
            .staged_agent = root_ / "staged" / "agent",
            .staged_runfiles = root_ / "staged" / "runfiles",
            .sandbox_entry = root_ / "entry"};
  }

  fs::path root_;
  fs::path agent_;
};

TEST_F(BwrapOptionsTest, RelativeOrMissingPathsAreAnError) {
  for (auto change : std::vector<std::function<void(SandboxSpec&)>>{
           [](SandboxSpec& s) { s.workspace = "workspace"; },
           [](SandboxSpec& s) { s.agent = "agent"; },
           [](SandboxSpec& s) { s.staged_agent = ""; },
           [](SandboxSpec& s) { s.sandbox_entry = "entry"; },
           [](SandboxSpec& s) { s.staged_runfiles = "runfiles"; },
           [](SandboxSpec& s) { s.read_only_dirs = {"data"}; }}) {
    SandboxSpec spec = Spec();
    change(spec);
    EXPECT_FALSE(BwrapOptions(spec).ok());
  }
}

TEST_F(BwrapOptionsTest, NamespacesByPrivilegeAndNetworkOnlyWhenShared) {
  // As an ordinary user: a user namespace, and bwrap drops every capability.
  absl::StatusOr<std::vector<std::string>> user = BwrapOptions(Spec());
  ASSERT_TRUE(user.ok()) << user.status();
  EXPECT_TRUE(HasRun(*user, {"--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                             "--unshare-cgroup", "--cap-drop", "ALL", "--unshare-net"}));
  EXPECT_THAT(*user, Contains("--die-with-parent"));
  // A new session would take the sandbox out of bwrap's process group.
  EXPECT_THAT(*user, Not(Contains("--new-session")));
  EXPECT_THAT(*user, Not(Contains("--unshare-all")));  // it would try a user namespace as root

  // As root: no user namespace (uid 0 inside would be host root); the entry
  // drops the capabilities and the uid itself.
  SandboxSpec spec = Spec();
  spec.host_root = true;
  absl::StatusOr<std::vector<std::string>> root = BwrapOptions(spec);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_TRUE(HasRun(*root, {"--unshare-pid", "--unshare-ipc", "--unshare-uts",
                             "--unshare-cgroup", "--unshare-net"}));
  EXPECT_THAT(*root, Not(Contains("--unshare-user")));
  EXPECT_THAT(*root, Not(Contains("--cap-drop")));

  spec.share_network = true;
  absl::StatusOr<std::vector<std::string>> shared = BwrapOptions(spec);
  ASSERT_TRUE(shared.ok()) << shared.status();
  EXPECT_THAT(*shared, Not(Contains("--unshare-net")));
}

TEST_F(BwrapOptionsTest, WorkspaceReadWriteStagedFilesReadOnlyAtTheAgentsPaths) {
  absl::StatusOr<std::vector<std::string>> options = BwrapOptions(Spec());
  ASSERT_TRUE(options.ok()) << options.status();
  const std::string ws = Spec().workspace.string();
  const std::string staged = (root_ / "staged").string();
  EXPECT_TRUE(HasRun(*options, {"--bind", ws, ws}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", staged + "/agent", agent_.string()}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", staged + "/runfiles", agent_.string() + ".runfiles"}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", (root_ / "entry").string(), kSandboxEntryPath}));
  EXPECT_TRUE(HasRun(*options, {"--perms", "1777", "--tmpfs", "/tmp"}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", "/usr", "/usr"}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", "/etc", "/etc"}));
  // The directories leading to the mounts are passable for the agent's uid
  // (bwrap would copy the host's modes, e.g. /root's 0700).
  EXPECT_TRUE(HasRun(*options, {"--perms", "0755", "--dir", (root_ / "bin").string()}));
  ASSERT_GE(options->size(), 4u);
  EXPECT_EQ(std::vector<std::string>(options->end() - 4, options->end()),
            (std::vector<std::string>{"--remount-ro", "/", "--chdir", ws}));
}

TEST_F(BwrapOptionsTest, GlobalKernelSettingsAreReadOnly) {
  absl::StatusOr<std::vector<std::string>> options = BwrapOptions(Spec());
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_TRUE(HasRun(*options, {"--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys"}));
  for (const char* knob : {"/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs"}) {
    struct stat st;
    if (lstat(knob, &st) == 0) {
      EXPECT_TRUE(HasRun(*options, {"--ro-bind", knob, knob})) << knob;
    }
  }
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", "/sys", "/sys"}));
}

TEST_F(BwrapOptionsTest, MountsNothingButSystemWorkspaceAndStagedFiles) {
  absl::StatusOr<std::vector<std::string>> options = BwrapOptions(Spec());
  ASSERT_TRUE(options.ok()) << options.status();
  const std::vector<std::string> system_prefixes = {"/usr", "/etc",  "/sys",  "/dev/",
                                                    "/bin", "/sbin", "/lib", "/proc/"};
  for (size_t i = 0; i + 2 < options->size(); ++i) {
    const std::string& op = (*options)[i];
    if (op != "--bind" && op != "--ro-bind" && op != "--dev-bind") continue;
    const std::string& source = (*options)[i + 1];
    const bool system =
        std::any_of(system_prefixes.begin(), system_prefixes.end(),
                    [&](const std::string& p) { return absl::StartsWith(source, p); });
    EXPECT_TRUE(system || source == Spec().workspace.string() ||
                absl::StartsWith(source, (root_ / "staged").string()) ||
                source == (root_ / "entry").string())
        << op << " " << source;
    EXPECT_EQ(op == "--bind", source == Spec().workspace.string()) << op << " " << source;
    EXPECT_NE(source, "/root");
    EXPECT_NE(source, "/home");
  }
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

TEST_F(BwrapOptionsTest, ArgumentCountDoesNotGrowWithTheRunfiles) {
  absl::StatusOr<std::vector<std::string>> few = BwrapOptions(Spec());
  for (int i = 0; i < 5000; ++i) {
    std::ofstream(root_ / "staged" / "runfiles" / absl::StrCat("f", i)) << i;
  }
  absl::StatusOr<std::vector<std::string>> many = BwrapOptions(Spec());
  ASSERT_TRUE(few.ok() && many.ok());
  EXPECT_EQ(few->size(), many->size());
}

// A root file system of an agent: usr and etc directories, bin and lib64
// symlinks into usr, an opt with a directory, a file and a symlink.
fs::path MakeRootfs(const fs::path& root) {
  const fs::path rootfs = root / "rootfs";
  fs::create_directories(rootfs / "usr" / "bin");
  fs::create_directories(rootfs / "usr" / "lib64");
  fs::create_directories(rootfs / "etc");
  fs::create_directories(rootfs / "opt" / "vendor");
  std::ofstream(rootfs / "opt" / "readme") << "x";
  fs::create_symlink("vendor", rootfs / "opt" / "current");
  fs::create_symlink("usr/bin", rootfs / "bin");
  fs::create_symlink("usr/lib64", rootfs / "lib64");
  return rootfs;
}

TEST_F(BwrapOptionsTest, ARootfsReplacesTheHostsSystemWhichMovesToAPrivatePlace) {
  SandboxSpec spec = Spec();
  spec.rootfs = MakeRootfs(root_);
  spec.read_only_binds = {{root_ / "staged", "/opt/mlebench/python"}};
  absl::StatusOr<std::vector<std::string>> options = BwrapOptions(spec);
  ASSERT_TRUE(options.ok()) << options.status();
  const std::string rootfs = spec.rootfs.string();
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", rootfs + "/usr", "/usr"}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", rootfs + "/etc", "/etc"}));
  EXPECT_TRUE(HasRun(*options, {"--symlink", "usr/bin", "/bin"}));
  EXPECT_TRUE(HasRun(*options, {"--symlink", "usr/lib64", "/lib64"}));
  // Nothing of the host's system at its own place, and no host /etc at all.
  EXPECT_FALSE(HasRun(*options, {"--ro-bind", "/usr", "/usr"}));
  EXPECT_FALSE(HasRun(*options, {"--ro-bind", "/etc", "/etc"}));
  for (size_t i = 0; i + 2 < options->size(); ++i) {
    if ((*options)[i] == "--ro-bind") {
      EXPECT_FALSE(absl::StartsWith((*options)[i + 1], "/etc")) << (*options)[i + 1];
    }
  }
  // The host's /usr (and /bin, /lib* as the host has them) under
  // kHostSystemPath, on a way the agent's user can pass.
  const std::string host = kHostSystemPath;
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", "/usr", host + "/usr"}));
  EXPECT_TRUE(HasRun(*options, {"--perms", "0755", "--dir", host}));
  struct stat st;
  if (lstat("/lib64", &st) == 0 && S_ISLNK(st.st_mode)) {
    const std::string target = fs::read_symlink("/lib64").string();
    EXPECT_TRUE(HasRun(*options,
                       {"--symlink", target[0] == '/' ? host + target : target, host + "/lib64"}));
  }
  // /opt: a tmpfs with the rootfs's entries, room for environments, then
  // read-only.
  EXPECT_TRUE(HasRun(*options, {"--perms", "0755", "--tmpfs", "/opt"}));
  EXPECT_TRUE(HasRun(*options, {"--symlink", "vendor", "/opt/current"}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", rootfs + "/opt/readme", "/opt/readme"}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", rootfs + "/opt/vendor", "/opt/vendor"}));
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", (root_ / "staged").string(), "/opt/mlebench/python"}));
  ASSERT_GE(options->size(), 6u);
  EXPECT_EQ(std::vector<std::string>(options->end() - 6, options->end()),
            (std::vector<std::string>{"--remount-ro", "/opt", "--remount-ro", "/", "--chdir",
                                      spec.workspace.string()}));
  // The runner's own mounts are unchanged.
  EXPECT_TRUE(HasRun(*options, {"--ro-bind", (root_ / "entry").string(), kSandboxEntryPath}));
  EXPECT_TRUE(HasRun(*options, {"--proc", "/proc"}));
  EXPECT_TRUE(HasRun(*options, {"--perms", "1777", "--tmpfs", "/tmp"}));
  EXPECT_TRUE(HasRun(*options, {"--perms", "1777", "--tmpfs", "/dev/shm"}));
}

TEST_F(BwrapOptionsTest, ARootfsNeedsUsrAndEtcAndLeavesOptMlebenchToEnvironments) {
  SandboxSpec spec = Spec();
  spec.rootfs = MakeRootfs(root_);
  fs::create_directories(spec.rootfs / "opt" / "mlebench");
  EXPECT_FALSE(BwrapOptions(spec).ok());
  fs::remove(spec.rootfs / "opt" / "mlebench");
  ASSERT_TRUE(BwrapOptions(spec).ok());
  fs::remove_all(spec.rootfs / "etc");
  EXPECT_FALSE(BwrapOptions(spec).ok());
  fs::create_symlink("usr", spec.rootfs / "etc");  // a symlink is not a directory
  EXPECT_FALSE(BwrapOptions(spec).ok());
  spec.rootfs = "rootfs";
  EXPECT_FALSE(BwrapOptions(spec).ok());
}

TEST(HostSystemTest, HostPathsAndTheLoaderAreUnderTheHostSystemPath) {
  absl::StatusOr<fs::path> socat = HostPathInSandbox("/bin/true");
  ASSERT_TRUE(socat.ok()) << socat.status();
  EXPECT_EQ(*socat, fs::path(kHostSystemPath) / fs::canonical("/bin/true").relative_path());
  // Outside the host's system: /etc, /tmp, the workspace.
  EXPECT_FALSE(HostPathInSandbox("/etc/passwd").ok());
  EXPECT_FALSE(HostPathInSandbox("/proc/self/exe").ok());
  EXPECT_FALSE(HostPathInSandbox("/no/such/file").ok());

  absl::StatusOr<HostLoader> loader = HostLoaderInSandbox();
  ASSERT_TRUE(loader.ok()) << loader.status();
  EXPECT_TRUE(absl::StartsWith(loader->loader.string(), absl::StrCat(kHostSystemPath, "/")));
  EXPECT_EQ(loader->loader.filename(), "ld-linux-x86-64.so.2");
  for (absl::string_view dir : absl::StrSplit(loader->library_path, ':')) {
    EXPECT_TRUE(absl::StartsWith(dir, absl::StrCat(kHostSystemPath, "/"))) << dir;
  }
  // Where the host's libc is.
  EXPECT_TRUE(absl::StrContains(
      loader->library_path,
      absl::StrCat(kHostSystemPath, fs::canonical("/lib/x86_64-linux-gnu").string())))
      << loader->library_path;
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
