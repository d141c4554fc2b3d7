#include "grading/grade_fuzzing.h"

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/hostile_variants.h"
#include "grading/medals.h"

// The sanitizer allocator's interface (<sanitizer/allocator_interface.h>,
// which GCC does not install), declared weak: in a build without a
// sanitizer they are null and HeapMeter measures nothing.
extern "C" {
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*, size_t),
                                              void (*free_hook)(const volatile void*))
    __attribute__((weak));
size_t __sanitizer_get_allocated_size(const volatile void* p) __attribute__((weak));
void __sanitizer_print_stack_trace() __attribute__((weak));
}

namespace mlebench {
namespace {

// HeapMeter's state: atomics only, since the hooks run inside every
// allocation on every thread and must neither allocate nor lock.
std::atomic<int64_t> g_held{0};        // bytes held now (since the hooks were installed)
std::atomic<bool> g_measuring{false};
std::atomic<int64_t> g_start{0};       // g_held when the measurement started
std::atomic<int64_t> g_peak{0};        // most of g_held since then
std::atomic<int64_t> g_limit{0};

void WriteStderr(const char* text) {
  size_t size = 0;
  while (text[size] != '\0') ++size;
  while (size > 0) {
    const ssize_t n = write(STDERR_FILENO, text, size);
    if (n <= 0) return;
    text += n;
    size -= static_cast<size_t>(n);
  }
}

// `value` in decimal into `buffer` (at least 21 bytes), without allocating.
const char* Decimal(int64_t value, char* buffer) {
  char* end = buffer + 20;
  *end = '\0';
  const bool negative = value < 0;
  uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  do {
    *--end = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0 && end > buffer + 1);
  if (negative) *--end = '-';
  return end;
}

[[noreturn]] void HeapLimitExceeded(int64_t held, int64_t limit) {
  char held_text[21], limit_text[21];
  WriteStderr("\n==grade fuzzer: grading this input holds ");
  WriteStderr(Decimal(held, held_text));
  WriteStderr(" bytes of heap at once, more than the grading limits allow for these answers (");
  WriteStderr(Decimal(limit, limit_text));
  WriteStderr(" bytes: memory_headroom_bytes, grading/grading_limits.h). The allocation:\n");
  if (__sanitizer_print_stack_trace != nullptr) __sanitizer_print_stack_trace();
  std::abort();
}

void OnMalloc(const volatile void*, size_t size) {
  const int64_t held = g_held.fetch_add(static_cast<int64_t>(size), std::memory_order_relaxed) +
                       static_cast<int64_t>(size);
  if (!g_measuring.load(std::memory_order_relaxed)) return;
  int64_t peak = g_peak.load(std::memory_order_relaxed);
  while (held > peak && !g_peak.compare_exchange_weak(peak, held, std::memory_order_relaxed)) {
  }
  const int64_t beyond = held - g_start.load(std::memory_order_relaxed);
  const int64_t limit = g_limit.load(std::memory_order_relaxed);
  if (beyond > limit) HeapLimitExceeded(beyond, limit);
}

void OnFree(const volatile void* pointer) {
  if (pointer == nullptr) return;
  g_held.fetch_sub(static_cast<int64_t>(__sanitizer_get_allocated_size(pointer)),
                   std::memory_order_relaxed);
}

double ProcessCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

int64_t MaxRssBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

}  // namespace

bool HeapMeter::Install() {
  static const bool installed = [] {
    if (__sanitizer_install_malloc_and_free_hooks == nullptr ||
        __sanitizer_get_allocated_size == nullptr) {
      return false;
    }
    return __sanitizer_install_malloc_and_free_hooks(&OnMalloc, &OnFree) != 0;
  }();
  return installed;
}

void HeapMeter::Start(int64_t limit) {
  const int64_t held = g_held.load(std::memory_order_relaxed);
  g_start.store(held, std::memory_order_relaxed);
  g_peak.store(held, std::memory_order_relaxed);
  g_limit.store(limit, std::memory_order_relaxed);
  g_measuring.store(true, std::memory_order_seq_cst);
}

int64_t HeapMeter::Stop() {
  g_measuring.store(false, std::memory_order_seq_cst);
  return g_peak.load(std::memory_order_relaxed) - g_start.load(std::memory_order_relaxed);
}

absl::Status CheckGradingCost(const GradingCost& cost, const GradingLimits& limits) {
  std::vector<std::string> broken;
  if (cost.peak_bytes > limits.memory_headroom_bytes) {
    broken.push_back(absl::StrCat("it held ", cost.peak_bytes,
                                  " bytes of memory at once, more than memory_headroom_bytes (",
                                  limits.memory_headroom_bytes, ")"));
  }
  if (cost.cpu_seconds > static_cast<double>(limits.cpu_seconds)) {
    broken.push_back(absl::StrCat("it took ", cost.cpu_seconds,
                                  " CPU seconds, more than cpu_seconds (", limits.cpu_seconds,
                                  ")"));
  }
  if (broken.empty()) return absl::OkStatus();
  return absl::ResourceExhaustedError(
      absl::StrCat("grading this input costs more than the grading limits allow for these "
                   "answers (grading/grading_limits.h): ",
                   absl::StrJoin(broken, "; ")));
}

absl::StatusOr<SubmissionFuzzer> SubmissionFuzzer::Create(
    const CompetitionGrader& grader, const std::string& answers_file,
    const std::filesystem::path& scratch_dir) {
  SubmissionFuzzer fuzzer;
  fuzzer.grader_ = &grader;
  fuzzer.answers_file_ = answers_file;
  ASSIGN_OR_RETURN(fuzzer.answers_, ReadAnswersForGrading(grader, answers_file));
  // The name the grade action requires of a submission (a .csv file).
  fuzzer.submission_file_ = scratch_dir / "submission.csv";
  fuzzer.initial_max_rss_bytes_ = MaxRssBytes();
  return fuzzer;
}

absl::Status SubmissionFuzzer::Grade(std::string_view submission) {
  RETURN_IF_ERROR(WriteStringToFile(submission_file_, submission));
  const GradingLimits& limits = answers_.limits;
  const bool metered = HeapMeter::Install();
  const double cpu_before = ProcessCpuSeconds();
  if (metered) HeapMeter::Start(limits.memory_headroom_bytes);
  absl::StatusOr<CompetitionReport> report = GradeSubmissionAgainst(
      *grader_, submission_file_.string(), answers_, MedalThresholds(), ReportContext());
  // The report as the grade action writes it (a score may be NaN or huge).
  const std::string json = report.ok() ? ToPythonJson(*report, 2) : std::string();
  GradingCost cost;
  if (metered) {
    cost.peak_bytes = HeapMeter::Stop();
  } else {
    cost.peak_bytes = MaxRssBytes() - initial_max_rss_bytes_;
  }
  cost.cpu_seconds = ProcessCpuSeconds() - cpu_before;
  if (!report.ok()) {
    return absl::InternalError(absl::StrCat(
        "the grade step failed with an error that blames the answers, not the submission: ",
        report.status().ToString()));
  }
  if (!report->submission_exists()) {
    return absl::InternalError("the grade step found no submission in a .csv file it was given");
  }
  if (!report->valid_submission() && report->invalid_reason().empty()) {
    return absl::InternalError("an invalid submission without a reason");
  }
  if (json.empty()) return absl::InternalError("the report's JSON is empty");
  return CheckGradingCost(cost, limits);
}

absl::StatusOr<std::vector<std::pair<std::string, std::string>>> SubmissionFuzzer::Seeds(
    const std::string& sample_file) const {
  ASSIGN_OR_RETURN(const std::string sample, ReadFileToString(sample_file));
  ASSIGN_OR_RETURN(const std::string answers, ReadFileToString(answers_file_));
  ASSIGN_OR_RETURN(const Table table,
                   ReadCsvString(sample, sample_file, grader_->submission_csv));
  std::vector<std::pair<std::string, std::string>> seeds = {{"sample submission", sample}};
  for (auto& variant : testing::HostileVariants(sample, table, answers)) {
    seeds.push_back(std::move(variant));
  }
  return seeds;
}

std::string SubmissionFuzzer::Describe() const {
  const GradingLimits& limits = answers_.limits;
  return absl::StrCat(
      grader_->id, ": answers of ", answers_.file_bytes, " bytes, ", answers_.cells,
      " cells in ", answers_.columns, " columns (", answers_file_,
      "); grading limits (grading/grading_limits.h): a submission of at most ",
      limits.max_submission_bytes, " bytes, ", limits.max_submission_cells, " cells, ",
      limits.max_submission_columns, " columns; at most ", limits.memory_headroom_bytes,
      " bytes of memory and ", limits.cpu_seconds, " CPU seconds; memory measured as ",
      HeapMeter::Install() ? "the heap held at once (sanitizer allocator hooks)"
                           : "the growth of the peak resident set (no allocator hooks)");
}

}  // namespace mlebench
