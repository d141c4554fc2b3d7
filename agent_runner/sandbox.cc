#include "agent_runner/sandbox.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
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
#include "agent_runner/processes.h"
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

}  // namespace mlebench
