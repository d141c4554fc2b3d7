#include "agent_runner/runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "agent_runner/admission.h"
#include "agent_runner/cgroup.h"
#include "agent_runner/instructions.h"
#include "agent_runner/processes.h"
#include "agent_runner/sandbox.h"
#include "agent_runner/workspace_lease.h"
#include "agent_runner/workspace_quota.h"
#include "agent_runner/internal/child_process.h"
#include "agent_runner/internal/file_ops.h"
#include "agent_runner/validation/validate_script.h"
#include "base/files.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

using namespace runner_internal;  // NOLINT: the runner's own child processes and files

namespace fs = std::filesystem;

// Where agent environments are mounted (RunOptions::environment_mount).
constexpr char kEnvironmentMountPrefix[] = "/opt/mlebench/";

// How long a run waits for another run, or the janitor of a killed one, to
// let go of its workspace (workspace_lease.h).
constexpr std::chrono::seconds kWorkspaceLockWait(600);

// Upper bounds that keep deadline arithmetic far from overflow.
constexpr int64_t kMaxTimeLimitS = 10'000'000;  // ~115 days
constexpr double kMaxGraceS = 3600;


absl::Status ValidateOptions(const RunOptions& options) {
  if (options.competition_id.empty()) {
    return absl::InvalidArgumentError("competition id is empty");
  }
  const fs::path& sample = options.sample_submission;
  if (sample.empty() || sample.is_absolute() ||
      std::find(sample.begin(), sample.end(), "..") != sample.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sample submission must be a relative path inside the public files, got '",
        sample.string(), "'"));
  }
  if (options.time_limit_s <= 0 || options.time_limit_s > kMaxTimeLimitS) {
    return absl::InvalidArgumentError(absl::StrCat("time limit must be between 1 and ",
                                                   kMaxTimeLimitS, " seconds, got ",
                                                   options.time_limit_s));
  }
  if (!(options.grace_s >= 0 && options.grace_s <= kMaxGraceS)) {
    return absl::InvalidArgumentError(absl::StrCat("grace period must be between 0 and ",
                                                   kMaxGraceS, " seconds, got ", options.grace_s));
  }
  if (options.network != Network::kUnconfined && options.isolation == Isolation::kNone) {
    return absl::InvalidArgumentError(absl::StrCat(
        "network ", NetworkName(options.network),
        " needs isolation bwrap: without it the agent shares the host's network (with isolation "
        "none, ask for the unconfined network: --//agent_runner:network=unconfined)"));
  }
  if (options.network != Network::kAllowlist && !options.allowed_hosts.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "allowed hosts are given but the network is ", NetworkName(options.network),
        ", which has no proxy to allow them through (network allowlist)"));
  }
  if (options.network != Network::kAllowlist && !options.proxy.parent_socket.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "an egress gateway is given but the network is ", NetworkName(options.network),
        ", which has no proxy to send through it (network allowlist)"));
  }
  if (options.isolation == Isolation::kBwrap) {
    if (options.sandbox_entry.empty()) {
      return absl::InvalidArgumentError("isolation bwrap needs the sandbox entry program");
    }
    if (options.allowed_roots.empty()) {
      return absl::InvalidArgumentError(
          "isolation bwrap needs the allowed roots of the agent's runfiles");
    }
    if (geteuid() == 0 && (options.sandbox_uid == 0 || options.sandbox_gid == 0)) {
      return absl::InvalidArgumentError("the sandbox user and group must not be root (0)");
    }
  }
  if (!options.environment_dir.empty()) {
    if (options.isolation != Isolation::kBwrap) {
      return absl::InvalidArgumentError(
          "an agent environment is mounted by the sandbox: it needs isolation bwrap");
    }
    // Under /opt/mlebench only, one plain name deep: an environment must
    // never shadow a directory the sandbox entry or the agent's tools rely
    // on (/etc with an ld.so.preload, /usr, ...).
    const std::string mount = options.environment_mount.string();
    const std::string name = absl::StartsWith(mount, kEnvironmentMountPrefix)
                                 ? mount.substr(std::strlen(kEnvironmentMountPrefix))
                                 : "";
    if (name.empty() || name[0] == '-' || name[0] == '_' ||
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") != std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the environment's mount point must be ", kEnvironmentMountPrefix,
          "<name>, the name of lower-case letters, digits, - and _, got '", mount, "'"));
    }
    for (const std::string& entry : options.environment_path) {
      const fs::path relative(entry);
      if (entry.empty() || relative.is_absolute() ||
          std::find(relative.begin(), relative.end(), "..") != relative.end() ||
          entry.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789_-./") != std::string::npos) {
        return absl::InvalidArgumentError(absl::StrCat(
            "environment PATH entries must be relative directories inside it, got '", entry,
            "'"));
      }
    }
  }
  if (!options.rootfs_dir.empty() && options.isolation != Isolation::kBwrap) {
    return absl::InvalidArgumentError(
        "an agent's root file system is the sandbox's: it needs isolation bwrap");
  }
  if (!options.rootfs_manifest.empty() && options.rootfs_dir.empty()) {
    return absl::InvalidArgumentError("a root file system manifest needs its root file system");
  }
  if (options.max_submission_bytes <= 0 || options.max_log_bytes <= 0 ||
      options.max_staged_bytes < 0 || options.workspace_quota_bytes < 0) {
    return absl::InvalidArgumentError(
        "submission and log caps must be positive, the staging cap and the workspace quota "
        "non-negative");
  }
  if (options.submission_out.empty() || options.log_out.empty() || options.agent.empty() ||
      options.public_dir.empty() || options.description_file.empty()) {
    return absl::InvalidArgumentError(
        "public dir, description file, agent, submission output and log output are all required");
  }
  struct stat st;
  if (stat(options.public_dir.c_str(), &st) != 0) {
    return ErrnoError("cannot read public dir", options.public_dir, errno);
  }
  if (!S_ISDIR(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("public dir ", options.public_dir.string(), " is not a directory"));
  }
  if (stat(options.description_file.c_str(), &st) != 0) {
    return ErrnoError("cannot read description file", options.description_file, errno);
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "description file ", options.description_file.string(), " is not a regular file"));
  }
  if (stat(options.agent.c_str(), &st) != 0) {
    return ErrnoError("cannot find agent", options.agent, errno);
  }
  if (!S_ISREG(st.st_mode) || access(options.agent.c_str(), X_OK) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("agent ", options.agent.string(), " is not an executable file"));
  }
  if (options.artifacts_out.has_value()) {
    ASSIGN_OR_RETURN(bool artifacts_ok, IsAbsentOrEmptyDirectory(*options.artifacts_out));
    if (!artifacts_ok) {
      return absl::InvalidArgumentError(absl::StrCat("artifacts output ",
                                                     options.artifacts_out->string(),
                                                     " must be absent or an empty directory"));
    }
  }
  ASSIGN_OR_RETURN(bool out_ok, IsAbsentOrEmptyDirectory(options.submission_out));
  if (!out_ok) {
    return absl::InvalidArgumentError(absl::StrCat("submission output ",
                                                   options.submission_out.string(),
                                                   " must be absent or an empty directory"));
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Workspace

// Copies the files under `from` (following symlinks, which is how Bazel
// presents inputs) into the existing directory `to`, read-only. Anything that
// is neither a regular file nor a directory is an error: copying a FIFO would
// hang, and a dangling link is a broken input. `ancestors` holds the
// directories being copied, to reject symlink cycles.
absl::Status CopyTreeReadOnly(const fs::path& from, const fs::path& to,
                              std::vector<std::pair<dev_t, ino_t>>& ancestors) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(from, ec), end; !ec && it != end; it.increment(ec)) {
    entries.push_back(it->path());
  }
  if (ec) return FsError("cannot list public dir", from, ec);
  std::sort(entries.begin(), entries.end());  // deterministic order of errors
  for (const fs::path& entry : entries) {
    struct stat st;
    if (stat(entry.c_str(), &st) != 0) {
      return ErrnoError("cannot read public file", entry, errno);
    }
    const fs::path target = to / entry.filename();
    if (S_ISREG(st.st_mode)) {
      RETURN_IF_ERROR(CopyRegularFile(entry, target, kReadOnlyFile));
    } else if (S_ISDIR(st.st_mode)) {
      const std::pair<dev_t, ino_t> id(st.st_dev, st.st_ino);
      if (std::find(ancestors.begin(), ancestors.end(), id) != ancestors.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("public dir has a symlink cycle at ", entry.string()));
      }
      if (!fs::create_directory(target, ec) || ec) {
        return FsError("cannot create", target, ec);
      }
      ancestors.push_back(id);
      absl::Status s = CopyTreeReadOnly(entry, target, ancestors);
      ancestors.pop_back();
      if (!s.ok()) return s;
      fs::permissions(target, kReadOnlyDir, ec);
      if (ec) return FsError("cannot set permissions of", target, ec);
    } else {
      return absl::InvalidArgumentError(absl::StrCat("public dir entry ", entry.string(),
                                                     " is neither a regular file nor a directory"));
    }
  }
  return absl::OkStatus();
}

// Creates data/<name> -> <absolute public dir>/<name> for each entry of the
// public dir (in sorted order, so that errors are deterministic).
absl::Status LinkTopLevelEntries(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  const fs::path source = fs::canonical(from, ec);
  if (ec) return FsError("cannot resolve public dir", from, ec);
  std::vector<fs::path> entries;
  for (fs::directory_iterator it(source, ec), end; !ec && it != end; it.increment(ec)) {
    entries.push_back(it->path());
  }
  if (ec) return FsError("cannot list public dir", source, ec);
  std::sort(entries.begin(), entries.end());
  for (const fs::path& entry : entries) {
    fs::create_symlink(entry, to / entry.filename(), ec);
    if (ec) return FsError("cannot link", to / entry.filename(), ec);
  }
  return absl::OkStatus();
}

// The workspace's absolute path: the one asked for, or a fresh directory
// under $TMPDIR (or /tmp).
absl::StatusOr<fs::path> WorkspacePath(const std::optional<fs::path>& requested) {
  std::error_code ec;
  if (requested.has_value()) {
    fs::path absolute = fs::absolute(*requested, ec);
    if (ec) return FsError("cannot resolve", *requested, ec);
    return absolute;
  }
  const char* tmpdir = std::getenv("TMPDIR");
  fs::path parent = (tmpdir != nullptr && *tmpdir != '\0') ? fs::path(tmpdir) : fs::path("/tmp");
  std::string pattern = (parent / "mlebench-agent-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return ErrnoError("cannot create a workspace under", parent, errno);
  }
  fs::path absolute = fs::absolute(pattern, ec);
  if (ec) return FsError("cannot resolve", pattern, ec);
  return absolute;
}

// "0,1,...,count-1"; "" for none.
std::string CudaDeviceList(size_t count) {
  std::vector<std::string> ids;
  for (size_t i = 0; i < count; ++i) ids.push_back(absl::StrCat(i));
  return absl::StrJoin(ids, ",");
}

// The CPUs this process may run on: what an agent without a CPU budget gets.
int MachineCpuCount() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return 1;
  return CPU_COUNT(&set);
}

// The CPUs the agent gets: its grant, or every CPU this process may use.
int GrantedCpuCount(const RunOptions& options) {
  return options.cpu_ids.empty() ? MachineCpuCount() : static_cast<int>(options.cpu_ids.size());
}

std::vector<std::string> AllowedHostNames(const std::vector<AllowedHost>& hosts) {
  std::vector<std::string> names;
  for (const AllowedHost& host : hosts) names.push_back(host.ToString());
  return names;
}

absl::Status PopulateWorkspace(const fs::path& workspace, const RunOptions& options) {
  std::error_code ec;
  for (const char* dir : {"data", "submission", "logs", "code"}) {
    fs::create_directory(workspace / dir, ec);
    if (ec) return FsError("cannot create", workspace / dir, ec);
  }
  const fs::path data = workspace / "data";
  std::vector<std::pair<dev_t, ino_t>> ancestors;
  struct stat st;
  if (stat(options.public_dir.c_str(), &st) == 0) ancestors.emplace_back(st.st_dev, st.st_ino);
  if (options.link_public) {
    RETURN_IF_ERROR(LinkTopLevelEntries(options.public_dir, data));
  } else {
    RETURN_IF_ERROR(CopyTreeReadOnly(options.public_dir, data, ancestors));
  }

  // The description given separately wins over one shipped in the public dir.
  const fs::path description = data / "description.md";
  if (fs::is_directory(fs::symlink_status(description, ec))) {
    return absl::InvalidArgumentError("public dir has a directory named description.md");
  }
  fs::remove(description, ec);
  if (ec) return FsError("cannot replace", description, ec);
  RETURN_IF_ERROR(CopyRegularFile(options.description_file, description, kReadOnlyFile));
  fs::permissions(data, kReadOnlyDir, ec);
  if (ec) return FsError("cannot set permissions of", data, ec);

  const ResourceLimits limits = options.limits.value_or(ResourceLimits{});
  std::string instructions = AgentInstructions(
      options.time_limit_s,
      NetworkName(options.isolation == Isolation::kNone ? Network::kUnconfined : options.network),
      AllowedHostNames(options.allowed_hosts),
      DescribeResources(static_cast<int>(options.cpu_ids.size()), MachineCpuCount(),
                        limits.memory_bytes, static_cast<int>(options.gpu_ids.size()),
                        limits.pids));
  if (!options.validator.empty()) {
    // The validator where the agent's processes find it: a mounted copy
    // under bwrap, the file itself without isolation.
    std::string validator = kSandboxValidatorPath;
    if (options.isolation == Isolation::kNone) {
      validator = fs::absolute(options.validator, ec).string();
      if (ec) return FsError("cannot resolve", options.validator, ec);
    }
    // On an agent's own root file system (which lacks the libraries it
    // needs), through the host's loader, as the proxy's forwarder.
    std::vector<std::string> loader;
    if (!options.rootfs_dir.empty() && options.isolation == Isolation::kBwrap) {
      ASSIGN_OR_RETURN(const HostLoader host, HostLoaderInSandbox());
      loader = {host.loader.string(), "--inhibit-cache", "--library-path", host.library_path};
    }
    const fs::path script = workspace / "validate_submission.sh";
    ASSIGN_OR_RETURN(
        const std::string text,
        ValidateSubmissionScript({.validator = validator,
                                  .competition_id = options.competition_id,
                                  .sample_submission = (data / options.sample_submission).string(),
                                  .loader = std::move(loader)}));
    RETURN_IF_ERROR(WriteStringToFile(script, text));
    fs::permissions(script, kReadOnlyExecutable, ec);
    if (ec) return FsError("cannot set permissions of", script, ec);
    instructions += ValidateSubmissionInstructions(script.string());
  }
  return WriteStringToFile(workspace / "instructions.txt", instructions);
}

// What the run's sandbox is made of (sandbox.h): the options' part of it,
// resolved where the runner knows more (the output base, the staging dir).
SandboxRequest SandboxRequestFor(const RunOptions& options, const fs::path& workspace,
                                 const fs::path& agent, const std::vector<std::string>& env,
                                 int64_t max_file_bytes, const std::optional<EgressProxy>& proxy) {
  return {.bwrap = options.bwrap,
          .sandbox_entry = options.sandbox_entry,
          .workspace = workspace,
          .agent = agent,
          .env = env,
          .staging_dir = WorkspaceStagingDir(workspace),
          .allowed_roots = options.allowed_roots,
          .forbidden_roots = options.forbidden_roots,
          .output_base = OutputBaseOfExecroot(),
          .max_staged_bytes = options.max_staged_bytes,
          .public_dir = options.public_dir,
          .link_public = options.link_public,
          .environment_dir = options.environment_dir,
          .environment_mount = options.environment_mount,
          .rootfs_dir = options.rootfs_dir,
          .rootfs_manifest = options.rootfs_manifest,
          .online_cpus = options.cpu_ids.empty() ? "" : CpuListText(options.cpu_ids) + "\n",
          .gpu_ids = options.gpu_ids,
          .device_dir = options.device_dir,
          .proxy_socket_dir = proxy.has_value() ? proxy->socket_dir() : fs::path(),
          .socat = options.proxy.socat,
          .validator = options.validator,
          .share_network = options.network == Network::kUnconfined,
          .shm_bytes = options.limits.has_value() ? options.limits->memory_bytes : 0,
          .sandbox_uid = options.sandbox_uid,
          .sandbox_gid = options.sandbox_gid,
          .max_file_bytes = max_file_bytes};
}

// Gives the agent's writable directories to the sandbox user, so that a
// runner running as root never runs the agent as root.
absl::Status HandWorkspaceTo(const fs::path& workspace, uid_t uid, gid_t gid) {
  for (const fs::path& dir : {workspace, workspace / "submission", workspace / "logs",
                              workspace / "code"}) {
    if (lchown(dir.c_str(), uid, gid) != 0) return ErrnoError("cannot hand over", dir, errno);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> AgentEnvironment(const fs::path& workspace,
                                                          const fs::path& agent,
                                                          const RunOptions& options) {
  const std::string ws = workspace.string();
  std::string path;
  for (const std::string& entry : options.environment_path) {
    absl::StrAppend(&path, (options.environment_mount / entry).string(), ":");
  }
  path += "/usr/bin:/bin";
  const std::string cpus = absl::StrCat(GrantedCpuCount(options));
  const ResourceLimits limits = options.limits.value_or(ResourceLimits{});
  // std::map: variables in a fixed (sorted) order.
  std::map<std::string, std::string> vars = {
      {"PATH", path},
      {"TMPDIR", "/tmp"},
      {"MLEBENCH_CPUS", cpus},
      {"MLEBENCH_MEMORY_BYTES", absl::StrCat(limits.memory_bytes)},
      {"MLEBENCH_GPUS", absl::StrCat(options.gpu_ids.size())},
      // Thread pools that do not look at the affinity size themselves by it.
      {"OMP_NUM_THREADS", cpus},
      {"OPENBLAS_NUM_THREADS", cpus},
      {"MKL_NUM_THREADS", cpus},
      {"NUMEXPR_MAX_THREADS", cpus},
      {"VECLIB_MAXIMUM_THREADS", cpus},
      // Only the granted GPUs' device nodes exist inside, so CUDA numbers
      // them 0..k-1 (as under NVIDIA's container runtime); "" hides every
      // GPU. NVIDIA_VISIBLE_DEVICES names them by the host's numbers.
      {"CUDA_VISIBLE_DEVICES", CudaDeviceList(options.gpu_ids.size())},
      {"NVIDIA_VISIBLE_DEVICES",
       options.gpu_ids.empty() ? std::string("void") : absl::StrJoin(options.gpu_ids, ",")},
      {"HOME", ws},
      {"LANG", "C.UTF-8"},
      {"MLEBENCH_WORKSPACE", ws},
      {"MLEBENCH_DATA_DIR", (workspace / "data").string()},
      {"MLEBENCH_SUBMISSION_DIR", (workspace / "submission").string()},
      {"MLEBENCH_LOGS_DIR", (workspace / "logs").string()},
      {"MLEBENCH_CODE_DIR", (workspace / "code").string()},
      {"MLEBENCH_COMPETITION_ID", options.competition_id},
      {"MLEBENCH_SAMPLE_SUBMISSION", (workspace / "data" / options.sample_submission).string()},
      {"MLEBENCH_SEED", absl::StrCat(options.seed)},
      {"MLEBENCH_TIME_LIMIT_S", absl::StrCat(options.time_limit_s)},
      // Upstream's names, set in its agent images and container.
      {"SUBMISSION_DIR", (workspace / "submission").string()},
      {"LOGS_DIR", (workspace / "logs").string()},
      {"CODE_DIR", (workspace / "code").string()},
      {"COMPETITION_ID", options.competition_id},
  };
  if (options.network == Network::kAllowlist) {
    // What HTTP clients (curl, pip, requests, httpx, the OpenAI SDK, ...)
    // read; the forwarder on the sandbox's loopback leads to the proxy.
    const std::string proxy = absl::StrCat("http://127.0.0.1:", kSandboxProxyPort);
    for (const char* name :
         {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"}) {
      vars[name] = proxy;
    }
    vars["MLEBENCH_ALLOWED_HOSTS"] = absl::StrJoin(AllowedHostNames(options.allowed_hosts), ",");
  }
  // sh_binary and py_binary launchers find their runfiles through this.
  fs::path runfiles = agent;
  runfiles += ".runfiles";
  std::error_code ec;
  if (fs::is_directory(runfiles, ec)) vars["RUNFILES_DIR"] = runfiles.string();
  for (const Secret& secret : options.secrets) {
    if (vars.contains(secret.name) || absl::StartsWith(secret.name, "MLEBENCH_")) {
      return absl::InvalidArgumentError(absl::StrCat(
          "secret ", secret.name, " would replace a variable the runner sets itself"));
    }
    vars[secret.name] = secret.value;
  }
  std::vector<std::string> env;
  for (const auto& [name, value] : vars) env.push_back(absl::StrCat(name, "=", value));
  return env;
}

// Copies submission/submission.csv to `submission_out` when it is a regular
// file beneath the workspace, at most `max_bytes` and without holes. Returns
// its size, or nullopt (with the reason in the log) when there is none.
absl::StatusOr<std::optional<int64_t>> CollectSubmission(const fs::path& workspace,
                                                         const fs::path& submission_out,
                                                         int64_t max_bytes, LogSink& log) {
  constexpr char kRelative[] = "submission/submission.csv";
  auto note = [&](absl::string_view why) -> absl::StatusOr<std::optional<int64_t>> {
    log.Note(absl::StrCat("run_agent: no submission: ", kRelative, " ", why, "\n"));
    return std::nullopt;
  };
  FileDescriptor root(open(workspace.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (root.get() < 0) return ErrnoError("cannot open", workspace, errno);
  FileDescriptor file(OpenBeneath(root.get(), kRelative, O_RDONLY | O_NONBLOCK));
  if (file.get() < 0) {
    const int error = errno;
    if (error == ENOSYS) {
      return absl::FailedPreconditionError(
          "the kernel lacks openat2 (Linux >= 5.6), which reading the submission safely needs");
    }
    if (error == ENOENT) {
      FileDescriptor link(OpenBeneath(root.get(), kRelative, O_PATH | O_NOFOLLOW));
      struct stat st;
      if (link.get() >= 0 && fstat(link.get(), &st) == 0 && S_ISLNK(st.st_mode)) {
        return note("is a dangling symlink");
      }
      return note("does not exist");
    }
    if (error == EXDEV) return note("is, or lies behind, a symlink to outside the workspace");
    if (error == ELOOP) return note("is behind a symlink loop");
    return note(absl::StrCat("cannot be opened: ", std::strerror(error)));
  }
  struct stat st;
  if (fstat(file.get(), &st) != 0) return ErrnoError("cannot stat", kRelative, errno);
  if (!S_ISREG(st.st_mode)) return note("is not a regular file");
  if (st.st_size > max_bytes) {
    return note(absl::StrCat("is larger than ", max_bytes, " bytes (", st.st_size, ")"));
  }
  const off_t hole = lseek(file.get(), 0, SEEK_HOLE);
  if (hole >= 0 && hole < st.st_size) {
    return note("has holes (a sparse file: its gaps would read as NUL bytes)");
  }
  lseek(file.get(), 0, SEEK_SET);
  const fs::path destination = submission_out / "submission.csv";
  FileDescriptor out(
      open(destination.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (out.get() < 0) return ErrnoError("cannot create", destination, errno);
  int64_t copied = 0;
  char buffer[1 << 16];
  while (copied <= max_bytes) {
    const ssize_t n = read(file.get(), buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoError("cannot read", kRelative, errno);
    if (n == 0) break;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = write(out.get(), buffer + done, static_cast<size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return ErrnoError("cannot write", destination, errno);
      done += w;
    }
    copied += n;
  }
  if (copied > max_bytes) {
    out.Close();
    std::error_code ignored;
    fs::remove(destination, ignored);
    return note(absl::StrCat("grew beyond ", max_bytes, " bytes while being copied"));
  }
  return copied;
}

}  // namespace

absl::StatusOr<RunRecord> RunAgent(const RunOptions& options) {
  RETURN_IF_ERROR(ValidateOptions(options));
  std::error_code ec;
  // Resolved before anything changes directory; not canonicalised, so that a
  // launcher still finds `<agent>.runfiles` next to the path it was given.
  const fs::path agent = fs::absolute(options.agent, ec);
  if (ec) return FsError("cannot resolve", options.agent, ec);

  if (options.log_out.has_parent_path()) fs::create_directories(options.log_out.parent_path(), ec);
  FileDescriptor log_fd(
      open(options.log_out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (log_fd.get() < 0) return ErrnoError("cannot open log", options.log_out, errno);
  SecretRedactor redactor(options.secrets);
  LogSink log(log_fd.get(), options.max_log_bytes, &redactor);
  fs::create_directories(options.submission_out, ec);
  if (ec) return FsError("cannot create", options.submission_out, ec);

  ASSIGN_OR_RETURN(const fs::path workspace, WorkspacePath(options.workspace));
  // Held until this function returns, when the workspace is removed (unless
  // kept); should the runner die before, its janitor removes it.
  ASSIGN_OR_RETURN(WorkspaceLease lease,
                   WorkspaceLease::Acquire(workspace, kWorkspaceLockWait));
  lease.set_keep_workspace(options.keep_workspace);
  RETURN_IF_ERROR(PopulateWorkspace(workspace, options));
  // Measured now: what is in the workspace before the agent starts is ours.
  ASSIGN_OR_RETURN(WorkspaceQuota quota,
                   WorkspaceQuota::Start(workspace, options.workspace_quota_bytes,
                                         options.workspace_quota_inodes));

  ASSIGN_OR_RETURN(const std::vector<std::string> env, AgentEnvironment(workspace, agent, options));
  std::optional<EgressProxy> proxy;
  if (options.network == Network::kAllowlist) {
    absl::StatusOr<EgressProxy> started = EgressProxy::Start(options.allowed_hosts, options.proxy);
    if (!started.ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot start the agent's egress proxy: ", started.status().message()));
    }
    proxy.emplace(*std::move(started));
  }
  // Under bwrap: everything the sandbox is made of, tried once. Failing to
  // confine the agent is an error, never a run without isolation.
  std::optional<Sandbox> sandbox;
  if (options.isolation == Isolation::kBwrap) {
    ASSIGN_OR_RETURN(sandbox, PrepareSandbox(SandboxRequestFor(options, workspace, agent, env,
                                                               quota.bytes(), proxy)));
    if (!sandbox->note().empty()) log.Note(sandbox->note());
    if (const auto& user = sandbox->agent_user(); user.has_value()) {
      RETURN_IF_ERROR(HandWorkspaceTo(workspace, user->first, user->second));
    }
  }
  std::optional<AgentCgroup> cgroup;
  if (options.limits.has_value()) {
    ResourceLimits limits = *options.limits;
    if (!options.cpu_ids.empty()) {
      limits.cpuset_cpus = CpuListText(options.cpu_ids);
      limits.cpus = static_cast<double>(options.cpu_ids.size());
    }
    absl::StatusOr<AgentCgroup> created = AgentCgroup::Create(limits, "mlebench-agent");
    if (!created.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot limit the agent's resources: ", created.status().message(),
          " (--//agent_runner:resource_limits=off runs the agent without limits)"));
    }
    cgroup = *std::move(created);
    lease.AddCgroupDirectories(cgroup->directories());
  }

  std::vector<std::string> command = {agent.string()};
  command.insert(command.end(), options.agent_args.begin(), options.agent_args.end());
  ChildSpec spec;
  if (sandbox.has_value()) {
    spec = sandbox->Child(command);
  } else {
    spec.argv = std::move(command);
  }
  spec.env = env;
  spec.cwd = workspace;
  spec.log = &log;
  if (sandbox.has_value()) spec.pipe_owner = sandbox->agent_user();
  spec.cgroup = cgroup.has_value() ? &*cgroup : nullptr;
  const bool sandboxed = sandbox.has_value();
  // An agent that makes requests as fast as it can grows the proxy's log on
  // the host's disk: a quota like the workspace's.
  bool proxy_log_full = false;
  const EgressProxy* running_proxy = proxy.has_value() ? &*proxy : nullptr;
  spec.over_quota = [&quota, sandboxed, running_proxy, &proxy_log_full](pid_t child) {
    if (running_proxy != nullptr && running_proxy->LogFull()) {
      proxy_log_full = true;
      return true;
    }
    // Whose open files count towards the quota: every process in the
    // sandbox, or, without one, in the agent's process group.
    return quota.Over(sandboxed ? SandboxedProcesses(child) : ProcessesInGroup(child));
  };
  spec.time_limit_s = options.time_limit_s;
  spec.grace_s = options.grace_s;
  spec.kill_all_children = options.kill_all_children;
  spec.spared_children = {lease.janitor()};
  if (proxy.has_value()) {
    for (pid_t pid : proxy->pids()) spec.spared_children.push_back(pid);
  }
  spec.cpu_affinity = options.cpu_ids;
  // Every process of the agent ends up reaped by the runner (its child
  // bwrap, the sandbox's init that bwrap's child is, or the runner as their
  // subreaper): its children's CPU time, before and after, is the agent's.
  struct rusage before;
  getrusage(RUSAGE_CHILDREN, &before);
  ASSIGN_OR_RETURN(ChildOutcome outcome, RunChild(spec));
  struct rusage after;
  getrusage(RUSAGE_CHILDREN, &after);

  RunRecord record;
  record.competition_id = options.competition_id;
  record.agent = agent.filename().string();
  record.seed = options.seed;
  if (WIFEXITED(outcome.wait_status)) record.exit_code = WEXITSTATUS(outcome.wait_status);
  if (WIFSIGNALED(outcome.wait_status)) record.signal = WTERMSIG(outcome.wait_status);
  record.timed_out = outcome.timed_out;
  record.quota_exceeded = outcome.over_quota;
  record.duration_s = outcome.duration_s;
  record.time_limit_s = options.time_limit_s;
  record.isolation = sandbox.has_value() ? Isolation::kBwrap : Isolation::kNone;
  record.network = sandbox.has_value() ? options.network : Network::kUnconfined;
  for (const Secret& secret : options.secrets) record.secret_names.push_back(secret.name);
  if (proxy.has_value()) {
    record.allowed_hosts = options.allowed_hosts;
    record.egress_gateway = options.proxy.parent_socket.string();
    ASSIGN_OR_RETURN(record.connections, proxy->Stop());
    // The agent names the hosts and methods: never a secret in the record.
    for (ProxyConnection& c : record.connections.connections) {
      if (MentionsSecret(c.host, options.secrets)) c.host = "[secret]";
      if (MentionsSecret(c.method, options.secrets)) c.method = "[secret]";
    }
    if (record.connections.refused > 0) {
      log.Note(absl::StrCat("run_agent: the egress proxy refused ", record.connections.refused,
                            " of ", record.connections.total,
                            " request(s) to hosts not on the allow-list (see the run record)\n"));
    }
    if (record.connections.refused_upstream > 0) {
      log.Note(absl::StrCat("run_agent: the egress gateway (", options.proxy.parent_socket.string(),
                            ") refused ", record.connections.refused_upstream, " of ",
                            record.connections.total,
                            " request(s) the run's allow-list let through: the machine's "
                            "administrator allows fewer hosts (see the run record)\n"));
    }
  }
  const auto seconds = [](const struct timeval& tv) { return tv.tv_sec + tv.tv_usec / 1e6; };
  record.cpu_seconds = std::max(0.0, seconds(after.ru_utime) + seconds(after.ru_stime) -
                                         seconds(before.ru_utime) - seconds(before.ru_stime));
  record.agent_label = options.agent_label;
  record.agent_digest = options.agent_digest;
  record.environment_digest = options.environment_digest;
  record.cpus = GrantedCpuCount(options);
  record.cpu_ids = options.cpu_ids;
  record.gpu_ids = options.gpu_ids;
  record.admission_wait_s = options.admission_wait_s;
  if (options.limits.has_value()) {
    record.memory_limit_bytes = options.limits->memory_bytes;
    record.processes_limit = options.limits->pids;
  }
  if (record.timed_out) record.ended_by = "time_limit";
  if (record.quota_exceeded) record.ended_by = proxy_log_full ? "proxy_log_quota" : "workspace_quota";
  if (record.quota_exceeded) {
    log.Note(absl::StrCat("run_agent: stopped the agent: ",
                          proxy_log_full
                              ? absl::StrCat("the egress proxy's log of its requests outgrew ",
                                             options.proxy.max_log_file_bytes, " bytes")
                              : quota.why(),
                          "\n"));
  }
  if (cgroup.has_value()) {
    const AgentCgroup::Usage usage = cgroup->ReadUsage();
    record.out_of_memory = usage.oom_kills > 0;
    record.memory_peak_bytes = usage.memory_peak_bytes;
    record.processes_limit_hits = usage.pids_limit_hits;
    // The OOM killer's SIGKILL reaches the agent's main process as signal 9
    // (or, under bwrap, as exit status 128 + 9 passed on).
    if (record.out_of_memory && record.ended_by == "agent" &&
        (record.signal == SIGKILL || record.exit_code == 128 + SIGKILL)) {
      record.ended_by = "memory_limit";
    }
    if (record.out_of_memory) {
      log.Note(absl::StrCat("run_agent: the kernel's OOM killer stopped ", usage.oom_kills,
                            " process(es) of the agent at its memory limit of ",
                            options.limits->memory_bytes, " bytes\n"));
    }
    if (absl::Status s = cgroup->Remove(); !s.ok()) {
      log.Note(absl::StrCat("run_agent: warning: ", s.message(), "\n"));
    }
  }

  ASSIGN_OR_RETURN(
      std::optional<int64_t> submission_bytes,
      CollectSubmission(workspace, options.submission_out, options.max_submission_bytes, log));
  record.submission_exists = submission_bytes.has_value();
  record.submission_bytes = submission_bytes.value_or(0);
  if (options.artifacts_out.has_value()) {
    // The agent's processes are gone: what it left cannot change meanwhile.
    KeepStats kept;
    for (const char* dir : {"code", "logs"}) {
      RETURN_IF_ERROR(KeepTree(workspace, dir, *options.artifacts_out, options.keep_limits, kept));
    }
    ASSIGN_OR_RETURN(const int redacted, RedactSecretsInTree(*options.artifacts_out, options.secrets));
    if (redacted > 0) {
      log.Note(absl::StrCat("run_agent: replaced the agent's secrets in ", redacted,
                            " kept file(s) of code/ and logs/\n"));
    }
    std::string manifest = absl::StrCat("kept ", kept.files, " file(s), ", kept.bytes,
                                        " bytes; left out ", kept.skipped, "\n");
    for (const std::string& note : kept.notes) absl::StrAppend(&manifest, note, "\n");
    // The notes name files the agent named.
    manifest = SecretRedactor(options.secrets).RedactAll(manifest);
    RETURN_IF_ERROR(WriteStringToFile(*options.artifacts_out / "KEPT.txt", manifest));
    record.kept_files = kept.files;
    record.kept_bytes = kept.bytes;
    record.kept_skipped = kept.skipped;
  }
  log.Finish();
  record.log_truncated = log.truncated();
  return record;
}

absl::Status BecomeChildSubreaper() {
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    return absl::InternalError(
        absl::StrCat("cannot become a child subreaper: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace mlebench
