#include "agent_runner/processes.h"

#include <dirent.h>
#include <limits.h>
#include <sys/types.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace mlebench {
namespace {

// Calls `visit` with every id that directory `dir` lists (/proc: its
// processes; /proc/<pid>/task: a process's threads).
void ForEachIdIn(const std::string& dir, const std::function<void(pid_t)>& visit) {
  DIR* ids = opendir(dir.c_str());
  if (ids == nullptr) return;
  while (const struct dirent* entry = readdir(ids)) {
    int id;
    if (absl::SimpleAtoi(entry->d_name, &id) && id > 0) visit(id);
  }
  closedir(ids);
}

// Calls `visit` with the pid of every process listed in /proc.
void ForEachProcess(const std::function<void(pid_t)>& visit) { ForEachIdIn("/proc", visit); }

// The state, parent, process group and start time of `pid`, from
// /proc/<pid>/stat.
struct StatIds {
  char state;
  pid_t ppid;
  pid_t pgrp;
  unsigned long long start_time;
};

std::optional<StatIds> StatIdsOf(pid_t pid) {
  std::ifstream stat_file(absl::StrCat("/proc/", pid, "/stat"));
  std::string stat_line;
  if (!std::getline(stat_file, stat_line)) return std::nullopt;
  // "pid (comm) state ppid pgrp ...": comm may itself contain ')'.
  const size_t close_paren = stat_line.rfind(')');
  if (close_paren == std::string::npos) return std::nullopt;
  char state;
  int ppid;
  int pgrp;
  unsigned long long start_time;
  // Fields 3, 4, 5 and 22 (proc(5)): state ppid pgrp ... starttime.
  if (std::sscanf(stat_line.c_str() + close_paren + 1,
                  " %c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
                  &state, &ppid, &pgrp, &start_time) != 4) {
    return std::nullopt;
  }
  return StatIds{state, ppid, pgrp, start_time};
}

std::optional<pid_t> ParentOf(pid_t pid) {
  const std::optional<StatIds> ids = StatIdsOf(pid);
  if (!ids.has_value()) return std::nullopt;
  return ids->ppid;
}

}  // namespace

std::optional<unsigned long long> StartTimeOf(pid_t pid) {
  const std::optional<StatIds> ids = StatIdsOf(pid);
  if (!ids.has_value() || ids->state == 'Z') return std::nullopt;
  return ids->start_time;
}

std::vector<pid_t> ChildrenOf(pid_t parent) {
  std::vector<pid_t> children;
  ForEachProcess([&](pid_t pid) {
    if (ParentOf(pid) == parent) children.push_back(pid);
  });
  return children;
}

std::optional<std::string> PidNamespaceOf(pid_t pid) {
  const std::string link = absl::StrCat("/proc/", pid, "/ns/pid");
  char target[PATH_MAX];
  const ssize_t size = readlink(link.c_str(), target, sizeof(target));
  if (size <= 0 || size >= static_cast<ssize_t>(sizeof(target))) return std::nullopt;
  return std::string(target, static_cast<size_t>(size));
}

std::vector<pid_t> ProcessesInPidNamespace(const std::string& pid_namespace) {
  std::vector<pid_t> members;
  ForEachProcess([&](pid_t pid) {
    if (PidNamespaceOf(pid) == pid_namespace) members.push_back(pid);
  });
  return members;
}

std::vector<pid_t> ProcessesInGroup(pid_t group) {
  std::vector<pid_t> members;
  ForEachProcess([&](pid_t pid) {
    const std::optional<StatIds> ids = StatIdsOf(pid);
    if (ids.has_value() && ids->pgrp == group) members.push_back(pid);
  });
  return members;
}

std::vector<pid_t> ThreadsOf(pid_t pid) {
  std::vector<pid_t> threads;
  ForEachIdIn(absl::StrCat("/proc/", pid, "/task"), [&](pid_t tid) {
    threads.push_back(tid);
    if (tid == pid) std::swap(threads.front(), threads.back());
  });
  return threads;
}

bool IsZombieOrGone(pid_t pid) {
  const std::optional<StatIds> ids = StatIdsOf(pid);
  return !ids.has_value() || ids->state == 'Z' || ids->state == 'X';
}

}  // namespace mlebench
