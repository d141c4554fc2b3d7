#include "agent_runner/cgroup.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

using Clock = std::chrono::steady_clock;

// The v2 leaf a runner moves itself into; see the header.
constexpr absl::string_view kRunnerLeaf = "mlebench-runner";
constexpr int64_t kCpuPeriodUs = 100000;
constexpr int64_t kMinCpuQuotaUs = 1000;  // the kernel's minimum
constexpr auto kKillWait = std::chrono::seconds(5);
constexpr auto kRemoveWait = std::chrono::seconds(2);

bool Contains(const std::vector<std::string>& items, absl::string_view item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

std::string JoinPath(absl::string_view dir, absl::string_view name) {
  if (absl::EndsWith(dir, "/")) return absl::StrCat(dir, name);
  return absl::StrCat(dir, "/", name);
}

// "/a/b" -> "/a"; "/a" -> "/".
std::string ParentPath(absl::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == absl::string_view::npos || slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

absl::string_view BaseName(absl::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == absl::string_view::npos ? path : path.substr(slash + 1);
}

bool IsDir(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// What to do about an errno from the cgroup file system.
std::string Hint(int err) {
  switch (err) {
    case EROFS:
      return " (the cgroup file system is mounted read-only: a container must mount it "
             "read-write, e.g. docker run --privileged --cgroupns=private)";
    case EBUSY:
      return " (cgroup v2 enables controllers only in cgroups without processes of their own)";
    case EACCES:
    case EPERM:
      return " (run as root, or in a cgroup delegated to this user, e.g. under "
             "systemd-run --user --scope -p Delegate=yes)";
    default:
      return "";
  }
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot read ", path, ": ", std::strerror(errno)));
  }
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n > 0) {
      text.append(buffer, static_cast<size_t>(n));
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      const int err = errno;
      close(fd);
      return absl::FailedPreconditionError(
          absl::StrCat("cannot read ", path, ": ", std::strerror(err)));
    }
  }
  close(fd);
  return text;
}

// Writes `contents` to an existing file in one write(2), as cgroup files
// expect. Returns 0 or the errno.
int WriteRaw(const std::string& path, absl::string_view contents) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  const ssize_t n = write(fd, contents.data(), contents.size());
  const int err = n < 0 ? errno : (static_cast<size_t>(n) == contents.size() ? 0 : EIO);
  close(fd);
  return err;
}

absl::Status WriteError(const std::string& path, absl::string_view contents, int err) {
  return absl::FailedPreconditionError(absl::StrCat("cannot write \"", contents, "\" to ", path,
                                                    ": ", std::strerror(err), Hint(err)));
}

absl::Status WriteFile(const std::string& path, absl::string_view contents) {
  const int err = WriteRaw(path, contents);
  return err == 0 ? absl::OkStatus() : WriteError(path, contents, err);
}

std::vector<std::string> Tokens(absl::string_view text) {
  return absl::StrSplit(text, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
}

// The number after `key` in "key value" lines (memory.events, oom_control).
int64_t ValueOf(const absl::StatusOr<std::string>& text, absl::string_view key) {
  if (!text.ok()) return -1;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    const std::vector<std::string> fields = Tokens(line);
    int64_t value;
    if (fields.size() == 2 && fields[0] == key && absl::SimpleAtoi(fields[1], &value)) {
      return value;
    }
  }
  return -1;
}

int64_t NumberIn(const absl::StatusOr<std::string>& text) {
  int64_t value;
  if (text.ok() && absl::SimpleAtoi(absl::StripAsciiWhitespace(*text), &value)) return value;
  return -1;
}

// One line of /proc/self/mountinfo.
struct Mount {
  std::string root;         // of the mount, within its file system
  std::string point;        // where it is mounted
  std::string fstype;
  std::vector<std::string> options;  // super options: for cgroup v1, its controllers
};

// Mount points escape space, tab, newline and backslash as \ooo.
std::string Unescape(absl::string_view field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    const auto octal = [&](size_t j) {
      return j < field.size() && field[j] >= '0' && field[j] <= '7';
    };
    if (field[i] == '\\' && octal(i + 1) && octal(i + 2) && octal(i + 3)) {
      out.push_back(static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 +
                                      (field[i + 3] - '0')));
      i += 3;
    } else {
      out.push_back(field[i]);
    }
  }
  return out;
}

std::vector<Mount> ParseMountInfo(absl::string_view text) {
  std::vector<Mount> mounts;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    const std::vector<absl::string_view> fields = absl::StrSplit(line, ' ', absl::SkipEmpty());
    // "id parent major:minor root point options [optional...] - fstype source super"
    const auto dash = std::find(fields.begin(), fields.end(), "-");
    if (dash == fields.end() || dash - fields.begin() < 6 || fields.end() - dash < 3) continue;
    Mount mount{.root = Unescape(fields[3]), .point = Unescape(fields[4]),
                .fstype = std::string(dash[1])};
    if (fields.end() - dash >= 4) {
      std::vector<std::string> options = absl::StrSplit(dash[3], ',', absl::SkipEmpty());
      mount.options = std::move(options);
    }
    mounts.push_back(std::move(mount));
  }
  return mounts;
}

// One line of /proc/self/cgroup: "id:controllers:path" ("0::path" for v2).
struct Membership {
  std::string id;
  std::vector<std::string> controllers;
  std::string path;
};

std::vector<Membership> ParseProcCgroup(absl::string_view text) {
  std::vector<Membership> memberships;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const std::vector<absl::string_view> fields = absl::StrSplit(line, absl::MaxSplits(':', 2));
    if (fields.size() != 3 || fields[2].empty() || fields[2][0] != '/') continue;
    memberships.push_back({.id = std::string(fields[0]),
                           .controllers = absl::StrSplit(fields[1], ',', absl::SkipEmpty()),
                           .path = std::string(fields[2])});
  }
  return memberships;
}

// Where `mount` shows the cgroup at `path` (relative to its hierarchy's root).
std::optional<std::string> DirIn(const Mount& mount, const std::string& path) {
  // Outside the cgroup namespace's root: not visible here.
  if (path == "/.." || absl::StrContains(path, "/../") || absl::EndsWith(path, "/..")) {
    return std::nullopt;
  }
  if (mount.root == "/") return path == "/" ? mount.point : JoinPath(mount.point, path.substr(1));
  if (path == mount.root) return mount.point;
  if (absl::StartsWith(path, absl::StrCat(mount.root, "/"))) {
    return JoinPath(mount.point, path.substr(mount.root.size() + 1));
  }
  return std::nullopt;
}

// A cgroup to create: in which hierarchy, below which cgroup, limiting what.
struct Plan {
  int version = 0;
  std::string base_path;  // as in /proc/self/cgroup
  std::string base_dir;
  std::vector<std::string> controllers;  // to limit there
  std::string label;                     // v1: the hierarchy's controllers
  bool required = false;                 // a requested limit depends on it
};

bool HasMount(const std::vector<Mount>& mounts, const Membership& membership,
              std::string* dir) {
  for (const Mount& mount : mounts) {
    if (mount.fstype != "cgroup") continue;
    const bool all = std::all_of(membership.controllers.begin(), membership.controllers.end(),
                                 [&](const std::string& c) { return Contains(mount.options, c); });
    if (!all) continue;
    const std::optional<std::string> candidate = DirIn(mount, membership.path);
    if (candidate.has_value() && IsDir(*candidate)) {
      *dir = *candidate;
      return true;
    }
  }
  return false;
}

// Enables `controllers` for the children of the v2 cgroup `plan` (unless they
// are already). If the cgroup holds processes (EBUSY) and `may_move` is true,
// the calling process first moves into the leaf kRunnerLeaf; see the header.
absl::Status EnableV2Controllers(const Plan& plan, bool may_move) {
  const std::string control = JoinPath(plan.base_dir, "cgroup.subtree_control");
  const std::vector<std::string> enabled = Tokens(ReadFile(control).value_or(""));
  std::string request;
  for (const std::string& controller : plan.controllers) {
    if (!Contains(enabled, controller)) {
      absl::StrAppend(&request, request.empty() ? "" : " ", "+", controller);
    }
  }
  if (request.empty()) return absl::OkStatus();
  int err = WriteRaw(control, request);
  if (err == EBUSY && may_move) {
    const std::string leaf = JoinPath(plan.base_dir, kRunnerLeaf);
    if (mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST) {
      const int mkdir_err = errno;
      return absl::FailedPreconditionError(
          absl::StrCat("cannot create ", leaf, " to move this process out of ", plan.base_dir,
                       " (cgroup v2 enables controllers only in cgroups without processes): ",
                       std::strerror(mkdir_err), Hint(mkdir_err)));
    }
    const std::string leaf_procs = JoinPath(leaf, "cgroup.procs");
    if (const int move_err = WriteRaw(leaf_procs, "0"); move_err != 0) {
      return WriteError(leaf_procs, "0", move_err);
    }
    err = WriteRaw(control, request);
    if (err == EBUSY) {
      // Others are still there: undo the move, as nothing was gained.
      WriteRaw(JoinPath(plan.base_dir, "cgroup.procs"), "0");
      rmdir(leaf.c_str());
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot enable ", request, " in ", control,
          ": cgroup v2 enables controllers only in cgroups without processes, and processes "
          "other than this one are in ", plan.base_dir,
          "; run the runner in a cgroup of its own, e.g. under systemd-run --scope -p "
          "Delegate=yes"));
    }
  }
  return err == 0 ? absl::OkStatus() : WriteError(control, request, err);
}

// Writes the limits that `plan` is responsible for into `dir`.
absl::Status WriteLimits(const Plan& plan, const std::string& dir, const ResourceLimits& limits) {
  const auto file = [&](absl::string_view name) { return JoinPath(dir, name); };
  const int64_t quota = std::llround(limits.cpus * kCpuPeriodUs);
  for (const std::string& controller : plan.controllers) {
    absl::Status status;
    if (controller == "memory") {
      const std::string bytes = absl::StrCat(limits.memory_bytes);
      if (plan.version == 2) {
        status = WriteFile(file("memory.max"), bytes);
        if (status.ok() && Exists(file("memory.swap.max"))) {
          status = WriteFile(file("memory.swap.max"), "0");
        }
      } else {
        // memsw (RAM + swap) may never be below the RAM limit: RAM first.
        status = WriteFile(file("memory.limit_in_bytes"), bytes);
        if (status.ok() && Exists(file("memory.memsw.limit_in_bytes"))) {
          status = WriteFile(file("memory.memsw.limit_in_bytes"), bytes);
        }
      }
    } else if (controller == "pids") {
      status = WriteFile(file("pids.max"), absl::StrCat(limits.pids));
    } else if (controller == "cpuset") {
      // A v1 cpuset starts without memory nodes, and takes no process until
      // it has some: the parent's.
      if (plan.version == 1) {
        absl::StatusOr<std::string> mems = ReadFile(JoinPath(plan.base_dir, "cpuset.mems"));
        status = mems.ok() ? WriteFile(file("cpuset.mems"),
                                       std::string(absl::StripAsciiWhitespace(*mems)))
                           : mems.status();
      }
      if (status.ok()) status = WriteFile(file("cpuset.cpus"), limits.cpuset_cpus);
    } else if (controller == "cpu") {
      if (plan.version == 2) {
        status = WriteFile(file("cpu.max"), absl::StrCat(quota, " ", kCpuPeriodUs));
      } else {
        status = WriteFile(file("cpu.cfs_period_us"), absl::StrCat(kCpuPeriodUs));
        if (status.ok()) status = WriteFile(file("cpu.cfs_quota_us"), absl::StrCat(quota));
      }
    }
    if (!status.ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot set the ", controller, " limit: ", status.message()));
    }
  }
  return absl::OkStatus();
}

// Adds the pids in the cgroup at `dir` and its descendants, except ours.
void CollectPids(const std::string& dir, std::vector<pid_t>& pids) {
  if (absl::StatusOr<std::string> procs = ReadFile(JoinPath(dir, "cgroup.procs")); procs.ok()) {
    for (absl::string_view line : absl::StrSplit(*procs, '\n', absl::SkipEmpty())) {
      pid_t pid;
      if (absl::SimpleAtoi(line, &pid) && pid > 0 && pid != getpid()) pids.push_back(pid);
    }
  }
  DIR* listing = opendir(dir.c_str());
  if (listing == nullptr) return;
  std::vector<std::string> children;
  while (const struct dirent* entry = readdir(listing)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    const std::string child = JoinPath(dir, name);
    if (entry->d_type == DT_DIR || (entry->d_type == DT_UNKNOWN && IsDir(child))) {
      children.push_back(child);
    }
  }
  closedir(listing);
  for (const std::string& child : children) CollectPids(child, pids);
}

// Removes the cgroup at `dir`, descendants first, retrying while it is busy
// (exiting processes) until `deadline`. Returns 0 or the errno.
int RemoveTree(const std::string& dir, Clock::time_point deadline) {
  if (DIR* listing = opendir(dir.c_str())) {
    std::vector<std::string> children;
    while (const struct dirent* entry = readdir(listing)) {
      const std::string name = entry->d_name;
      const std::string child = JoinPath(dir, name);
      if (name != "." && name != ".." &&
          (entry->d_type == DT_DIR || (entry->d_type == DT_UNKNOWN && IsDir(child)))) {
        children.push_back(child);
      }
    }
    closedir(listing);
    for (const std::string& child : children) {
      if (const int err = RemoveTree(child, deadline); err != 0) return err;
    }
  }
  for (;;) {
    if (rmdir(dir.c_str()) == 0 || errno == ENOENT) return 0;
    if (errno != EBUSY || Clock::now() >= deadline) return errno;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

bool ValidName(absl::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

absl::Status CheckRequest(const ResourceLimits& limits, absl::string_view name_hint) {
  if (!ValidName(name_hint)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cgroup name hint \"", name_hint, "\" must be letters, digits, '-' and '_'"));
  }
  if (limits.memory_bytes < 0 || limits.pids < 0 || !(limits.cpus >= 0)) {
    return absl::InvalidArgumentError("resource limits must not be negative");
  }
  if (limits.cpus > 0 && std::llround(limits.cpus * kCpuPeriodUs) < kMinCpuQuotaUs) {
    return absl::InvalidArgumentError(
        absl::StrCat("a CPU limit of ", limits.cpus, " cores is below the kernel's minimum, 0.01"));
  }
  return absl::OkStatus();
}

// The controllers `limits` needs, in the order their errors are reported.
std::vector<std::string> WantedControllers(const ResourceLimits& limits) {
  std::vector<std::string> wanted;
  if (limits.memory_bytes > 0) wanted.push_back("memory");
  if (limits.pids > 0) wanted.push_back("pids");
  if (limits.cpus > 0) wanted.push_back("cpu");
  if (!limits.cpuset_cpus.empty()) wanted.push_back("cpuset");
  return wanted;
}

// The calling process's cgroup v2 cgroup, where one is mounted.
struct V2Hierarchy {
  Plan plan;                        // no controllers yet
  std::vector<std::string> offers;  // its cgroup.controllers
  bool in_runner_leaf = false;      // the process is in kRunnerLeaf of plan.base_dir
};

// The "0::path" line of /proc/self/cgroup and a cgroup2 mount that shows it.
std::optional<V2Hierarchy> FindV2Hierarchy(const std::vector<Membership>& memberships,
                                           const std::vector<Mount>& mounts) {
  for (const Membership& membership : memberships) {
    if (membership.id != "0" || !membership.controllers.empty()) continue;
    for (const Mount& mount : mounts) {
      if (mount.fstype != "cgroup2") continue;
      std::optional<std::string> dir = DirIn(mount, membership.path);
      if (!dir.has_value() || !IsDir(*dir)) continue;
      V2Hierarchy v2{.plan = {.version = 2, .base_path = membership.path, .base_dir = *dir}};
      if (BaseName(membership.path) == kRunnerLeaf && membership.path != "/") {
        // Moved here by an earlier Create: agents go next to this leaf.
        const std::string parent = ParentPath(membership.path);
        if (std::optional<std::string> parent_dir = DirIn(mount, parent); parent_dir.has_value()) {
          v2.plan.base_path = parent;
          v2.plan.base_dir = *parent_dir;
          v2.in_runner_leaf = true;
        }
      }
      v2.offers = Tokens(ReadFile(JoinPath(v2.plan.base_dir, "cgroup.controllers")).value_or(""));
      return v2;
    }
    break;
  }
  return std::nullopt;
}

// One plan per hierarchy that limits part of `wanted`: each controller from v2
// where offered, else from its v1 hierarchy; v2's plan last. Enables the v2
// controllers it plans to use. An error says what is missing and how to fix it.
absl::StatusOr<std::vector<Plan>> PlanHierarchies(const std::vector<std::string>& wanted,
                                                  const std::vector<Membership>& memberships,
                                                  const std::vector<Mount>& mounts,
                                                  std::optional<V2Hierarchy> v2,
                                                  const CgroupSystem& system) {
  std::vector<Plan> plans;
  std::vector<std::string> v1_ids;  // of plans[i]
  for (const std::string& controller : wanted) {
    if (v2.has_value() && Contains(v2->offers, controller)) {
      v2->plan.controllers.push_back(controller);
      continue;
    }
    const auto membership =
        std::find_if(memberships.begin(), memberships.end(), [&](const Membership& m) {
          return m.id != "0" && Contains(m.controllers, controller);
        });
    if (membership == memberships.end()) {
      const std::string v2_says =
          v2.has_value()
              ? absl::StrCat("cgroup v2 offers ",
                             v2->offers.empty()
                                 ? std::string("no controllers")
                                 : absl::StrCat("only ", absl::StrJoin(v2->offers, " ")),
                             " to ", v2->plan.base_dir,
                             " (its cgroup.controllers; the parent must ", "enable ", controller,
                             " in its cgroup.subtree_control, as systemd ",
                             "does for a unit with Delegate=yes)")
              : "no cgroup v2 hierarchy is mounted";
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot limit ", controller, ": ", v2_says, ", and ", system.proc_self_cgroup,
          " names no v1 ", controller, " hierarchy"));
    }
    const std::string label = absl::StrJoin(membership->controllers, ",");
    std::string dir;
    if (!HasMount(mounts, *membership, &dir)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot limit ", controller, ": the cgroup v1 ", label, " hierarchy (", label, ":",
          membership->path, " in ", system.proc_self_cgroup, ") is not mounted where ",
          system.mountinfo, " shows that cgroup; mount it, e.g. mount -t cgroup -o ", label,
          " cgroup /sys/fs/cgroup/", label));
    }
    const auto same = std::find(v1_ids.begin(), v1_ids.end(), membership->id);
    if (same != v1_ids.end()) {
      plans[same - v1_ids.begin()].controllers.push_back(controller);
      continue;
    }
    plans.push_back({.version = 1, .base_path = membership->path, .base_dir = dir,
                     .controllers = {controller}, .label = label, .required = true});
    v1_ids.push_back(membership->id);
  }
  if (v2.has_value()) {
    Plan& plan = v2->plan;
    plan.required = !plan.controllers.empty();
    plan.label = absl::StrJoin(plan.controllers, ",");
    if (plan.required) {
      if (absl::Status enabled = EnableV2Controllers(plan, !v2->in_runner_leaf); !enabled.ok()) {
        return absl::FailedPreconditionError(
            absl::StrCat("cannot limit ", plan.label, ": ", enabled.message()));
      }
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

// Nothing asked for and no v2 cgroup made: any v1 hierarchy will do to find
// the agent's processes (not cpuset: its cgroups start without CPUs). In order
// of preference.
std::vector<Plan> FallbackPlans(const std::vector<Membership>& memberships,
                                const std::vector<Mount>& mounts) {
  std::vector<Plan> fallbacks;
  for (absl::string_view preferred : {"pids", "memory", "freezer", "cpuacct", "cpu"}) {
    for (const Membership& membership : memberships) {
      std::string dir;
      if (membership.id == "0" || !Contains(membership.controllers, preferred) ||
          !HasMount(mounts, membership, &dir)) {
        continue;
      }
      fallbacks.push_back({.version = 1, .base_path = membership.path, .base_dir = dir,
                           .label = absl::StrJoin(membership.controllers, ",")});
    }
  }
  return fallbacks;
}

// A cgroup directory Create made, and the plan it was made for.
struct MadeDir {
  const Plan* plan;
  std::string path;  // as /proc/self/cgroup will show it
  std::string dir;
};

// Creates `plan`'s cgroup `name`: true when made (appended to `made`) or when
// it failed and the plan is not required (the reason appended to `problems`);
// false when the name is taken; an error when a required plan failed.
absl::StatusOr<bool> MakeDir(const Plan& plan, const std::string& name,
                             std::vector<MadeDir>& made, std::vector<std::string>& problems) {
  const std::string dir = JoinPath(plan.base_dir, name);
  if (mkdir(dir.c_str(), 0755) != 0) {
    const int err = errno;
    if (err == EEXIST) return false;
    const std::string problem =
        absl::StrCat("cannot create ", dir, ": ", std::strerror(err), Hint(err));
    if (plan.required) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot limit ", absl::StrJoin(plan.controllers, ", "), ": ", problem));
    }
    problems.push_back(problem);
    return true;
  }
  made.push_back({.plan = &plan,
                  .path = plan.base_path == "/" ? absl::StrCat("/", name)
                                                : JoinPath(plan.base_path, name),
                  .dir = dir});
  return true;
}

void RemoveMadeDirs(std::vector<MadeDir>& made) {
  for (const MadeDir& m : made) rmdir(m.dir.c_str());
  made.clear();
}

// Creates every plan's cgroup under one fresh name, "<name_hint>-<pid>-<n>",
// and returns the name. On an error nothing made is left behind.
absl::StatusOr<std::string> MakeDirsUnderFreshName(const std::vector<Plan>& plans,
                                                   absl::string_view name_hint,
                                                   std::vector<MadeDir>& made,
                                                   std::vector<std::string>& problems) {
  static std::atomic<uint64_t> counter{0};
  for (int attempt = 0;; ++attempt) {
    std::string name = absl::StrCat(name_hint, "-", getpid(), "-", ++counter);
    bool fresh = true;
    for (const Plan& plan : plans) {
      absl::StatusOr<bool> made_it = MakeDir(plan, name, made, problems);
      if (!made_it.ok() || !*made_it) {
        RemoveMadeDirs(made);
        if (!made_it.ok()) return made_it.status();
        fresh = false;
        break;
      }
    }
    if (fresh) return name;
    problems.clear();
    if (attempt == 100) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot find a fresh cgroup name for ", name_hint));
    }
  }
}

}  // namespace

int64_t MachineMemoryBytes() {
  if (absl::StatusOr<std::string> meminfo = ReadFile("/proc/meminfo"); meminfo.ok()) {
    for (absl::string_view line : absl::StrSplit(*meminfo, '\n')) {
      const std::vector<std::string> fields = Tokens(line);  // "MemTotal: 24684084 kB"
      int64_t kib;
      if (fields.size() == 3 && fields[0] == "MemTotal:" && fields[2] == "kB" &&
          absl::SimpleAtoi(fields[1], &kib) && kib > 0) {
        return kib * 1024;
      }
    }
  }
  return 0;
}

ResourceLimits DefaultResourceLimits() {
  return ResourceLimits{.memory_bytes = MachineMemoryBytes() / 5 * 4, .pids = 4096};
}

absl::StatusOr<AgentCgroup> AgentCgroup::Create(const ResourceLimits& limits,
                                                absl::string_view name_hint,
                                                const CgroupSystem& system) {
  RETURN_IF_ERROR(CheckRequest(limits, name_hint));
  const std::vector<std::string> wanted = WantedControllers(limits);

  AgentCgroup cgroup;
  // Without cgroups: an error when limits were asked for, else a no-op object.
  const auto none = [&](absl::string_view why) -> absl::StatusOr<AgentCgroup> {
    if (!wanted.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot limit ", absl::StrJoin(wanted, ", "), ": ", why));
    }
    cgroup.why_none_ = std::string(why);
    return std::move(cgroup);
  };

  const absl::StatusOr<std::string> proc_cgroup = ReadFile(system.proc_self_cgroup);
  if (!proc_cgroup.ok()) return none(proc_cgroup.status().message());
  const absl::StatusOr<std::string> mountinfo = ReadFile(system.mountinfo);
  if (!mountinfo.ok()) return none(mountinfo.status().message());
  const std::vector<Membership> memberships = ParseProcCgroup(*proc_cgroup);
  const std::vector<Mount> mounts = ParseMountInfo(*mountinfo);

  ASSIGN_OR_RETURN(const std::vector<Plan> plans,
                   PlanHierarchies(wanted, memberships, mounts,
                                   FindV2Hierarchy(memberships, mounts), system));
  std::vector<MadeDir> made;
  std::vector<std::string> problems;
  ASSIGN_OR_RETURN(const std::string name,
                   MakeDirsUnderFreshName(plans, name_hint, made, problems));
  std::vector<Plan> fallbacks;
  if (made.empty() && wanted.empty()) {
    fallbacks = FallbackPlans(memberships, mounts);
    for (const Plan& plan : fallbacks) {
      if (!MakeDir(plan, name, made, problems).ok()) continue;  // not required: cannot fail
      if (!made.empty()) break;
    }
  }
  // From here on the destructor removes what was made.
  for (const MadeDir& m : made) {
    const Plan& plan = *m.plan;
    cgroup.groups_.push_back(
        {.version = plan.version,
         .controllers = plan.version == 1 ? plan.label : absl::StrJoin(plan.controllers, ","),
         .path = m.path,
         .dir = m.dir,
         .memory = Contains(plan.controllers, "memory")});
  }

  for (size_t i = 0; i < cgroup.groups_.size(); ++i) {
    RETURN_IF_ERROR(WriteLimits(*made[i].plan, cgroup.groups_[i].dir, limits));
  }
  for (size_t i = 0; i < cgroup.groups_.size();) {
    Group& group = cgroup.groups_[i];
    const std::string procs = JoinPath(group.dir, "cgroup.procs");
    group.procs_fd = open(procs.c_str(), O_WRONLY | O_CLOEXEC);
    if (group.procs_fd >= 0) {
      ++i;
      continue;
    }
    const int err = errno;
    const std::string problem =
        absl::StrCat("cannot open ", procs, ": ", std::strerror(err), Hint(err));
    if (made[i].plan->required) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot limit ", group.controllers, ": ", problem));
    }
    problems.push_back(problem);
    rmdir(group.dir.c_str());
    cgroup.groups_.erase(cgroup.groups_.begin() + i);
    made.erase(made.begin() + i);
  }
  if (cgroup.groups_.empty()) {
    return none(problems.empty() ? "no cgroup hierarchy is mounted"
                                 : absl::StrJoin(problems, "; "));
  }
  return std::move(cgroup);
}

AgentCgroup::AgentCgroup(AgentCgroup&& other) noexcept
    : groups_(std::exchange(other.groups_, {})), why_none_(std::move(other.why_none_)) {}

AgentCgroup& AgentCgroup::operator=(AgentCgroup&& other) noexcept {
  if (this != &other) {
    Remove().IgnoreError();
    groups_ = std::exchange(other.groups_, {});
    why_none_ = std::move(other.why_none_);
  }
  return *this;
}

AgentCgroup::~AgentCgroup() { Remove().IgnoreError(); }

bool AgentCgroup::JoinFromChild() const {
  for (const Group& group : groups_) {
    if (write(group.procs_fd, "0", 1) != 1) return false;
  }
  return true;
}

void AgentCgroup::KillAll() const {
  if (groups_.empty()) return;
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline = start + kKillWait;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    // cgroup.kill also stops forks racing with it. Signals follow if some
    // process outlives it (only in another hierarchy's cgroup, say).
    bool kernel_kills = false;
    for (const Group& group : groups_) {
      if (group.version == 2 && WriteRaw(JoinPath(group.dir, "cgroup.kill"), "1") == 0) {
        kernel_kills = true;
      }
    }
    std::vector<pid_t> pids;
    for (const Group& group : groups_) CollectPids(group.dir, pids);
    if (pids.empty()) return;
    if (!kernel_kills || Clock::now() - start > std::chrono::milliseconds(200)) {
      for (const pid_t pid : pids) kill(pid, SIGKILL);
    }
    if (Clock::now() >= deadline) return;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

AgentCgroup::Usage AgentCgroup::ReadUsage() const {
  Usage usage;
  for (const Group& group : groups_) {
    const auto file = [&](absl::string_view name) { return ReadFile(JoinPath(group.dir, name)); };
    if (Exists(JoinPath(group.dir, "pids.events"))) {
      usage.pids_limit_hits = ValueOf(file("pids.events"), "max");
    }
    if (!group.memory) continue;
    if (group.version == 2) {
      usage.memory_peak_bytes = NumberIn(file("memory.peak"));
      usage.oom_kills = ValueOf(file("memory.events"), "oom_kill");
    } else {
      usage.memory_peak_bytes = NumberIn(file("memory.max_usage_in_bytes"));
      usage.oom_kills = ValueOf(file("memory.oom_control"), "oom_kill");
    }
  }
  return usage;
}

absl::Status AgentCgroup::Remove() {
  if (groups_.empty()) return absl::OkStatus();
  KillAll();
  const Clock::time_point deadline = Clock::now() + kRemoveWait;
  std::vector<std::string> left;
  for (Group& group : groups_) {
    if (group.procs_fd >= 0) close(group.procs_fd);
    if (const int err = RemoveTree(group.dir, deadline); err != 0) {
      left.push_back(absl::StrCat(group.dir, " (", std::strerror(err), ")"));
    }
  }
  groups_.clear();
  why_none_ = "removed";
  if (!left.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot remove cgroup ", absl::StrJoin(left, ", ")));
  }
  return absl::OkStatus();
}

std::string AgentCgroup::Describe() const {
  if (groups_.empty()) return absl::StrCat("no cgroup: ", why_none_);
  std::vector<std::string> parts;
  for (const Group& group : groups_) {
    parts.push_back(absl::StrCat("v", group.version, " ", group.controllers, ":", group.path));
  }
  return absl::StrCat("cgroup ", absl::StrJoin(parts, ", "));
}

absl::Status AgentCgroup::RemoveLeftover(const std::vector<std::string>& directories) {
  AgentCgroup leftover;
  for (const std::string& dir : directories) {
    Group group;
    struct stat st;
    group.version = stat(JoinPath(dir, "cgroup.kill").c_str(), &st) == 0 ? 2 : 1;
    group.dir = dir;
    leftover.groups_.push_back(std::move(group));
  }
  return leftover.Remove();
}

std::vector<std::string> AgentCgroup::directories() const {
  std::vector<std::string> dirs;
  for (const Group& group : groups_) dirs.push_back(group.dir);
  return dirs;
}

}  // namespace mlebench
