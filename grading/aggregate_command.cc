#include "grading/aggregate_command.h"

#include <cstdint>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "grading/aggregate.h"
#include "grading/collect_reports.h"
#include "grading/html_report.h"
#include "grading/markdown_report.h"
#include "grading/report.h"
#include "grading/summary.h"

namespace mlebench {
namespace fs = std::filesystem;

absl::Status RunAggregateCommand(const CommandLine& cl, size_t first_path,
                                 const std::map<std::string, CompetitionInfo>& competitions,
                                 const std::function<fs::path(const std::string&)>& user_path,
                                 std::ostream& out) {
  if (cl.positional.size() <= first_path || !cl.Has("output-dir")) {
    return absl::InvalidArgumentError(
        "aggregate takes one or more PATHs (directories or reports) and --output-dir DIR");
  }
  AggregateOptions options;
  options.pad_missing = cl.Has("pad-missing");
  if (cl.Has("num-seeds")) {
    if (!absl::SimpleAtoi(cl.Get("num-seeds"), &options.num_seeds) ||
        (options.num_seeds < 1 && options.num_seeds != -1)) {
      return absl::InvalidArgumentError("--num-seeds must be a positive integer (or -1: all)");
    }
  }
  std::vector<std::string> names = {"low", "medium", "high", "split75"};
  if (cl.Has("split")) names = absl::StrSplit(cl.Get("split"), ',', absl::SkipEmpty());
  ASSIGN_OR_RETURN(options.splits, SplitsByName(competitions, names));
  const fs::path out_dir = user_path(cl.Get("output-dir"));
  std::error_code ec;
  if (fs::exists(out_dir, ec) && (!fs::is_directory(out_dir, ec) || !fs::is_empty(out_dir, ec))) {
    return absl::AlreadyExistsError(
        absl::StrCat(out_dir.string(), ": the output directory must be new or empty"));
  }
  std::vector<fs::path> paths;
  for (size_t i = first_path; i < cl.positional.size(); ++i) {
    paths.push_back(user_path(cl.positional[i]));
  }
  ASSIGN_OR_RETURN(std::vector<SourcedReport> reports, CollectReports(paths));
  ASSIGN_OR_RETURN(AggregateOutput output, AggregateRuns(reports, options));
  for (const GradingReportFile& file : output.grading_reports) {
    const fs::path path = out_dir / file.path;
    fs::create_directories(path.parent_path(), ec);
    if (ec) {
      return absl::InternalError(
          absl::StrCat("cannot create ", path.parent_path().string(), ": ", ec.message()));
    }
    RETURN_IF_ERROR(WriteStringToFile(path, ToPythonJson(file.report, 2) + "\n"));
  }
  fs::create_directories(out_dir, ec);
  RETURN_IF_ERROR(
      WriteStringToFile(out_dir / "run_group_experiments.csv", output.run_group_experiments_csv));
  RETURN_IF_ERROR(
      WriteStringToFile(out_dir / "summary.json", ToPythonJson(output.summary, 2) + "\n"));
  RETURN_IF_ERROR(
      WriteStringToFile(out_dir / "report.md", MarkdownReport(output.summary, reports)));
  RETURN_IF_ERROR(
      WriteStringToFile(out_dir / "report.html", HtmlReport(output.summary, reports)));
  out << FormatAggregate(output.summary) << "\nSaved summary to "
      << (out_dir / "summary.json").string() << " and " << output.grading_reports.size()
      << " grading reports under " << out_dir.string() << "\n";
  return absl::OkStatus();
}

}  // namespace mlebench
