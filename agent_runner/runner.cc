#include "agent_runner/runner.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
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
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "agent_runner/admission.h"
#include "agent_runner/cgroup.h"
#include "agent_runner/instructions.h"
#include "agent_runner/processes.h"
#include "agent_runner/rootfs.h"
#include "agent_runner/runfiles_stage.h"
#include "agent_runner/sandbox.h"
#include "agent_runner/seccomp_filter.h"
#include "agent_runner/workspace_lease.h"
#include "agent_runner/workspace_quota.h"
#include "agent_runner/internal/child_process.h"
#include "agent_runner/validation/validate_script.h"
#include "base/json_text.h"
#include "base/files.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

using namespace runner_internal;  // NOLINT: the runner's own child processes

namespace fs = std::filesystem;

// Where agent environments are mounted (RunOptions::environment_mount).
constexpr char kEnvironmentMountPrefix[] = "/opt/mlebench/";

// How long a run waits for another run, or the janitor of a killed one, to
// let go of its workspace (workspace_lease.h).
constexpr std::chrono::seconds kWorkspaceLockWait(600);

// Upper bounds that keep deadline arithmetic far from overflow.
constexpr int64_t kMaxTimeLimitS = 10'000'000;  // ~115 days
constexpr double kMaxGraceS = 3600;


absl::Status FsError(absl::string_view what, const fs::path& path, const std::error_code& ec) {
  return absl::InternalError(absl::StrCat(what, " ", path.string(), ": ", ec.message()));
}

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

absl::Status CopyRegularFile(const fs::path& from, const fs::path& to, fs::perms mode) {
  std::error_code ec;
  fs::copy_file(from, to, ec);  // reads through symlinks, as Bazel inputs often are
  if (ec) return FsError(absl::StrCat("cannot copy ", from.string(), " to"), to, ec);
  fs::permissions(to, mode, ec);
  if (ec) return FsError("cannot set permissions of", to, ec);
  return absl::OkStatus();
}

constexpr fs::perms kReadOnlyFile =
    fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read;
constexpr fs::perms kReadOnlyExecutable = fs::perms::owner_read | fs::perms::owner_exec |
                                          fs::perms::group_read | fs::perms::group_exec |
                                          fs::perms::others_read | fs::perms::others_exec;
constexpr fs::perms kReadOnlyDir =
    kReadOnlyFile | fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec;

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

absl::Status WriteTextFile(const fs::path& path, absl::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path.string()));
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

// The device nodes of the granted GPUs, bound at /dev/<name>: each
// <device_dir>/nvidia<N>, and, when there is one, the driver's control
// nodes that exist. An absent GPU node is an error.
absl::StatusOr<std::vector<std::pair<fs::path, fs::path>>> GpuDeviceNodes(
    const RunOptions& options) {
  std::vector<std::pair<fs::path, fs::path>> nodes;
  if (options.gpu_ids.empty()) return nodes;
  for (const int id : options.gpu_ids) {
    const std::string name = absl::StrCat("nvidia", id);
    struct stat st;
    if (stat((options.device_dir / name).c_str(), &st) != 0 || !S_ISCHR(st.st_mode)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "GPU ", id, " was granted but ", (options.device_dir / name).string(),
          " is not a character device"));
    }
    nodes.emplace_back(options.device_dir / name, fs::path("/dev") / name);
  }
  for (const char* name : {"nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset"}) {
    struct stat st;
    if (stat((options.device_dir / name).c_str(), &st) == 0 && S_ISCHR(st.st_mode)) {
      nodes.emplace_back(options.device_dir / name, fs::path("/dev") / name);
    }
  }
  return nodes;
}

// A directory to be bound into the sandbox (`what`: "the agent's
// environment", "the agent's root file system"), resolved, with the allowed
// root that holds it, once it is known not to expose what the agent must not
// see: like a runfile, it must lie inside an allowed root (the agent's
// configuration's outputs, external repositories, the source tree) and
// outside every forbidden one, the more specific root deciding (the output
// base is forbidden, external repositories inside it allowed); and it may
// not hold a forbidden root, the output base or the competition's data. What
// is bound of it is then checked with CheckTreeToBind.
struct DirToBind {
  fs::path dir;
  fs::path floor;
};

absl::StatusOr<DirToBind> ResolveDirToBind(const RunOptions& options, const fs::path& given,
                                           absl::string_view what) {
  std::error_code ec;
  const fs::path dir = fs::canonical(given, ec);
  if (ec) return FsError(absl::StrCat("cannot find ", what), given, ec);
  const auto refuse = [&](absl::string_view why) {
    return absl::PermissionDeniedError(absl::StrCat(what, " ", given.string(), " (", dir.string(),
                                                    ") ", why, "; see docs/agents.md"));
  };
  // The most specific allowed root it resolves into. An execroot's
  // external/ holds symlinks into <output base>/external, where the
  // repositories are: that directory stands for it.
  std::vector<fs::path> floors;
  const std::optional<fs::path> output_base = OutputBaseOfExecroot();
  for (const fs::path& root : options.allowed_roots) {
    floors.push_back(fs::weakly_canonical(root, ec));
    if (output_base.has_value() && fs::absolute(root).lexically_normal().filename() == "external") {
      floors.push_back(*output_base / "external");
    }
  }
  fs::path allowed;
  for (const fs::path& floor : floors) {
    if (!floor.empty() && IsInside(dir, floor) &&
        floor.string().size() > allowed.string().size()) {
      allowed = floor;
    }
  }
  if (allowed.empty()) {
    return refuse(
        "lies outside every allowed root (the agent's own outputs, external repositories, the "
        "source tree)");
  }
  std::vector<fs::path> forbidden;
  for (const fs::path& root : options.forbidden_roots) forbidden.push_back(fs::absolute(root));
  if (output_base.has_value()) forbidden.push_back(*output_base);
  // The competition's data: prepared public/ and private/ sit side by side.
  forbidden.push_back(fs::absolute(options.public_dir).parent_path());
  for (const fs::path& root : forbidden) {
    const fs::path resolved = fs::weakly_canonical(root, ec);
    if (ec) continue;
    if (IsInside(resolved, dir)) return refuse(absl::StrCat("holds ", resolved.string()));
    if (IsInside(dir, resolved) && resolved.string().size() >= allowed.string().size()) {
      return refuse(absl::StrCat("lies inside ", resolved.string()));
    }
  }
  return DirToBind{.dir = dir, .floor = allowed};
}

// The environment's directory, resolved, once it is known not to expose
// what the agent must not see (ResolveDirToBind), and nothing in it or above
// it (up to its allowed root) looks like a holder of answers, a device, or a
// mount point (CheckTreeToBind).
absl::StatusOr<fs::path> CheckedEnvironmentDir(const RunOptions& options) {
  ASSIGN_OR_RETURN(DirToBind bind,
                   ResolveDirToBind(options, options.environment_dir, "the agent's environment"));
  if (absl::Status s = CheckTreeToBind(bind.dir, bind.floor); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("the agent's environment ",
                                               options.environment_dir.string(), ": ",
                                               s.message()));
  }
  return bind.dir;
}

// The agent's root file system, resolved and judged like the environment:
// each of its trees the sandbox binds (the real directories among
// kRootfsSystemEntries) by CheckTreeToBind, then the whole against its
// manifest (CheckRootfs). `note` gets what the log says of it.
absl::StatusOr<fs::path> CheckedRootfsDir(const RunOptions& options, std::string& note) {
  const std::string what = "the agent's root file system";
  ASSIGN_OR_RETURN(DirToBind bind, ResolveDirToBind(options, options.rootfs_dir, what));
  const auto fail = [&](const absl::Status& s) {
    return absl::Status(s.code(),
                        absl::StrCat(what, " ", options.rootfs_dir.string(), ": ", s.message()));
  };
  for (const char* name : kRootfsSystemEntries) {
    struct stat st;
    if (lstat((bind.dir / name).c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    if (absl::Status s = CheckTreeToBind(bind.dir / name, bind.floor); !s.ok()) return fail(s);
  }
  std::optional<std::string> manifest;
  if (!options.rootfs_manifest.empty()) {
    ASSIGN_OR_RETURN(manifest, ReadFileToString(options.rootfs_manifest));
  }
  absl::StatusOr<RootfsSummary> summary = CheckRootfs(bind.dir, manifest);
  if (!summary.ok()) return fail(summary.status());
  note = absl::StrCat("run_agent: the agent runs on its own root file system ",
                      options.rootfs_dir.string(), ": ", summary->entries, " entries",
                      manifest.has_value() ? ", as its manifest lists them" : "");
  if (!summary->setid_files.empty()) {
    const size_t shown = std::min<size_t>(summary->setid_files.size(), 5);
    absl::StrAppend(
        &note, "; ", summary->setid_files.size(), " setuid or setgid file(s) (",
        absl::StrJoin(summary->setid_files.begin(), summary->setid_files.begin() + shown, ", "),
        summary->setid_files.size() > shown ? ", ..." : "",
        "), which give nothing: no_new_privs is set before the agent starts");
  }
  absl::StrAppend(&note, "\n");
  return bind.dir;
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
    RETURN_IF_ERROR(WriteTextFile(script, text));
    fs::permissions(script, kReadOnlyExecutable, ec);
    if (ec) return FsError("cannot set permissions of", script, ec);
    instructions += ValidateSubmissionInstructions(script.string());
  }
  return WriteTextFile(workspace / "instructions.txt", instructions);
}

// ---------------------------------------------------------------------------
// Isolation

// A memory file holding `contents`, at a descriptor above stderr, so that
// the child can keep it where it is: bwrap's --args (arguments,
// NUL-separated) and --seccomp (a classic BPF program).
absl::StatusOr<FileDescriptor> WriteMemoryFile(const char* name, absl::string_view contents) {
  FileDescriptor file(memfd_create(name, MFD_CLOEXEC));
  if (file.get() < 0) return ErrnoError("cannot create", "a memory file for bwrap", errno);
  if (file.get() <= STDERR_FILENO) {
    file = FileDescriptor(fcntl(file.get(), F_DUPFD_CLOEXEC, STDERR_FILENO + 1));
    if (file.get() < 0) return ErrnoError("cannot move", "a memory file for bwrap", errno);
  }
  for (size_t written = 0; written < contents.size();) {
    const ssize_t n = write(file.get(), contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ErrnoError("cannot write", "a memory file for bwrap", errno);
    written += static_cast<size_t>(n);
  }
  return file;
}

absl::StatusOr<FileDescriptor> WriteArgsFile(const std::vector<std::string>& args) {
  std::string contents;
  for (const std::string& arg : args) {
    contents += arg;
    contents.push_back('\0');
  }
  return WriteMemoryFile("bwrap-args", contents);
}

// The agents' seccomp program for bwrap's --seccomp: bwrap installs it on the
// sandbox's init as well as on the command, so that the init - which runs
// as the agent's own user when the runner is not root, dumpable, and so
// within the agent's reach through /proc/1/mem - is never a process without
// the filter.
absl::StatusOr<FileDescriptor> WriteSeccompFile() {
  const std::vector<struct sock_filter> program = AgentSeccompProgram();
  return WriteMemoryFile(
      "bwrap-seccomp",
      absl::string_view(reinterpret_cast<const char*>(program.data()),
                        program.size() * sizeof(struct sock_filter)));
}

// How bwrap is started: argv for `command` under `args_file` (read from its
// start, so each run rewinds it).
ChildSpec BwrapChild(const fs::path& bwrap, int args_file, int seccomp_file,
                     std::vector<std::string> command) {
  lseek(args_file, 0, SEEK_SET);
  lseek(seccomp_file, 0, SEEK_SET);
  ChildSpec spec;
  spec.argv = {bwrap.string(), "--args", absl::StrCat(args_file)};
  spec.argv.insert(spec.argv.end(), command.begin(), command.end());
  spec.inherited_fds = {args_file, seccomp_file};
  spec.sandboxed = true;
  return spec;
}

constexpr int64_t kProbeTimeLimitS = 10;

// Why bwrap cannot confine the agent here, or nullopt when it can: runs
// /bin/true once, through the sandbox entry, with the run's own options
// (`args_file`, `seccomp_file`), so that every mount and every step of the
// entry is tried.
absl::StatusOr<std::optional<std::string>> ProbeBwrap(const fs::path& bwrap, int args_file,
                                                      int seccomp_file,
                                                      const std::vector<std::string>& entry,
                                                      const std::vector<std::string>& probe,
                                                      const std::vector<std::string>& env,
                                                      const fs::path& workspace) {
  if (access(bwrap.c_str(), X_OK) != 0) {
    return absl::StrCat("cannot execute ", bwrap.string(), ": ", std::strerror(errno));
  }
  FileDescriptor output(memfd_create("bwrap-probe", MFD_CLOEXEC));
  if (output.get() < 0) return ErrnoError("cannot create", "a memory file for bwrap", errno);
  std::vector<std::string> command = entry;
  command.insert(command.end(), probe.begin(), probe.end());
  ChildSpec spec = BwrapChild(bwrap, args_file, seccomp_file, std::move(command));
  spec.env = env;
  spec.cwd = workspace;
  spec.output_fd = output.get();
  spec.time_limit_s = kProbeTimeLimitS;
  ASSIGN_OR_RETURN(ChildOutcome outcome, RunChild(spec));
  if (WIFEXITED(outcome.wait_status) && WEXITSTATUS(outcome.wait_status) == 0) {
    return std::nullopt;
  }
  char message[1024];
  const ssize_t size = pread(output.get(), message, sizeof(message), 0);
  const std::string said(absl::StripAsciiWhitespace(
      absl::string_view(message, static_cast<size_t>(std::max<ssize_t>(size, 0)))));
  std::string how;
  if (outcome.timed_out) {
    how = absl::StrCat("did not finish within ", kProbeTimeLimitS, " s");
  } else if (WIFEXITED(outcome.wait_status)) {
    how = absl::StrCat("exited with status ", WEXITSTATUS(outcome.wait_status));
  } else {
    how = absl::StrCat("was killed by signal ", WTERMSIG(outcome.wait_status));
  }
  return absl::StrCat(bwrap.string(), " --args ... ", kSandboxEntryPath, " ... ",
                      absl::StrJoin(probe, " "), " ", how,
                      said.empty() ? "" : absl::StrCat(": ", said));
}

// The isolation the run gets: for bwrap the file of its options and the
// sandbox entry's command line (the agent's command follows it).
struct Confinement {
  Isolation isolation = Isolation::kNone;
  fs::path bwrap;
  FileDescriptor args_file;
  FileDescriptor seccomp_file;
  std::vector<std::string> entry;
  // What the log says first (the agent's root file system), or "".
  std::string note;
  // Set when the sandbox entry becomes another user (the runner is root):
  // the workspace and the output pipe are handed to it.
  std::optional<std::pair<uid_t, gid_t>> agent_user;
};

// What the sandbox must show besides the workspace: the linked public dir.
std::vector<fs::path> ReadOnlyDirs(const RunOptions& options) {
  if (!options.link_public) return {};
  std::error_code ec;
  fs::path dir = fs::canonical(options.public_dir, ec);
  return {ec ? fs::absolute(options.public_dir) : dir};
}

// The agent's processes, whose open files count towards its quota: every
// process in the sandbox's pid namespace (bwrap's child is its init), or,
// without a sandbox, in the agent's process group.
std::vector<pid_t> AgentProcesses(pid_t child, bool sandboxed) {
  if (!sandboxed) return ProcessesInGroup(child);
  for (const pid_t init : ChildrenOf(child)) {
    if (std::optional<std::string> ns = PidNamespaceOf(init)) return ProcessesInPidNamespace(*ns);
  }
  return {};
}

// Canonical forms of `dirs` (the staging policy compares resolved paths).
// One that does not exist is left out: nothing can resolve into it. (A
// remote action's input root has no external/ when no input comes from an
// external repository.)
absl::StatusOr<std::vector<fs::path>> CanonicalDirs(const std::vector<fs::path>& dirs,
                                                    absl::string_view what) {
  std::vector<fs::path> resolved;
  for (const fs::path& dir : dirs) {
    std::error_code ec;
    fs::path canonical = fs::canonical(dir, ec);
    if (ec == std::errc::no_such_file_or_directory) continue;
    if (ec) return FsError(absl::StrCat("cannot resolve ", what), dir, ec);
    resolved.push_back(std::move(canonical));
  }
  return resolved;
}

// Stages the agent and its runfiles (only files inside the allowed roots),
// writes bwrap's options and tries them once: failing to confine the agent is
// an error, never a run without isolation.
absl::StatusOr<Confinement> ChooseConfinement(const RunOptions& options, const fs::path& workspace,
                                              const fs::path& agent,
                                              const std::vector<std::string>& env,
                                              int64_t max_file_bytes,
                                              const EgressProxy* proxy) {
  Confinement confinement;
  if (options.isolation == Isolation::kNone) return confinement;
  std::error_code ec;
  confinement.bwrap = fs::absolute(options.bwrap, ec);
  if (ec) return FsError("cannot resolve", options.bwrap, ec);
  const fs::path sandbox_entry = fs::canonical(options.sandbox_entry, ec);
  if (ec) return FsError("cannot find the sandbox entry", options.sandbox_entry, ec);

  StagingPolicy policy;
  ASSIGN_OR_RETURN(std::vector<fs::path> allowed,
                   CanonicalDirs(options.allowed_roots, "allowed root"));
  policy.allowed_roots = std::move(allowed);
  // The staging resolves them (one that does not exist yet still applies).
  for (const fs::path& dir : options.forbidden_roots) {
    policy.forbidden_roots.push_back(fs::absolute(dir));
  }
  // The output base of the build running us holds every competition's
  // answers; inside it, only the more specific allowed roots (the agent's
  // own outputs, external repositories) are the agent's.
  if (std::optional<fs::path> output_base = OutputBaseOfExecroot()) {
    policy.forbidden_roots.push_back(*output_base);
  }
  policy.refuse_answer_holders = true;
  policy.max_copied_bytes = options.max_staged_bytes;
  const fs::path staging = WorkspaceStagingDir(workspace);
  fs::create_directory(staging, ec);
  if (ec) return FsError("cannot create", staging, ec);
  absl::StatusOr<StagingStats> staged_agent = StageFile(agent, staging / "agent", policy);
  if (!staged_agent.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the agent cannot be sandboxed: ", staged_agent.status().message()));
  }
  fs::path runfiles = agent;
  runfiles += ".runfiles";
  fs::path staged_runfiles;
  if (fs::is_directory(runfiles, ec)) {
    staged_runfiles = staging / "runfiles";
    absl::StatusOr<StagingStats> stats = StageRunfiles(runfiles, staged_runfiles, policy);
    if (!stats.ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat("the agent's runfiles cannot be sandboxed: ", stats.status().message()));
    }
  }

  std::vector<std::pair<fs::path, fs::path>> binds;
  if (!options.environment_dir.empty()) {
    ASSIGN_OR_RETURN(fs::path environment, CheckedEnvironmentDir(options));
    binds.emplace_back(std::move(environment), options.environment_mount);
  }
  // glibc's sysconf(_SC_NPROCESSORS_ONLN) - os.cpu_count(), and so the
  // thread pools of many libraries - reads this file: it shows the granted
  // CPUs only.
  if (!options.cpu_ids.empty() && fs::exists("/sys/devices/system/cpu/online", ec)) {
    const fs::path online = staging / "cpu-online";
    RETURN_IF_ERROR(WriteTextFile(online, CpuListText(options.cpu_ids) + "\n"));
    binds.emplace_back(online, "/sys/devices/system/cpu/online");
  }
  ASSIGN_OR_RETURN(auto device_nodes, GpuDeviceNodes(options));
  // The proxy's socket is the sandbox's only way out of its network
  // namespace (network allowlist).
  if (proxy != nullptr) binds.emplace_back(proxy->socket_dir(), kSandboxProxySocketDir);
  // validate_submission.sh's binary: a copy of ours (it lies among the
  // competitions' outputs, where the agent's files may not come from).
  if (!options.validator.empty()) {
    const fs::path copy = staging / "validate";
    RETURN_IF_ERROR(CopyRegularFile(options.validator, copy, kReadOnlyExecutable));
    binds.emplace_back(copy, kSandboxValidatorPath);
  }
  fs::path rootfs;
  if (!options.rootfs_dir.empty()) {
    ASSIGN_OR_RETURN(rootfs, CheckedRootfsDir(options, confinement.note));
  }

  const bool host_root = geteuid() == 0;
  ASSIGN_OR_RETURN(FileDescriptor seccomp_file, WriteSeccompFile());
  ASSIGN_OR_RETURN(std::vector<std::string> bwrap_options,
                   (BwrapOptions({.workspace = workspace,
                                  .agent = agent,
                                  .staged_agent = staging / "agent",
                                  .staged_runfiles = staged_runfiles,
                                  .sandbox_entry = sandbox_entry,
                                  .rootfs = rootfs,
                                  .share_network = options.network == Network::kUnconfined,
                                  .host_root = host_root,
                                  .read_only_dirs = ReadOnlyDirs(options),
                                  .read_only_in_workspace = {"data"},
                                  .read_only_binds = std::move(binds),
                                  .device_nodes = std::move(device_nodes),
                                  .shm_bytes = options.limits.has_value()
                                                   ? options.limits->memory_bytes
                                                   : 0,
                                  .seccomp_fd = seccomp_file.get()})));
  ASSIGN_OR_RETURN(FileDescriptor args_file, WriteArgsFile(bwrap_options));
  confinement.entry = {kSandboxEntryPath,
                       "--uid",
                       absl::StrCat(host_root ? options.sandbox_uid : getuid()),
                       "--gid",
                       absl::StrCat(host_root ? options.sandbox_gid : getgid()),
                       "--max_file_bytes",
                       absl::StrCat(max_file_bytes)};
  // The probe's program: /bin/true of the system the sandbox shows; on an
  // agent's own root file system (which need not have one), the host's,
  // through the host's loader, as the forwarder is started.
  std::vector<std::string> probe = {"/bin/true"};
  std::optional<HostLoader> host_loader;
  if (!rootfs.empty()) {
    ASSIGN_OR_RETURN(host_loader, HostLoaderInSandbox());
    ASSIGN_OR_RETURN(fs::path host_true, HostPathInSandbox("/bin/true"));
    probe = {host_loader->loader.string(), "--inhibit-cache", "--library-path",
             host_loader->library_path, host_true.string()};
  }
  if (proxy != nullptr) {
    confinement.entry.push_back("--proxy_socket");
    confinement.entry.push_back(
        (fs::path(kSandboxProxySocketDir) / kProxySocketName).string());
    if (host_loader.has_value()) {
      ASSIGN_OR_RETURN(fs::path socat, HostPathInSandbox(options.proxy.socat));
      confinement.entry.insert(confinement.entry.end(),
                               {"--socat", socat.string(), "--loader", host_loader->loader.string(),
                                "--library_path", host_loader->library_path});
    }
  }
  confinement.entry.push_back("--");
  ASSIGN_OR_RETURN(std::optional<std::string> problem,
                   ProbeBwrap(confinement.bwrap, args_file.get(), seccomp_file.get(),
                              confinement.entry, probe, env, workspace));
  if (problem.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "isolation bwrap is unavailable: ", *problem,
        " (see docs/security.md; --//agent_runner:isolation=none runs the agent unconfined)"));
  }
  confinement.isolation = Isolation::kBwrap;
  confinement.args_file = std::move(args_file);
  confinement.seccomp_file = std::move(seccomp_file);
  if (host_root) confinement.agent_user.emplace(options.sandbox_uid, options.sandbox_gid);
  return confinement;
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

std::string JsonOptionalInt(const std::optional<int>& value) {
  return value.has_value() ? absl::StrCat(*value) : "null";
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
  ASSIGN_OR_RETURN(Confinement confinement,
                   ChooseConfinement(options, workspace, agent, env, quota.bytes(),
                                     proxy.has_value() ? &*proxy : nullptr));
  if (!confinement.note.empty()) log.Note(confinement.note);
  if (const auto& user = confinement.agent_user; user.has_value()) {
    RETURN_IF_ERROR(HandWorkspaceTo(workspace, user->first, user->second));
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
  if (confinement.isolation == Isolation::kBwrap) {
    std::vector<std::string> entry_and_command = confinement.entry;
    entry_and_command.insert(entry_and_command.end(), command.begin(), command.end());
    spec = BwrapChild(confinement.bwrap, confinement.args_file.get(),
                      confinement.seccomp_file.get(), std::move(entry_and_command));
  } else {
    spec.argv = std::move(command);
  }
  spec.env = env;
  spec.cwd = workspace;
  spec.log = &log;
  spec.pipe_owner = confinement.agent_user;
  spec.cgroup = cgroup.has_value() ? &*cgroup : nullptr;
  const bool sandboxed = spec.sandboxed;
  // An agent that makes requests as fast as it can grows the proxy's log on
  // the host's disk: a quota like the workspace's.
  bool proxy_log_full = false;
  const EgressProxy* running_proxy = proxy.has_value() ? &*proxy : nullptr;
  spec.over_quota = [&quota, sandboxed, running_proxy, &proxy_log_full](pid_t child) {
    if (running_proxy != nullptr && running_proxy->LogFull()) {
      proxy_log_full = true;
      return true;
    }
    return quota.Over(AgentProcesses(child, sandboxed));
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
  record.isolation = confinement.isolation;
  record.network =
      confinement.isolation == Isolation::kBwrap ? options.network : Network::kUnconfined;
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
    RETURN_IF_ERROR(WriteTextFile(*options.artifacts_out / "KEPT.txt", manifest));
    record.kept_files = kept.files;
    record.kept_bytes = kept.bytes;
    record.kept_skipped = kept.skipped;
  }
  log.Finish();
  record.log_truncated = log.truncated();
  return record;
}

std::string RunRecordToJson(const RunRecord& record) {
  std::string json = "{\"competition_id\": ";
  json += JsonString(record.competition_id);
  json += ", \"agent\": ";
  json += JsonString(record.agent);
  absl::StrAppend(&json, ", \"seed\": ", record.seed,
                  ", \"exit_code\": ", JsonOptionalInt(record.exit_code),
                  ", \"signal\": ", JsonOptionalInt(record.signal),
                  ", \"timed_out\": ", record.timed_out ? "true" : "false",
                  ", \"duration_s\": ", absl::StrFormat("%.3f", record.duration_s),
                  ", \"time_limit_s\": ", record.time_limit_s,
                  ", \"submission_exists\": ", record.submission_exists ? "true" : "false",
                  ", \"submission_bytes\": ", record.submission_bytes, ", \"isolation\": \"",
                  IsolationName(record.isolation), "\"", ", \"network\": \"",
                  NetworkName(record.network), "\"",
                  ", \"quota_exceeded\": ", record.quota_exceeded ? "true" : "false",
                  ", \"out_of_memory\": ", record.out_of_memory ? "true" : "false",
                  ", \"log_truncated\": ", record.log_truncated ? "true" : "false");
  json += ", \"agent_label\": ";
  json += JsonString(record.agent_label);
  json += ", \"agent_digest\": ";
  json += JsonString(record.agent_digest);
  json += ", \"environment_digest\": ";
  json += JsonString(record.environment_digest);
  absl::StrAppend(&json, ", \"cpus\": ", record.cpus, ", \"cpu_ids\": \"",
                  CpuListText(record.cpu_ids), "\", \"memory_limit_bytes\": ",
                  record.memory_limit_bytes, ", \"processes_limit\": ", record.processes_limit,
                  ", \"gpu_ids\": \"", absl::StrJoin(record.gpu_ids, ","), "\"",
                  ", \"admission_wait_s\": ", absl::StrFormat("%.3f", record.admission_wait_s),
                  ", \"cpu_seconds\": ", absl::StrFormat("%.3f", record.cpu_seconds),
                  ", \"memory_peak_bytes\": ", record.memory_peak_bytes,
                  ", \"processes_limit_hits\": ", record.processes_limit_hits,
                  ", \"ended_by\": \"", record.ended_by, "\"",
                  ", \"kept_files\": ", record.kept_files, ", \"kept_bytes\": ",
                  record.kept_bytes, ", \"kept_skipped\": ", record.kept_skipped);
  json += ", \"allowed_hosts\": [";
  for (size_t i = 0; i < record.allowed_hosts.size(); ++i) {
    if (i > 0) json += ", ";
    json += JsonString(record.allowed_hosts[i].ToString());
  }
  const ProxyLog& log = record.connections;
  absl::StrAppend(&json, "], \"egress_gateway\": ", JsonString(record.egress_gateway),
                  ", \"connections_total\": ", log.total,
                  ", \"connections_refused\": ", log.refused,
                  ", \"connections_failed\": ", log.failed,
                  ", \"connections_refused_upstream\": ", log.refused_upstream,
                  ", \"connections_truncated\": ", log.truncated ? "true" : "false",
                  ", \"connections\": [");
  for (size_t i = 0; i < log.connections.size(); ++i) {
    const ProxyConnection& c = log.connections[i];
    absl::StrAppend(&json, i > 0 ? ", " : "", "{\"method\": ", JsonString(c.method),
                    ", \"host\": ", JsonString(c.host), ", \"port\": ", c.port,
                    ", \"allowed\": ", c.allowed ? "true" : "false", ", \"status\": ", c.status,
                    ", \"bytes_sent\": ", c.bytes_sent,
                    ", \"bytes_received\": ", c.bytes_received, "}");
  }
  json += "], \"secrets\": [";
  for (size_t i = 0; i < record.secret_names.size(); ++i) {
    if (i > 0) json += ", ";
    json += JsonString(record.secret_names[i]);
  }
  json += "]}\n";
  return json;
}

const char* IsolationName(Isolation isolation) {
  switch (isolation) {
    case Isolation::kBwrap:
      return "bwrap";
    case Isolation::kNone:
      return "none";
  }
  return "unknown";
}

const char* NetworkName(Network network) {
  switch (network) {
    case Network::kUnconfined:
      return "unconfined";
    case Network::kDeny:
      return "deny";
    case Network::kAllowlist:
      return "allowlist";
  }
  return "unknown";
}

std::optional<Isolation> ParseIsolation(absl::string_view text) {
  for (Isolation isolation : {Isolation::kBwrap, Isolation::kNone}) {
    if (text == IsolationName(isolation)) return isolation;
  }
  return std::nullopt;
}

std::optional<Network> ParseNetwork(absl::string_view text) {
  for (Network network : {Network::kUnconfined, Network::kDeny, Network::kAllowlist}) {
    if (text == NetworkName(network)) return network;
  }
  return std::nullopt;
}

absl::Status BecomeChildSubreaper() {
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
    return absl::InternalError(
        absl::StrCat("cannot become a child subreaper: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace mlebench
