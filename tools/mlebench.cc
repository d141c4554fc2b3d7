// mlebench: the command-line tool, mirroring upstream's `mlebench` CLI.
//
//   mlebench list
//   mlebench prepare (-c ID | --all | --lite | --list FILE) --data-dir DIR
//                    [--synthetic | --raw RAWDIR] [--seed N] [--force] [--dry-run]
//   mlebench grade-sample SUBMISSION ID --data-dir DIR [--leaderboard FILE]
//                         [--agent NAME] [--seed N]
//   mlebench grade --submission FILE.jsonl --output-dir DIR --data-dir DIR
//                  [--leaderboard FILE] [--agent NAME] [--seed N]
//   mlebench summarize PATH... [--json FILE]
//   mlebench aggregate PATH... --output-dir DIR [--split S[,S...]] [--pad-missing]
//                      [--num-seeds N]
//   mlebench audit RUNS... --output-dir DIR
//                  [--references DIR | --references-by-competition DIR]
//                  [--agent LABEL] [--include-sample-runs] [--timeout-s N]
//
// Under `bazel run`, relative paths resolve against $BUILD_WORKING_DIRECTORY.
// Exit status: 0 for a graded report (valid or not), a summary or an audit, 1
// for usage or data errors (and an audit in which Dolos failed on some run),
// with a message on stderr.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/baseline_libm.h"
#include "base/command_line.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "competitions/common/data_dir.h"
#include "competitions/common/preparer.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grading/competition_table.h"
#include "grading/grader.h"
#include "grading/medals.h"
#include "grading/grade_submission.h"
#include "grading/report.h"
#include "grading/summary.h"
#include "synthetic/synthetic.h"
#include "tools/audit.h"
#include "grading/aggregate_command.h"
#include "grading/collect_reports.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr char kUsage[] =
    "usage:\n"
    "  mlebench list\n"
    "  mlebench prepare (-c ID | --all | --lite | --list FILE) --data-dir DIR\n"
    "                   [--synthetic | --raw RAWDIR] [--seed N] [--force] [--dry-run]\n"
    "  mlebench grade-sample SUBMISSION COMPETITION_ID --data-dir DIR [--leaderboard FILE]\n"
    "                        [--agent NAME] [--seed N]\n"
    "  mlebench grade --submission FILE.jsonl --output-dir DIR --data-dir DIR\n"
    "                 [--leaderboard FILE] [--agent NAME] [--seed N]\n"
    "  mlebench summarize PATH... [--json FILE]\n"
    "  mlebench aggregate PATH... --output-dir DIR [--split S[,S...]] [--pad-missing]\n"
    "                     [--num-seeds N]\n"
    "  mlebench thresholds LEADERBOARD -c ID\n"
    "  mlebench audit RUNS... --output-dir DIR\n"
    "                 [--references DIR | --references-by-competition DIR]\n"
    "                 [--agent LABEL] [--include-sample-runs] [--timeout-s N]\n"
    "\n"
    "prepare --seed is the seed of the synthetic data; grade --seed and --agent are\n"
    "recorded in the reports (the agent's run), for summarize.\n"
    "audit writes the input of upstream's rule-violation detector for the agent runs\n"
    "under RUNS (e.g. bazel-bin/competitions) and, given reference solutions, the\n"
    "similarity of each run's Python code to them (Dolos); --agent keeps one agent's\n"
    "runs (its label). See docs/agents.md, \"Auditing runs\".\n"
    "thresholds prints competition ID's row of grading/medal_thresholds.csv from\n"
    "upstream's leaderboard.csv for it (Kaggle's team-count brackets, as upstream's\n"
    "rank_score), and says on stderr whether the embedded row agrees.\n"
    "aggregate computes upstream's leaderboard figures per agent and split (lite, low,\n"
    "medium, high, split75, dev, all; default low,medium,high,split75) over complete\n"
    "seeds (--pad-missing: missing reports count as failing), and writes summary.json,\n"
    "upstream-compatible grading reports, and reports for people (report.md, report.html).\n"
    "See docs/agents.md, \"Aggregating runs\".\n";

std::string g_argv0;

// A path given by the user: relative ones are relative to where they ran
// `bazel run` from, not to the runfiles directory Bazel starts us in.
fs::path UserPath(const std::string& p) {
  fs::path path(p);
  if (path.is_relative()) {
    if (const char* wd = std::getenv("BUILD_WORKING_DIRECTORY"); wd != nullptr && *wd) {
      return fs::path(wd) / path;
    }
  }
  return path;
}

// The binary's runfiles directories, most specific first.
std::vector<fs::path> RunfilesRoots() {
  std::vector<fs::path> roots;
  if (const char* d = std::getenv("RUNFILES_DIR"); d != nullptr && *d) roots.emplace_back(d);
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) roots.push_back(self.string() + ".runfiles");
  roots.push_back(g_argv0 + ".runfiles");
  return roots;
}

// A data file of this project, found in the binary's runfiles.
absl::StatusOr<std::string> Runfile(const std::string& workspace_path) {
  std::error_code ec;
  for (const fs::path& root : RunfilesRoots()) {
    fs::path candidate = root / "mlebench" / workspace_path;
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  if (fs::exists(workspace_path, ec)) return workspace_path;  // run from the workspace
  return absl::NotFoundError(absl::StrCat("cannot find ", workspace_path, " in the runfiles"));
}

absl::StatusOr<std::map<std::string, CompetitionInfo>> Competitions() {
  ASSIGN_OR_RETURN(std::string path, Runfile("competitions/competitions.tsv"));
  return ReadCompetitionTable(path);
}

absl::Status List() {
  ASSIGN_OR_RETURN(auto table, Competitions());
  for (const auto& [id, info] : table) {
    const bool graded = GraderRegistry::Find(id) != nullptr;
    std::cout << id << "\t" << absl::StrJoin(info.splits, ",") << "\t" << info.metric << "\t"
              << (graded ? "registered" : "not-yet-registered") << "\n";
  }
  return absl::OkStatus();
}

bool IsNonEmptyDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec) && !fs::is_empty(p, ec);
}

// Replaces `dest` with the directory `staged` (same parent directory).
absl::Status ReplaceDir(const fs::path& staged, const fs::path& dest) {
  std::error_code ec;
  fs::remove_all(dest, ec);
  if (!ec) fs::rename(staged, dest, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot move ", staged.string(), " to ", dest.string(), ": ", ec.message()));
  }
  return absl::OkStatus();
}

// Prepares one competition into DATA/<id>/prepared/. Nothing already there
// is touched unless the new data is complete: data is written to staging
// directories beside raw/ and prepared/ and moved into place at the end.
absl::Status PrepareOne(const std::string& id, const fs::path& data_dir, const CommandLine& cl) {
  const fs::path competition_dir = data_dir / id;
  const fs::path prepared = competition_dir / "prepared";
  if (IsNonEmptyDir(prepared) && !cl.Has("force")) {
    return absl::AlreadyExistsError(absl::StrCat(
        prepared.string(), " already holds prepared data; pass --force to replace it"));
  }
  fs::path raw = competition_dir / "raw";
  std::error_code ec;
  std::optional<fs::path> staged_raw;  // new synthetic raw data, moved to `raw` on success
  if (cl.Has("synthetic")) {
    const SyntheticDataset* synthetic = SyntheticRegistry::Find(id);
    if (synthetic == nullptr) {
      return absl::NotFoundError(absl::StrCat("no synthetic generator for '", id, "'"));
    }
    if (IsNonEmptyDir(raw)) {
      if (!fs::exists(raw / kSyntheticRawMarker, ec)) {
        return absl::AlreadyExistsError(absl::StrCat(
            raw.string(), " holds raw data that is not synthetic (a Kaggle download?); "
            "--synthetic never replaces it: use another --data-dir or remove it yourself"));
      }
      if (!cl.Has("force")) {
        return absl::AlreadyExistsError(absl::StrCat(
            raw.string(), " already holds synthetic raw data; pass --force to regenerate it"));
      }
    }
    int64_t seed = 0;
    if (!absl::SimpleAtoi(cl.Get("seed", "0"), &seed) || seed < 0) {
      return absl::InvalidArgumentError("--seed must be a non-negative integer");
    }
    staged_raw = competition_dir / "raw.partial";
    fs::remove_all(*staged_raw, ec);
    fs::create_directories(*staged_raw, ec);
    if (ec) {
      return absl::InternalError(
          absl::StrCat("cannot create ", staged_raw->string(), ": ", ec.message()));
    }
    absl::Status s = synthetic->generate(*staged_raw, static_cast<uint64_t>(seed));
    if (s.ok()) {
      s = WriteStringToFile(*staged_raw / kSyntheticRawMarker, absl::StrCat("seed ", seed, "\n"));
    }
    if (!s.ok()) {
      fs::remove_all(*staged_raw, ec);
      return s;
    }
  } else if (cl.Has("raw")) {
    raw = UserPath(cl.Get("raw"));
  }
  const fs::path source_raw = staged_raw.value_or(raw);
  if (!fs::is_directory(source_raw, ec)) {
    return absl::NotFoundError(absl::StrCat(
        "no raw data at ", raw.string(),
        ": download the competition from Kaggle into it, pass --raw DIR, or use --synthetic"));
  }
  const bool synthetic = fs::exists(source_raw / kSyntheticRawMarker, ec);
  absl::Status s = PrepareIntoDataDir(CompetitionDataDir(data_dir, id), source_raw,
                                      synthetic ? "synthetic" : "kaggle");
  if (s.ok() && staged_raw.has_value()) s = ReplaceDir(*staged_raw, raw);
  if (!s.ok()) {
    if (staged_raw.has_value()) fs::remove_all(*staged_raw, ec);
    return s;
  }
  std::cout << "prepared " << id << " into " << prepared.string() << "\n";
  return absl::OkStatus();
}

absl::Status Prepare(const CommandLine& cl) {
  if (!cl.Has("data-dir")) return absl::InvalidArgumentError("prepare needs --data-dir");
  if (cl.Has("synthetic") && cl.Has("raw")) {
    return absl::InvalidArgumentError("--synthetic and --raw exclude each other");
  }
  ASSIGN_OR_RETURN(auto table, Competitions());
  std::vector<std::string> ids;
  if (cl.Has("c")) {
    ids.push_back(cl.Get("c"));
  } else if (cl.Has("competition-id")) {
    ids.push_back(cl.Get("competition-id"));
  } else if (cl.Has("all") || cl.Has("lite")) {
    for (const auto& [id, info] : table) {
      const bool in_split =
          !cl.Has("lite") || std::find(info.splits.begin(), info.splits.end(), "low") != info.splits.end();
      if (in_split && PreparerRegistry::Find(id) != nullptr) ids.push_back(id);
    }
  } else if (cl.Has("list")) {
    std::ifstream in(UserPath(cl.Get("list")));
    if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", cl.Get("list")));
    for (std::string line; std::getline(in, line);) {
      line = std::string(absl::StripAsciiWhitespace(line));
      if (!line.empty()) ids.push_back(line);
    }
  } else {
    return absl::InvalidArgumentError("One of -c ID, --all, --lite or --list FILE is required");
  }
  if (cl.Has("raw") && ids.size() != 1) {
    return absl::InvalidArgumentError("--raw takes the raw data of exactly one competition");
  }
  if (ids.empty()) return absl::InvalidArgumentError("no competitions to prepare");
  // Every name is checked before anything is written.
  for (const std::string& id : ids) {
    if (table.count(id) == 0) {
      return absl::NotFoundError(absl::StrCat("unknown competition '", id, "' (see mlebench list)"));
    }
    if (PreparerRegistry::Find(id) == nullptr) {
      return absl::NotFoundError(absl::StrCat("competition '", id,
                                              "' is not registered in this build (no preparer)"));
    }
  }
  if (cl.Has("dry-run")) {
    for (const std::string& id : ids) std::cout << "would prepare " << id << "\n";
    return absl::OkStatus();
  }
  const fs::path data_dir = UserPath(cl.Get("data-dir"));
  for (const std::string& id : ids) {
    RETURN_IF_ERROR(PrepareOne(id, data_dir, cl));
  }
  return absl::OkStatus();
}

std::string NowIso() {
  std::timespec ts;
  std::timespec_get(&ts, TIME_UTC);
  std::tm local;
  localtime_r(&ts.tv_sec, &local);
  char buf[64];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &local);
  char micro[32];
  std::snprintf(micro, sizeof(micro), ".%06ld", ts.tv_nsec / 1000);
  return std::string(buf) + micro;
}

// Grades one submission against a data dir in upstream's layout.
absl::StatusOr<CompetitionReport> GradeOne(const std::string& id, const fs::path& submission,
                                           const fs::path& data_dir, const CommandLine& cl) {
  const CompetitionGrader* grader = GraderRegistry::Find(id);
  if (grader == nullptr) {
    return absl::NotFoundError(absl::StrCat("no grader registered for '", id, "'"));
  }
  ASSIGN_OR_RETURN(auto table, Competitions());
  auto info = table.find(id);
  if (info == table.end()) return absl::NotFoundError(absl::StrCat("unknown competition ", id));
  const fs::path answers = data_dir / info->second.answers_path;
  std::error_code ec;
  if (!fs::is_regular_file(answers, ec)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Dataset for competition `", id, "` is not prepared (no ", answers.string(),
        "). Run `mlebench prepare -c ", id, " --data-dir ", data_dir.string(), "` first."));
  }
  ASSIGN_OR_RETURN(std::string embedded, Runfile("grading/medal_thresholds.csv"));
  ASSIGN_OR_RETURN(
      GradeSetup setup,
      SetUpGrade(id, cl.Has("leaderboard") ? UserPath(cl.Get("leaderboard")).string() : "",
                 embedded, cl.Get("agent"), cl.Get("seed", "0")));
  const MedalThresholds& thresholds = setup.thresholds;
  ReportContext& context = setup.context;
  context.dataset = PreparedDataset(CompetitionDataDir(data_dir, id));
  context.created_at = NowIso();
  context.submission_path = submission.string();
  return GradeSubmissionFile(*grader, submission.string(), answers.string(), thresholds, context);
}

absl::Status GradeSample(const CommandLine& cl) {
  if (cl.positional.size() != 3) {
    return absl::InvalidArgumentError("grade-sample takes SUBMISSION and COMPETITION_ID");
  }
  if (!cl.Has("data-dir")) return absl::InvalidArgumentError("grade-sample needs --data-dir");
  ASSIGN_OR_RETURN(auto report, GradeOne(cl.positional[2], UserPath(cl.positional[1]),
                                         UserPath(cl.Get("data-dir")), cl));
  std::cout << ToPythonJson(report, 4) << "\n";
  return absl::OkStatus();
}

absl::Status GradeJsonl(const CommandLine& cl) {
  const std::string jsonl = cl.Has("submission") ? cl.Get("submission") : cl.Get("submissions");
  if (jsonl.empty() || !cl.Has("output-dir") || !cl.Has("data-dir")) {
    return absl::InvalidArgumentError("grade needs --submission FILE.jsonl, --output-dir and --data-dir");
  }
  std::ifstream in(UserPath(jsonl));
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", jsonl));
  // Every line is checked before anything is graded, as upstream reads the
  // whole file first.
  struct Entry {
    int line_no;
    std::string competition_id;
    std::string submission_path;
  };
  std::vector<Entry> entries;
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    const std::string trimmed(absl::StripAsciiWhitespace(line));
    // Upstream skips blank and commented-out lines.
    if (trimmed.empty() || trimmed[0] == '#' || trimmed.rfind("//", 0) == 0) continue;
    google::protobuf::Struct entry;
    if (!google::protobuf::util::JsonStringToMessage(trimmed, &entry).ok()) {
      return absl::InvalidArgumentError(absl::StrCat(jsonl, ":", line_no, ": not a JSON object"));
    }
    const auto& fields = entry.fields();
    auto id = fields.find("competition_id");
    auto path = fields.find("submission_path");
    if (id == fields.end() || path == fields.end() ||
        id->second.kind_case() != google::protobuf::Value::kStringValue ||
        path->second.kind_case() != google::protobuf::Value::kStringValue) {
      return absl::InvalidArgumentError(absl::StrCat(
          jsonl, ":", line_no, ": needs string fields competition_id and submission_path"));
    }
    entries.push_back({line_no, id->second.string_value(), path->second.string_value()});
  }
  std::vector<CompetitionReport> reports;
  for (const Entry& e : entries) {
    auto report = GradeOne(e.competition_id, UserPath(e.submission_path),
                           UserPath(cl.Get("data-dir")), cl);
    if (!report.ok()) {
      return absl::Status(report.status().code(),
                          absl::StrCat(jsonl, ":", e.line_no, ": ", report.status().message()));
    }
    reports.push_back(*report);
  }
  const AggregatedReport aggregated = Aggregate(reports);
  const fs::path out_dir = UserPath(cl.Get("output-dir"));
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  std::time_t now = std::time(nullptr);
  std::tm utc;
  gmtime_r(&now, &utc);
  char stamp[64];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H-%M-%S-UTC", &utc);
  const fs::path out = out_dir / (std::string(stamp) + "_grading_report.json");
  RETURN_IF_ERROR(WriteStringToFile(out, ToPythonJson(aggregated, 2) + "\n"));
  AggregatedReport summary = aggregated;
  summary.clear_competition_reports();
  std::string text = ToPythonJson(summary, 4);
  // The summary without the per-competition list, as upstream logs it.
  text.erase(text.rfind(",\n    \"competition_reports\""), std::string::npos);
  std::cout << text << "\n}\nSaved summary report to " << out.string() << "\n";
  return absl::OkStatus();
}

absl::Status SummarizeReports(const CommandLine& cl) {
  if (cl.positional.size() < 2) {
    return absl::InvalidArgumentError("summarize takes one or more PATHs (directories or reports)");
  }
  std::vector<fs::path> paths;
  for (size_t i = 1; i < cl.positional.size(); ++i) paths.push_back(UserPath(cl.positional[i]));
  ASSIGN_OR_RETURN(std::vector<SourcedReport> reports, CollectReports(paths));
  ASSIGN_OR_RETURN(BenchmarkSummary summary, Summarize(reports));
  std::cout << FormatSummary(summary);
  if (cl.Has("json")) {
    const fs::path out = UserPath(cl.Get("json"));
    RETURN_IF_ERROR(WriteStringToFile(out, ToPythonJson(summary, 2) + "\n"));
    std::cout << "\nSaved summary to " << out.string() << "\n";
  }
  return absl::OkStatus();
}

// `thresholds LEADERBOARD -c ID`: the competition's row of the embedded
// thresholds table, computed from upstream's leaderboard.csv (how a new
// competition gets its row; docs/architecture.md, "Adding a competition").
absl::Status PrintThresholdsRow(const CommandLine& cl) {
  if (cl.positional.size() != 2 || !cl.Has("c")) {
    return absl::InvalidArgumentError("thresholds takes one LEADERBOARD file and -c ID");
  }
  const std::string id = cl.Get("c");
  // The id becomes a CSV field: no separator, quote or line break in it.
  if (id.empty() || id.find_first_of(",\"\r\n") != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("-c ", id, ": not a competition id (a CSV field of its own)"));
  }
  const fs::path leaderboard = UserPath(cl.positional[1]);
  std::vector<double> scores;
  ASSIGN_OR_RETURN(MedalThresholds t, ThresholdsFromLeaderboardFile(leaderboard.string(), &scores));
  if (std::optional<size_t> row = FirstScoreOutOfOrder(scores)) {
    std::cerr << "mlebench: warning: " << leaderboard.string() << " is not in leaderboard order: "
              << "row " << *row << "'s score is better than a row's above it ("
              << (t.is_lower_better ? "lower" : "higher")
              << " is better, judged from the first and last scores); the thresholds below count "
                 "positions in the file's order, as upstream does: sort it best first\n";
  }
  std::cout << FormatThresholdsRow(id, t) << "\n";
  ASSIGN_OR_RETURN(std::string embedded_path, Runfile("grading/medal_thresholds.csv"));
  ASSIGN_OR_RETURN(auto embedded, ReadThresholdsTable(embedded_path));
  const auto row = embedded.find(id);
  if (row == embedded.end()) {
    std::cerr << "mlebench: grading/medal_thresholds.csv has no row for " << id
              << " yet: add the line above\n";
  } else {
    std::cerr << "mlebench: grading/medal_thresholds.csv's row for " << id
              << (row->second == t ? " is the same" : " differs: replace it with the line above")
              << "\n";
  }
  return absl::OkStatus();
}

absl::Status AggregateReports(const CommandLine& cl) {
  ASSIGN_OR_RETURN(auto table, Competitions());
  return RunAggregateCommand(cl, 1, table, UserPath, std::cout);
}

// Dolos as the @mlebench_dolos repository installed it (tools/dolos/): its
// STATUS file says "ok", or why it could not be installed.
absl::StatusOr<DolosSetup> FindDolos() {
  std::error_code ec;
  for (const fs::path& root : RunfilesRoots()) {
    for (const fs::path& status : {root / "mlebench_dolos" / "STATUS",
                                   root / "mlebench" / "external" / "mlebench_dolos" / "STATUS"}) {
      if (!fs::exists(status, ec)) continue;
      ASSIGN_OR_RETURN(std::string text, ReadFileToString(status));
      if (text.rfind("ok\n", 0) != 0) {
        return absl::FailedPreconditionError(
            absl::StrCat("Dolos was not installed when this build fetched @mlebench_dolos:\n", text,
                         "\nFix that, then `./bazelw sync --only=mlebench_dolos` and run again."));
      }
      DolosSetup dolos;
      dolos.node_modules = fs::canonical(status, ec).parent_path() / "node_modules";
      ASSIGN_OR_RETURN(std::string script, Runfile("tools/dolos/dolos_similarity.mjs"));
      dolos.script = script;
      if (access(dolos.node.c_str(), X_OK) != 0) {
        return absl::FailedPreconditionError(
            absl::StrCat("no ", dolos.node.string(), ": install Debian's nodejs (./bazelw does)"));
      }
      return dolos;
    }
  }
  return absl::NotFoundError("cannot find @mlebench_dolos in the runfiles");
}

absl::Status Audit(const CommandLine& cl) {
  if (cl.positional.size() < 2 || !cl.Has("output-dir")) {
    return absl::InvalidArgumentError(
        "audit takes one or more RUNS (run directories, or directories holding them, e.g. "
        "bazel-bin/competitions) and --output-dir DIR");
  }
  AuditOptions options;
  for (size_t i = 1; i < cl.positional.size(); ++i) {
    options.runs.push_back(UserPath(cl.positional[i]));
  }
  options.output_dir = UserPath(cl.Get("output-dir"));
  if (cl.Has("references")) options.references = UserPath(cl.Get("references"));
  if (cl.Has("references-by-competition")) {
    options.references_by_competition = UserPath(cl.Get("references-by-competition"));
  }
  options.agent_label = cl.Get("agent");
  options.include_sample_runs = cl.Has("include-sample-runs");
  if (options.references.has_value() || options.references_by_competition.has_value()) {
    ASSIGN_OR_RETURN(options.dolos, FindDolos());
    if (cl.Has("timeout-s")) {
      double timeout = 0;
      if (!absl::SimpleAtod(cl.Get("timeout-s"), &timeout) || !(timeout > 0)) {
        return absl::InvalidArgumentError("--timeout-s must be a positive number of seconds");
      }
      options.dolos->timeout_s = timeout;
    }
  }
  ASSIGN_OR_RETURN(AuditResult result, RunAudit(options, std::cerr));
  if (result.similarity_failures > 0) {
    return absl::InternalError(
        absl::StrCat("Dolos failed on ", result.similarity_failures,
                     " run(s); the other outputs are written (see audit_summary.json)"));
  }
  return absl::OkStatus();
}

absl::Status Main(const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(
      CommandLine cl,
      (ParseCommandLine(
          args,
          {"c", "competition-id", "data-dir", "raw", "seed", "list", "leaderboard", "submission",
           "submissions", "output-dir", "agent", "json", "references", "references-by-competition",
           "timeout-s", "split", "num-seeds"},
          {"synthetic", "all", "lite", "force", "dry-run", "help", "h", "include-sample-runs",
           "pad-missing"})));
  if (cl.positional.empty() || cl.Has("help") || cl.Has("h")) {
    std::cout << kUsage;
    return cl.positional.empty() && !cl.Has("help") && !cl.Has("h")
               ? absl::InvalidArgumentError("missing command")
               : absl::OkStatus();
  }
  const std::string& command = cl.positional[0];
  if (command == "list") return List();
  if (command == "prepare") return Prepare(cl);
  if (command == "grade-sample") return GradeSample(cl);
  if (command == "grade") return GradeJsonl(cl);
  if (command == "summarize") return SummarizeReports(cl);
  if (command == "aggregate") return AggregateReports(cl);
  if (command == "audit") return Audit(cl);
  if (command == "thresholds") return PrintThresholdsRow(cl);
  return absl::InvalidArgumentError(absl::StrCat("unknown command '", command, "'\n", kUsage));
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  mlebench::UseBaselineLibm(argv);
  mlebench::TuneMallocForShortRun();
  mlebench::g_argv0 = argv[0];
  absl::Status s = mlebench::Main(std::vector<std::string>(argv + 1, argv + argc));
  if (!s.ok()) {
    std::fprintf(stderr, "mlebench: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  return 0;
}
