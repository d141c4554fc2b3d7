#include "agent_runner/admission.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "agent_runner/cgroup.h"
#include "agent_runner/processes.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr auto kPollInterval = std::chrono::milliseconds(250);

// One line of the ledger: "pid starttime cpus memory gpus", where cpus and
// gpus are lists like "0,1" or "-" for none.
struct Entry {
  pid_t pid = 0;
  unsigned long long start_time = 0;
  std::vector<int> cpu_ids;
  int64_t memory_bytes = 0;
  std::vector<int> gpu_ids;
};

std::string IdsText(const std::vector<int>& ids) {
  return ids.empty() ? "-" : absl::StrJoin(ids, ",");
}

std::optional<std::vector<int>> ParseIds(absl::string_view text) {
  std::vector<int> ids;
  if (text == "-") return ids;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    int id;
    if (!absl::SimpleAtoi(part, &id) || id < 0) return std::nullopt;
    ids.push_back(id);
  }
  return ids;
}

std::string EntryText(const Entry& entry) {
  return absl::StrCat(entry.pid, " ", entry.start_time, " ", IdsText(entry.cpu_ids), " ",
                      entry.memory_bytes, " ", IdsText(entry.gpu_ids));
}

// The ledger's entries; lines that do not parse are dropped (a torn write of
// a process that died mid-line cannot hold resources forever).
std::vector<Entry> ParseLedger(const std::string& text) {
  std::vector<Entry> entries;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const std::vector<absl::string_view> fields = absl::StrSplit(line, ' ');
    Entry entry;
    if (fields.size() != 5 || !absl::SimpleAtoi(fields[0], &entry.pid) ||
        !absl::SimpleAtoi(fields[1], &entry.start_time) ||
        !absl::SimpleAtoi(fields[3], &entry.memory_bytes)) {
      continue;
    }
    std::optional<std::vector<int>> cpus = ParseIds(fields[2]);
    std::optional<std::vector<int>> gpus = ParseIds(fields[4]);
    if (!cpus.has_value() || !gpus.has_value()) continue;
    entry.cpu_ids = *std::move(cpus);
    entry.gpu_ids = *std::move(gpus);
    entries.push_back(std::move(entry));
  }
  return entries;
}

bool IsLive(const Entry& entry) {
  const std::optional<unsigned long long> start = StartTimeOf(entry.pid);
  return start.has_value() && *start == entry.start_time;
}

absl::Status LedgerError(absl::string_view what, const fs::path& ledger, int err) {
  return absl::FailedPreconditionError(absl::StrCat("cannot ", what, " the admission ledger ",
                                                    ledger.string(), ": ", std::strerror(err)));
}

// The ledger, open and locked exclusively for the life of this object.
class LockedLedger {
 public:
  static absl::StatusOr<LockedLedger> Open(const fs::path& ledger) {
    LockedLedger locked;
    // Opened as it is first, created only when absent: with
    // fs.protected_regular, O_CREAT on another user's file in a sticky
    // directory (/run/lock) fails even for root.
    for (int attempt = 0; locked.fd_ < 0; ++attempt) {
      locked.fd_ = open(ledger.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
      if (locked.fd_ >= 0 || errno != ENOENT || attempt > 10) break;
      locked.fd_ = open(ledger.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
      if (locked.fd_ < 0 && errno != EEXIST) break;
    }
    if (locked.fd_ < 0) return LedgerError("open", ledger, errno);
    struct stat kind;
    if (fstat(locked.fd_, &kind) != 0 || !S_ISREG(kind.st_mode)) {
      return absl::FailedPreconditionError(
          absl::StrCat("the admission ledger ", ledger.string(), " is not a regular file"));
    }
    // Every user's runs share it (umask would narrow the mode).
    struct stat st;
    if (fstat(locked.fd_, &st) == 0 && st.st_uid == geteuid() && (st.st_mode & 0777) != 0666) {
      fchmod(locked.fd_, 0666);
    }
    while (flock(locked.fd_, LOCK_EX) != 0) {
      if (errno != EINTR) return LedgerError("lock", ledger, errno);
    }
    return locked;
  }
  LockedLedger(LockedLedger&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  LockedLedger& operator=(LockedLedger&&) = delete;
  ~LockedLedger() {
    if (fd_ >= 0) close(fd_);  // releases the lock
  }

  absl::StatusOr<std::string> Read(const fs::path& ledger) const {
    std::string text;
    char buffer[4096];
    for (off_t offset = 0;;) {
      const ssize_t n = pread(fd_, buffer, sizeof(buffer), offset);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return LedgerError("read", ledger, errno);
      if (n == 0) break;
      text.append(buffer, static_cast<size_t>(n));
      offset += n;
      if (text.size() > (size_t{1} << 20)) {
        return absl::FailedPreconditionError(
            absl::StrCat("the admission ledger ", ledger.string(), " is over 1 MiB: not ours?"));
      }
    }
    return text;
  }

  absl::Status Write(const fs::path& ledger, const std::vector<Entry>& entries) const {
    std::string text;
    for (const Entry& entry : entries) absl::StrAppend(&text, EntryText(entry), "\n");
    if (ftruncate(fd_, 0) != 0) return LedgerError("truncate", ledger, errno);
    for (size_t done = 0; done < text.size();) {
      const ssize_t n = pwrite(fd_, text.data() + done, text.size() - done,
                               static_cast<off_t>(done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return LedgerError("write", ledger, errno);
      done += static_cast<size_t>(n);
    }
    return absl::OkStatus();
  }

 private:
  LockedLedger() = default;
  int fd_ = -1;
};

// The first `count` of `all` not in `taken`, or nullopt.
std::optional<std::vector<int>> TakeFree(const std::vector<int>& all, const std::set<int>& taken,
                                         int count) {
  std::vector<int> chosen;
  for (int id : all) {
    if (static_cast<int>(chosen.size()) == count) break;
    if (taken.count(id) == 0) chosen.push_back(id);
  }
  if (static_cast<int>(chosen.size()) < count) return std::nullopt;
  return chosen;
}

std::string DescribeRequest(int cpus, int64_t memory_bytes, int gpus) {
  return absl::StrCat(cpus, " CPU(s), ", memory_bytes >> 20, " MiB of memory and ", gpus,
                      " GPU(s)");
}

}  // namespace

absl::StatusOr<MachineResources> DetectMachine(const fs::path& dev_dir) {
  MachineResources machine;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) {
    return absl::InternalError(absl::StrCat("sched_getaffinity: ", std::strerror(errno)));
  }
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) machine.cpu_ids.push_back(cpu);
  }
  machine.memory_bytes = MachineMemoryBytes();
  if (machine.memory_bytes <= 0) {
    return absl::InternalError("cannot read MemTotal from /proc/meminfo");
  }
  std::error_code ec;
  for (fs::directory_iterator it(dev_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    int index;
    if (file.rfind("nvidia", 0) != 0 || !absl::SimpleAtoi(file.substr(6), &index) || index < 0) {
      continue;
    }
    struct stat st;
    if (stat(it->path().c_str(), &st) == 0 && S_ISCHR(st.st_mode)) {
      machine.gpu_ids.push_back(index);
    }
  }
  std::sort(machine.gpu_ids.begin(), machine.gpu_ids.end());
  return machine;
}

fs::path DefaultLedgerPath() {
  std::error_code ec;
  if (fs::is_directory("/run/lock", ec)) return "/run/lock/mlebench-agent-admission";
  return "/tmp/mlebench-agent-admission";
}

std::string CpuListText(const std::vector<int>& ids) {
  std::vector<int> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::string> ranges;
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
    ranges.push_back(j == i ? absl::StrCat(sorted[i])
                            : absl::StrCat(sorted[i], "-", sorted[j]));
    i = j + 1;
  }
  return absl::StrJoin(ranges, ",");
}

absl::StatusOr<Admission> Admission::Reserve(
    const fs::path& ledger, const MachineResources& machine, const ResourceRequest& request,
    const std::function<void(const std::string&)>& on_wait) {
  const int cpus = request.cpus == 0 ? static_cast<int>(machine.cpu_ids.size()) : request.cpus;
  if (request.cpus < 0 || request.gpus < 0 || request.memory_bytes < 0) {
    return absl::InvalidArgumentError("resource requests must not be negative");
  }
  if (cpus > static_cast<int>(machine.cpu_ids.size()) || request.gpus >
      static_cast<int>(machine.gpu_ids.size()) || request.memory_bytes > machine.memory_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the agent asks for ", DescribeRequest(cpus, request.memory_bytes, request.gpus),
        ", more than this machine has: ",
        DescribeRequest(static_cast<int>(machine.cpu_ids.size()), machine.memory_bytes,
                        static_cast<int>(machine.gpu_ids.size())),
        " (set --//agent_runner:cpus, :memory or :gpus, or the agent's defaults, lower)"));
  }
  const unsigned long long own_start = StartTimeOf(getpid()).value_or(0);
  const Clock::time_point start = Clock::now();
  bool told = false;
  for (;;) {
    {
      ASSIGN_OR_RETURN(LockedLedger locked, LockedLedger::Open(ledger));
      ASSIGN_OR_RETURN(std::string text, locked.Read(ledger));
      std::vector<Entry> live;
      for (Entry& entry : ParseLedger(text)) {
        if (IsLive(entry) && entry.pid != getpid()) live.push_back(std::move(entry));
      }
      std::set<int> cpus_taken;
      std::set<int> gpus_taken;
      int64_t memory_taken = 0;
      for (const Entry& entry : live) {
        cpus_taken.insert(entry.cpu_ids.begin(), entry.cpu_ids.end());
        gpus_taken.insert(entry.gpu_ids.begin(), entry.gpu_ids.end());
        memory_taken += entry.memory_bytes;
      }
      std::optional<std::vector<int>> cpu_ids = TakeFree(machine.cpu_ids, cpus_taken, cpus);
      std::optional<std::vector<int>> gpu_ids = TakeFree(machine.gpu_ids, gpus_taken,
                                                         request.gpus);
      if (cpu_ids.has_value() && gpu_ids.has_value() &&
          memory_taken + request.memory_bytes <= machine.memory_bytes) {
        Entry own{.pid = getpid(),
                  .start_time = own_start,
                  .cpu_ids = *cpu_ids,
                  .memory_bytes = request.memory_bytes,
                  .gpu_ids = *gpu_ids};
        live.push_back(own);
        RETURN_IF_ERROR(locked.Write(ledger, live));
        Admission admission;
        admission.ledger_ = ledger;
        admission.entry_ = EntryText(own);
        admission.grant_ = {.cpu_ids = own.cpu_ids,
                            .memory_bytes = own.memory_bytes,
                            .gpu_ids = own.gpu_ids,
                            .waited_s = std::chrono::duration<double>(Clock::now() - start)
                                            .count()};
        return admission;
      }
      if (!told && on_wait) {
        told = true;
        on_wait(absl::StrCat(
            "waiting for ", DescribeRequest(cpus, request.memory_bytes, request.gpus), ": ",
            live.size(),
            " other agent run(s) on this machine (of any agent or build, the sample "
            "submissions' runs included) hold ", cpus_taken.size(),
            " CPU(s), ", memory_taken >> 20, " MiB and ", gpus_taken.size(), " GPU(s) of ",
            DescribeRequest(static_cast<int>(machine.cpu_ids.size()), machine.memory_bytes,
                            static_cast<int>(machine.gpu_ids.size()))));
      }
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

Admission::Admission(Admission&& other) noexcept
    : ledger_(std::move(other.ledger_)),
      entry_(std::exchange(other.entry_, std::string())),
      grant_(std::move(other.grant_)) {}

Admission& Admission::operator=(Admission&& other) noexcept {
  if (this != &other) {
    Release().IgnoreError();
    ledger_ = std::move(other.ledger_);
    entry_ = std::exchange(other.entry_, std::string());
    grant_ = std::move(other.grant_);
  }
  return *this;
}

Admission::~Admission() { Release().IgnoreError(); }

absl::Status Admission::Release() {
  if (entry_.empty()) return absl::OkStatus();
  const std::string entry = std::exchange(entry_, std::string());
  ASSIGN_OR_RETURN(LockedLedger locked, LockedLedger::Open(ledger_));
  ASSIGN_OR_RETURN(std::string text, locked.Read(ledger_));
  std::vector<Entry> kept;
  for (Entry& other : ParseLedger(text)) {
    if (EntryText(other) != entry && IsLive(other)) kept.push_back(std::move(other));
  }
  return locked.Write(ledger_, kept);
}

}  // namespace mlebench
