// The hostile submissions of //tools:hostile_submissions_test, shared with
// the tests that measure something else on the same corpus
// (//tools:public_validation_agreement_test), and where a competition's
// synthetic files lie in those tests' runfiles.
#ifndef MLEBENCH_TOOLS_HOSTILE_CORPUS_H_
#define MLEBENCH_TOOLS_HOSTILE_CORPUS_H_

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench::testing {

// A deterministic byte soup of `size` bytes with NULs, invalid UTF-8, quotes
// and newlines.
std::string BinaryGarbage(size_t size);

// Named hostile variants of a sample submission, in a fixed order: the ways
// a careless or broken agent mangles it. `sample` is the sample's text,
// `table` the same read as the grader reads submissions, `answers` the text
// of the answers file (itself a variant). Variants: empty and binary files,
// a header only, an unterminated quote, a byte-order mark, CRLF line ends,
// the answers file; rows reversed, repeated, dropped, none; every value
// after the first column NaN, inf, -inf, 1e308, -1, text, empty text or
// 2**70; a 100 kB cell; foreign ids; columns reversed, extra, each one
// missing, all renamed.
std::vector<std::pair<std::string, std::string>> HostileVariants(const std::string& sample,
                                                                 const Table& table,
                                                                 const std::string& answers);

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
