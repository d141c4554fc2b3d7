#include "agent_runner/cgroup.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::ReadFileOrEmpty;

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr char kHint[] = "mlebench-test";

fs::path TestDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  fs::path dir = fs::path(tmp != nullptr ? tmp : "/tmp") /
                 ::testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Forks a child that joins `cgroup` and exits with what `body` returns (120:
// it could not join).
pid_t ForkInto(const AgentCgroup& cgroup, const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (!cgroup.JoinFromChild()) _exit(120);
    _exit(body());
  }
  return pid;
}

bool Empty(const AgentCgroup& cgroup) {
  for (const std::string& dir : cgroup.directories()) {
    if (!ReadFileOrEmpty(fs::path(dir) / "cgroup.procs").empty()) return false;
  }
  return true;
}

// Tests on the machine's real cgroups.
class CgroupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Orphaned grandchildren come to this process, which can then reap them.
    ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0) << std::strerror(errno);
    absl::StatusOr<AgentCgroup> probe = AgentCgroup::Create({}, "mlebench-test-probe");
    ASSERT_TRUE(probe.ok()) << probe.status();
    if (!probe->enforced()) {
      GTEST_SKIP() << "this machine has no writable cgroup hierarchy: " << probe->Describe();
    }
  }

  void TearDown() override {
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
  }
};

TEST_F(CgroupTest, MemoryLimitGetsTheProcessKilled) {
  absl::StatusOr<AgentCgroup> cgroup = AgentCgroup::Create({.memory_bytes = 64 * kMiB}, kHint);
  ASSERT_TRUE(cgroup.ok()) << cgroup.status();
  const pid_t pid = ForkInto(*cgroup, [] {
    const size_t size = 512 * kMiB;
    void* memory = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return 2;
    for (size_t offset = 0; offset < size; offset += kMiB) {
      std::memset(static_cast<char*>(memory) + offset, 1, kMiB);
    }
    return 0;
  });
  int status;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "exited with " << WEXITSTATUS(status) << " in "
                                   << cgroup->Describe();
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
  const AgentCgroup::Usage usage = cgroup->ReadUsage();
  EXPECT_GE(usage.oom_kills, 1);
  EXPECT_GT(usage.memory_peak_bytes, 32 * kMiB);
  EXPECT_LE(usage.memory_peak_bytes, 64 * kMiB);
}

TEST_F(CgroupTest, PidsLimitStopsForks) {
  absl::StatusOr<AgentCgroup> cgroup = AgentCgroup::Create({.pids = 16}, kHint);
  ASSERT_TRUE(cgroup.ok()) << cgroup.status();
  int report_pipe[2];
  ASSERT_EQ(pipe(report_pipe), 0);
  const pid_t pid = ForkInto(*cgroup, [&] {
    int report[2] = {0, 0};  // forks that worked, errno of the one that failed
    for (int i = 0; i < 64; ++i) {
      const pid_t child = fork();
      if (child == 0) {
        pause();
        _exit(0);
      }
      if (child < 0) {
        report[1] = errno;
        break;
      }
      ++report[0];
    }
    if (write(report_pipe[1], report, sizeof(report)) != sizeof(report)) return 3;
    pause();
    return 0;
  });
  close(report_pipe[1]);
  int report[2];
  ASSERT_EQ(read(report_pipe[0], report, sizeof(report)), static_cast<ssize_t>(sizeof(report)));
  close(report_pipe[0]);
  EXPECT_EQ(report[1], EAGAIN) << std::strerror(report[1]);
  EXPECT_GT(report[0], 0);
  EXPECT_LE(report[0] + 1, 16);  // the child itself counts

  cgroup->KillAll();
  int status;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  EXPECT_TRUE(Empty(*cgroup));
}

TEST_F(CgroupTest, CpuLimitIsWritten) {
  absl::StatusOr<AgentCgroup> cgroup = AgentCgroup::Create({.cpus = 0.5}, kHint);
  ASSERT_TRUE(cgroup.ok()) << cgroup.status();
  int found = 0;
  for (const std::string& dir : cgroup->directories()) {
    if (fs::exists(fs::path(dir) / "cpu.max")) {
      EXPECT_EQ(ReadFileOrEmpty(fs::path(dir) / "cpu.max"), "50000 100000\n");
      ++found;
    } else if (fs::exists(fs::path(dir) / "cpu.cfs_quota_us")) {
      EXPECT_EQ(ReadFileOrEmpty(fs::path(dir) / "cpu.cfs_quota_us"), "50000\n");
      EXPECT_EQ(ReadFileOrEmpty(fs::path(dir) / "cpu.cfs_period_us"), "100000\n");
      ++found;
    }
  }
  EXPECT_EQ(found, 1) << cgroup->Describe();
}

// Starts a daemon (setsid, double fork) in `cgroup`, then kills it with KillAll.
void ExpectKillAllKillsDaemon(const AgentCgroup& cgroup) {
  int pid_pipe[2];
  ASSERT_EQ(pipe(pid_pipe), 0);
  const pid_t pid = ForkInto(cgroup, [&] {
    if (setsid() < 0) return 3;
    const pid_t middle = fork();
    if (middle == 0) {
      if (fork() == 0) {
        setsid();
        const pid_t self = getpid();
        if (write(pid_pipe[1], &self, sizeof(self)) != sizeof(self)) _exit(4);
        for (;;) pause();
      }
      _exit(0);
    }
    int status;
    return waitpid(middle, &status, 0) == middle ? 0 : 5;
  });
  close(pid_pipe[1]);
  pid_t daemon = 0;
  ASSERT_EQ(read(pid_pipe[0], &daemon, sizeof(daemon)), static_cast<ssize_t>(sizeof(daemon)));
  close(pid_pipe[0]);
  int status;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  ASSERT_EQ(kill(daemon, 0), 0) << "the daemon should be running";

  cgroup.KillAll();
  EXPECT_TRUE(Empty(cgroup));
  ASSERT_EQ(waitpid(daemon, &status, 0), daemon);  // an orphan: ours, the subreaper's
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  EXPECT_EQ(kill(daemon, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

TEST_F(CgroupTest, KillAllKillsDaemons) {
  absl::StatusOr<AgentCgroup> cgroup = AgentCgroup::Create({.pids = 64}, kHint);
  ASSERT_TRUE(cgroup.ok()) << cgroup.status();
  ExpectKillAllKillsDaemon(*cgroup);
}

// Without cgroup v2 KillAll signals pid after pid (and Create, asked for no
// limit, falls back on some v1 hierarchy).
TEST_F(CgroupTest, KillAllKillsDaemonsWithoutV2) {
  const fs::path mountinfo = TestDir() / "mountinfo";
  std::ofstream out(mountinfo);
  std::istringstream lines(ReadFileOrEmpty("/proc/self/mountinfo"));
  for (std::string line; std::getline(lines, line);) {
    if (!absl::StrContains(line, " - cgroup2 ")) out << line << "\n";
  }
  out.close();
  absl::StatusOr<AgentCgroup> cgroup =
      AgentCgroup::Create({}, kHint, {.mountinfo = mountinfo.string()});
  ASSERT_TRUE(cgroup.ok()) << cgroup.status();
  if (!cgroup->enforced()) GTEST_SKIP() << "no cgroup v1 here: " << cgroup->Describe();
  EXPECT_FALSE(absl::StrContains(cgroup->Describe(), "v2")) << cgroup->Describe();
  ExpectKillAllKillsDaemon(*cgroup);
}

TEST_F(CgroupTest, RemoveLeavesNothingBehind) {
  const ResourceLimits limits = {.memory_bytes = 256 * kMiB, .pids = 64};
  absl::StatusOr<AgentCgroup> first = AgentCgroup::Create(limits, kHint);
  ASSERT_TRUE(first.ok()) << first.status();
  const std::vector<std::string> first_dirs = first->directories();
  ASSERT_FALSE(first_dirs.empty());
  {
    absl::StatusOr<AgentCgroup> second = AgentCgroup::Create(limits, kHint);
    ASSERT_TRUE(second.ok()) << second.status();
    EXPECT_NE(first->Describe(), second->Describe());
    for (const std::string& dir : second->directories()) {
      EXPECT_TRUE(fs::is_directory(dir)) << dir;
      EXPECT_EQ(std::count(first_dirs.begin(), first_dirs.end(), dir), 0) << dir;
    }
    const std::vector<std::string> second_dirs = second->directories();
    // A process still inside, and a cgroup the agent made for itself.
    int joined[2];
    ASSERT_EQ(pipe(joined), 0);
    const pid_t pid = ForkInto(*second, [&] {
      if (write(joined[1], "j", 1) != 1) return 3;
      pause();
      return 0;
    });
    close(joined[1]);
    char byte;
    ASSERT_EQ(read(joined[0], &byte, 1), 1);
    close(joined[0]);
    ASSERT_EQ(mkdir((fs::path(second_dirs[0]) / "own").c_str(), 0755), 0) << std::strerror(errno);
    AgentCgroup moved = *std::move(second);
    EXPECT_FALSE(second->enforced());
    EXPECT_TRUE(moved.Remove().ok());
    EXPECT_FALSE(moved.enforced());
    for (const std::string& dir : second_dirs) EXPECT_FALSE(fs::exists(dir)) << dir;
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  }
  for (const std::string& dir : first_dirs) EXPECT_TRUE(fs::is_directory(dir)) << dir;
  EXPECT_TRUE(first->Remove().ok());
  EXPECT_TRUE(first->Remove().ok());
  for (const std::string& dir : first_dirs) EXPECT_FALSE(fs::exists(dir)) << dir;

  {
    absl::StatusOr<AgentCgroup> third = AgentCgroup::Create(limits, kHint);
    ASSERT_TRUE(third.ok()) << third.status();
    const std::vector<std::string> third_dirs = third->directories();
    ASSERT_FALSE(third_dirs.empty());
    *third = AgentCgroup(std::move(*third));  // move-assignment keeps the cgroup
    for (const std::string& dir : third_dirs) EXPECT_TRUE(fs::is_directory(dir)) << dir;
  }
}

// Tests on made-up cgroup file systems: nothing here needs privileges.

TEST(CgroupSetupTest, BadArgumentsAreErrors) {
  EXPECT_FALSE(AgentCgroup::Create({.cpus = 0.001}, kHint).ok());
  EXPECT_FALSE(AgentCgroup::Create({.memory_bytes = -1}, kHint).ok());
  EXPECT_FALSE(AgentCgroup::Create({.pids = -1}, kHint).ok());
  EXPECT_FALSE(AgentCgroup::Create({}, "a/b").ok());
  EXPECT_FALSE(AgentCgroup::Create({}, "").ok());
}

TEST(CgroupSetupTest, LimitsWithoutCgroupFileSystemAreAnError) {
  const fs::path mountinfo = TestDir() / "mountinfo";
  std::ofstream(mountinfo) << "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n";
  const CgroupSystem system = {.mountinfo = mountinfo.string()};
  absl::StatusOr<AgentCgroup> limited =
      AgentCgroup::Create({.memory_bytes = 64 * kMiB, .pids = 16}, kHint, system);
  ASSERT_FALSE(limited.ok());
  EXPECT_TRUE(absl::StrContains(limited.status().message(), "memory")) << limited.status();

  absl::StatusOr<AgentCgroup> unlimited = AgentCgroup::Create({}, kHint, system);
  ASSERT_TRUE(unlimited.ok()) << unlimited.status();
  EXPECT_FALSE(unlimited->enforced());
  EXPECT_TRUE(absl::StartsWith(unlimited->Describe(), "no cgroup")) << unlimited->Describe();
  EXPECT_TRUE(unlimited->JoinFromChild());
  unlimited->KillAll();
  EXPECT_EQ(unlimited->ReadUsage().oom_kills, -1);
  EXPECT_TRUE(unlimited->Remove().ok());

  absl::StatusOr<AgentCgroup> unreadable =
      AgentCgroup::Create({.pids = 16}, kHint, {.proc_self_cgroup = "/nonexistent/cgroup"});
  ASSERT_FALSE(unreadable.ok());
  EXPECT_TRUE(absl::StrContains(unreadable.status().message(), "/nonexistent/cgroup"))
      << unreadable.status();
}

TEST(CgroupSetupTest, UnmountedV1HierarchyIsAnError) {
  const fs::path dir = TestDir();
  std::ofstream(dir / "cgroup") << "4:memory:/some/where\n0::/\n";
  std::ofstream(dir / "mountinfo")
      << "35 31 0:32 / /nonexistent/memory rw,relatime - cgroup cgroup rw,memory\n";
  absl::StatusOr<AgentCgroup> cgroup =
      AgentCgroup::Create({.memory_bytes = 64 * kMiB}, kHint,
                          {.proc_self_cgroup = (dir / "cgroup").string(),
                           .mountinfo = (dir / "mountinfo").string()});
  ASSERT_FALSE(cgroup.ok());
  EXPECT_TRUE(absl::StrContains(cgroup.status().message(), "v1 memory hierarchy"))
      << cgroup.status();
}

// A directory that looks like a cgroup v2 hierarchy to Create, up to the
// files the kernel would make in a new cgroup.
class FakeV2Test : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TestDir();
    fs::create_directories(dir_ / "v2" / "own");
    std::ofstream(dir_ / "cgroup") << "0::/own\n";
    std::ofstream(dir_ / "mountinfo")
        << "41 23 0:38 / " << (dir_ / "v2").string() << " rw,relatime - cgroup2 cgroup2 rw\n";
    std::ofstream(dir_ / "v2" / "own" / "cgroup.subtree_control");
    system_ = {.proc_self_cgroup = (dir_ / "cgroup").string(),
               .mountinfo = (dir_ / "mountinfo").string()};
  }

  void Offer(const std::string& controllers) {
    std::ofstream(dir_ / "v2" / "own" / "cgroup.controllers") << controllers << "\n";
  }

  fs::path dir_;
  CgroupSystem system_;
};

TEST_F(FakeV2Test, ControllerNotDelegatedIsAnError) {
  Offer("cpu pids");
  absl::StatusOr<AgentCgroup> cgroup =
      AgentCgroup::Create({.memory_bytes = 64 * kMiB}, kHint, system_);
  ASSERT_FALSE(cgroup.ok());
  EXPECT_TRUE(absl::StrContains(cgroup.status().message(), "cannot limit memory"))
      << cgroup.status();
  EXPECT_TRUE(absl::StrContains(cgroup.status().message(), "cgroup.subtree_control"))
      << cgroup.status();
}

TEST_F(FakeV2Test, EnablesControllersAndFailsWithoutLimitFiles) {
  Offer("memory pids");
  absl::StatusOr<AgentCgroup> cgroup =
      AgentCgroup::Create({.memory_bytes = 64 * kMiB, .pids = 16}, kHint, system_);
  ASSERT_FALSE(cgroup.ok());
  EXPECT_TRUE(absl::StrContains(cgroup.status().message(), "memory.max")) << cgroup.status();
  EXPECT_EQ(ReadFileOrEmpty(dir_ / "v2" / "own" / "cgroup.subtree_control"), "+memory +pids");
  // The half-made cgroup is gone again.
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir_ / "v2" / "own")) {
    if (entry.is_directory()) left.push_back(entry.path().string());
  }
  EXPECT_TRUE(left.empty()) << left[0];
}

// A runner that an earlier Create moved into the leaf gets agents next to it.
TEST_F(FakeV2Test, AgentsGoNextToTheRunnerLeaf) {
  Offer("memory");
  fs::create_directories(dir_ / "v2" / "own" / "mlebench-runner");
  std::ofstream(dir_ / "cgroup") << "0::/own/mlebench-runner\n";
  absl::StatusOr<AgentCgroup> cgroup =
      AgentCgroup::Create({.memory_bytes = 64 * kMiB}, kHint, system_);
  ASSERT_FALSE(cgroup.ok());
  EXPECT_TRUE(absl::StrContains(cgroup.status().message(),
                                ((dir_ / "v2" / "own" / kHint).string() + "-")))
      << cgroup.status();
  EXPECT_EQ(ReadFileOrEmpty(dir_ / "v2" / "own" / "cgroup.subtree_control"), "+memory");
}

TEST(DefaultResourceLimitsTest, ProtectTheHost) {
  const ResourceLimits limits = DefaultResourceLimits();
  EXPECT_GT(limits.memory_bytes, 0);
  EXPECT_EQ(limits.pids, 4096);
  EXPECT_EQ(limits.cpus, 0);
}

}  // namespace
}  // namespace mlebench
