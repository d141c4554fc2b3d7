#ifndef MLEBENCH_GRADING_GRADING_LIMITS_H_
#define MLEBENCH_GRADING_GRADING_LIMITS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace mlebench {

// What grading one submission may cost, as a function of the answers it is
// graded against and never of the submission, which an agent controls. A
// submission beyond the first two limits is refused as invalid before its
// cells are built (report.h); the grade action enforces the last two with
// kernel limits (EnforceGradingLimits). Every real submission is far inside
// them: across the 82 competitions the sample submission has at most 1.5
// times the answers' cells and 9 times their bytes (docs/security.md).
struct GradingLimits {
  // 32 x the answers file's bytes + 1 MiB.
  int64_t max_submission_bytes = 0;
  // Rows x columns of the submission, the header row included and short
  // rows counted at full width: 4 x the answers' cells (counted the same
  // way) + 1Mi.
  int64_t max_submission_cells = 0;
  // Columns of the submission: 4 x the answers' columns + 1024 (a column
  // costs its name and buffers, about a kilobyte, before any row is read).
  int64_t max_submission_columns = 0;
  // How far the grade action's data segment may grow once the answers are
  // read: 512 MiB + 4 x max_submission_bytes + 256 bytes per cell of
  // max_submission_cells (a typed cell, a Cell and a grader's working set)
  // + 4 KiB per column of max_submission_columns + 64 MiB for the stacks of
  // the CSV reader's threads (8 MiB each, at most kMaxCsvReadThreads), the
  // same on every machine.
  int64_t memory_headroom_bytes = 0;
  // CPU seconds for the whole grade action: 300 + 1 per 64 KiB of answers.
  int64_t cpu_seconds = 0;
};

// The limits for answers of `answers_bytes` bytes whose table has
// `answers_cells` cells (rows x columns, the header row included) in
// `answers_columns` columns.
GradingLimits GradingLimitsFor(int64_t answers_bytes, int64_t answers_cells,
                               int64_t answers_columns);

// The invalid reasons of a submission refused by the limits, e.g.
// "submission is too large to grade: 5000000 bytes, more than the 1048676
// bytes allowed for this competition's answers (32 x their 100 bytes + 1
// MiB)".
std::string SubmissionBytesOverLimit(int64_t submission_bytes, int64_t answers_bytes,
                                     const GradingLimits& limits);
// A submission of more cells or columns than allowed: `detail` is the CSV
// reader's message, which says which and where it stopped.
std::string SubmissionShapeOverLimit(absl::string_view detail, int64_t answers_cells,
                                     int64_t answers_columns, const GradingLimits& limits);
std::string GradingMemoryOverLimit(const GradingLimits& limits);
std::string GradingCpuOverLimit(const GradingLimits& limits);

// Enforces the last two limits on the rest of this process (a grade action):
// its data segment (heap and private mappings, RLIMIT_DATA) may grow by
// memory_headroom_bytes from what it is now, and its CPU time is capped
// (RLIMIT_CPU). When an allocation fails, the process writes
// `memory_report` to `out_path` and exits 0 at once (from the new-handler,
// so nothing unwinds, nothing else allocates, and no noexcept function can
// turn the failure into an abort); when the CPU time runs out (SIGXCPU) it
// does the same with `cpu_report`. Call it after the answers are read and
// before the submission is. Errors when the current usage cannot be read or
// a limit cannot be set (nothing is then enforced: the caller must stop).
absl::Status EnforceGradingLimits(const GradingLimits& limits, const std::string& out_path,
                                  std::string memory_report, std::string cpu_report);

// The same for a process that reports on a descriptor it holds open (the
// public validator's standard output, which may be a pipe or a file opened
// for appending, never to be truncated): a limit writes the report to `fd`
// and ends the process with `exit_status`. Only one of the two may be
// called in a process.
absl::Status EnforceGradingLimitsOnDescriptor(const GradingLimits& limits, int fd, int exit_status,
                                              std::string memory_report, std::string cpu_report);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_GRADING_LIMITS_H_
