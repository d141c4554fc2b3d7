#include "agent_runner/runner.h"
#include "agent_runner/testing/http_origin.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "agent_runner/cgroup.h"
#include "agent_runner/instructions.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::ReadFileOrEmpty;
using ::testing::HasSubstr;
using ::testing::ElementsAre;
using ::testing::Not;
using ::testing::Optional;

// Runfiles-relative paths (the test runs in the runfiles root).
constexpr char kDummyAgent[] = "agent_runner/agents/dummy_sh";
constexpr char kSilentAgent[] = "agent_runner/agents/silent";
constexpr char kSleeperAgent[] = "agent_runner/agents/sleeper";
constexpr char kSandboxEntry[] = "agent_runner/sandbox_entry";

constexpr char kTrainCsv[] = "id,feature,label\n0,1.5,a\n1,2.5,b\n";
constexpr char kSampleCsv[] = "id,label\n0,a\n1,a\n";
constexpr char kNestedText[] = "nested file\n";
constexpr char kDescription[] = "# Toy competition\nPredict the label.\n";

void WriteFile(const fs::path& path, const std::string& contents) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
}

// Every file under `root` (relative path -> contents), to compare trees.
std::map<std::string, std::string> ReadTree(const fs::path& root) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) {
      files[fs::relative(entry.path(), root).string()] = ReadFileOrEmpty(entry.path());
    }
  }
  return files;
}

// True once `pid` no longer runs (gone, or a zombie nobody has reaped yet).
bool ProcessIsGone(pid_t pid) {
  if (kill(pid, 0) != 0 && errno == ESRCH) return true;
  const std::string stat = ReadFileOrEmpty(absl::StrCat("/proc/", pid, "/stat"));
  const size_t close_paren = stat.rfind(')');
  return close_paren != std::string::npos && close_paren + 2 < stat.size() &&
         (stat[close_paren + 2] == 'Z' || stat[close_paren + 2] == 'X');
}

// Killed processes are reaped by whoever inherits them; give that a moment.
bool ProcessIsGoneSoon(pid_t pid) {
  for (int i = 0; i < 100; ++i) {
    if (ProcessIsGone(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// Live processes (host pids, whatever namespace they are in) that carry the
// agent environment of `workspace`: every process an agent starts inherits
// it, and so do bwrap's own.
std::set<pid_t> ProcessesOfWorkspace(const fs::path& workspace) {
  const std::string marker = absl::StrCat("MLEBENCH_WORKSPACE=", workspace.string());
  std::set<pid_t> pids;
  std::error_code ec;
  for (fs::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
    int pid;
    if (!absl::SimpleAtoi(it->path().filename().string(), &pid)) continue;
    const std::string environ = ReadFileOrEmpty(it->path() / "environ");
    for (absl::string_view var : absl::StrSplit(environ, '\0')) {
      if (var == marker && !ProcessIsGone(pid)) pids.insert(pid);
    }
  }
  return pids;
}

std::map<std::string, std::string> ParseEnv(const std::string& env_output) {
  std::map<std::string, std::string> vars;
  for (absl::string_view line : absl::StrSplit(env_output, '\n', absl::SkipEmpty())) {
    const size_t eq = line.find('=');
    if (eq != absl::string_view::npos) {
      vars[std::string(line.substr(0, eq))] = std::string(line.substr(eq + 1));
    }
  }
  return vars;
}

// "name: value" lines an agent printed -> {name: value}.
std::map<std::string, std::string> ParseReport(const std::string& log) {
  std::map<std::string, std::string> report;
  for (absl::string_view line : absl::StrSplit(log, '\n', absl::SkipEmpty())) {
    const size_t colon = line.find(": ");
    if (colon != absl::string_view::npos) {
      report[std::string(line.substr(0, colon))] = std::string(line.substr(colon + 2));
    }
  }
  return report;
}

// The default limits where this user can create cgroups, which root always
// must (so that a regression there fails); without (an ordinary user with no
// delegated cgroup) the runs go without limits, as
// --//agent_runner:resource_limits=off would.
std::optional<ResourceLimits> LimitsForThisMachine() {
  static const std::optional<ResourceLimits> limits = []() -> std::optional<ResourceLimits> {
    if (geteuid() == 0) return DefaultResourceLimits();
    absl::StatusOr<AgentCgroup> probe = AgentCgroup::Create(DefaultResourceLimits(), "probe");
    if (probe.ok()) return DefaultResourceLimits();
    std::cerr << "note: no cgroup for this user (" << probe.status().message()
              << "); runs go without resource limits\n";
    return std::nullopt;
  }();
  return limits;
}

class RunAgentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* test_tmpdir = std::getenv("TEST_TMPDIR");
    ASSERT_NE(test_tmpdir, nullptr);
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::path(test_tmpdir) / absl::StrJoin(absl::StrSplit(info->name(), '/'), "_");
    fs::remove_all(root_);
    fs::create_directories(root_);
    public_dir_ = root_ / "public";
    WriteFile(public_dir_ / "train.csv", kTrainCsv);
    WriteFile(public_dir_ / "sample_submission.csv", kSampleCsv);
    WriteFile(public_dir_ / "images" / "nested.txt", kNestedText);
    WriteFile(root_ / "description.md", kDescription);
  }

  // Options for `agent` with outputs under root_/<run>/.
  RunOptions Options(const fs::path& agent, const std::string& run = "run") {
    RunOptions options;
    options.competition_id = "toy-competition";
    options.public_dir = public_dir_;
    options.description_file = root_ / "description.md";
    options.agent = agent;
    options.time_limit_s = 2;
    options.grace_s = 0.5;
    options.seed = 7;
    options.submission_out = root_ / run / "submission";
    options.log_out = root_ / run / "agent.log";
    options.isolation = isolation_;
    options.network = isolation_ == Isolation::kBwrap ? Network::kDeny : Network::kUnconfined;
    options.sandbox_entry = fs::absolute(kSandboxEntry);
    // The test's own files, and where the test agents really are.
    options.allowed_roots = {root_, fs::canonical(kDummyAgent).parent_path()};
    options.limits = LimitsForThisMachine();
    return options;
  }

  // Writes an executable script (/bin/sh unless `shell` says otherwise).
  fs::path WriteScript(const std::string& name, const std::string& body,
                       const std::string& shell = "/bin/sh") {
    const fs::path path = root_ / name;
    WriteFile(path, absl::StrCat("#!", shell, "\n", body));
    fs::permissions(path, fs::perms::owner_all);
    return path;
  }

  struct WatchedRun {
    absl::StatusOr<RunRecord> record;
    std::set<pid_t> processes;  // of the workspace, once `ready_file` existed
  };

  // Runs the agent (options.workspace must be set) on another thread; once
  // the agent has created `ready_file` (relative to the workspace), notes
  // the processes of the workspace and calls `on_ready`.
  WatchedRun RunAndWatch(const RunOptions& options, const std::string& ready_file,
                         const std::function<void()>& on_ready = {}) {
    const fs::path workspace = fs::absolute(*options.workspace);
    std::future<absl::StatusOr<RunRecord>> run =
        std::async(std::launch::async, [&options] { return RunAgent(options); });
    WatchedRun watched;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline &&
           run.wait_for(std::chrono::milliseconds(10)) != std::future_status::ready) {
      if (fs::exists(workspace / ready_file)) {
        watched.processes = ProcessesOfWorkspace(workspace);
        if (on_ready) on_ready();
        break;
      }
    }
    watched.record = run.get();
    return watched;
  }

  Isolation isolation_ = Isolation::kNone;
  fs::path root_;
  fs::path public_dir_;
};

// Behaviour that is the same with and without bwrap.
class RunAgentModesTest : public RunAgentTest, public ::testing::WithParamInterface<Isolation> {
 protected:
  void SetUp() override {
    isolation_ = GetParam();
    RunAgentTest::SetUp();
  }
  bool sandboxed() const { return isolation_ == Isolation::kBwrap; }
};

INSTANTIATE_TEST_SUITE_P(Isolation, RunAgentModesTest,
                         ::testing::Values(Isolation::kNone, Isolation::kBwrap),
                         [](const ::testing::TestParamInfo<Isolation>& info) {
                           return std::string(IsolationName(info.param));
                         });

TEST_P(RunAgentModesTest, BuildsWorkspaceAndRunsAgentInItWithMinimalEnvironment) {
  const fs::path agent = WriteScript("inspect.sh",
                                     "pwd > logs/pwd.txt\n"
                                     "env > logs/env.txt\n"
                                     "ls -ld data/train.csv > logs/train_mode.txt\n"
                                     "echo \"args: $*\"\n"
                                     "echo to-stderr >&2\n");
  fs::create_directories(root_ / "inspect.sh.runfiles");
  RunOptions options = Options(agent);
  options.agent_args = {"--alpha", "two words"};
  options.workspace = root_ / "workspace";
  options.keep_workspace = true;
  setenv("MLEBENCH_TEST_LEAK", "must not reach the agent", 1);

  absl::StatusOr<RunRecord> record = RunAgent(options);
  unsetenv("MLEBENCH_TEST_LEAK");
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_THAT(record->exit_code, Optional(0));
  EXPECT_FALSE(record->timed_out);
  EXPECT_EQ(record->isolation, GetParam());
  EXPECT_EQ(record->network, sandboxed() ? Network::kDeny : Network::kUnconfined);

  const fs::path ws = fs::absolute(root_ / "workspace");
  // data/: the public files, recursively, plus the description.
  EXPECT_EQ(ReadTree(ws / "data"),
            (std::map<std::string, std::string>{{"description.md", kDescription},
                                                {"images/nested.txt", kNestedText},
                                                {"sample_submission.csv", kSampleCsv},
                                                {"train.csv", kTrainCsv}}));
  EXPECT_EQ(fs::status(ws / "data" / "train.csv").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  EXPECT_THAT(ReadFileOrEmpty(ws / "logs" / "train_mode.txt"), HasSubstr("-r--r--r--"));
  EXPECT_TRUE(fs::is_directory(ws / "submission"));
  EXPECT_TRUE(fs::is_empty(ws / "submission"));
  EXPECT_TRUE(fs::is_directory(ws / "code"));
  {
    cpu_set_t affinity;
    CPU_ZERO(&affinity);
    ASSERT_EQ(sched_getaffinity(0, sizeof(affinity), &affinity), 0);
    EXPECT_EQ(ReadFileOrEmpty(ws / "instructions.txt"),
              AgentInstructions(2, sandboxed() ? "deny" : "unconfined", {},
                                DescribeResources(0, CPU_COUNT(&affinity),
                                                  options.limits->memory_bytes, 0,
                                                  options.limits->pids)));
  }

  // The same absolute paths inside the sandbox as outside.
  EXPECT_EQ(ReadFileOrEmpty(ws / "logs" / "pwd.txt"), ws.string() + "\n");
  std::map<std::string, std::string> env = ParseEnv(ReadFileOrEmpty(ws / "logs" / "env.txt"));
  env.erase("PWD");  // exported by the shell itself
  const std::string agent_path = fs::absolute(agent).string();
  cpu_set_t affinity;
  CPU_ZERO(&affinity);
  ASSERT_EQ(sched_getaffinity(0, sizeof(affinity), &affinity), 0);
  const std::string cpus = absl::StrCat(CPU_COUNT(&affinity));
  ASSERT_TRUE(options.limits.has_value());
  EXPECT_EQ(env, (std::map<std::string, std::string>{
                     {"CODE_DIR", ws.string() + "/code"},
                     {"COMPETITION_ID", "toy-competition"},
                     {"HOME", ws.string()},
                     {"LANG", "C.UTF-8"},
                     {"LOGS_DIR", ws.string() + "/logs"},
                     {"MLEBENCH_CODE_DIR", ws.string() + "/code"},
                     {"MLEBENCH_COMPETITION_ID", "toy-competition"},
                     {"MLEBENCH_DATA_DIR", ws.string() + "/data"},
                     {"MLEBENCH_LOGS_DIR", ws.string() + "/logs"},
                     {"MLEBENCH_SAMPLE_SUBMISSION", ws.string() + "/data/sample_submission.csv"},
                     {"MLEBENCH_SEED", "7"},
                     {"MLEBENCH_SUBMISSION_DIR", ws.string() + "/submission"},
                     {"MLEBENCH_TIME_LIMIT_S", "2"},
                     {"MLEBENCH_WORKSPACE", ws.string()},
                     {"PATH", "/usr/bin:/bin"},
                     {"RUNFILES_DIR", agent_path + ".runfiles"},
                     {"SUBMISSION_DIR", ws.string() + "/submission"},
                     {"TMPDIR", "/tmp"},
                     {"MLEBENCH_CPUS", cpus},
                     {"MLEBENCH_MEMORY_BYTES", absl::StrCat(options.limits->memory_bytes)},
                     {"MLEBENCH_GPUS", "0"},
                     {"OMP_NUM_THREADS", cpus},
                     {"OPENBLAS_NUM_THREADS", cpus},
                     {"MKL_NUM_THREADS", cpus},
                     {"NUMEXPR_MAX_THREADS", cpus},
                     {"VECLIB_MAXIMUM_THREADS", cpus},
                     {"CUDA_VISIBLE_DEVICES", ""},
                     {"NVIDIA_VISIBLE_DEVICES", "void"},
                 }));
  const std::string log = ReadFileOrEmpty(options.log_out);
  EXPECT_THAT(log, HasSubstr("args: --alpha two words\n"));
  EXPECT_THAT(log, HasSubstr("to-stderr\n"));
}

TEST_P(RunAgentModesTest, DescriptionFlagReplacesOneInPublicDir) {
  WriteFile(public_dir_ / "description.md", "stale description\n");
  const fs::path agent = WriteScript("copy.sh", "cp data/description.md logs/\n");
  RunOptions options = Options(agent);
  options.workspace = root_ / "workspace";
  options.keep_workspace = true;
  ASSERT_TRUE(RunAgent(options).ok());
  EXPECT_EQ(ReadFileOrEmpty(root_ / "workspace" / "logs" / "description.md"), kDescription);
  EXPECT_EQ(ReadFileOrEmpty(public_dir_ / "description.md"), "stale description\n");
}

TEST_P(RunAgentModesTest, DeletesWorkspaceUnlessKept) {
  const fs::path agent = WriteScript("where.sh", "echo \"pwd: $(pwd)\"\nchmod 500 code data\n");
  RunOptions options = Options(agent);
  options.workspace = root_ / "workspace";
  ASSERT_TRUE(RunAgent(options).ok());
  EXPECT_FALSE(fs::exists(root_ / "workspace"));

  // Default: a fresh directory under $TMPDIR, deleted afterwards.
  const fs::path tmpdir = root_ / "tmp";
  fs::create_directories(tmpdir);
  const char* old_tmpdir = std::getenv("TMPDIR");
  const std::string saved = old_tmpdir ? old_tmpdir : "";
  setenv("TMPDIR", tmpdir.c_str(), 1);
  options = Options(agent, "run2");
  absl::StatusOr<RunRecord> record = RunAgent(options);
  if (old_tmpdir)
    setenv("TMPDIR", saved.c_str(), 1);
  else
    unsetenv("TMPDIR");
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_THAT(ParseReport(ReadFileOrEmpty(options.log_out))["pwd"],
              HasSubstr(tmpdir.string() + "/mlebench-agent-"));
  EXPECT_TRUE(fs::is_empty(tmpdir));
}

TEST_P(RunAgentModesTest, DummyAgentSubmitsSampleSubmission) {
  // A relative agent path, resolved before the runner changes directory.
  absl::StatusOr<RunRecord> record = RunAgent(Options(kDummyAgent));
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_THAT(record->exit_code, Optional(0));
  EXPECT_EQ(record->signal, std::nullopt);
  EXPECT_FALSE(record->timed_out);
  EXPECT_TRUE(record->submission_exists);
  EXPECT_EQ(record->submission_bytes, static_cast<int64_t>(std::string(kSampleCsv).size()));
  EXPECT_EQ(record->agent, "dummy_sh");
  EXPECT_EQ(record->isolation, GetParam());
  EXPECT_EQ(ReadFileOrEmpty(root_ / "run" / "submission" / "submission.csv"), kSampleCsv);
  EXPECT_THAT(ReadFileOrEmpty(root_ / "run" / "agent.log"), HasSubstr("dummy: copied"));
}

// A remote action's input root has no external/ when no input comes from an
// external repository: an allowed root that does not exist is no error.
TEST_P(RunAgentModesTest, AllowedRootThatDoesNotExistIsSkipped) {
  RunOptions options = Options(kDummyAgent);
  options.allowed_roots.push_back(root_ / "no-such-dir" / "external");
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_THAT(record->exit_code, Optional(0));
  EXPECT_TRUE(record->submission_exists);
}

TEST_P(RunAgentModesTest, DummyAgentWithoutSampleSubmissionFailsAsAResult) {
  fs::remove(public_dir_ / "sample_submission.csv");
  absl::StatusOr<RunRecord> record = RunAgent(Options(kDummyAgent));
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_THAT(record->exit_code, Optional(1));
  EXPECT_FALSE(record->submission_exists);
  EXPECT_TRUE(fs::is_empty(root_ / "run" / "submission"));
  EXPECT_THAT(ReadFileOrEmpty(root_ / "run" / "agent.log"),
              HasSubstr("dummy: no sample submission"));
}

TEST_P(RunAgentModesTest, KeepsCodeAndLogsForAuditsButNothingElse) {
  // Regular files are kept, nested; a symlink (to the host's files), a FIFO,
  // an odd name, a file over the byte cap and one over the file cap are not.
  const fs::path agent = WriteScript("leaver.sh", R"(
mkdir -p code/pkg logs
echo 'print(1)' > code/main.py
echo 'x = 2' > code/pkg/util.py
echo 'step 1' > logs/run.log
ln -s /etc/passwd code/passwd
mkfifo code/pipe
echo hidden > 'code/odd name'
head -c 5000 /dev/zero > logs/big.bin
echo late > logs/z_last.txt
cp data/sample_submission.csv submission/submission.csv
)");
  RunOptions options = Options(agent);
  options.artifacts_out = root_ / "artifacts";
  options.keep_limits = {.max_bytes = 1000, .max_files = 3, .max_depth = 4};
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  const fs::path kept = root_ / "artifacts";
  EXPECT_EQ(ReadFileOrEmpty(kept / "code" / "main.py"), "print(1)\n");
  EXPECT_EQ(ReadFileOrEmpty(kept / "code" / "pkg" / "util.py"), "x = 2\n");
  EXPECT_EQ(ReadFileOrEmpty(kept / "logs" / "run.log"), "step 1\n");
  EXPECT_FALSE(fs::exists(fs::symlink_status(kept / "code" / "passwd")));
  EXPECT_FALSE(fs::exists(fs::symlink_status(kept / "code" / "pipe")));
  EXPECT_FALSE(fs::exists(kept / "code" / "odd name"));
  EXPECT_FALSE(fs::exists(kept / "logs" / "big.bin"));
  EXPECT_FALSE(fs::exists(kept / "logs" / "z_last.txt"));  // the fourth file
  EXPECT_EQ(record->kept_files, 3);
  EXPECT_EQ(record->kept_bytes, 9 + 6 + 7);
  EXPECT_EQ(record->kept_skipped, 5);
  const std::string manifest = ReadFileOrEmpty(kept / "KEPT.txt");
  EXPECT_THAT(manifest, HasSubstr("kept 3 file(s), 22 bytes; left out 5\n"));
  EXPECT_THAT(manifest, HasSubstr("code/passwd: a symlink (not followed)"));
  EXPECT_THAT(manifest, HasSubstr("code/pipe: not a regular file"));
  EXPECT_THAT(manifest, HasSubstr("code/odd name: a name outside"));
  EXPECT_THAT(manifest, HasSubstr("logs/big.bin: 5000 bytes: over the cap of 1000 bytes"));
  EXPECT_THAT(manifest, HasSubstr("logs/z_last.txt: over the cap of 3 files"));
  EXPECT_TRUE(record->submission_exists);
}

TEST_P(RunAgentModesTest, KeepsNothingThroughACodeDirThatIsASymlink) {
  const fs::path agent = WriteScript("linker.sh", R"(
rmdir code && ln -s /etc code
cp data/sample_submission.csv submission/submission.csv
)");
  RunOptions options = Options(agent);
  options.artifacts_out = root_ / "artifacts";
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->kept_files, 0);
  EXPECT_TRUE(fs::is_empty(root_ / "artifacts" / "code"));
  EXPECT_THAT(ReadFileOrEmpty(root_ / "artifacts" / "KEPT.txt"),
              HasSubstr("code: is not a directory beneath the workspace"));
}

TEST_P(RunAgentModesTest, SilentAgentLeavesSubmissionDirEmpty) {
  absl::StatusOr<RunRecord> record = RunAgent(Options(kSilentAgent));
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_THAT(record->exit_code, Optional(0));
  EXPECT_FALSE(record->timed_out);
  EXPECT_FALSE(record->submission_exists);
  EXPECT_EQ(record->submission_bytes, 0);
  EXPECT_TRUE(fs::is_directory(root_ / "run" / "submission"));
  EXPECT_TRUE(fs::is_empty(root_ / "run" / "submission"));
  EXPECT_THAT(ReadFileOrEmpty(root_ / "run" / "agent.log"),
              HasSubstr("run_agent: no submission: submission/submission.csv does not exist"));
}

TEST_P(RunAgentModesTest, TimeoutKillsAgentThatIgnoresSigtermAndKeepsSubmission) {
  RunOptions options = Options(kSleeperAgent);
  options.time_limit_s = 1;
  options.grace_s = 0.3;
  options.workspace = root_ / "workspace";
  // The sleeper writes its pids (of its own namespace) once its child runs.
  options.agent_args = {(fs::absolute(root_ / "workspace") / "logs" / "pids").string()};
  WatchedRun run = RunAndWatch(options, "logs/pids");
  ASSERT_TRUE(run.record.ok()) << run.record.status();
  EXPECT_TRUE(run.record->timed_out);
  EXPECT_EQ(run.record->exit_code, std::nullopt);
  EXPECT_THAT(run.record->signal, Optional(SIGKILL));
  EXPECT_GE(run.record->duration_s, 1.3);
  EXPECT_LT(run.record->duration_s, 5.0);
  EXPECT_TRUE(run.record->submission_exists);
  EXPECT_EQ(ReadFileOrEmpty(root_ / "run" / "submission" / "submission.csv"),
            "id,prediction\n0,1\n");

  // The sleeper and its child; under bwrap also bwrap and the sandbox's init.
  EXPECT_GE(run.processes.size(), sandboxed() ? 4u : 2u);
  for (pid_t pid : run.processes) EXPECT_TRUE(ProcessIsGoneSoon(pid)) << "pid " << pid;
}

TEST_P(RunAgentModesTest, AgentThatHonoursSigtermStopsAtDeadline) {
  const fs::path agent = WriteScript("polite.sh",
                                     "trap 'echo got TERM; exit 3' TERM\n"
                                     "while :; do sleep 0.05; done\n");
  RunOptions options = Options(agent);
  options.time_limit_s = 1;
  options.grace_s = 5;  // not waited for: the agent exits on SIGTERM
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_TRUE(record->timed_out);
  EXPECT_THAT(record->exit_code, Optional(3));
  EXPECT_EQ(record->signal, std::nullopt);
  EXPECT_GE(record->duration_s, 1.0);
  EXPECT_LT(record->duration_s, 3.0);
  EXPECT_THAT(ReadFileOrEmpty(options.log_out), HasSubstr("got TERM"));
}

TEST_P(RunAgentModesTest, KillsLeftoverProcessesWhenAgentExits) {
  const fs::path agent = WriteScript("daemon.sh",
                                     "sleep 1000 &\n"
                                     ": > logs/ready\n"
                                     "while [ ! -e logs/go ]; do sleep 0.02; done\n"
                                     "exit 0\n");
  RunOptions options = Options(agent);
  options.workspace = root_ / "workspace";
  WatchedRun run = RunAndWatch(options, "logs/ready", [&] {
    WriteFile(fs::absolute(root_ / "workspace") / "logs" / "go", "");
  });
  ASSERT_TRUE(run.record.ok()) << run.record.status();
  EXPECT_FALSE(run.record->timed_out);
  EXPECT_THAT(run.record->exit_code, Optional(0));
  EXPECT_LT(run.record->duration_s, 1.5);
  EXPECT_GE(run.processes.size(), sandboxed() ? 4u : 2u);
  for (pid_t pid : run.processes) EXPECT_TRUE(ProcessIsGoneSoon(pid)) << "pid " << pid;
}

TEST_P(RunAgentModesTest, AgentCannotModifyPublicInputs) {
  const std::map<std::string, std::string> before = ReadTree(public_dir_);
  const fs::path agent = WriteScript("vandal.sh",
                                     "chmod -R u+w data\n"
                                     "echo vandalised >> data/train.csv\n"
                                     "echo vandalised > data/images/nested.txt\n"
                                     "rm -f data/sample_submission.csv\n"
                                     "touch data/new_file.csv\n");
  absl::StatusOr<RunRecord> record = RunAgent(Options(agent));
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(ReadTree(public_dir_), before);
  EXPECT_FALSE(fs::exists(public_dir_ / "new_file.csv"));
}

TEST_P(RunAgentModesTest, LinkedPublicDirIsReadThroughLinksWithOurDescription) {
  const fs::path agent = WriteScript("reader.sh",
                                     "cat data/images/nested.txt\n"
                                     "cat data/description.md\n"
                                     "cp data/sample_submission.csv submission/submission.csv\n");
  RunOptions options = Options(agent);
  options.link_public = true;
  options.workspace = root_ / "workspace";
  options.keep_workspace = true;
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_THAT(record->exit_code, Optional(0));
  EXPECT_EQ(ReadFileOrEmpty(root_ / "run" / "submission" / "submission.csv"), kSampleCsv);
  const std::string log = ReadFileOrEmpty(options.log_out);
  EXPECT_THAT(log, HasSubstr(kNestedText));
  EXPECT_THAT(log, HasSubstr(kDescription));
  // Links, not copies: nothing of the dataset is duplicated.
  EXPECT_TRUE(fs::is_symlink(root_ / "workspace" / "data" / "train.csv"));
  EXPECT_FALSE(fs::is_symlink(root_ / "workspace" / "data" / "description.md"));
}

TEST_F(RunAgentTest, LinkedPublicDirIsReadOnlyInsideTheSandbox) {
  isolation_ = Isolation::kBwrap;
  const std::map<std::string, std::string> before = ReadTree(public_dir_);
  const fs::path agent = WriteScript("vandal.sh",
                                     "echo vandalised >> data/train.csv\n"
                                     "echo vandalised > data/images/nested.txt\n"
                                     "rm -f data/images/nested.txt\n"
                                     "touch data/images/new_file.csv\n");
  RunOptions options = Options(agent);
  options.link_public = true;
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(ReadTree(public_dir_), before);
  EXPECT_FALSE(fs::exists(public_dir_ / "images" / "new_file.csv"));
}

TEST_P(RunAgentModesTest, SubmissionSymlinkInsideWorkspaceIsFollowed) {
  const fs::path agent =
      WriteScript("link.sh", "ln -s ../data/sample_submission.csv submission/submission.csv\n");
  absl::StatusOr<RunRecord> record = RunAgent(Options(agent));
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_TRUE(record->submission_exists);
  const fs::path copied = root_ / "run" / "submission" / "submission.csv";
  EXPECT_FALSE(fs::is_symlink(copied));
  EXPECT_EQ(ReadFileOrEmpty(copied), kSampleCsv);
}

TEST_P(RunAgentModesTest, SubmissionThatIsNotAFileInTheWorkspaceIsIgnored) {
  WriteFile(root_ / "outside.csv", "id,label\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"ln -s " + (root_ / "outside.csv").string() + " submission/submission.csv",
       "a symlink to outside the workspace"},
      {"ln -s missing.csv submission/submission.csv", "a dangling symlink"},
      {"mkdir submission/submission.csv", "not a regular file"},
      {"mkfifo submission/submission.csv", "not a regular file"},
  };
  int run = 0;
  for (const auto& [command, reason] : cases) {
    SCOPED_TRACE(command);
    const fs::path agent = WriteScript(absl::StrCat("bad", run, ".sh"), command + "\n");
    RunOptions options = Options(agent, absl::StrCat("run", run++));
    absl::StatusOr<RunRecord> record = RunAgent(options);
    ASSERT_TRUE(record.ok()) << record.status();
    EXPECT_FALSE(record->submission_exists);
    EXPECT_TRUE(fs::is_empty(options.submission_out));
    EXPECT_THAT(ReadFileOrEmpty(options.log_out), HasSubstr(reason));
  }
}

TEST_P(RunAgentModesTest, AgentThatCannotBeExecutedIsAResult) {
  // Executable but not a program: execve fails with ENOEXEC, in the runner
  // or in the sandbox entry.
  const fs::path agent = root_ / "not_a_program";
  WriteFile(agent, "just text\n");
  fs::permissions(agent, fs::perms::owner_all);
  absl::StatusOr<RunRecord> record = RunAgent(Options(agent));
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_THAT(record->exit_code, Optional(127));
  EXPECT_FALSE(record->submission_exists);
  EXPECT_THAT(ReadFileOrEmpty(root_ / "run" / "agent.log"),
              sandboxed()
                  ? HasSubstr("sandbox_entry: cannot execute")
                  : HasSubstr(absl::StrCat("cannot execute the agent (errno ", ENOEXEC, ")")));
}

// The record without what is measured (durations, CPU time, peak memory),
// which differs from run to run.
std::string WithoutDuration(const std::string& json) {
  static const std::regex kDuration(R"("duration_s": [0-9]+\.[0-9]{3},)");
  static const std::regex kMeasured(
      R"re("(admission_wait_s|cpu_seconds|memory_peak_bytes)": -?[0-9.]+)re");
  EXPECT_TRUE(std::regex_search(json, kDuration)) << json;
  return std::regex_replace(std::regex_replace(json, kDuration, "\"duration_s\": D,"), kMeasured,
                            "\"$1\": M");
}

TEST_P(RunAgentModesTest, RecordJsonIsDeterministicApartFromDuration) {
  absl::StatusOr<RunRecord> first = RunAgent(Options(kDummyAgent, "first"));
  absl::StatusOr<RunRecord> second = RunAgent(Options(kDummyAgent, "second"));
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(second.ok()) << second.status();
  const std::string json = RunRecordToJson(*first);
  EXPECT_EQ(WithoutDuration(json), WithoutDuration(RunRecordToJson(*second)));
  EXPECT_EQ(WithoutDuration(json),
            absl::StrCat("{\"competition_id\": \"toy-competition\", \"agent\": \"dummy_sh\", "
                         "\"seed\": 7, \"exit_code\": 0, \"signal\": null, \"timed_out\": false, "
                         "\"duration_s\": D, \"time_limit_s\": 2, \"submission_exists\": true, "
                         "\"submission_bytes\": ",
                         std::string(kSampleCsv).size(), ", \"isolation\": \"",
                         IsolationName(GetParam()), "\", \"network\": \"",
                         sandboxed() ? "deny" : "unconfined",
                         "\", \"quota_exceeded\": false, \"out_of_memory\": false, "
                         "\"log_truncated\": false, \"agent_label\": \"\", \"agent_digest\": \"\", "
                         "\"environment_digest\": \"\", \"cpus\": ", first->cpus,
                         ", \"cpu_ids\": \"\", \"memory_limit_bytes\": ",
                         first->memory_limit_bytes, ", \"processes_limit\": ",
                         first->processes_limit,
                         ", \"gpu_ids\": \"\", \"admission_wait_s\": M, \"cpu_seconds\": M, "
                         "\"memory_peak_bytes\": M, \"processes_limit_hits\": ",
                         first->processes_limit_hits,
                         ", \"ended_by\": \"agent\", \"kept_files\": 0, \"kept_bytes\": 0, "
                         "\"kept_skipped\": 0, \"allowed_hosts\": [], \"egress_gateway\": \"\", "
                         "\"connections_total\": 0, \"connections_refused\": 0, \"connections_failed\": 0, "
                         "\"connections_refused_upstream\": 0, \"connections_truncated\": false, "
                         "\"connections\": [], \"secrets\": []}\n"));
}

// ---------------------------------------------------------------------------
// Runner errors and input handling (the same whatever the isolation).

TEST_F(RunAgentTest, RunnerErrors) {
  const fs::path agent = WriteScript("ok.sh", "exit 0\n");
  auto expect_error = [&](RunOptions options, const std::string& message) {
    SCOPED_TRACE(message);
    absl::StatusOr<RunRecord> record = RunAgent(options);
    ASSERT_FALSE(record.ok());
    EXPECT_THAT(std::string(record.status().message()), HasSubstr(message));
  };
  RunOptions options = Options(agent);
  options.public_dir = root_ / "absent";
  expect_error(options, "cannot read public dir");

  options = Options(agent);
  options.description_file = root_ / "absent.md";
  expect_error(options, "cannot read description file");

  options = Options(root_ / "absent_agent");
  expect_error(options, "cannot find agent");

  WriteFile(root_ / "not_executable.sh", "#!/bin/sh\n");
  fs::permissions(root_ / "not_executable.sh", fs::perms::owner_read | fs::perms::owner_write);
  if (access((root_ / "not_executable.sh").c_str(), X_OK) != 0) {  // root may execute anything
    expect_error(Options(root_ / "not_executable.sh"), "is not an executable file");
  }
  expect_error(Options(root_), "is not an executable file");

  options = Options(agent);
  options.time_limit_s = 0;
  expect_error(options, "time limit must be between 1 and");

  options = Options(agent);
  options.grace_s = -1;
  expect_error(options, "grace period must be between 0 and");

  options = Options(agent);
  options.competition_id = "";
  expect_error(options, "competition id is empty");

  for (const char* bad : {"", "/etc/passwd", "../private/test.csv", "a/../../b.csv"}) {
    options = Options(agent);
    options.sample_submission = bad;
    expect_error(options, "sample submission must be a relative path inside the public files");
  }

  options = Options(agent);
  WriteFile(root_ / "busy" / "leftover.txt", "x");
  options.workspace = root_ / "busy";
  expect_error(options, "must be absent or an empty directory");

  options = Options(agent);
  WriteFile(options.submission_out / "submission.csv", "stale");
  expect_error(options, "must be absent or an empty directory");
}

TEST_F(RunAgentTest, PublicDirWithSpecialFilesIsAnError) {
  const fs::path agent = WriteScript("ok.sh", "exit 0\n");
  ASSERT_EQ(mkfifo((public_dir_ / "pipe").c_str(), 0644), 0);
  absl::StatusOr<RunRecord> record = RunAgent(Options(agent, "fifo"));
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(std::string(record.status().message()),
              HasSubstr("is neither a regular file nor a directory"));
  fs::remove(public_dir_ / "pipe");

  fs::create_symlink(root_ / "nowhere", public_dir_ / "dangling");
  record = RunAgent(Options(agent, "dangling"));
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(std::string(record.status().message()), HasSubstr("cannot read public file"));
  fs::remove(public_dir_ / "dangling");

  fs::create_directory_symlink("..", public_dir_ / "images" / "loop");
  record = RunAgent(Options(agent, "loop"));
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(std::string(record.status().message()), HasSubstr("symlink cycle"));
}

TEST_F(RunAgentTest, PublicSymlinksAreCopiedAsFiles) {
  // Bazel presents inputs as symlinks; the workspace gets real copies.
  WriteFile(root_ / "elsewhere" / "extra.csv", "a,b\n");
  fs::create_symlink(root_ / "elsewhere" / "extra.csv", public_dir_ / "extra.csv");
  fs::create_directory_symlink(root_ / "elsewhere", public_dir_ / "linked_dir");
  const fs::path agent = WriteScript("ok.sh", "exit 0\n");
  RunOptions options = Options(agent);
  options.workspace = root_ / "workspace";
  options.keep_workspace = true;
  ASSERT_TRUE(RunAgent(options).ok());
  const fs::path data = root_ / "workspace" / "data";
  EXPECT_FALSE(fs::is_symlink(data / "extra.csv"));
  EXPECT_FALSE(fs::is_symlink(data / "linked_dir"));
  EXPECT_EQ(ReadFileOrEmpty(data / "extra.csv"), "a,b\n");
  EXPECT_EQ(ReadFileOrEmpty(data / "linked_dir" / "extra.csv"), "a,b\n");
}

// ---------------------------------------------------------------------------
// Isolation

// An agent that reports what it can see: "name: value" lines in its log.
constexpr char kLookAroundAgent[] = R"sh(secret="$1"
if cat "$secret" > /dev/null 2>&1; then echo "secret: readable"; else echo "secret: hidden"; fi
if ls "$(dirname "$secret")" > /dev/null 2>&1; then echo "secret dir: listable"; else echo "secret dir: hidden"; fi
echo "root: $(ls -A /root 2>/dev/null | tr '\n' ' ')"
echo "home: $(ls -A /home 2>/dev/null | tr '\n' ' ')"
echo "tmp: $(ls -A /tmp 2>/dev/null | tr '\n' ' ')"
if [ "$2" != no-find ]; then
  echo "found: $(find / -path /proc -prune -o -path /sys -prune -o -path /usr -prune -o -name answers.csv -print 2>/dev/null | tr '\n' ' ')"
fi
if cp data/sample_submission.csv submission/submission.csv; then echo "submission: written"; fi
if [ -w /usr ]; then echo "usr: writable"; else echo "usr: read-only"; fi
if probe=$(mktemp /tmp/probe.XXXXXX) && rm -f "$probe"; then echo "tmp write: ok"; fi
if cat /etc/shadow > /dev/null 2>&1; then echo "shadow: readable"; else echo "shadow: hidden"; fi
echo "caps: $(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)"
echo "pid: $$"
)sh";

// The names in `dir` that lead to one of `paths`: all that bwrap creates
// there to mount them.
std::string MountSkeleton(const fs::path& dir, const std::vector<fs::path>& paths) {
  std::set<std::string> names;
  for (const fs::path& path : paths) {
    const fs::path relative = path.lexically_relative(dir);
    if (!relative.empty() && *relative.begin() != "..") names.insert(relative.begin()->string());
  }
  std::string listing;
  for (const std::string& name : names) absl::StrAppend(&listing, name, " ");
  return listing;
}

TEST_F(RunAgentTest, SandboxShowsOnlySystemWorkspaceAndAgent) {
  isolation_ = Isolation::kBwrap;
  const fs::path secret = fs::path(std::getenv("TEST_TMPDIR")) / "secret" / "answers.csv";
  WriteFile(secret, "id,answer\n0,42\n");
  const fs::path agent = WriteScript("look.sh", kLookAroundAgent);
  RunOptions options = Options(agent);
  options.agent_args = {secret.string()};
  options.workspace = root_ / "workspace";
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->isolation, Isolation::kBwrap);
  EXPECT_THAT(record->exit_code, Optional(0));
  EXPECT_TRUE(record->submission_exists);  // data/ readable, submission/ writable
  EXPECT_EQ(ReadFileOrEmpty(root_ / "run" / "submission" / "submission.csv"), kSampleCsv);

  const std::string log = ReadFileOrEmpty(options.log_out);
  std::map<std::string, std::string> seen = ParseReport(log);
  const std::vector<fs::path> mounted = {fs::absolute(root_ / "workspace"), fs::absolute(agent)};
  EXPECT_EQ(seen["secret"], "hidden") << log;
  EXPECT_EQ(seen["secret dir"], "hidden") << log;
  EXPECT_EQ(seen["found"], "") << log;
  // Only the directories leading to the workspace and the agent, if any.
  EXPECT_EQ(seen["root"], MountSkeleton("/root", mounted)) << log;
  EXPECT_EQ(seen["home"], MountSkeleton("/home", mounted)) << log;
  EXPECT_EQ(seen["tmp"], MountSkeleton("/tmp", mounted)) << log;
  EXPECT_EQ(seen["submission"], "written") << log;
  EXPECT_EQ(seen["usr"], "read-only") << log;
  EXPECT_EQ(seen["tmp write"], "ok") << log;
  EXPECT_EQ(seen["shadow"], "hidden") << log;
  EXPECT_EQ(seen["caps"], "0000000000000000") << log;
  EXPECT_EQ(seen["pid"], "2") << log;  // pid 1 is the sandbox's init
}

TEST_F(RunAgentTest, BwrapThatCannotStartIsAnError) {
  // Fails closed: no run without the isolation that was asked for.
  const fs::path fake_bwrap =
      WriteScript("fake_bwrap", "echo 'fake bwrap: no namespaces here' >&2\nexit 1\n");
  isolation_ = Isolation::kBwrap;
  RunOptions options = Options(kDummyAgent, "bwrap");
  options.bwrap = fake_bwrap;
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(std::string(record.status().message()), HasSubstr("isolation bwrap is unavailable"));
  EXPECT_THAT(std::string(record.status().message()),
              HasSubstr("exited with status 1: fake bwrap: no namespaces here"));
  EXPECT_TRUE(fs::is_empty(options.submission_out));

  options = Options(kDummyAgent, "bwrap_missing");
  options.bwrap = root_ / "nonexistent";
  record = RunAgent(options);
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(std::string(record.status().message()), HasSubstr("cannot execute"));

  // A sandbox entry that cannot start fails the probe the same way.
  options = Options(kDummyAgent, "entry_missing");
  options.sandbox_entry = root_ / "nonexistent_entry";
  record = RunAgent(options);
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(std::string(record.status().message()), HasSubstr("sandbox entry"));

  options = Options(kDummyAgent, "entry_fails");
  options.sandbox_entry = WriteScript("failing_entry", "echo 'entry: refused' >&2\nexit 125\n");
  record = RunAgent(options);
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(std::string(record.status().message()), HasSubstr("entry: refused"));

  options = Options(kDummyAgent, "deny_none");
  options.isolation = Isolation::kNone;
  options.network = Network::kDeny;
  record = RunAgent(options);
  ASSERT_FALSE(record.ok());
  EXPECT_EQ(record.status().code(), absl::StatusCode::kInvalidArgument);

  EXPECT_EQ(ParseIsolation("auto"), std::nullopt);
}

// A TCP listener on 127.0.0.1 (of the test's network namespace).
class LoopbackListener {
 public:
  LoopbackListener() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof(address);
    if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
        listen(fd_, 16) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
      ADD_FAILURE() << "cannot listen on loopback: " << std::strerror(errno);
      return;
    }
    port_ = ntohs(address.sin_port);
  }
  ~LoopbackListener() {
    if (fd_ >= 0) close(fd_);
  }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

TEST_F(RunAgentTest, NetworkDenyCutsTheAgentOffEvenFromLoopback) {
  LoopbackListener listener;
  ASSERT_GT(listener.port(), 0);
  const fs::path agent =
      WriteScript("connect.sh",
                  "if (exec 3<>\"/dev/tcp/127.0.0.1/$1\") 2>/dev/null; then echo 'connect: ok'; "
                  "else echo 'connect: failed'; fi\n",
                  "/bin/bash");
  struct Case {
    Isolation isolation;
    Network network;
    std::string expected;
  };
  // With the host's network (shared, or no isolation) the host's loopback
  // listener answers; in an empty network namespace nothing listens.
  for (const Case& c : {Case{Isolation::kBwrap, Network::kUnconfined, "ok"},
                        Case{Isolation::kBwrap, Network::kDeny, "failed"},
                        Case{Isolation::kBwrap, Network::kAllowlist, "failed"},
                        Case{Isolation::kNone, Network::kUnconfined, "ok"}}) {
    const std::string name = absl::StrCat(IsolationName(c.isolation), "_", NetworkName(c.network));
    SCOPED_TRACE(name);
    RunOptions options = Options(agent, name);
    options.isolation = c.isolation;
    options.network = c.network;
    options.agent_args = {absl::StrCat(listener.port())};
    absl::StatusOr<RunRecord> record = RunAgent(options);
    ASSERT_TRUE(record.ok()) << record.status();
    EXPECT_EQ(record->isolation, c.isolation);
    EXPECT_EQ(record->network, c.network);
    const std::string log = ReadFileOrEmpty(options.log_out);
    EXPECT_EQ(ParseReport(log)["connect"], c.expected) << log;
  }
}

// A shell function for agents that talk to the sandbox's proxy by hand:
// `probe NAME REQUEST` sends REQUEST to 127.0.0.1:3128 and prints
// "NAME: <the status line>", or "NAME: no proxy".
constexpr char kProxyProbe[] =
      "probe() {\n"
      "  if exec 3<>/dev/tcp/127.0.0.1/3128; then\n"
      "    printf \"$2\" >&3; IFS= read -r line <&3; exec 3>&-\n"
      "    echo \"$1: ${line%$'\\r'}\"\n"
      "  else echo \"$1: no proxy\"; fi\n"
      "}\n";

// An agent with network allowlist reaches the named loopback endpoint
// through the proxy, and nothing else: not the endpoint directly, not the
// host's other ports or addresses, private or link-local ranges, or unnamed
// hosts; the record lists both kinds of request.
TEST_F(RunAgentTest, NetworkAllowlistReachesOnlyTheNamedHosts) {
  isolation_ = Isolation::kBwrap;
  testing::HttpOrigin allowed("the allowed endpoint");
  testing::HttpOrigin other("another port");
  const fs::path agent = WriteScript(
      "probe.sh",
      absl::StrCat(kProxyProbe,
      "probe get \"GET http://127.0.0.1:$1/ HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n\"\n"
      "probe connect \"CONNECT 127.0.0.1:$1 HTTP/1.1\\r\\n\\r\\n\"\n"
      "probe other_port \"CONNECT 127.0.0.1:$2 HTTP/1.1\\r\\n\\r\\n\"\n"
      "probe localhost \"CONNECT localhost:$1 HTTP/1.1\\r\\n\\r\\n\"\n"
      "probe private \"CONNECT 10.1.2.3:443 HTTP/1.1\\r\\n\\r\\n\"\n"
      "probe link_local \"CONNECT 169.254.169.254:80 HTTP/1.1\\r\\n\\r\\n\"\n"
      "probe unnamed \"CONNECT example.com:443 HTTP/1.1\\r\\n\\r\\n\"\n"
      "if (exec 3<>\"/dev/tcp/127.0.0.1/$1\") 2>/dev/null; then echo 'direct: ok'; "
      "else echo 'direct: failed'; fi\n"
      "echo \"https_proxy: $HTTPS_PROXY\"\n"
      "echo \"allowed_hosts: $MLEBENCH_ALLOWED_HOSTS\"\n"),
      "/bin/bash");
  RunOptions options = Options(agent, "allowlist");
  options.network = Network::kAllowlist;
  ASSERT_TRUE(ParseAllowedHost(absl::StrCat("127.0.0.1:", allowed.port())).ok());
  options.allowed_hosts = {*ParseAllowedHost(absl::StrCat("127.0.0.1:", allowed.port()))};
  options.agent_args = {absl::StrCat(allowed.port()), absl::StrCat(other.port())};
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  const std::string log = ReadFileOrEmpty(options.log_out);
  std::map<std::string, std::string> seen = ParseReport(log);
  EXPECT_EQ(seen["get"], "HTTP/1.1 200 OK") << log;
  EXPECT_EQ(seen["connect"], "HTTP/1.1 200 Connection established") << log;
  for (const char* refused : {"other_port", "localhost", "private", "link_local", "unnamed"}) {
    EXPECT_EQ(seen[refused], "HTTP/1.1 403 Forbidden") << refused << "\n" << log;
  }
  EXPECT_EQ(seen["direct"], "failed") << log;
  EXPECT_EQ(seen["https_proxy"], "http://127.0.0.1:3128");
  EXPECT_EQ(seen["allowed_hosts"], absl::StrCat("127.0.0.1:", allowed.port()));
  EXPECT_EQ(allowed.requests(), 2);  // the GET and the CONNECT's tunnel
  EXPECT_EQ(other.requests(), 0);

  EXPECT_EQ(record->network, Network::kAllowlist);
  ASSERT_EQ(record->allowed_hosts.size(), 1u);
  EXPECT_EQ(record->connections.total, 7);
  EXPECT_EQ(record->connections.refused, 5);
  ASSERT_EQ(record->connections.connections.size(), 7u);
  EXPECT_TRUE(record->connections.connections[0].allowed);
  EXPECT_GT(record->connections.connections[0].bytes_received, 0);
  EXPECT_EQ(record->connections.connections[4].host, "10.1.2.3");
  EXPECT_FALSE(record->connections.connections[4].allowed);
  const std::string json = RunRecordToJson(*record);
  EXPECT_THAT(json, HasSubstr("\"network\": \"allowlist\""));
  EXPECT_THAT(json, HasSubstr("\"connections_total\": 7, \"connections_refused\": 5"));
  EXPECT_THAT(json, HasSubstr("{\"method\": \"CONNECT\", \"host\": \"example.com\", \"port\": 443, "
                              "\"allowed\": false, \"status\": 403"));
  EXPECT_THAT(log, HasSubstr("run_agent: the egress proxy refused 5 of 7 request(s)"));
}

// On a remote worker the run's proxy reaches the hosts only through the
// machine's egress gateway (EgressProxyOptions::parent_socket), whose own
// allow-list applies too; a missing gateway is an error of the run, never a
// direct connection.
TEST_F(RunAgentTest, NetworkAllowlistThroughAnEgressGateway) {
  isolation_ = Isolation::kBwrap;
  testing::HttpOrigin allowed("the allowed endpoint");
  testing::HttpOrigin run_only("allowed by the run only");
  absl::StatusOr<EgressProxy> gateway = EgressProxy::Start({{"127.0.0.1", allowed.port()}});
  ASSERT_TRUE(gateway.ok()) << gateway.status();
  const fs::path agent = WriteScript(
      "probe.sh",
      absl::StrCat(kProxyProbe,
      "probe get \"GET http://127.0.0.1:$1/ HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n\"\n"
      "probe connect \"CONNECT 127.0.0.1:$1 HTTP/1.1\\r\\n\\r\\n\"\n"
      "probe run_only \"CONNECT 127.0.0.1:$2 HTTP/1.1\\r\\n\\r\\n\"\n"
      "probe unnamed \"CONNECT example.com:443 HTTP/1.1\\r\\n\\r\\n\"\n"
      "if [ -e /run/mlebench-egress ] || ls /run/mlebench/network | grep -qv proxy.sock; then\n"
      "  echo 'gateway: visible'; else echo 'gateway: hidden'; fi\n"),
      "/bin/bash");
  RunOptions options = Options(agent, "gateway");
  options.network = Network::kAllowlist;
  options.allowed_hosts = {{"127.0.0.1", allowed.port()}, {"127.0.0.1", run_only.port()}};
  options.proxy.parent_socket = gateway->socket_dir() / kProxySocketName;
  options.agent_args = {absl::StrCat(allowed.port()), absl::StrCat(run_only.port())};
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  const std::string log = ReadFileOrEmpty(options.log_out);
  std::map<std::string, std::string> seen = ParseReport(log);
  EXPECT_EQ(seen["get"], "HTTP/1.1 200 OK") << log;
  EXPECT_EQ(seen["connect"], "HTTP/1.1 200 Connection established") << log;
  EXPECT_EQ(seen["run_only"], "HTTP/1.1 403 Forbidden") << log;
  EXPECT_EQ(seen["unnamed"], "HTTP/1.1 403 Forbidden") << log;
  EXPECT_EQ(seen["gateway"], "hidden") << log;
  EXPECT_EQ(allowed.requests(), 2);
  EXPECT_EQ(run_only.requests(), 0);
  EXPECT_EQ(record->egress_gateway, options.proxy.parent_socket.string());
  EXPECT_EQ(record->connections.total, 4);
  EXPECT_EQ(record->connections.refused, 1);
  EXPECT_EQ(record->connections.refused_upstream, 1);
  EXPECT_EQ(record->connections.failed, 1);
  const std::string json = RunRecordToJson(*record);
  EXPECT_THAT(json, HasSubstr(absl::StrCat("\"egress_gateway\": \"",
                                           options.proxy.parent_socket.string(), "\"")));
  EXPECT_THAT(json, HasSubstr("\"connections_refused_upstream\": 1"));
  EXPECT_THAT(log, HasSubstr("run_agent: the egress gateway ("));
  EXPECT_THAT(log, HasSubstr(") refused 1 of 4 request(s) the run's allow-list let through"));
  absl::StatusOr<ProxyLog> gateway_log = gateway->Stop();
  ASSERT_TRUE(gateway_log.ok()) << gateway_log.status();
  EXPECT_EQ(gateway_log->total, 3);  // never the request the run refused
  EXPECT_EQ(gateway_log->refused, 1);

  // No gateway: the run fails before the agent starts.
  RunOptions missing = Options(agent, "no-gateway");
  missing.network = Network::kAllowlist;
  missing.proxy.parent_socket = "/nonexistent/mlebench-egress/egress.sock";
  record = RunAgent(missing);
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(record.status().message(), HasSubstr("egress gateway's socket"));
  EXPECT_THAT(record.status().message(), HasSubstr("is not there"));
  // A gateway without network allowlist: a mistake, said so.
  RunOptions deny = Options(agent, "deny-gateway");
  deny.proxy.parent_socket = missing.proxy.parent_socket;
  record = RunAgent(deny);
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(record.status().message(), HasSubstr("an egress gateway is given but the network is"));
}

// Requests as fast as it can make them grow the proxy's log on the host's
// disk: past its limit the agent is stopped, as at its workspace quota.
TEST_F(RunAgentTest, NetworkAllowlistStopsAnAgentWhoseRequestsOutgrowTheProxysLog) {
  isolation_ = Isolation::kBwrap;
  const fs::path agent = WriteScript(
      "flood.sh",
      "while :; do\n"
      "  exec 3<>/dev/tcp/127.0.0.1/3128 || exit 1\n"
      "  printf 'CONNECT refused.example.com:443 HTTP/1.1\\r\\n\\r\\n' >&3\n"
      "  IFS= read -r line <&3; exec 3>&-\n"
      "done\n",
      "/bin/bash");
  RunOptions options = Options(agent, "flood");
  options.network = Network::kAllowlist;
  options.time_limit_s = 20;
  options.proxy.max_log_file_bytes = 4096;
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->ended_by, "proxy_log_quota");
  EXPECT_FALSE(record->timed_out);
  EXPECT_GT(record->connections.refused, 4096 / 60);
  EXPECT_THAT(ReadFileOrEmpty(options.log_out),
              HasSubstr("stopped the agent: the egress proxy's log of its requests outgrew 4096"));
}

TEST_F(RunAgentTest, NetworkAllowlistNeedsTheSandboxAndAllowedHostsNeedTheAllowlist) {
  isolation_ = Isolation::kBwrap;
  const fs::path agent = WriteScript("true.sh", "true\n");
  RunOptions options = Options(agent, "no_sandbox");
  options.isolation = Isolation::kNone;
  options.network = Network::kAllowlist;
  EXPECT_THAT(RunAgent(options).status().message(),
              HasSubstr("network allowlist needs isolation bwrap"));
  options = Options(agent, "hosts_without_proxy");
  options.network = Network::kDeny;
  options.allowed_hosts = {*ParseAllowedHost("api.example.com")};
  EXPECT_THAT(RunAgent(options).status().message(), HasSubstr("no proxy to allow them"));
}

// A secret reaches the agent's environment, and nothing the runner writes:
// the log and the kept code/logs say "[secret NAME]" where the agent wrote
// it; the record names it.
TEST_F(RunAgentTest, SecretsReachTheAgentButNotWhatTheRunnerWrites) {
  isolation_ = Isolation::kBwrap;
  const std::string value = "sk-test-5f2b9c0e7d41a8";
  const fs::path agent = WriteScript(
      "secret.sh",
      "echo \"key: $EXAMPLE_API_KEY\"\n"
      "printf 'API_KEY = \"%s\"\\n' \"$EXAMPLE_API_KEY\" > code/config.py\n"
      "printf '%s' \"$EXAMPLE_API_KEY\" > logs/split.txt\n"
      "if [ \"$EXAMPLE_API_KEY\" = " + value + " ]; then echo 'secret: right'; fi\n");
  RunOptions options = Options(agent, "secret");
  options.secrets = {{"EXAMPLE_API_KEY", value}};
  options.artifacts_out = root_ / "secret" / "artifacts";
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  const std::string log = ReadFileOrEmpty(options.log_out);
  EXPECT_EQ(ParseReport(log)["secret"], "right") << log;
  EXPECT_EQ(ParseReport(log)["key"], "[secret EXAMPLE_API_KEY]") << log;
  EXPECT_THAT(log, Not(HasSubstr(value)));
  EXPECT_EQ(ReadFileOrEmpty(root_ / "secret" / "artifacts" / "code" / "config.py"),
            "API_KEY = \"[secret EXAMPLE_API_KEY]\"\n");
  EXPECT_EQ(ReadFileOrEmpty(root_ / "secret" / "artifacts" / "logs" / "split.txt"),
            "[secret EXAMPLE_API_KEY]");
  EXPECT_THAT(record->secret_names, ElementsAre("EXAMPLE_API_KEY"));
  const std::string json = RunRecordToJson(*record);
  EXPECT_THAT(json, HasSubstr("\"secrets\": [\"EXAMPLE_API_KEY\"]}"));
  EXPECT_THAT(json, Not(HasSubstr(value)));

  RunOptions clash = Options(agent, "clash");
  clash.secrets = {{"PATH", "/evil"}};
  EXPECT_THAT(RunAgent(clash).status().message(), HasSubstr("secret PATH would replace"));
}

// validate_submission.sh runs the validator it was given (a mounted copy
// under bwrap) on the agent's file with the public sample; instructions.txt
// says it is there.
TEST_F(RunAgentTest, ValidateSubmissionScriptRunsTheValidator) {
  isolation_ = Isolation::kBwrap;
  const fs::path validator = WriteScript(
      "validator.sh",
      "[ \"$1 $2 $3\" = \"--competition toy-competition --sample\" ] || exit 2\n"
      "[ -f \"$4\" ] || exit 2\n"
      "if grep -q bad \"$6\"; then echo 'Submission is invalid: bad'; exit 1; fi\n"
      "echo 'Submission is valid.'\n");
  const fs::path agent = WriteScript(
      "validating.sh",
      "echo id,label > submission/submission.csv\n"
      "echo \"first: $(./validate_submission.sh submission/submission.csv) $?\"\n"
      "echo bad > code/bad.csv\n"
      "./validate_submission.sh code/bad.csv; echo \"second: $?\"\n"
      "./validate_submission.sh; echo \"usage: $?\"\n"
      "grep -q validate_submission.sh instructions.txt && echo 'instructions: yes'\n");
  RunOptions options = Options(agent, "validate");
  options.validator = validator;
  options.keep_workspace = true;
  options.workspace = root_ / "validate_ws";
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  const std::string log = ReadFileOrEmpty(options.log_out);
  std::map<std::string, std::string> seen = ParseReport(log);
  EXPECT_EQ(seen["first"], "Submission is valid. 0") << log;
  EXPECT_EQ(seen["second"], "1") << log;
  EXPECT_THAT(log, HasSubstr("Submission is invalid: bad"));
  EXPECT_EQ(seen["usage"], "2") << log;
  EXPECT_EQ(seen["instructions"], "yes") << log;
  // The script names the mounted copy, never the host's path.
  const std::string script = ReadFileOrEmpty(root_ / "validate_ws" / "validate_submission.sh");
  EXPECT_THAT(script, HasSubstr("/run/mlebench/validate"));
  EXPECT_THAT(script, Not(HasSubstr(validator.string())));
}

TEST_F(RunAgentTest, SandboxEndsProcessesThatLeftTheSession) {
  // No subreaper here (kill_all_children is false): the escaped daemon dies
  // only because the sandbox's pid namespace ends.
  isolation_ = Isolation::kBwrap;
  const fs::path agent = WriteScript("escape.sh",
                                     "setsid sleep 1000 &\n"
                                     "sleep 1000 &\n"
                                     "trap '' TERM\n"
                                     ": > logs/ready\n"
                                     "while :; do sleep 0.05; done\n");
  RunOptions options = Options(agent);
  options.time_limit_s = 1;
  options.grace_s = 0.2;
  options.workspace = root_ / "workspace";
  WatchedRun run = RunAndWatch(options, "logs/ready");
  ASSERT_TRUE(run.record.ok()) << run.record.status();
  EXPECT_TRUE(run.record->timed_out);
  EXPECT_THAT(run.record->signal, Optional(SIGKILL));
  // bwrap, init, the script and its two sleeps (plus perhaps a loop sleep).
  EXPECT_GE(run.processes.size(), 5u);
  for (pid_t pid : run.processes) EXPECT_TRUE(ProcessIsGoneSoon(pid)) << "pid " << pid;
}

TEST_F(RunAgentTest, SandboxedAgentRunsFromItsRunfiles) {
  // Like Bazel's runfiles trees: symlinks to files elsewhere, which the agent
  // can read through the tree but not where they really are.
  isolation_ = Isolation::kBwrap;
  const fs::path real = root_ / "output_base" / "lib.sh";
  WriteFile(real, "echo 'from runfiles: yes'\n");
  const fs::path agent =
      WriteScript("tool.sh",
                  ". \"$0.runfiles/repo/lib.sh\"\n"
                  "if cat \"$1\" > /dev/null 2>&1; then echo 'real path: visible'; "
                  "else echo 'real path: hidden'; fi\n"
                  "if touch \"$0.runfiles/repo/new\" 2>/dev/null; then echo 'runfiles: writable'; "
                  "else echo 'runfiles: read-only'; fi\n"
                  "echo \"dangling: $(ls \"$0.runfiles/repo\" | tr '\\n' ' ')\"\n");
  const fs::path runfiles = root_ / "tool.sh.runfiles" / "repo";
  fs::create_directories(runfiles / "empty_dir");
  fs::create_symlink(real, runfiles / "lib.sh");
  fs::create_symlink(root_ / "vanished", runfiles / "dangling");
  RunOptions options = Options(fs::absolute(agent));
  options.agent_args = {real.string()};
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  const std::string log = ReadFileOrEmpty(options.log_out);
  std::map<std::string, std::string> seen = ParseReport(log);
  EXPECT_EQ(seen["from runfiles"], "yes") << log;
  EXPECT_EQ(seen["real path"], "hidden") << log;
  EXPECT_EQ(seen["runfiles"], "read-only") << log;
  EXPECT_EQ(seen["dangling"], "empty_dir lib.sh ") << log;  // the dangling link is left out
}

// ---------------------------------------------------------------------------
// Record and instructions

TEST(RunRecordToJsonTest, FormatsNullsEscapesAndRoundsDuration) {
  RunRecord record;
  record.competition_id = "a\"b\\c\nd\x01";
  record.agent = "sleeper";
  record.seed = -3;
  record.signal = 9;
  record.timed_out = true;
  record.duration_s = 1.23456;
  record.time_limit_s = 1;
  EXPECT_EQ(RunRecordToJson(record),
            "{\"competition_id\": \"a\\\"b\\\\c\\nd\\u0001\", \"agent\": \"sleeper\", "
            "\"seed\": -3, \"exit_code\": null, \"signal\": 9, \"timed_out\": true, "
            "\"duration_s\": 1.235, \"time_limit_s\": 1, \"submission_exists\": false, "
            "\"submission_bytes\": 0, \"isolation\": \"none\", \"network\": \"unconfined\", "
            "\"quota_exceeded\": false, \"out_of_memory\": false, \"log_truncated\": false, "
            "\"agent_label\": \"\", \"agent_digest\": \"\", \"environment_digest\": \"\", "
            "\"cpus\": 0, \"cpu_ids\": \"\", \"memory_limit_bytes\": 0, \"processes_limit\": 0, "
            "\"gpu_ids\": \"\", \"admission_wait_s\": 0.000, \"cpu_seconds\": 0.000, "
            "\"memory_peak_bytes\": -1, \"processes_limit_hits\": -1, \"ended_by\": \"agent\", "
            "\"kept_files\": 0, \"kept_bytes\": 0, \"kept_skipped\": 0, "
            "\"allowed_hosts\": [], \"egress_gateway\": \"\", \"connections_total\": 0, "
            "\"connections_refused\": 0, \"connections_failed\": 0, \"connections_refused_upstream\": 0, "
            "\"connections_truncated\": false, \"connections\": [], \"secrets\": []}\n");
  record.cpu_ids = {0, 1, 2, 5};
  record.gpu_ids = {1, 3};
  record.agent_label = "//my:agent";
  EXPECT_THAT(RunRecordToJson(record),
              HasSubstr("\"agent_label\": \"//my:agent\", "));
  EXPECT_THAT(RunRecordToJson(record),
              HasSubstr("\"cpu_ids\": \"0-2,5\", "));
  EXPECT_THAT(RunRecordToJson(record), HasSubstr("\"gpu_ids\": \"1,3\", "));
  record.isolation = Isolation::kBwrap;
  record.network = Network::kDeny;
  record.quota_exceeded = true;
  record.out_of_memory = true;
  record.log_truncated = true;
  EXPECT_THAT(RunRecordToJson(record),
              HasSubstr("\"submission_bytes\": 0, \"isolation\": \"bwrap\", "
                        "\"network\": \"deny\", \"quota_exceeded\": true, "
                        "\"out_of_memory\": true, \"log_truncated\": true, "));
}

TEST(IsolationNamesTest, ParseAndNameAreInverse) {
  for (Isolation isolation : {Isolation::kBwrap, Isolation::kNone}) {
    EXPECT_EQ(ParseIsolation(IsolationName(isolation)), isolation);
  }
  for (Network network : {Network::kUnconfined, Network::kDeny, Network::kAllowlist}) {
    EXPECT_EQ(ParseNetwork(NetworkName(network)), network);
  }
  EXPECT_EQ(ParseNetwork("allow"), std::nullopt);  // now named unconfined
  EXPECT_EQ(ParseIsolation("Bwrap"), std::nullopt);
  EXPECT_EQ(ParseIsolation(""), std::nullopt);
  EXPECT_EQ(ParseNetwork("none"), std::nullopt);
}

TEST(InstructionsTest, DescribesTimeLimit) {
  EXPECT_EQ(DescribeTimeLimit(1), "1 second");
  EXPECT_EQ(DescribeTimeLimit(59), "59 seconds");
  EXPECT_EQ(DescribeTimeLimit(90), "90 seconds (1 min 30 s)");
  EXPECT_EQ(DescribeTimeLimit(3600), "3600 seconds (1 h)");
  EXPECT_EQ(DescribeTimeLimit(86400), "86400 seconds (24 h)");
  EXPECT_EQ(DescribeTimeLimit(3661), "3661 seconds (1 h 1 min 1 s)");
}

TEST(InstructionsTest, StatesTheBudget) {
  EXPECT_EQ(DescribeResources(1, 16, int64_t{4} << 30, 0, 64),
            "- Resources: 1 CPU core, 4 GiB of memory, no GPU,\n"
            "  at most 64 processes and threads. Files in /dev/shm count as memory; past the\n"
            "  memory limit the kernel kills a process of yours. The environment says\n"
            "  the same (MLEBENCH_CPUS, MLEBENCH_MEMORY_BYTES, MLEBENCH_GPUS), and\n"
            "  libraries see only your cores.\n");
  // No CPU budget: every core of the machine; memory in MiB when not whole GiB.
  EXPECT_THAT(DescribeResources(0, 16, int64_t{1536} << 20, 2, 0),
              HasSubstr("- Resources: 16 CPU cores, 1536 MiB of memory, 2 GPUs. Files"));
  const std::string text =
      AgentInstructions(60, "deny", {}, DescribeResources(2, 16, int64_t{8} << 30, 1, 4096));
  EXPECT_THAT(text, HasSubstr("  submission early and improve it afterwards.\n- Resources: 2 CPU "
                              "cores, 8 GiB of memory, 1 GPU,\n"));
}

TEST(InstructionsTest, StatesTheRules) {
  const std::string text = AgentInstructions(86400, "deny");
  EXPECT_THAT(text, HasSubstr("data/description.md"));
  EXPECT_THAT(text, HasSubstr("submission/submission.csv"));
  EXPECT_THAT(text, HasSubstr("86400 seconds (24 h)"));
  EXPECT_THAT(text, HasSubstr("There is no network"));
  EXPECT_THAT(text, Not(HasSubstr("model APIs")));
  const std::string open = AgentInstructions(86400, "unconfined");
  EXPECT_THAT(open, HasSubstr("model APIs"));
  EXPECT_THAT(open, HasSubstr("do not download"));
  EXPECT_THAT(open, Not(HasSubstr("There is no network")));
  const std::string listed = AgentInstructions(86400, "allowlist", {"api.example.com:443"});
  EXPECT_THAT(listed, HasSubstr("http://127.0.0.1:3128"));
  EXPECT_THAT(listed, HasSubstr(": api.example.com:443.\n"));
  EXPECT_THAT(listed, Not(HasSubstr("There is no network")));
  EXPECT_THAT(AgentInstructions(86400, "allowlist"), HasSubstr(": none at all.\n"));
  EXPECT_THAT(text, HasSubstr("do not label any data by hand"));
  EXPECT_THAT(text, HasSubstr("other people's solutions"));
  EXPECT_THAT(text, Not(HasSubstr("$TIME_LIMIT")));
  EXPECT_THAT(text, Not(HasSubstr("/home/")));
}

}  // namespace
}  // namespace mlebench
