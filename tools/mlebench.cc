// mlebench: the command-line tool, mirroring upstream's `mlebench` CLI.
//
//   mlebench list
//   mlebench prepare (-c ID | --all | --lite | --list FILE) --data-dir DIR
//                    [--synthetic | --raw RAWDIR] [--seed N] [--force]
//   mlebench grade-sample SUBMISSION ID --data-dir DIR [--leaderboard FILE]
//   mlebench grade --submission FILE.jsonl --output-dir DIR --data-dir DIR
//
// Under `bazel run`, relative paths resolve against $BUILD_WORKING_DIRECTORY.
// Exit status: 0 for a graded report (valid or not), 1 for usage or data
// errors, with a message on stderr.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "competitions/common/preparer.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grading/command_line.h"
#include "grading/competition_table.h"
#include "grading/grader.h"
#include "grading/medals.h"
#include "grading/report.h"
#include "testdata/common/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr char kUsage[] =
    "usage:\n"
    "  mlebench list\n"
    "  mlebench prepare (-c ID | --all | --lite | --list FILE) --data-dir DIR\n"
    "                   [--synthetic | --raw RAWDIR] [--seed N] [--force]\n"
    "  mlebench grade-sample SUBMISSION COMPETITION_ID --data-dir DIR [--leaderboard FILE]\n"
    "  mlebench grade --submission FILE.jsonl --output-dir DIR --data-dir DIR\n";

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

// A data file of this project, found in the binary's runfiles.
absl::StatusOr<std::string> Runfile(const std::string& workspace_path) {
  std::vector<fs::path> roots;
  if (const char* d = std::getenv("RUNFILES_DIR"); d != nullptr && *d) roots.emplace_back(d);
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) roots.push_back(self.string() + ".runfiles");
  roots.push_back(g_argv0 + ".runfiles");
  for (const fs::path& root : roots) {
    fs::path candidate = root / "mlebench" / workspace_path;
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  if (fs::exists(workspace_path, ec)) return workspace_path;  // run from the workspace
  return absl::NotFoundError(absl::StrCat("cannot find ", workspace_path, " in the runfiles"));
}

absl::StatusOr<std::map<std::string, CompetitionInfo>> Competitions() {
  absl::StatusOr<std::string> path = Runfile("competitions/competitions.tsv");
  if (!path.ok()) return path.status();
  return ReadCompetitionTable(*path);
}

absl::Status List() {
  auto table = Competitions();
  if (!table.ok()) return table.status();
  for (const auto& [id, info] : *table) {
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

absl::Status PrepareOne(const std::string& id, const fs::path& data_dir, const CommandLine& cl) {
  if (PreparerRegistry::Find(id) == nullptr) {
    return absl::NotFoundError(absl::StrCat("no preparer registered for '", id, "'"));
  }
  const fs::path prepared = data_dir / id / "prepared";
  const fs::path public_dir = prepared / "public";
  const fs::path private_dir = prepared / "private";
  if ((IsNonEmptyDir(public_dir) || IsNonEmptyDir(private_dir)) && !cl.Has("force")) {
    return absl::AlreadyExistsError(absl::StrCat(
        prepared.string(), " already holds prepared data; pass --force to replace it"));
  }
  fs::path raw = data_dir / id / "raw";
  std::error_code ec;
  if (cl.Has("synthetic")) {
    const SyntheticDataset* synthetic = SyntheticRegistry::Find(id);
    if (synthetic == nullptr) {
      return absl::NotFoundError(absl::StrCat("no synthetic generator for '", id, "'"));
    }
    if (IsNonEmptyDir(raw) && !cl.Has("force")) {
      return absl::AlreadyExistsError(absl::StrCat(
          raw.string(), " already holds raw data; pass --force to replace it with synthetic data"));
    }
    fs::remove_all(raw, ec);
    fs::create_directories(raw, ec);
    if (ec) return absl::InternalError(absl::StrCat("cannot create ", raw.string(), ": ", ec.message()));
    int64_t seed = 0;
    if (!absl::SimpleAtoi(cl.Get("seed", "0"), &seed) || seed < 0) {
      return absl::InvalidArgumentError("--seed must be a non-negative integer");
    }
    if (absl::Status s = synthetic->generate(raw, static_cast<uint64_t>(seed)); !s.ok()) return s;
    // Reports graded against this data dir say it is synthetic.
    std::ofstream(raw / ".mlebench-synthetic") << "seed " << seed << "\n";
  } else if (cl.Has("raw")) {
    raw = UserPath(cl.Get("raw"));
  }
  if (!fs::is_directory(raw, ec)) {
    return absl::NotFoundError(absl::StrCat(
        "no raw data at ", raw.string(),
        ": download the competition from Kaggle into it, pass --raw DIR, or use --synthetic"));
  }
  fs::remove_all(prepared, ec);
  if (absl::Status s = RunRegisteredPreparer(id, raw, public_dir, private_dir); !s.ok()) return s;
  std::cout << "prepared " << id << " into " << prepared.string() << "\n";
  return absl::OkStatus();
}

absl::Status Prepare(const CommandLine& cl) {
  if (!cl.Has("data-dir")) return absl::InvalidArgumentError("prepare needs --data-dir");
  if (cl.Has("synthetic") && cl.Has("raw")) {
    return absl::InvalidArgumentError("--synthetic and --raw exclude each other");
  }
  auto table = Competitions();
  if (!table.ok()) return table.status();
  std::vector<std::string> ids;
  if (cl.Has("c")) {
    ids.push_back(cl.Get("c"));
  } else if (cl.Has("competition-id")) {
    ids.push_back(cl.Get("competition-id"));
  } else if (cl.Has("all") || cl.Has("lite")) {
    for (const auto& [id, info] : *table) {
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
  const fs::path data_dir = UserPath(cl.Get("data-dir"));
  for (const std::string& id : ids) {
    if (table->count(id) == 0) {
      return absl::NotFoundError(absl::StrCat("unknown competition '", id, "' (see mlebench list)"));
    }
    if (absl::Status s = PrepareOne(id, data_dir, cl); !s.ok()) return s;
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
  char micro[16];
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
  auto table = Competitions();
  if (!table.ok()) return table.status();
  auto info = table->find(id);
  if (info == table->end()) return absl::NotFoundError(absl::StrCat("unknown competition ", id));
  const fs::path answers = data_dir / info->second.answers_path;
  std::error_code ec;
  if (!fs::is_regular_file(answers, ec)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Dataset for competition `", id, "` is not prepared (no ", answers.string(),
        "). Run `mlebench prepare -c ", id, " --data-dir ", data_dir.string(), "` first."));
  }
  MedalThresholds thresholds;
  ReportContext context;
  context.dataset = "kaggle";
  if (cl.Has("leaderboard")) {
    auto t = ThresholdsFromLeaderboardFile(UserPath(cl.Get("leaderboard")).string());
    if (!t.ok()) return t.status();
    thresholds = *t;
    context.thresholds_source = "leaderboard";
  } else {
    absl::StatusOr<std::string> path = Runfile("grading/medal_thresholds.csv");
    if (!path.ok()) return path.status();
    auto all = ReadThresholdsTable(*path);
    if (!all.ok()) return all.status();
    auto it = all->find(id);
    if (it == all->end()) return absl::NotFoundError(absl::StrCat("no thresholds for ", id));
    thresholds = it->second;
  }
  // A data dir we prepared from synthetic data says so in its raw/ marker.
  if (fs::exists(data_dir / id / "raw" / ".mlebench-synthetic", ec)) context.dataset = "synthetic";
  context.created_at = NowIso();
  context.submission_path = submission.string();
  return GradeSubmissionFile(*grader, submission.string(), answers.string(), thresholds, context);
}

absl::Status GradeSample(const CommandLine& cl) {
  if (cl.positional.size() != 3) {
    return absl::InvalidArgumentError("grade-sample takes SUBMISSION and COMPETITION_ID");
  }
  if (!cl.Has("data-dir")) return absl::InvalidArgumentError("grade-sample needs --data-dir");
  auto report = GradeOne(cl.positional[2], UserPath(cl.positional[1]),
                         UserPath(cl.Get("data-dir")), cl);
  if (!report.ok()) return report.status();
  std::cout << ToPythonJson(*report, 4) << "\n";
  return absl::OkStatus();
}

absl::Status GradeJsonl(const CommandLine& cl) {
  const std::string jsonl = cl.Has("submission") ? cl.Get("submission") : cl.Get("submissions");
  if (jsonl.empty() || !cl.Has("output-dir") || !cl.Has("data-dir")) {
    return absl::InvalidArgumentError("grade needs --submission FILE.jsonl, --output-dir and --data-dir");
  }
  std::ifstream in(UserPath(jsonl));
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", jsonl));
  std::vector<CompetitionReport> reports;
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
    auto report = GradeOne(id->second.string_value(), UserPath(path->second.string_value()),
                           UserPath(cl.Get("data-dir")), cl);
    if (!report.ok()) return report.status();
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
  std::ofstream file(out, std::ios::binary);
  file << ToPythonJson(aggregated, 2) << "\n";
  file.close();
  if (!file) return absl::InternalError(absl::StrCat("cannot write ", out.string()));
  AggregatedReport summary = aggregated;
  summary.clear_competition_reports();
  std::string text = ToPythonJson(summary, 4);
  // The summary without the per-competition list, as upstream logs it.
  text.erase(text.rfind(",\n    \"competition_reports\""), std::string::npos);
  std::cout << text << "\n}\nSaved summary report to " << out.string() << "\n";
  return absl::OkStatus();
}

absl::Status Main(const std::vector<std::string>& args) {
  absl::StatusOr<CommandLine> cl = ParseCommandLine(
      args,
      {"c", "competition-id", "data-dir", "raw", "seed", "list", "leaderboard", "submission",
       "submissions", "output-dir"},
      {"synthetic", "all", "lite", "force", "help", "h"});
  if (!cl.ok()) return cl.status();
  if (cl->positional.empty() || cl->Has("help") || cl->Has("h")) {
    std::cout << kUsage;
    return cl->positional.empty() && !cl->Has("help") && !cl->Has("h")
               ? absl::InvalidArgumentError("missing command")
               : absl::OkStatus();
  }
  const std::string& command = cl->positional[0];
  if (command == "list") return List();
  if (command == "prepare") return Prepare(*cl);
  if (command == "grade-sample") return GradeSample(*cl);
  if (command == "grade") return GradeJsonl(*cl);
  return absl::InvalidArgumentError(absl::StrCat("unknown command '", command, "'\n", kUsage));
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  mlebench::g_argv0 = argv[0];
  absl::Status s = mlebench::Main(std::vector<std::string>(argv + 1, argv + argc));
  if (!s.ok()) {
    std::fprintf(stderr, "mlebench: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  return 0;
}
