#include "grading/grading_limits.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "base/csv.h"

namespace mlebench {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;
// The stack of every thread a graded process starts once its limits are set.
constexpr int64_t kThreadStackBytes = 8 * kMiB;

// a * b + c, saturating instead of overflowing.
int64_t SaturatingMulAdd(int64_t a, int64_t b, int64_t c) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if (a != 0 && b > (kMax - c) / a) return kMax;
  return a * b + c;
}

// What the handlers write, and where, set once before the limits take
// effect: to g_out_path, or when it is empty, to g_out_fd.
const std::string* g_out_path = nullptr;
int g_out_fd = -1;
int g_exit_status = 0;
const std::string* g_memory_report = nullptr;
const std::string* g_cpu_report = nullptr;

// Writes `report` to the output and ends the process; only async-signal-safe
// calls, and nothing that allocates.
[[noreturn]] void WriteReportAndExit(const std::string* report) {
  const bool own = !g_out_path->empty();
  const int fd =
      own ? open(g_out_path->c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : g_out_fd;
  bool ok = fd >= 0;
  for (size_t done = 0; ok && done < report->size();) {
    const ssize_t n = write(fd, report->data() + done, report->size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<size_t>(n);
  }
  if (own && fd >= 0 && close(fd) != 0) ok = false;
  _exit(ok ? g_exit_status : 1);
}

void OnAllocationFailure() { WriteReportAndExit(g_memory_report); }

void OnCpuLimit(int) { WriteReportAndExit(g_cpu_report); }

// The process's data segment now (VmData of /proc/self/status), in bytes.
absl::StatusOr<int64_t> CurrentDataBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    absl::string_view rest = line;
    if (!absl::ConsumePrefix(&rest, "VmData:")) continue;
    rest = absl::StripAsciiWhitespace(rest);
    int64_t kib = 0;
    if (absl::ConsumeSuffix(&rest, "kB") &&
        absl::SimpleAtoi(absl::StripAsciiWhitespace(rest), &kib)) {
      return kib * 1024;
    }
  }
  return absl::InternalError("cannot read VmData from /proc/self/status");
}

// Lowers `resource` to `soft` and `hard` (never above the hard limit the
// process already has, which it could not raise).
absl::Status SetLimit(int resource, rlim_t soft, rlim_t hard, absl::string_view name) {
  struct rlimit current;
  if (getrlimit(resource, &current) != 0) {
    return absl::InternalError(absl::StrCat("cannot read ", name, ": ", std::strerror(errno)));
  }
  const struct rlimit limit = {std::min(soft, current.rlim_max), std::min(hard, current.rlim_max)};
  if (setrlimit(resource, &limit) != 0) {
    return absl::InternalError(absl::StrCat("cannot set ", name, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace

GradingLimits GradingLimitsFor(int64_t answers_bytes, int64_t answers_cells,
                               int64_t answers_columns) {
  GradingLimits limits;
  limits.max_submission_bytes = SaturatingMulAdd(32, std::max<int64_t>(answers_bytes, 0), kMiB);
  limits.max_submission_cells =
      SaturatingMulAdd(4, std::max<int64_t>(answers_cells, 0), int64_t{1} << 20);
  limits.max_submission_columns = SaturatingMulAdd(4, std::max<int64_t>(answers_columns, 0), 1024);
  // The same on every machine, whatever its cores and `ulimit -s`: the CSV
  // reader's most threads, each with the stack EnforceLimits gives threads.
  const int64_t stacks = static_cast<int64_t>(kMaxCsvReadThreads) * kThreadStackBytes;
  limits.memory_headroom_bytes = SaturatingMulAdd(
      256, limits.max_submission_cells,
      SaturatingMulAdd(
          4, limits.max_submission_bytes,
          SaturatingMulAdd(4096, limits.max_submission_columns,
                           SaturatingMulAdd(512, kMiB, stacks))));
  limits.cpu_seconds = 300 + std::max<int64_t>(answers_bytes, 0) / (64 * 1024);
  return limits;
}

std::string SubmissionBytesOverLimit(int64_t submission_bytes, int64_t answers_bytes,
                                     const GradingLimits& limits) {
  return absl::StrCat("submission is too large to grade: ", submission_bytes,
                      " bytes, more than the ", limits.max_submission_bytes,
                      " bytes allowed for this competition's answers (32 x their ",
                      answers_bytes, " bytes + 1 MiB)");
}

std::string SubmissionShapeOverLimit(absl::string_view detail, int64_t answers_cells,
                                     int64_t answers_columns, const GradingLimits& limits) {
  return absl::StrCat("submission is too large to grade: ", detail,
                      " (this competition's answers allow 4 x their ", answers_cells,
                      " cells + 1048576 = ", limits.max_submission_cells, " cells, and 4 x their ",
                      answers_columns, " columns + 1024 = ", limits.max_submission_columns,
                      " columns)");
}

std::string GradingMemoryOverLimit(const GradingLimits& limits) {
  return absl::StrCat("grading this submission needs more than the ",
                      limits.memory_headroom_bytes,
                      " bytes of memory allowed for this competition's answers");
}

std::string GradingCpuOverLimit(const GradingLimits& limits) {
  return absl::StrCat("grading this submission took more than the ", limits.cpu_seconds,
                      " s of CPU time allowed for this competition's answers");
}

namespace {

// Sets the limits up once the handlers' globals are set.
absl::Status EnforceLimits(const GradingLimits& limits) {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = OnCpuLimit;
  sigemptyset(&action.sa_mask);
  if (sigaction(SIGXCPU, &action, nullptr) != 0) {
    return absl::InternalError(absl::StrCat("cannot handle SIGXCPU: ", std::strerror(errno)));
  }
  // The soft limit sends SIGXCPU; the hard one, a few seconds on, SIGKILL
  // should the handler itself not finish.
  const rlim_t cpu = static_cast<rlim_t>(limits.cpu_seconds);
  if (absl::Status s = SetLimit(RLIMIT_CPU, cpu, cpu + 10, "RLIMIT_CPU"); !s.ok()) return s;

  // Threads get a stack of kThreadStackBytes, not one as large as the soft
  // RLIMIT_STACK (glibc's default), which differs between machines.
  pthread_attr_t attributes;
  if (pthread_attr_init(&attributes) != 0) return absl::InternalError("cannot make thread attributes");
  const int stack_error = pthread_attr_setstacksize(&attributes, kThreadStackBytes);
  const int default_error = stack_error != 0 ? stack_error : pthread_setattr_default_np(&attributes);
  pthread_attr_destroy(&attributes);
  if (default_error != 0) {
    return absl::InternalError(
        absl::StrCat("cannot set the threads' stack size: ", std::strerror(default_error)));
  }

  absl::StatusOr<int64_t> data = CurrentDataBytes();
  if (!data.ok()) return data.status();
  const int64_t limit = SaturatingMulAdd(1, *data, limits.memory_headroom_bytes);
  std::set_new_handler(OnAllocationFailure);
  return SetLimit(RLIMIT_DATA, static_cast<rlim_t>(limit), static_cast<rlim_t>(limit),
                  "RLIMIT_DATA");
}

}  // namespace

absl::Status EnforceGradingLimits(const GradingLimits& limits, const std::string& out_path,
                                  std::string memory_report, std::string cpu_report) {
  if (g_out_path != nullptr) return absl::FailedPreconditionError("grading limits already set");
  if (out_path.empty()) return absl::InvalidArgumentError("no path for the limit reports");
  // Leaked on purpose: the handlers may run at any time until exit.
  g_out_path = new std::string(out_path);
  g_memory_report = new std::string(std::move(memory_report));
  g_cpu_report = new std::string(std::move(cpu_report));
  return EnforceLimits(limits);
}

absl::Status EnforceGradingLimitsOnDescriptor(const GradingLimits& limits, int fd, int exit_status,
                                              std::string memory_report, std::string cpu_report) {
  if (g_out_path != nullptr) return absl::FailedPreconditionError("grading limits already set");
  if (fd < 0) return absl::InvalidArgumentError("no descriptor for the limit reports");
  g_out_path = new std::string();
  g_out_fd = fd;
  g_exit_status = exit_status;
  g_memory_report = new std::string(std::move(memory_report));
  g_cpu_report = new std::string(std::move(cpu_report));
  return EnforceLimits(limits);
}

}  // namespace mlebench
