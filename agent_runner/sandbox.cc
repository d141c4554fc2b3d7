#include "agent_runner/sandbox.h"

#include <fcntl.h>
#include <linux/filter.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "agent_runner/internal/child_process.h"
#include "agent_runner/internal/file_ops.h"
#include "agent_runner/processes.h"
#include "agent_runner/proxy_forwarder.h"
#include "agent_runner/rootfs.h"
#include "agent_runner/runfiles_stage.h"
#include "agent_runner/seccomp_filter.h"
#include "base/files.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

using Args = std::vector<std::string>;

void Append(Args& args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more.begin(), more.end());
}

bool HasRun(const Args& args, const Args& run) {
  return std::search(args.begin(), args.end(), run.begin(), run.end()) != args.end();
}

bool IsUnder(const fs::path& path, const fs::path& dir) {
  const fs::path relative = path.lexically_relative(dir);
  return !relative.empty() && *relative.begin() != "..";
}

// The host's /usr, and the top-level directories that Debian makes symlinks
// into it, at `at` + their path ("" for their own place). Under another
// place, an absolute symlink target is moved there too, so that it still
// leads into the host's tree.
void AddSystem(Args& args, const std::string& at = "") {
  Append(args, {"--ro-bind", "/usr", at + "/usr"});
  for (const char* dir : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    struct stat st;
    if (lstat(dir, &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      const fs::path target = fs::read_symlink(dir, ec);
      if (ec) continue;
      Append(args, {"--symlink", target.is_absolute() ? at + target.string() : target.string(),
                    at + dir});
    } else if (S_ISDIR(st.st_mode)) {
      Append(args, {"--ro-bind", dir, at + dir});
    }
  }
}

// The system of an agent's own root file system: each of its
// kRootfsSystemEntries as it is there. /opt is a tmpfs (made read-only at
// the end) holding its entries, so that environments can still be mounted
// under /opt/mlebench.
absl::Status AddRootfsSystem(Args& args, const fs::path& rootfs) {
  for (const char* name : kRootfsSystemEntries) {
    const fs::path source = rootfs / name;
    const std::string inside = absl::StrCat("/", name);
    struct stat st;
    if (lstat(source.c_str(), &st) != 0) {
      if (inside == "/usr" || inside == "/etc") {
        return absl::InvalidArgumentError(
            absl::StrCat("the root file system ", rootfs.string(), " has no ", name, " directory"));
      }
      continue;
    }
    if (inside == "/opt" && S_ISDIR(st.st_mode)) {
      Append(args, {"--perms", "0755", "--tmpfs", "/opt"});
      std::error_code ec;
      std::vector<fs::path> entries;
      for (fs::directory_iterator it(source, ec), end; !ec && it != end; it.increment(ec)) {
        entries.push_back(it->path());
      }
      if (ec) {
        return absl::InternalError(
            absl::StrCat("cannot list ", source.string(), ": ", ec.message()));
      }
      std::sort(entries.begin(), entries.end());
      for (const fs::path& entry : entries) {
        const std::string name_inside = absl::StrCat("/opt/", entry.filename().string());
        if (entry.filename() == "mlebench") {
          return absl::InvalidArgumentError(
              absl::StrCat("the root file system ", rootfs.string(),
                           " has opt/mlebench, where the sandbox mounts agent environments"));
        }
        struct stat entry_st;
        if (lstat(entry.c_str(), &entry_st) != 0) continue;
        if (S_ISLNK(entry_st.st_mode)) {
          const fs::path target = fs::read_symlink(entry, ec);
          if (ec) return absl::InternalError(absl::StrCat("cannot read ", entry.string()));
          Append(args, {"--symlink", target.string(), name_inside});
        } else {
          Append(args, {"--ro-bind", entry.string(), name_inside});
        }
      }
      continue;
    }
    if (S_ISLNK(st.st_mode) && inside != "/usr" && inside != "/etc") {
      std::error_code ec;
      const fs::path target = fs::read_symlink(source, ec);
      if (ec) return absl::InternalError(absl::StrCat("cannot read ", source.string()));
      Append(args, {"--symlink", target.string(), inside});
    } else if (S_ISDIR(st.st_mode)) {
      Append(args, {"--ro-bind", source.string(), inside});
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("the root file system's ", name, " must be a directory",
                       inside == "/usr" || inside == "/etc" ? "" : " or a symlink"));
    }
  }
  return absl::OkStatus();
}

// /etc read-only: programs need it for users, DNS, certificates, locales and
// the like. What the host hides from other users (shadow passwords, private
// keys) stays hidden from the agent, which may run as uid 0 inside. A walk
// that breaks off is an error: masks must not go missing silently.
absl::Status AddEtc(Args& args) {
  Append(args, {"--ro-bind", "/etc", "/etc"});
  std::vector<fs::path> hidden_files;
  std::vector<fs::path> hidden_dirs;
  std::error_code ec;
  for (fs::recursive_directory_iterator
           it("/etc", fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec)) {
    struct stat st;
    if (lstat(it->path().c_str(), &st) != 0 || S_ISLNK(st.st_mode)) continue;
    if ((st.st_mode & S_IROTH) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      hidden_dirs.push_back(it->path());
      it.disable_recursion_pending();
    } else {
      hidden_files.push_back(it->path());
    }
  }
  if (ec) return absl::InternalError(absl::StrCat("cannot list /etc: ", ec.message()));
  std::sort(hidden_files.begin(), hidden_files.end());
  std::sort(hidden_dirs.begin(), hidden_dirs.end());
  for (const fs::path& file : hidden_files) Append(args, {"--ro-bind", "/dev/null", file.string()});
  for (const fs::path& dir : hidden_dirs) {
    Append(args, {"--tmpfs", dir.string(), "--remount-ro", dir.string()});
  }
  // Resolvers such as systemd-resolved make resolv.conf a symlink into /run.
  struct stat st;
  if (lstat("/etc/resolv.conf", &st) == 0 && S_ISLNK(st.st_mode)) {
    const fs::path target = fs::canonical("/etc/resolv.conf", ec);
    if (!ec && !IsUnder(target, "/etc") && !IsUnder(target, "/usr")) {
      Append(args, {"--ro-bind", target.string(), target.string()});
    }
  }
  return absl::OkStatus();
}

// Kernel interfaces, and the device nodes that GPU drivers need. The new
// /proc is the sandbox's own, but its global knobs are the host kernel's:
// each is covered by a read-only bind of itself (for an unprivileged agent
// they are read-only already; this holds even if the uid drop were undone).
void AddDevicesAndKernel(Args& args, const SandboxSpec& spec) {
  Append(args, {"--proc", "/proc"});
  for (const char* knob : {"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus",
                           "/proc/fs", "/proc/acpi", "/proc/scsi", "/proc/driver",
                           "/proc/pressure", "/proc/sysvipc"}) {
    struct stat st;
    if (lstat(knob, &st) == 0) Append(args, {"--ro-bind", knob, knob});
  }
  Append(args, {"--dev", "/dev"});
  // POSIX shared memory and semaphores (multiprocessing's locks and queues,
  // joblib's loky, torch's DataLoader workers) live in /dev/shm, which --dev
  // makes root's: a tmpfs of its own, sticky and world-writable. It is
  // memory, charged to the agent's cgroup.
  if (spec.shm_bytes > 0) Append(args, {"--size", absl::StrCat(spec.shm_bytes)});
  Append(args, {"--perms", "1777", "--tmpfs", "/dev/shm"});
  for (const auto& [node, inside] : spec.device_nodes) {
    Append(args, {"--dev-bind", node.string(), inside.string()});
  }
  std::error_code ec;
  if (fs::is_directory("/sys", ec)) Append(args, {"--ro-bind", "/sys", "/sys"});
  // Sticky and world-writable, as on the host: the agent is not root.
  Append(args, {"--perms", "1777", "--tmpfs", "/tmp"});
}

// Creates, world-traversable, the directories leading to `path` that bwrap
// would otherwise create with the mode of the host's (e.g. /root, 0700),
// which the unprivileged agent could not pass.
void AddParentDirs(Args& args, const fs::path& path, std::set<fs::path>& made) {
  fs::path dir = "/";
  const fs::path parent = path.parent_path();
  for (auto it = std::next(parent.begin()); it != parent.end(); ++it) {
    dir /= *it;
    if (!made.insert(dir).second) continue;
    // Those the sandbox has already are left as they are: the read-only
    // system mounts and what is in them, and /tmp, /dev and /dev/shm
    // themselves (inside them, on the sandbox's own file systems, the way to
    // a mount is made like anywhere else: Bazel's sandboxes and tests'
    // temporary directories can be under /dev/shm).
    bool exists_inside = dir == "/tmp" || dir == "/dev" || dir == "/dev/shm";
    for (const char* mount : {"/usr", "/etc", "/proc", "/sys"}) {
      exists_inside = exists_inside || dir == mount || IsUnder(dir, mount);
    }
    if (exists_inside) continue;
    Append(args, {"--perms", "0755", "--dir", dir.string()});
  }
}

absl::Status RequireAbsolute(const fs::path& path, absl::string_view what) {
  if (path.empty() || !path.is_absolute()) {
    return absl::InvalidArgumentError(
        absl::StrCat("sandbox paths must be absolute, got ", what, " '", path.string(), "'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> BwrapOptions(const SandboxSpec& spec) {
  for (const auto& [path, what] : {std::pair<const fs::path&, const char*>{spec.workspace, "workspace"},
                                   {spec.agent, "agent"},
                                   {spec.staged_agent, "staged agent"},
                                   {spec.sandbox_entry, "sandbox entry"}}) {
    RETURN_IF_ERROR(RequireAbsolute(path, what));
  }
  Args args;
  if (spec.host_root) {
    // No user namespace: the entry needs real root to become another uid.
    Append(args, {"--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup"});
  } else {
    Append(args, {"--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                  "--unshare-cgroup", "--cap-drop", "ALL"});
  }
  std::set<fs::path> made;
  if (!spec.share_network) args.push_back("--unshare-net");
  args.push_back("--die-with-parent");
  if (spec.seccomp_fd >= 0) Append(args, {"--seccomp", absl::StrCat(spec.seccomp_fd)});
  if (spec.rootfs.empty()) {
    AddSystem(args);
    RETURN_IF_ERROR(AddEtc(args));
  } else {
    RETURN_IF_ERROR(RequireAbsolute(spec.rootfs, "root file system"));
    RETURN_IF_ERROR(AddRootfsSystem(args, spec.rootfs));
    // Traversable by the agent's user: the sandbox entry starts the host's
    // programs there after it has dropped to that user.
    AddParentDirs(args, fs::path(kHostSystemPath) / "usr", made);
    AddSystem(args, kHostSystemPath);
  }
  for (const auto& [node, inside] : spec.device_nodes) {
    RETURN_IF_ERROR(RequireAbsolute(node, "device node"));
    if (!IsUnder(inside, "/dev")) {
      return absl::InvalidArgumentError(
          absl::StrCat("device nodes go under /dev, got '", inside.string(), "'"));
    }
  }
  AddDevicesAndKernel(args, spec);

  for (const auto& [source, target] : spec.read_only_binds) {
    RETURN_IF_ERROR(RequireAbsolute(source, "bound path"));
    RETURN_IF_ERROR(RequireAbsolute(target, "mount point"));
    AddParentDirs(args, target, made);
    Append(args, {"--ro-bind", source.string(), target.string()});
  }
  for (const fs::path& dir : spec.read_only_dirs) {
    RETURN_IF_ERROR(RequireAbsolute(dir, "read-only dir"));
    AddParentDirs(args, dir, made);
    Append(args, {"--ro-bind", dir.string(), dir.string()});
  }
  AddParentDirs(args, spec.workspace, made);
  Append(args, {"--bind", spec.workspace.string(), spec.workspace.string()});
  for (const fs::path& dir : spec.read_only_in_workspace) {
    if (dir.empty() || dir.is_absolute() ||
        std::find(dir.begin(), dir.end(), "..") != dir.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "read-only workspace directories must be relative and inside it, got '", dir.string(),
          "'"));
    }
    const std::string inside = (spec.workspace / dir).string();
    Append(args, {"--ro-bind", inside, inside});
  }
  AddParentDirs(args, spec.agent, made);
  Append(args, {"--ro-bind", spec.staged_agent.string(), spec.agent.string()});
  if (!spec.staged_runfiles.empty()) {
    RETURN_IF_ERROR(RequireAbsolute(spec.staged_runfiles, "staged runfiles"));
    fs::path runfiles = spec.agent;
    runfiles += ".runfiles";
    Append(args, {"--ro-bind", spec.staged_runfiles.string(), runfiles.string()});
  }
  Append(args, {"--ro-bind", spec.sandbox_entry.string(), kSandboxEntryPath});
  // The root itself (a tmpfs holding the mount points) becomes read-only too,
  // and so does a rootfs's /opt (a tmpfs holding its entries).
  if (!spec.rootfs.empty() && HasRun(args, {"--tmpfs", "/opt"})) {
    Append(args, {"--remount-ro", "/opt"});
  }
  Append(args, {"--remount-ro", "/", "--chdir", spec.workspace.string()});
  return args;
}

absl::StatusOr<fs::path> HostPathInSandbox(const fs::path& path) {
  std::error_code ec;
  const fs::path resolved = fs::canonical(path, ec);
  if (ec) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot find ", path.string(), " on the host: ", ec.message()));
  }
  const fs::path relative = resolved.lexically_relative("/");
  const std::string top = relative.empty() ? "" : relative.begin()->string();
  bool bound = top == "usr";
  for (const char* dir : {"bin", "sbin", "lib", "lib32", "lib64", "libx32"}) {
    struct stat st;
    const std::string host_dir = absl::StrCat("/", dir);
    bound = bound || (top == dir && lstat(host_dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode));
  }
  if (!bound) {
    return absl::FailedPreconditionError(
        absl::StrCat(path.string(), " resolves to ", resolved.string(),
                     ", outside the host's system that the sandbox shows at ", kHostSystemPath));
  }
  return fs::path(kHostSystemPath) / relative;
}

absl::StatusOr<HostLoader> HostLoaderInSandbox() {
  HostLoader host;
  ASSIGN_OR_RETURN(host.loader, HostPathInSandbox("/lib64/ld-linux-x86-64.so.2"));
  std::vector<std::string> dirs;
  for (const char* dir : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
                          "/usr/lib64", "/lib", "/usr/lib"}) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    absl::StatusOr<fs::path> inside = HostPathInSandbox(dir);
    if (!inside.ok()) continue;
    if (std::find(dirs.begin(), dirs.end(), inside->string()) == dirs.end()) {
      dirs.push_back(inside->string());
    }
  }
  if (dirs.empty()) return absl::FailedPreconditionError("the host has no library directory");
  host.library_path = absl::StrJoin(dirs, ":");
  return host;
}

void SignalSandboxedProcesses(pid_t bwrap_pid, int signal) {
  const std::optional<std::string> own_namespace = PidNamespaceOf(getpid());
  // bwrap's only child is the init of the sandbox's pid namespace.
  for (const pid_t init : ChildrenOf(bwrap_pid)) {
    const std::optional<std::string> sandbox_namespace = PidNamespaceOf(init);
    // Never signal our own namespace: that would hit every process we can see.
    if (!sandbox_namespace.has_value() || sandbox_namespace == own_namespace) continue;
    for (const pid_t pid : ProcessesInPidNamespace(*sandbox_namespace)) {
      if (pid != init) kill(pid, signal);
    }
  }
}

// ---------------------------------------------------------------------------
// One run's sandbox

namespace {

using runner_internal::ChildOutcome;
using runner_internal::ChildSpec;
using runner_internal::CopyRegularFile;
using runner_internal::ErrnoError;
using runner_internal::FileDescriptor;
using runner_internal::FsError;
using runner_internal::kReadOnlyExecutable;
using runner_internal::RunChild;

// The device nodes of the granted GPUs, bound at /dev/<name>: each
// <device_dir>/nvidia<N>, and, when there is one, the driver's control
// nodes that exist. An absent GPU node is an error.
absl::StatusOr<std::vector<std::pair<fs::path, fs::path>>> GpuDeviceNodes(
    const SandboxRequest& request) {
  std::vector<std::pair<fs::path, fs::path>> nodes;
  if (request.gpu_ids.empty()) return nodes;
  for (const int id : request.gpu_ids) {
    const std::string name = absl::StrCat("nvidia", id);
    struct stat st;
    if (stat((request.device_dir / name).c_str(), &st) != 0 || !S_ISCHR(st.st_mode)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "GPU ", id, " was granted but ", (request.device_dir / name).string(),
          " is not a character device"));
    }
    nodes.emplace_back(request.device_dir / name, fs::path("/dev") / name);
  }
  for (const char* name : {"nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset"}) {
    struct stat st;
    if (stat((request.device_dir / name).c_str(), &st) == 0 && S_ISCHR(st.st_mode)) {
      nodes.emplace_back(request.device_dir / name, fs::path("/dev") / name);
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

absl::StatusOr<DirToBind> ResolveDirToBind(const SandboxRequest& request, const fs::path& given,
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
  const std::optional<fs::path>& output_base = request.output_base;
  for (const fs::path& root : request.allowed_roots) {
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
  for (const fs::path& root : request.forbidden_roots) forbidden.push_back(fs::absolute(root));
  if (output_base.has_value()) forbidden.push_back(*output_base);
  // The competition's data: prepared public/ and private/ sit side by side.
  forbidden.push_back(fs::absolute(request.public_dir).parent_path());
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
absl::StatusOr<fs::path> CheckedEnvironmentDir(const SandboxRequest& request) {
  ASSIGN_OR_RETURN(DirToBind bind,
                   ResolveDirToBind(request, request.environment_dir, "the agent's environment"));
  if (absl::Status s = CheckTreeToBind(bind.dir, bind.floor); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("the agent's environment ",
                                               request.environment_dir.string(), ": ",
                                               s.message()));
  }
  return bind.dir;
}

// The agent's root file system, resolved and judged like the environment:
// each of its trees the sandbox binds (the real directories among
// kRootfsSystemEntries) by CheckTreeToBind, then the whole against its
// manifest (CheckRootfs). `note` gets what the log says of it.
absl::StatusOr<fs::path> CheckedRootfsDir(const SandboxRequest& request, std::string& note) {
  const std::string what = "the agent's root file system";
  ASSIGN_OR_RETURN(DirToBind bind, ResolveDirToBind(request, request.rootfs_dir, what));
  const auto fail = [&](const absl::Status& s) {
    return absl::Status(s.code(),
                        absl::StrCat(what, " ", request.rootfs_dir.string(), ": ", s.message()));
  };
  for (const char* name : kRootfsSystemEntries) {
    struct stat st;
    if (lstat((bind.dir / name).c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    if (absl::Status s = CheckTreeToBind(bind.dir / name, bind.floor); !s.ok()) return fail(s);
  }
  std::optional<std::string> manifest;
  if (!request.rootfs_manifest.empty()) {
    ASSIGN_OR_RETURN(manifest, ReadFileToString(request.rootfs_manifest));
  }
  absl::StatusOr<RootfsSummary> summary = CheckRootfs(bind.dir, manifest);
  if (!summary.ok()) return fail(summary.status());
  note = absl::StrCat("run_agent: the agent runs on its own root file system ",
                      request.rootfs_dir.string(), ": ", summary->entries, " entries",
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
// start, so each run rewinds it). The child gets a session of its own, and
// the deadline's SIGTERM goes to the processes inside the sandbox rather than
// to bwrap, which would end the sandbox at once.
ChildSpec BwrapChild(const fs::path& bwrap, int args_file, int seccomp_file,
                     std::vector<std::string> command) {
  lseek(args_file, 0, SEEK_SET);
  lseek(seccomp_file, 0, SEEK_SET);
  ChildSpec spec;
  spec.argv = {bwrap.string(), "--args", absl::StrCat(args_file)};
  spec.argv.insert(spec.argv.end(), command.begin(), command.end());
  spec.inherited_fds = {args_file, seccomp_file};
  spec.own_session = true;
  spec.signal_processes = SignalSandboxedProcesses;
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

// What the sandbox must show besides the workspace: the linked public dir.
std::vector<fs::path> ReadOnlyDirs(const SandboxRequest& request) {
  if (!request.link_public) return {};
  std::error_code ec;
  fs::path dir = fs::canonical(request.public_dir, ec);
  return {ec ? fs::absolute(request.public_dir) : dir};
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

}  // namespace

runner_internal::ChildSpec Sandbox::Child(const std::vector<std::string>& command) const {
  std::vector<std::string> entry_and_command = entry_;
  entry_and_command.insert(entry_and_command.end(), command.begin(), command.end());
  return BwrapChild(bwrap_, args_file_.get(), seccomp_file_.get(), std::move(entry_and_command));
}

absl::StatusOr<Sandbox> PrepareSandbox(const SandboxRequest& request) {
  Sandbox sandbox;
  std::error_code ec;
  sandbox.bwrap_ = fs::absolute(request.bwrap, ec);
  if (ec) return FsError("cannot resolve", request.bwrap, ec);
  const fs::path sandbox_entry = fs::canonical(request.sandbox_entry, ec);
  if (ec) return FsError("cannot find the sandbox entry", request.sandbox_entry, ec);
  const fs::path& workspace = request.workspace;
  const fs::path& agent = request.agent;

  StagingPolicy policy;
  ASSIGN_OR_RETURN(std::vector<fs::path> allowed,
                   CanonicalDirs(request.allowed_roots, "allowed root"));
  policy.allowed_roots = std::move(allowed);
  // The staging resolves them (one that does not exist yet still applies).
  for (const fs::path& dir : request.forbidden_roots) {
    policy.forbidden_roots.push_back(fs::absolute(dir));
  }
  // The output base of the build running us holds every competition's
  // answers; inside it, only the more specific allowed roots (the agent's
  // own outputs, external repositories) are the agent's.
  if (request.output_base.has_value()) policy.forbidden_roots.push_back(*request.output_base);
  policy.refuse_answer_holders = true;
  policy.max_copied_bytes = request.max_staged_bytes;
  const fs::path& staging = request.staging_dir;
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
  if (!request.environment_dir.empty()) {
    ASSIGN_OR_RETURN(fs::path environment, CheckedEnvironmentDir(request));
    binds.emplace_back(std::move(environment), request.environment_mount);
  }
  // glibc's sysconf(_SC_NPROCESSORS_ONLN) - os.cpu_count(), and so the
  // thread pools of many libraries - reads this file: it shows the granted
  // CPUs only.
  if (!request.online_cpus.empty() && fs::exists("/sys/devices/system/cpu/online", ec)) {
    const fs::path online = staging / "cpu-online";
    RETURN_IF_ERROR(WriteStringToFile(online, request.online_cpus));
    binds.emplace_back(online, "/sys/devices/system/cpu/online");
  }
  ASSIGN_OR_RETURN(auto device_nodes, GpuDeviceNodes(request));
  // The proxy's socket is the sandbox's only way out of its network
  // namespace (network allowlist).
  const bool proxy = !request.proxy_socket_dir.empty();
  if (proxy) binds.emplace_back(request.proxy_socket_dir, kSandboxProxySocketDir);
  // validate_submission.sh's binary: a copy of ours (it lies among the
  // competitions' outputs, where the agent's files may not come from).
  if (!request.validator.empty()) {
    const fs::path copy = staging / "validate";
    RETURN_IF_ERROR(CopyRegularFile(request.validator, copy, kReadOnlyExecutable));
    binds.emplace_back(copy, kSandboxValidatorPath);
  }
  fs::path rootfs;
  if (!request.rootfs_dir.empty()) {
    ASSIGN_OR_RETURN(rootfs, CheckedRootfsDir(request, sandbox.note_));
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
                                  .share_network = request.share_network,
                                  .host_root = host_root,
                                  .read_only_dirs = ReadOnlyDirs(request),
                                  .read_only_in_workspace = {"data"},
                                  .read_only_binds = std::move(binds),
                                  .device_nodes = std::move(device_nodes),
                                  .shm_bytes = request.shm_bytes,
                                  .seccomp_fd = seccomp_file.get()})));
  ASSIGN_OR_RETURN(FileDescriptor args_file, WriteArgsFile(bwrap_options));
  sandbox.entry_ = {kSandboxEntryPath,
                    "--uid",
                    absl::StrCat(host_root ? request.sandbox_uid : getuid()),
                    "--gid",
                    absl::StrCat(host_root ? request.sandbox_gid : getgid()),
                    "--max_file_bytes",
                    absl::StrCat(request.max_file_bytes)};
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
  if (proxy) {
    sandbox.entry_.push_back("--proxy_socket");
    sandbox.entry_.push_back((fs::path(kSandboxProxySocketDir) / kProxySocketName).string());
    if (host_loader.has_value()) {
      ASSIGN_OR_RETURN(fs::path socat, HostPathInSandbox(request.socat));
      sandbox.entry_.insert(sandbox.entry_.end(),
                            {"--socat", socat.string(), "--loader", host_loader->loader.string(),
                             "--library_path", host_loader->library_path});
    }
  }
  sandbox.entry_.push_back("--");
  ASSIGN_OR_RETURN(std::optional<std::string> problem,
                   ProbeBwrap(sandbox.bwrap_, args_file.get(), seccomp_file.get(), sandbox.entry_,
                              probe, request.env, workspace));
  if (problem.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "isolation bwrap is unavailable: ", *problem,
        " (see docs/security.md; --//agent_runner:isolation=none runs the agent unconfined)"));
  }
  sandbox.args_file_ = std::move(args_file);
  sandbox.seccomp_file_ = std::move(seccomp_file);
  if (host_root) sandbox.agent_user_.emplace(request.sandbox_uid, request.sandbox_gid);
  return sandbox;
}

std::vector<pid_t> SandboxedProcesses(pid_t bwrap_pid) {
  for (const pid_t init : ChildrenOf(bwrap_pid)) {
    if (std::optional<std::string> ns = PidNamespaceOf(init)) return ProcessesInPidNamespace(*ns);
  }
  return {};
}

}  // namespace mlebench
