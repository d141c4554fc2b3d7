#include "tools/hostile_corpus.h"

#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/competition_table.h"

namespace mlebench::testing {

namespace fs = std::filesystem;

absl::StatusOr<CompetitionTestFiles> CompetitionTestFilesFor(const std::string& id,
                                                             const std::string& table_path) {
  using CompetitionsById = std::map<std::string, CompetitionInfo>;
  ASSIGN_OR_RETURN(CompetitionsById table, ReadCompetitionTable(table_path));
  const auto it = table.find(id);
  if (it == table.end()) {
    return absl::NotFoundError(absl::StrCat(id, " is not in ", table_path));
  }
  const std::string prepared = id + "/prepared/";
  const std::string private_prefix = prepared + "private/";
  const std::string& answers_path = it->second.answers_path;
  const std::string& sample_path = it->second.sample_submission_path;
  if (answers_path.rfind(private_prefix, 0) != 0 || sample_path.rfind(prepared, 0) != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        table_path, ": the answers or sample submission of ", id, " are not under ", prepared));
  }
  const fs::path package = fs::path("competitions") / id;
  const fs::path data = package / (id + "_data");
  CompetitionTestFiles files;
  files.answers = data / "private" / answers_path.substr(private_prefix.size());
  files.public_dir = data / "public";
  files.table_sample = data / sample_path.substr(prepared.size());
  files.dummy_submission =
      package / (id + "_sample_run") / "run-0" / "submission" / "submission.csv";
  files.agent_submission = package / (id + "_run") / "run-0" / "submission" / "submission.csv";
  return files;
}

}  // namespace mlebench::testing
