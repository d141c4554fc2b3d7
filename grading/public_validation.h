// What an agent may learn about a submission before its run ends: whether
// the grader will take it, decided from what the agent can see - the
// competition's public sample submission and its grader's format rules -
// never from the private answers, and never a score (upstream's
// validate_submission.sh asks a server that grades against the answers,
// whose messages may tell an agent about them).
//
// Two ways to decide, the stronger first:
//  - *grader*: the competition's own grader runs with a stand-in for the
//    answers made of the sample submission, and its invalid-submission
//    reasons are the verdict; its score is thrown away. The stand-ins share
//    the sample's ids, columns and rows and differ only in their values:
//    the sample itself, and the sample with its value columns rewritten as
//    two classes, one-hot rows or three classes (each column keeping its
//    dtype), for graders whose answers must hold both classes, one-hot
//    rows or several classes, which a sample's constant does not. A stand-in
//    counts when the grader takes it (grading the sample against it gives a
//    score). A submission is valid when one stand-in that counts accepts it,
//    invalid when every one rejects it: a check that depends on the
//    answers' values (sklearn's "mix of label types" only for two classes,
//    say) is never held against a submission that some answers of the
//    sample's shape would take.
//  - *sample*: where no stand-in counts (the answers hold columns the sample
//    lacks, or are JSON lines), checks of the sample's shape: its columns
//    present; its ids (its first column, when that holds distinct values)
//    each once and no other, hence its row count, or less where the grader
//    says it takes less (CompetitionGrader::sample_rows); numbers (finite,
//    unless CompetitionGrader::missing_numbers_allowed) wherever the sample
//    has numbers, and no column of numbers where it has only text.
// Either way the file must first be a regular .csv file that reads as one,
// within bounds taken from the sample (grading_limits.h's formulas with the
// sample in place of the answers), so that a hostile file costs bounded
// memory and time.
//
// What the sample cannot tell (values only the answers fix, formats only a
// grader that cannot run here parses) is listed in docs/agents.md,
// "Checking a submission"; //tools:public_validation_agreement_test
// measures how often the verdict agrees with the real grader's.
#ifndef MLEBENCH_GRADING_PUBLIC_VALIDATION_H_
#define MLEBENCH_GRADING_PUBLIC_VALIDATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/typed_table.h"
#include "grading/grader.h"
#include "grading/grading_limits.h"

namespace mlebench {

struct ValidationVerdict {
  // What decided it.
  enum class Basis {
    kFile,    // the file: missing, not a regular .csv file, too large, unreadable as CSV
    kGrader,  // the grader, with the sample submission as the answers
    kSample,  // the checks against the sample submission
  };
  bool valid = false;
  // Why it is invalid (empty when valid). It may quote the submission:
  // VerdictLine escapes it.
  std::string reason;
  Basis basis = Basis::kFile;
};

// "file", "grader" or "sample".
const char* BasisName(ValidationVerdict::Basis basis);

// The one line a validator prints: exactly "Submission is valid." for a
// valid verdict (upstream's answer), else "Submission is invalid: <reason>"
// with the reason escaped for a console (EscapeForConsole: one line, no
// control characters) and cut after 1000 of its bytes.
std::string VerdictLine(const ValidationVerdict& verdict);

// The sample submission's text from the file the agent sees: a CSV file as
// it is, or the one file inside a .zip or .7z archive (a few competitions
// publish it only archived). Errors: a missing or unreadable file, an
// archive that holds no file or more than one, or content of more than
// `max_bytes`.
absl::StatusOr<std::string> ReadSampleSubmission(const std::string& path,
                                                 int64_t max_bytes = int64_t{4} << 30);

// Checks submissions for one competition. Not thread-safe: it builds its
// stand-ins for the answers, and asks whether the grader takes each, on
// first use.
class PublicValidator {
 public:
  // `grader` must outlive the validator; `sample_text` is the sample
  // submission's bytes (ReadSampleSubmission). Errors when the sample is not
  // a readable CSV with at least one column and one row.
  static absl::StatusOr<PublicValidator> Create(const CompetitionGrader& grader,
                                                std::string sample_text);

  PublicValidator(PublicValidator&&) = default;
  PublicValidator& operator=(PublicValidator&&) = default;

  // The verdict on the file at `path`, as the grade step would find it
  // there: it must exist (a symlink is followed), be a regular file, not
  // sparse, named *.csv (any case), and within limits() before it is read;
  // it is read through one descriptor, so replacing it meanwhile changes
  // nothing.
  ValidationVerdict CheckFile(const std::string& path) const;
  // The verdict on a submission's bytes.
  ValidationVerdict CheckText(std::string_view text) const;

  // The two ways of deciding, each alone, for measurement: the grader's
  // verdict (nullopt where no stand-in the grader takes gives one) and the
  // sample checks' verdict, on a submission already read.
  std::optional<ValidationVerdict> GraderVerdict(const TypedTable& submission) const;
  ValidationVerdict SampleVerdict(const TypedTable& submission) const;

  // The stand-ins for the answers that the grader takes (grading the
  // sample against one gives a score), by name ("the sample", "two
  // classes", "one-hot", "three classes"); each is built on first use.
  std::vector<std::string> StandInsTaken() const;

  // The bounds on a submission: GradingLimitsFor the sample's bytes, cells
  // and columns, with 4Mi cells of room rather than 1Mi (the answers may be
  // wider than the sample, and a submission that copies their columns is
  // still one the grader takes).
  const GradingLimits& limits() const { return limits_; }

 private:
  PublicValidator(const CompetitionGrader& grader, std::string sample_text, TypedTable sample,
                  GradingLimits limits);

  // One stand-in for the answers: the sample, or the sample with its value
  // columns rewritten (see the .cc).
  struct StandIn {
    std::string name;
    // The table the grader's answers reader makes of it, or why not.
    absl::StatusOr<TypedTable> answers = absl::UnknownError("not built");
    // Whether the grader takes it: grading the sample against it gives a
    // score (nullopt until asked).
    std::optional<bool> taken;
  };
  // The stand-ins in the order they are tried; filled on first use.
  std::vector<StandIn>& StandIns() const;
  bool Taken(StandIn& stand_in) const;
  // SampleVerdict's last check: numbers (finite ones unless the grader
  // allows missing numbers) wherever the sample has numbers, and no number
  // where the sample has only text.
  ValidationVerdict CheckValues(const TypedTable& submission) const;

  const CompetitionGrader* grader_;
  // The sample's bytes (the tables' text views point into their own copies).
  std::string sample_text_;
  // The sample as a submission is read.
  TypedTable sample_;
  GradingLimits limits_;
  // The id column's index in sample_ (its first column, when its values
  // are present and distinct), or -1.
  int id_column_ = -1;
  mutable std::optional<std::vector<StandIn>> stand_ins_;
};

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_PUBLIC_VALIDATION_H_
