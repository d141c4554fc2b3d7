// The grade action of one competition (linked with exactly one grader
// library, so that a change to another competition's grader never regrades
// this one). Writes the CompetitionReport JSON; exits 0 for any graded report,
// valid or not, and non-zero only for internal errors.
//
//   grade --competition ID --submission FILE --answers FILE
//         (--thresholds_csv FILE | --leaderboard FILE) --out FILE
//         [--agent NAME] [--seed N] [--dataset synthetic|kaggle | --dataset_file FILE]
//         [--submission_path_label PATH]
//
// --dataset_file names a file holding the dataset's name on its first line
// (what the real-data prepare step writes).
//
// What grading may cost is bounded by the answers (grading_limits.h): a
// submission larger than they allow, or one whose grading would take more
// memory or CPU time, gets an invalid report saying so, never a killed
// action.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/baseline_libm.h"
#include "base/command_line.h"
#include "base/status_macros.h"
#include "grading/grader.h"
#include "grading/grading_limits.h"
#include "grading/medals.h"
#include "grading/grade_submission.h"
#include "grading/report.h"

namespace mlebench {
namespace {

absl::Status Run(const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(CommandLine cl,
                   (ParseCommandLine(args, {"competition", "submission", "answers",
                                            "thresholds_csv", "leaderboard", "out", "agent", "seed",
                                            "dataset", "dataset_file", "submission_path_label"})));
  RETURN_IF_ERROR(RequireFlags(cl, {"competition", "submission", "answers", "out"}));
  const std::string id = cl.Get("competition");
  const CompetitionGrader* grader = GraderRegistry::Find(id);
  if (grader == nullptr) {
    return absl::NotFoundError(absl::StrCat("no grader registered for '", id, "' in this binary"));
  }
  if (!cl.Has("leaderboard") && !cl.Has("thresholds_csv")) {
    return absl::InvalidArgumentError("one of --thresholds_csv or --leaderboard is required");
  }
  ASSIGN_OR_RETURN(GradeSetup setup, SetUpGrade(id, cl.Get("leaderboard"), cl.Get("thresholds_csv"),
                                                cl.Get("agent"), cl.Get("seed", "0")));
  const MedalThresholds& thresholds = setup.thresholds;
  ReportContext& context = setup.context;
  context.dataset = cl.Get("dataset", "synthetic");
  if (cl.Has("dataset_file")) {
    std::ifstream in(cl.Get("dataset_file"));
    if (!in || !std::getline(in, context.dataset)) {
      return absl::NotFoundError(absl::StrCat("cannot read ", cl.Get("dataset_file")));
    }
  }
  if (context.dataset != "synthetic" && context.dataset != "kaggle") {
    return absl::InvalidArgumentError(
        absl::StrCat("dataset must be synthetic or kaggle, got '", context.dataset, "'"));
  }
  context.submission_path = cl.Get("submission_path_label", cl.Get("submission"));

  const std::string submission = cl.Get("submission");
  CompetitionReport report;
  if (!SubmissionFileExists(submission)) {
    ASSIGN_OR_RETURN(report, GradeSubmissionFile(*grader, submission, cl.Get("answers"),
                                                 thresholds, context));
  } else {
    ASSIGN_OR_RETURN(AnswersForGrading answers,
                     ReadAnswersForGrading(*grader, cl.Get("answers")));
    // From here on the submission, which an agent wrote, is read: memory and
    // CPU time are bounded by the answers, and running out of either is the
    // submission's invalid report, written before anything else can fail.
    const auto limit_report = [&](const std::string& reason) {
      return ToPythonJson(MakeReport(id, true, std::nullopt, reason, thresholds, context), 2) +
             "\n";
    };
    RETURN_IF_ERROR(EnforceGradingLimits(answers.limits, cl.Get("out"),
                                         limit_report(GradingMemoryOverLimit(answers.limits)),
                                         limit_report(GradingCpuOverLimit(answers.limits))));
    ASSIGN_OR_RETURN(report,
                     GradeSubmissionAgainst(*grader, submission, answers, thresholds, context));
  }
  std::ofstream out(cl.Get("out"), std::ios::binary | std::ios::trunc);
  out << ToPythonJson(report, 2) << "\n";
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", cl.Get("out")));
  return absl::OkStatus();
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  mlebench::UseBaselineLibm(argv);
  return mlebench::RunToolMain(argc, argv, "grade", &mlebench::Run);
}
