// Where a competition's synthetic files lie in the runfiles of the tests
// that grade its hostile corpus (//tools:hostile_submissions_test,
// //tools:public_validation_agreement_test); the corpus itself is
// grading/hostile_variants.h.
#ifndef MLEBENCH_TOOLS_HOSTILE_CORPUS_H_
#define MLEBENCH_TOOLS_HOSTILE_CORPUS_H_

#include <filesystem>
#include <string>

#include "absl/status/statusor.h"

namespace mlebench::testing {

// A competition's synthetic files, relative to the runfiles' workspace root
// (the working directory of a test that has them as data).
struct CompetitionTestFiles {
  // <id>_data/private/<answers file of competitions.tsv>
  std::filesystem::path answers;
  // <id>_data/public: what the agent's data/ holds.
  std::filesystem::path public_dir;
  // The sample submission as upstream's table names it (it may be under
  // private/; the agent's copy is in public_dir, for a few only archived).
  std::filesystem::path table_sample;
  // The dummy agent's submission (<id>_sample_run): the sample submission.
  std::filesystem::path dummy_submission;
  // The chosen agent's first seed's submission (<id>_run, run-0; the baseline
  // agent unless --//agent_runner:agent says otherwise). It may not exist.
  std::filesystem::path agent_submission;
};

// Where the files of competition `id` lie, from the table at `table_path`
// (competitions/competitions.tsv). Errors for an id not in the table or an
// answers path outside prepared/private/.
absl::StatusOr<CompetitionTestFiles> CompetitionTestFilesFor(
    const std::string& id, const std::string& table_path = "competitions/competitions.tsv");

}  // namespace mlebench::testing

#endif  // MLEBENCH_TOOLS_HOSTILE_CORPUS_H_
