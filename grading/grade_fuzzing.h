// Grading fuzz inputs as the grade action grades a submission, held to the
// grading limits: the body of every competition's grader fuzz target
// (grading/grade_fuzz_target.cc, declared by competitions/defs.bzl).
//
// An input is a submission's bytes. It is graded through the grade action's
// own path (GradeSubmissionAgainst: the size check, the CSV reader bounded by
// the answers, the grader, the report's JSON) against fixed answers, and it
// is a finding when
//  - the grader fails with an error that is not an invalid submission (which
//    would blame the answers), or marks it invalid without a reason;
//  - grading it held more heap at once, or took more CPU time, than the
//    limits allow (grading_limits.h: a function of the answers' size, never
//    of the submission's);
// besides whatever the sanitizers and libFuzzer catch (a crash, a leak, a
// hang, undefined behaviour).
#ifndef MLEBENCH_GRADING_GRADE_FUZZING_H_
#define MLEBENCH_GRADING_GRADE_FUZZING_H_

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grading/grader.h"
#include "grading/grading_limits.h"
#include "grading/grade_submission.h"
#include "grading/report.h"

namespace mlebench {

// What grading one input cost.
struct GradingCost {
  // The most bytes the process held allocated at once beyond what it held
  // before (HeapMeter), or, where the allocator has no hooks, the growth of
  // its peak resident set since the fuzzer started; -1 when neither is known.
  int64_t peak_bytes = -1;
  // CPU time of the whole process (every thread), in seconds.
  double cpu_seconds = 0;
};

// OK when `cost` is within `limits` (memory_headroom_bytes, cpu_seconds);
// otherwise a ResourceExhausted status naming each limit broken.
absl::Status CheckGradingCost(const GradingCost& cost, const GradingLimits& limits);

// Counts the bytes the process holds allocated, through the sanitizer
// allocator's malloc and free hooks (AddressSanitizer's, which libFuzzer
// builds have): the grader's heap, exactly as it asked for it, without the
// sanitizer's own shadow, red zones and quarantine. Process-wide; every
// thread's allocations count.
class HeapMeter {
 public:
  // Installs the hooks once; false where the allocator has none (a build
  // without a sanitizer), and then nothing is measured.
  static bool Install();
  // Starts a measurement from the bytes held now. An allocation that takes
  // them more than `limit` bytes beyond that ends the process at once
  // (abort(), after a message and the allocation's stack on stderr), before
  // a runaway input can exhaust the machine: libFuzzer then keeps the input
  // as a crash.
  static void Start(int64_t limit);
  // Ends the measurement: the most bytes held at once beyond the start.
  static int64_t Stop();
};

// Grades fuzz inputs as submissions against one competition's answers.
class SubmissionFuzzer {
 public:
  // Reads `answers_file` as the grade action does (ReadAnswersForGrading)
  // and keeps its submissions in `scratch_dir` (an existing directory).
  static absl::StatusOr<SubmissionFuzzer> Create(const CompetitionGrader& grader,
                                                 const std::string& answers_file,
                                                 const std::filesystem::path& scratch_dir);

  const CompetitionGrader& grader() const { return *grader_; }
  const AnswersForGrading& answers() const { return answers_; }

  // Grades `submission` as the grade action would: OK for any graded report,
  // valid or not; a finding (see above) otherwise, worded for a person.
  // Measures memory with HeapMeter where it is installed.
  absl::Status Grade(std::string_view submission);

  // The seeds of a fuzz run: the sample submission in `sample_file` and its
  // hostile variants (grading/hostile_variants.h), named.
  absl::StatusOr<std::vector<std::pair<std::string, std::string>>> Seeds(
      const std::string& sample_file) const;

  // A line for a person: the answers' size and the limits they set.
  std::string Describe() const;

 private:
  SubmissionFuzzer() = default;

  const CompetitionGrader* grader_ = nullptr;
  std::string answers_file_;
  AnswersForGrading answers_;
  std::filesystem::path submission_file_;
  int64_t initial_max_rss_bytes_ = 0;
};

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_GRADE_FUZZING_H_
