#include "agent_runner/sandbox.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent_runner/processes.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

using Args = std::vector<std::string>;

void Append(Args& args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more.begin(), more.end());
}

bool IsUnder(const fs::path& path, const fs::path& dir) {
  const fs::path relative = path.lexically_relative(dir);
  return !relative.empty() && *relative.begin() != "..";
}

// /usr, and the top-level directories that Debian makes symlinks into it.
void AddSystem(Args& args) {
  Append(args, {"--ro-bind", "/usr", "/usr"});
  for (const char* dir : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    struct stat st;
    if (lstat(dir, &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      const fs::path target = fs::read_symlink(dir, ec);
      if (!ec) Append(args, {"--symlink", target.string(), dir});
    } else if (S_ISDIR(st.st_mode)) {
      Append(args, {"--ro-bind", dir, dir});
    }
  }
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

// Kernel interfaces, and the device nodes that GPU drivers need.
void AddDevicesAndKernel(Args& args) {
  Append(args, {"--proc", "/proc", "--dev", "/dev"});
  std::vector<std::string> gpu_nodes;
  std::error_code ec;
  for (fs::directory_iterator it("/dev", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (absl::StartsWith(name, "nvidia") || name == "dri") gpu_nodes.push_back(it->path().string());
  }
  std::sort(gpu_nodes.begin(), gpu_nodes.end());
  for (const std::string& node : gpu_nodes) Append(args, {"--dev-bind", node, node});
  if (fs::is_directory("/sys", ec)) Append(args, {"--ro-bind", "/sys", "/sys"});
  Append(args, {"--tmpfs", "/tmp"});
}

// The runfiles tree at `root` as a read-only tmpfs of directories and
// read-only binds of files, each symlink replaced by its target.
absl::Status AddRunfiles(Args& args, const fs::path& root) {
  std::vector<std::pair<fs::path, std::optional<fs::path>>> entries;  // path, bind source
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    struct stat st;
    if (lstat(it->path().c_str(), &st) != 0) continue;  // vanished meanwhile
    if (S_ISDIR(st.st_mode)) {
      entries.emplace_back(it->path(), std::nullopt);
    } else if (S_ISREG(st.st_mode)) {
      entries.emplace_back(it->path(), it->path());
    } else if (S_ISLNK(st.st_mode)) {
      std::error_code ignored;
      const fs::path target = fs::canonical(it->path(), ignored);
      if (!ignored) entries.emplace_back(it->path(), target);
    }
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot list the agent's runfiles ", root.string(), ": ", ec.message()));
  }
  // Sorted, so that a directory is created before what is inside it.
  std::sort(entries.begin(), entries.end());
  Append(args, {"--tmpfs", root.string()});
  for (const auto& [path, source] : entries) {
    if (source.has_value()) {
      Append(args, {"--ro-bind", source->string(), path.string()});
    } else {
      Append(args, {"--dir", path.string()});
    }
  }
  Append(args, {"--remount-ro", root.string()});
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> BwrapOptions(const SandboxSpec& spec) {
  if (!spec.workspace.is_absolute() || !spec.agent.is_absolute()) {
    return absl::InvalidArgumentError(absl::StrCat("sandbox paths must be absolute, got ",
                                                   spec.workspace.string(), " and ",
                                                   spec.agent.string()));
  }
  Args args = {"--unshare-all"};
  if (spec.share_network) args.push_back("--share-net");
  Append(args, {"--die-with-parent", "--cap-drop", "ALL"});
  AddSystem(args);
  if (absl::Status s = AddEtc(args); !s.ok()) return s;
  AddDevicesAndKernel(args);

  for (const fs::path& dir : spec.read_only_dirs) {
    if (!dir.is_absolute()) {
      return absl::InvalidArgumentError(
          absl::StrCat("sandbox paths must be absolute, got ", dir.string()));
    }
    Append(args, {"--ro-bind", dir.string(), dir.string()});
  }
  Append(args, {"--bind", spec.workspace.string(), spec.workspace.string()});
  // bwrap resolves symlinks in sources too; resolving here keeps it explicit.
  std::error_code ec;
  const fs::path agent_file = fs::canonical(spec.agent, ec);
  Append(args, {"--ro-bind", (ec ? spec.agent : agent_file).string(), spec.agent.string()});
  fs::path runfiles = spec.agent;
  runfiles += ".runfiles";
  if (fs::is_directory(runfiles, ec)) {
    if (absl::Status s = AddRunfiles(args, runfiles); !s.ok()) return s;
  }
  // The root itself (a tmpfs holding the mount points) becomes read-only too.
  Append(args, {"--remount-ro", "/", "--chdir", spec.workspace.string()});
  return args;
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
