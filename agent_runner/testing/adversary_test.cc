// The sandbox against a hostile agent: every attack of the review that found
// ten ways out (issue 12), and more of the same kinds, must fail, the run must
// still be graded, and nothing outside the workspace may change.
//
// adversary.py probes from inside (one "attack <name>: blocked|ESCAPED" line
// each); the cases here need a host-side setup (planted secrets, a listener,
// a symlinked submission dir, huge files, many runfiles).

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <grp.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "agent_runner/cgroup.h"
#include "agent_runner/remove_tree.h"
#include "agent_runner/runner.h"
#include "agent_runner/workspace_lease.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::ReadFileOrEmpty;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Optional;

constexpr char kAdversary[] = "agent_runner/testing/adversary";
constexpr char kSandboxEntry[] = "agent_runner/sandbox_entry";
constexpr char kHostileTrees[] = "agent_runner/testing/hostile_trees.py";
constexpr char kSampleCsv[] = "id,label\n0,a\n1,b\n";
// Assembled so that no file of the test itself carries the marker.
const std::string kSecretMarker = std::string("MLEBENCH-") + "SECRET";

void WriteFile(const fs::path& path, const std::string& contents) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
}

// Every regular file under `root` with its contents, symlinks as "-> target".
std::map<std::string, std::string> Snapshot(const fs::path& root, const fs::path& skip) {
  std::map<std::string, std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path() == skip) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink()) {
      files[it->path().string()] = "-> " + fs::read_symlink(it->path()).string();
    } else if (it->is_regular_file()) {
      files[it->path().string()] = ReadFileOrEmpty(it->path());
    } else if (it->is_directory()) {
      files[it->path().string()] = "<dir>";
    }
  }
  return files;
}

// The host's global kernel settings an escape would change.
std::map<std::string, std::string> KernelSettings() {
  std::map<std::string, std::string> settings;
  for (const char* path : {"/proc/sys/kernel/core_pattern", "/proc/sys/kernel/modprobe",
                           "/proc/sys/kernel/hostname", "/proc/sys/vm/drop_caches"}) {
    settings[path] = ReadFileOrEmpty(path);
  }
  return settings;
}

class AdversaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* test_tmpdir = std::getenv("TEST_TMPDIR");
    ASSERT_NE(test_tmpdir, nullptr);
    tmp_ = fs::path(test_tmpdir);
    root_ = tmp_ / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(root_);
    WriteFile(root_ / "public" / "sample_submission.csv", kSampleCsv);
    WriteFile(root_ / "public" / "train.csv", "id,label\n5,a\n");
    WriteFile(root_ / "description.md", "# Toy\n");
    // The answers, where a prepare action would leave them: beside the
    // public files, and elsewhere on the host.
    secrets_ = {root_ / "private" / "test.csv", tmp_ / "secret_elsewhere" / "answers.csv"};
    for (const fs::path& secret : secrets_) WriteFile(secret, kSecretMarker + ",0\n");
    fs::create_directories(root_ / "agents");
  }

  RunOptions Options(const fs::path& agent, const std::string& run) {
    RunOptions options;
    options.competition_id = "toy";
    options.public_dir = root_ / "public";
    options.description_file = root_ / "description.md";
    options.agent = agent;
    options.time_limit_s = 60;
    options.grace_s = 1;
    options.submission_out = root_ / run / "submission";
    options.log_out = root_ / run / "agent.log";
    options.workspace = root_ / run / "workspace";
    options.sandbox_entry = fs::absolute(kSandboxEntry);
    options.allowed_roots = {fs::canonical(kAdversary).parent_path(), root_ / "agents"};
    options.forbidden_roots = {root_ / "private"};
    // Small limits, so that the bombs hit them quickly; root must be able to
    // set them, an ordinary user without a delegated cgroup cannot.
    options.limits = ResourceLimits{.memory_bytes = 256 << 20, .pids = 64, .cpus = 1};
    if (geteuid() != 0 && !AgentCgroup::Create(*options.limits, "probe").ok()) {
      options.limits.reset();
    }
    options.workspace_quota_bytes = 64 << 20;
    return options;
  }

  fs::path WriteAgent(const std::string& name, const std::string& body,
                      const std::string& interpreter = "/bin/sh") {
    const fs::path path = root_ / "agents" / name;
    WriteFile(path, "#!" + interpreter + "\n" + body);
    fs::permissions(path, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec |
                              fs::perms::group_read | fs::perms::others_read);
    return path;
  }

  fs::path tmp_;
  fs::path root_;
  std::vector<fs::path> secrets_;
};

TEST_F(AdversaryTest, EveryAttackFailsTheRunIsGradedAndTheHostIsUnchanged) {
  // A listener on the host's loopback and an abstract socket of the host,
  // which the denied network must keep out of reach.
  const int tcp = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address = {};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof(address);
  ASSERT_EQ(bind(tcp, reinterpret_cast<sockaddr*>(&address), size), 0);
  ASSERT_EQ(listen(tcp, 4), 0);
  ASSERT_EQ(getsockname(tcp, reinterpret_cast<sockaddr*>(&address), &size), 0);
  const int port = ntohs(address.sin_port);
  const int unix_socket = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un abstract = {};
  abstract.sun_family = AF_UNIX;
  const std::string name = absl::StrCat("mlebench-adversary-", port);
  std::memcpy(abstract.sun_path + 1, name.data(), name.size());
  ASSERT_EQ(bind(unix_socket, reinterpret_cast<sockaddr*>(&abstract),
                 static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size())),
            0);
  ASSERT_EQ(listen(unix_socket, 4), 0);
  WriteFile(root_ / "public" / "host_port.txt", absl::StrCat(port, "\n"));

  const auto host_before = Snapshot(tmp_, root_ / "run");
  const auto kernel_before = KernelSettings();
  RunOptions options = Options(fs::absolute(kAdversary), "run");
  options.agent_args = {secrets_[0].string(), secrets_[1].string()};
  if (options.limits.has_value()) options.agent_args.push_back("--bombs");
  options.keep_workspace = true;
  absl::StatusOr<RunRecord> record = RunAgent(options);
  close(tcp);
  close(unix_socket);
  ASSERT_TRUE(record.ok()) << record.status();
  const std::string log = ReadFileOrEmpty(options.log_out);

  EXPECT_EQ(record->isolation, Isolation::kBwrap);
  EXPECT_EQ(record->network, Network::kDeny);
  EXPECT_THAT(record->exit_code, Optional(0)) << log;
  EXPECT_FALSE(record->timed_out);
  EXPECT_TRUE(record->submission_exists) << log;
  EXPECT_EQ(ReadFileOrEmpty(options.submission_out / "submission.csv"), kSampleCsv);

  EXPECT_THAT(log, Not(HasSubstr("ESCAPED"))) << log;
  EXPECT_THAT(log, HasSubstr(" 0 escaped")) << log;
  // Each kind of attack was really tried (a probe that silently stopped
  // running would otherwise pass).
  for (const char* attack :
       {"host-root", "capabilities-CapEff", "capabilities-CapBnd", "no-new-privs", "seccomp",
        "setuid-0", "core-pattern", "drop-caches", "unshare-user", "unshare-mount",
        "unshare-net", "mount", "ptrace", "bpf", "io-uring", "secret-0", "secret-1", "secret-0-via-symlink",
        "search-for-secrets", "etc-shadow", "tcp-loopback", "tcp6-loopback", "host-listener",
        "abstract-socket", "dns", "fallocate", "file-size-limit", "log-truncation",
        "socket-vsock", "socket-packet", "socket-alg", "socket-bluetooth",
        "socket-netlink-audit", "socket-netlink-uevent", "syscall-open_tree_attr",
        "syscall-listmount", "syscall-statmount", "syscall-file_getattr",
        "syscall-lsm_list_modules", "syscall-kcmp", "syscall-1000", "data-new-file",
        "data-chmod", "data-rename", "data-overwrite", "data-remove", "dev-shm"}) {
    EXPECT_THAT(log, HasSubstr(absl::StrCat("attack ", attack, ": blocked"))) << attack;
  }
  for (const char* bomb : {"process-limit", "memory-limit"}) {
    EXPECT_THAT(log, HasSubstr(absl::StrCat("attack ", bomb,
                                            options.limits ? ": blocked" : ": skipped")))
        << bomb;
  }
  if (options.limits.has_value()) {
    EXPECT_TRUE(record->out_of_memory);
  }
  // Knobs the host has were probed (the others are reported absent).
  for (const auto& [attack, path] : std::vector<std::pair<std::string, std::string>>{
           {"modprobe", "/proc/sys/kernel/modprobe"},
           {"sysrq", "/proc/sysrq-trigger"},
           {"uevent-helper", "/sys/kernel/uevent_helper"},
           {"cgroup-release-agent", "/sys/fs/cgroup/memory/release_agent"},
           {"kmsg", "/dev/kmsg"}}) {
    struct stat st;
    if (lstat(path.c_str(), &st) == 0 && attack != "kmsg") {
      EXPECT_THAT(log, HasSubstr(absl::StrCat("attack ", attack, ": blocked"))) << attack;
    }
  }
  // Reopening /dev/stdout with O_TRUNC did not erase the first lines.
  EXPECT_TRUE(absl::StartsWith(log, "attack host-root: blocked")) << log.substr(0, 200);

  // The kernel saw an unprivileged user: the files the agent made are not
  // root's (nobody's when the runner is root, else the runner's own user).
  struct stat made;
  ASSERT_EQ(lstat((*options.workspace / "code" / "links").c_str(), &made), 0);
  EXPECT_EQ(made.st_uid, geteuid() == 0 ? options.sandbox_uid : geteuid());
  EXPECT_NE(made.st_uid, 0u);

  EXPECT_EQ(KernelSettings(), kernel_before);
  EXPECT_EQ(Snapshot(tmp_, root_ / "run"), host_before);
}

TEST_F(AdversaryTest, ManyRunfilesAreMountedAndSymlinksOutOfTheRootsAreRefused) {
  // ~3,000 runfiles broke bwrap's argument limit (and with it isolation=auto).
  const fs::path agent = WriteAgent(
      "many.sh", "ls \"$0.runfiles/repo\" | wc -l | sed 's/^ */runfiles: /'\n"
                 "cp data/sample_submission.csv submission/submission.csv\n");
  const fs::path runfiles = root_ / "agents" / "many.sh.runfiles" / "repo";
  fs::create_directories(runfiles);
  for (int i = 0; i < 3000; ++i) WriteFile(root_ / "agents" / "files" / absl::StrCat(i), "x");
  for (int i = 0; i < 3000; ++i) {
    fs::create_symlink(root_ / "agents" / "files" / absl::StrCat(i), runfiles / absl::StrCat(i));
  }
  RunOptions options = Options(agent, "many");
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->isolation, Isolation::kBwrap);
  EXPECT_THAT(ReadFileOrEmpty(options.log_out), HasSubstr("runfiles: 3000"));
  EXPECT_TRUE(record->submission_exists);

  // A runfile that resolves to the host's root, or to the answers: the run
  // is refused (fail closed), nothing is mounted.
  for (const auto& [link, target] : std::vector<std::pair<std::string, fs::path>>{
           {"rootfs", "/"}, {"answers", secrets_[0]}, {"elsewhere", secrets_[1]}}) {
    SCOPED_TRACE(link);
    fs::create_symlink(target, runfiles / link);
    RunOptions bad = Options(agent, "bad_" + link);
    absl::StatusOr<RunRecord> refused = RunAgent(bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_THAT(std::string(refused.status().message()), HasSubstr("cannot be sandboxed"));
    EXPECT_THAT(std::string(refused.status().message()), HasSubstr(link));
    EXPECT_FALSE(fs::exists(bad.submission_out / "submission.csv"));
    fs::remove(runfiles / link);
  }
}

TEST_F(AdversaryTest, SubmissionDirReplacedByALinkToTheHostIsNotRead) {
  // The agent swaps submission/ for a symlink to a host directory holding a
  // planted submission; the runner must not copy that file.
  WriteFile(root_ / "planted" / "submission.csv", kSecretMarker + "\n");
  const fs::path agent =
      WriteAgent("swap.sh", absl::StrCat("rmdir submission && ln -s ", (root_ / "planted").string(),
                                         " submission\n"));
  RunOptions options = Options(agent, "swap");
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_FALSE(record->submission_exists);
  EXPECT_TRUE(fs::is_empty(options.submission_out));
  EXPECT_THAT(ReadFileOrEmpty(options.log_out), HasSubstr("symlink to outside the workspace"));

  // The same with a relative link out of the workspace.
  const fs::path relative = WriteAgent(
      "swap_relative.sh", "rmdir submission && ln -s ../../planted submission\n");
  options = Options(relative, "swap_relative");
  record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_FALSE(record->submission_exists);
}

TEST_F(AdversaryTest, OutputsAreBounded) {
  // A sparse 512 MiB submission, a dense one over the cap, 20 MB of log.
  struct Case {
    std::string name;
    std::string body;
    std::string expected_note;
    int64_t max_submission_bytes;
  };
  for (const Case& c : std::vector<Case>{
           {"sparse",
            "cat data/sample_submission.csv > submission/submission.csv && "
            "truncate -s 512M submission/submission.csv\n",
            "has holes", int64_t{1} << 30},
           {"dense", "head -c 3000000 /dev/zero | tr '\\0' x > submission/submission.csv\n",
            "is larger than 2000000 bytes", 2'000'000},
       }) {
    SCOPED_TRACE(c.name);
    RunOptions options = Options(WriteAgent(c.name + ".sh", c.body), c.name);
    options.max_submission_bytes = c.max_submission_bytes;
    options.workspace_quota_bytes = int64_t{1} << 30;  // room for the sparse file's size
    absl::StatusOr<RunRecord> record = RunAgent(options);
    ASSERT_TRUE(record.ok()) << record.status();
    EXPECT_FALSE(record->submission_exists);
    EXPECT_TRUE(fs::is_empty(options.submission_out));
    EXPECT_THAT(ReadFileOrEmpty(options.log_out), HasSubstr(c.expected_note));
  }

  RunOptions options = Options(
      WriteAgent("chatty.sh",
                 "echo first line\n"
                 "head -c 20000000 /dev/zero | tr '\\0' y\n"
                 ": > /dev/stdout\n"  // reopening stdout with O_TRUNC reaches the pipe
                 "cp data/sample_submission.csv submission/submission.csv\n"),
      "chatty");
  options.max_log_bytes = 1 << 20;
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_TRUE(record->log_truncated);
  EXPECT_TRUE(record->submission_exists);
  const std::string log = ReadFileOrEmpty(options.log_out);
  EXPECT_TRUE(absl::StartsWith(log, "first line\n")) << log.substr(0, 100);
  EXPECT_LT(log.size(), (1u << 20) + 1000);
  EXPECT_THAT(log, HasSubstr("the log was cut at 1048576 bytes"));
}

TEST_F(AdversaryTest, WorkspaceQuotaStopsTheAgent) {
  // fallocate is refused (EOPNOTSUPP); a file beyond the quota fails
  // (RLIMIT_FSIZE); many files that add up to more get the agent stopped.
  RunOptions options = Options(
      WriteAgent("fill.sh",
                 "cp data/sample_submission.csv submission/submission.csv\n"
                 "if fallocate -l 2G code/big 2>/dev/null; then echo 'fallocate: worked'; "
                 "else echo 'fallocate: refused'; fi\n"
                 "if head -c 40000000 /dev/zero > code/one 2>/dev/null; then echo 'one file: written'; "
                 "else echo 'one file: cut'; fi\n"
                 "i=0; while :; do head -c 8000000 /dev/zero > code/part$i; i=$((i+1)); "
                 "sleep 0.05; done\n"),
      "fill");
  options.workspace_quota_bytes = 32 << 20;
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  const std::string log = ReadFileOrEmpty(options.log_out);
  EXPECT_TRUE(record->quota_exceeded) << log;
  EXPECT_FALSE(record->timed_out);
  EXPECT_THAT(log, HasSubstr("fallocate: refused"));
  EXPECT_THAT(log, HasSubstr("one file: cut"));
  EXPECT_THAT(log, HasSubstr("the workspace quota"));
  EXPECT_TRUE(record->submission_exists);  // graded with what it had written
}

TEST_F(AdversaryTest, WorkspaceThatCannotBeMeasuredCountsAsOverQuota) {
  // Hiding files from the quota walk: nesting deeper than it goes.
  RunOptions options = Options(
      WriteAgent("deep.sh",
                 "cp data/sample_submission.csv submission/submission.csv\n"
                 "cd code; i=0; while [ $i -lt 300 ]; do mkdir d && cd d; i=$((i+1)); done\n"
                 "while :; do sleep 0.1; done\n"),
      "deep");
  options.time_limit_s = 30;
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_TRUE(record->quota_exceeded) << ReadFileOrEmpty(options.log_out);
  EXPECT_FALSE(record->timed_out);
  EXPECT_THAT(ReadFileOrEmpty(options.log_out), HasSubstr("could not all be measured"));
}

TEST_F(AdversaryTest, StagingRefusesHoldersOfAnswersWhateverTheLayout) {
  // The review's layout: the output base inside the source tree (an allowed
  // root), and a source symlink to a competition's prepared answers in it.
  // Then a disk cache and a data dir in the same tree.
  const fs::path source = root_ / "src";
  const fs::path output_base = source / "output_base";
  fs::create_directories(output_base / "action_cache");
  const fs::path answers = output_base / "execroot/main/bazel-out/k8-fastbuild/bin/competitions/"
                                         "toy/toy_data/private/test.csv";
  WriteFile(answers, kSecretMarker + ",0\n");
  fs::create_directories(answers.parent_path().parent_path() / "public");
  WriteFile(source / "cache/cas/ab/cd", kSecretMarker + "\n");
  fs::create_directories(source / "cache/ac");
  WriteFile(source / "data/toy/prepared/private/test.csv", kSecretMarker + "\n");
  const fs::path agent = WriteAgent("leak.sh", "cat \"$0.runfiles/leak\"\n");
  const fs::path raw = output_base / "execroot/main/bazel-out/k8-fastbuild/bin/competitions/"
                                     "toy/raw/train.csv";
  WriteFile(raw, kSecretMarker + ",0\n");
  for (const auto& [target, kind] : std::vector<std::pair<fs::path, std::string>>{
           {raw, "a Bazel output base"},
           {answers, "a competition's prepared data"},
           {source / "cache/cas/ab/cd", "a Bazel disk cache"},
           {source / "data/toy/prepared/private/test.csv", "a competition's data directory"}}) {
    SCOPED_TRACE(kind);
    const fs::path runfiles = root_ / "agents" / "leak.sh.runfiles";
    fs::remove_all(runfiles);
    fs::create_directories(runfiles);
    fs::create_symlink(target, runfiles / "leak");
    RunOptions options = Options(agent, "leak");
    options.allowed_roots.push_back(source);
    fs::remove_all(root_ / "leak");
    absl::StatusOr<RunRecord> record = RunAgent(options);
    ASSERT_FALSE(record.ok());
    EXPECT_THAT(std::string(record.status().message()),
                AllOf(HasSubstr("cannot be sandboxed"), HasSubstr(kind)));
    EXPECT_FALSE(fs::exists(options.submission_out / "submission.csv"));
  }
}

TEST_F(AdversaryTest, StagingCopiesAFileOnceAndCapsWhatItCopies) {
  // One 64 MiB file the runner must copy (mode 0644), reached through 64
  // directory symlinks: 4 GiB if copied per path, as the root runner did.
  const fs::path agent = WriteAgent(
      "volume.sh", "du -sh \"$0.runfiles\" | sed 's/^/staged: /'\n"
                   "cp data/sample_submission.csv submission/submission.csv\n");
  const fs::path runfiles = root_ / "agents" / "volume.sh.runfiles";
  fs::create_directories(runfiles);
  WriteFile(root_ / "agents" / "blob" / "big.bin", std::string(64 << 20, 'x'));
  fs::permissions(root_ / "agents" / "blob" / "big.bin",
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                      fs::perms::others_read);
  for (int i = 0; i < 64; ++i) {
    fs::create_directory_symlink(root_ / "agents" / "blob", runfiles / absl::StrCat("d", i));
  }
  RunOptions options = Options(agent, "volume");
  options.max_staged_bytes = 100 << 20;
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_TRUE(record->submission_exists) << ReadFileOrEmpty(options.log_out);
  // Distinct files beyond the cap: a clear error, nothing run.
  WriteFile(root_ / "agents" / "blob" / "other.bin", std::string(64 << 20, 'y'));
  options = Options(agent, "volume2");
  options.max_staged_bytes = 100 << 20;
  record = RunAgent(options);
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(std::string(record.status().message()),
              HasSubstr("would copy more than 104857600 bytes"));
}

TEST_F(AdversaryTest, InodeQuotaStopsTheAgent) {
  // Empty files take no blocks: only the inode count sees them.
  RunOptions options = Options(
      WriteAgent("inodes.sh",
                 "cp data/sample_submission.csv submission/submission.csv\n"
                 "cd code && i=0; while :; do : > f$i; i=$((i+1)); done\n"),
      "inodes");
  options.workspace_quota_inodes = 2000;
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  const std::string log = ReadFileOrEmpty(options.log_out);
  EXPECT_TRUE(record->quota_exceeded) << log;
  EXPECT_FALSE(record->timed_out);
  EXPECT_THAT(log, HasSubstr("more than the workspace quota of 2000 inodes"));
  EXPECT_TRUE(record->submission_exists);
}

TEST_F(AdversaryTest, FilesWithoutANameCountTowardsTheQuota) {
  // What the walk cannot see: files made with O_TMPFILE, or unlinked while
  // open, also by a thread whose process's first thread has exited, and a
  // file mapped after its descriptor was closed and its name removed. 40 MB
  // each, against a quota of 64 MiB.
  for (const auto& [name, body] : std::vector<std::pair<std::string, std::string>>{
           {"tmpfile",
            "fds = []\n"
            "for i in range(4):\n"
            "    fd = os.open('code', os.O_TMPFILE | os.O_WRONLY, 0o600)\n"
            "    os.write(fd, b'x' * (40 << 20))\n"
            "    fds.append(fd)\n"},
           {"mapped",
            "maps = []\n"
            "for i in range(4):\n"
            "    path = 'code/m%d' % i\n"
            "    with open(path, 'wb') as f:\n"
            "        f.write(b'x' * (40 << 20))\n"
            "    with open(path, 'rb') as f:\n"
            "        maps.append(mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ))\n"
            "    os.unlink(path)\n"},
           // The first thread exits (pthread_exit: the process is a zombie
           // to /proc/<pid>, whose fd table is empty) while another goes on
           // holding the files.
           {"exited_leader",
            "import ctypes, threading\n"
            "written = threading.Event()\n"
            "def hide():\n"
            "    fds = []\n"
            "    for i in range(4):\n"
            "        fd = os.open('code', os.O_TMPFILE | os.O_WRONLY, 0o600)\n"
            "        os.write(fd, b'x' * (40 << 20))\n"
            "        fds.append(fd)\n"
            "    written.set()\n"
            "    print('hidden', flush=True)\n"
            "    time.sleep(30)\n"
            "threading.Thread(target=hide).start()\n"
            "written.wait()\n"
            "ctypes.CDLL(None).pthread_exit(None)\n"},
           // Zombies (their files are closed; their /proc/<pid>/fd cannot be
           // listed by an ordinary user) beside the hidden files.
           {"zombies",
            "fds = []\n"
            "for i in range(4):\n"
            "    if os.fork() == 0:\n"
            "        os._exit(0)\n"
            "    fd = os.open('code', os.O_TMPFILE | os.O_WRONLY, 0o600)\n"
            "    os.write(fd, b'x' * (40 << 20))\n"
            "    fds.append(fd)\n"}}) {
    SCOPED_TRACE(name);
    RunOptions options = Options(
        WriteAgent(name + ".py",
                   "import mmap, os, shutil, time\n"
                   "shutil.copy(os.environ['MLEBENCH_SAMPLE_SUBMISSION'], "
                   "'submission/submission.csv')\n" +
                       body + "print('hidden', flush=True)\ntime.sleep(30)\n",
                   "/usr/bin/python3"),
        name);
    options.time_limit_s = 25;
    absl::StatusOr<RunRecord> record = RunAgent(options);
    ASSERT_TRUE(record.ok()) << record.status();
    const std::string log = ReadFileOrEmpty(options.log_out);
    EXPECT_THAT(log, HasSubstr("hidden"));
    EXPECT_TRUE(record->quota_exceeded) << log;
    EXPECT_FALSE(record->timed_out) << log;
    EXPECT_THAT(log, HasSubstr("more than the workspace quota of 67108864 bytes"));
  }
  // A process that keeps zombies around and writes nothing is not stopped.
  RunOptions options = Options(
      WriteAgent("parent.py",
                 "import os, shutil, time\n"
                 "shutil.copy(os.environ['MLEBENCH_SAMPLE_SUBMISSION'], "
                 "'submission/submission.csv')\n"
                 "for i in range(8):\n"
                 "    if os.fork() == 0:\n"
                 "        os._exit(0)\n"
                 "time.sleep(5)\n",
                 "/usr/bin/python3"),
      "parent");
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_FALSE(record->quota_exceeded) << ReadFileOrEmpty(options.log_out);
  EXPECT_THAT(record->exit_code, Optional(0));
}

TEST_F(AdversaryTest, TeardownRemovesWhateverTheAgentMade) {
  // hostile_trees.py: 20,000 levels joined from chains with rename, a wide
  // directory, directories without permissions, odd names, a FIFO, a
  // socket, links. The run ends, and nothing of it is left.
  const fs::path agent = root_ / "agents" / "trees.py";
  fs::copy_file(kHostileTrees, agent);
  fs::permissions(agent, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                             fs::perms::others_read | fs::perms::others_exec);
  RunOptions options = Options(agent, "trees");
  options.keep_workspace = false;
  options.workspace_quota_bytes = int64_t{1} << 30;  // 20,000 directories take 80 MB
  absl::StatusOr<RunRecord> record = RunAgent(options);
  ASSERT_TRUE(record.ok()) << record.status();
  const std::string log = ReadFileOrEmpty(options.log_out);
  // The agent joins its chains in one burst just before it exits; a quota
  // walk that falls inside the burst finds more than 256 levels and stops
  // it (the walk runs on its own clock: once in 12 runs here). Either
  // way the workspace holds chains deeper than the walk goes, and must go.
  if (!absl::StrContains(log, "deep chain: 20000 levels")) {
    EXPECT_TRUE(record->quota_exceeded) << log;
    EXPECT_THAT(log, HasSubstr("could not all be measured"));
  }
  EXPECT_TRUE(record->submission_exists) << log;
  EXPECT_FALSE(fs::exists(fs::symlink_status(*options.workspace))) << log;
  EXPECT_FALSE(fs::exists(WorkspaceLockFile(*options.workspace)));
  EXPECT_FALSE(fs::exists(WorkspaceStagingDir(*options.workspace)));
}

// Every test above again, run by an ordinary user: the runner then makes a
// user namespace for the agent, which runs as that user, and data/ belongs
// to it (the review found data/ writable there). Run as root, this test
// copies itself, the adversary and the sandbox entry where such a user can
// read them, and runs them as uid kOrdinaryUid with no capability and no
// group of root's; run as an ordinary user, the tests above are that run.
constexpr uid_t kOrdinaryUid = 65533;

void CopyExecutable(const fs::path& from, const fs::path& to) {
  fs::create_directories(to.parent_path());
  fs::copy_file(fs::canonical(from), to, fs::copy_options::overwrite_existing);
  fs::permissions(to, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                          fs::perms::others_read | fs::perms::others_exec);
}

TEST(AdversaryAsAnOrdinaryUserTest, EveryAttackFailsToo) {
  if (geteuid() != 0) GTEST_SKIP() << "this process is an ordinary user's already";
  std::string scratch_template = "/tmp/mlebench-adversary-XXXXXX";
  ASSERT_NE(mkdtemp(scratch_template.data()), nullptr);
  const fs::path scratch = scratch_template;
  const fs::path runfiles = scratch / "runfiles";
  CopyExecutable("/proc/self/exe", scratch / "bin" / "adversary_test");
  for (const char* file : {kAdversary, kSandboxEntry, kHostileTrees}) {
    CopyExecutable(file, runfiles / file);
  }
  fs::create_directories(scratch / "tmp");
  for (const auto& entry : fs::recursive_directory_iterator(scratch)) {
    ASSERT_EQ(lchown(entry.path().c_str(), kOrdinaryUid, kOrdinaryUid), 0) << entry.path();
  }
  ASSERT_EQ(chown(scratch.c_str(), kOrdinaryUid, kOrdinaryUid), 0);
  ASSERT_EQ(chmod(scratch.c_str(), 0755), 0);

  int output[2];
  ASSERT_EQ(pipe(output), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(output[1], STDOUT_FILENO);
    dup2(output[1], STDERR_FILENO);
    close(output[0]);
    close(output[1]);
    if (setgroups(0, nullptr) != 0 || setresgid(kOrdinaryUid, kOrdinaryUid, kOrdinaryUid) != 0 ||
        setresuid(kOrdinaryUid, kOrdinaryUid, kOrdinaryUid) != 0 ||
        chdir(runfiles.c_str()) != 0) {
      perror("becoming an ordinary user");
      _exit(126);
    }
    const std::string tmp = "TEST_TMPDIR=" + (scratch / "tmp").string();
    const std::string home = "HOME=" + (scratch / "tmp").string();
    char* env[] = {const_cast<char*>("PATH=/usr/bin:/bin"), const_cast<char*>(tmp.c_str()),
                   const_cast<char*>(home.c_str()), nullptr};
    const std::string binary = (scratch / "bin" / "adversary_test").string();
    char* argv[] = {const_cast<char*>(binary.c_str()),
                    const_cast<char*>("--gtest_filter=AdversaryTest.*"), nullptr};
    execve(binary.c_str(), argv, env);
    perror("execve");
    _exit(127);
  }
  close(output[1]);
  std::string log;
  char buffer[4096];
  for (ssize_t n; (n = read(output[0], buffer, sizeof(buffer))) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    log.append(buffer, static_cast<size_t>(n));
  }
  close(output[0]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << log;
  // Every test of the suite ran there and passed.
  int suite_tests = 0;
  const ::testing::UnitTest& tests = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < tests.total_test_suite_count(); ++i) {
    if (std::string(tests.GetTestSuite(i)->name()) == "AdversaryTest") {
      suite_tests = tests.GetTestSuite(i)->total_test_count();
    }
  }
  EXPECT_GT(suite_tests, 0);
  EXPECT_THAT(log, HasSubstr(absl::StrCat("[  PASSED  ] ", suite_tests, " tests."))) << log;
  EXPECT_THAT(log, Not(HasSubstr("SKIPPED"))) << log;
  EXPECT_TRUE(RemoveTree(scratch).ok());
}

}  // namespace
}  // namespace mlebench
