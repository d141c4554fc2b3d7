#include "grading/aggregate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/display_text.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grading/report.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

// Text from report files (anyone may have written them), as a terminal may
// show it.
std::string Shown(std::string_view text) { return EscapeForConsole(text, 200); }

std::string AgentLabel(const std::string& agent) {
  return agent.empty() ? "(agent not recorded)" : Shown(agent);
}

std::string DatasetLabel(const std::string& dataset) {
  return dataset.empty() ? "data not recorded" : absl::StrCat(Shown(dataset), " data");
}

// One agent (label, digest) on one kind of data: seed -> competition -> report.
struct Group {
  std::string agent;
  std::string agent_digest;
  std::string dataset;
  bool with_seed = false;     // some report records its seed
  bool without_seed = false;  // some report does not (numbered by order)
  std::map<int64_t, std::map<std::string, const SourcedReport*>> seeds;
  std::map<std::string, int64_t> next_position;  // reports without a seed, per competition
};

using GroupKey = std::tuple<std::string, std::string, std::string>;

// numpy's np.mean and scipy.stats.sem(ddof=1) (np.std(ddof=1) / sqrt(n)),
// with upstream's 0.0 for one value, and its 1.96 interval.
AggregateMetric AcrossSeeds(const std::vector<double>& values) {
  AggregateMetric m;
  const double n = static_cast<double>(values.size());
  const double mean = NumpySum(values) / n;
  double standard_error = 0.0;
  if (values.size() > 1) {
    std::vector<double> squares;
    squares.reserve(values.size());
    for (double v : values) squares.push_back((v - mean) * (v - mean));
    standard_error = std::sqrt(NumpySum(squares) / (n - 1)) / std::sqrt(n);
  }
  m.set_mean(mean);
  m.set_ci_lower(mean - 1.96 * standard_error);
  m.set_ci_upper(mean + 1.96 * standard_error);
  m.set_standard_error(standard_error);
  return m;
}

double Percentage(int64_t count, int64_t total) {
  return static_cast<double>(count) / static_cast<double>(total) * 100.0;
}

// A folder name from an agent label, digest and dataset: letters, digits,
// '.', '-' and '_' only (no ',' for upstream's CSV, no '/').
std::string DirectoryName(const Group& g) {
  std::string agent;
  for (char c : g.agent) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '-' || c == '_';
    agent.push_back(keep ? c : '_');
  }
  const size_t start = agent.find_first_not_of("_.");
  agent = start == std::string::npos ? "" : agent.substr(start);
  if (agent.size() > 80) agent.resize(80);
  if (agent.empty()) agent = "agent-not-recorded";
  std::string digest;
  for (char c : g.agent_digest.substr(0, 12)) {
    if ((c >= 'a' && c <= 'f') || (c >= '0' && c <= '9')) digest.push_back(c);
  }
  std::string dataset;
  for (char c : g.dataset) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') dataset.push_back(c);
  }
  return absl::StrCat(agent, digest.empty() ? "" : ".", digest, ".",
                      dataset.empty() ? "data-not-recorded" : dataset);
}

std::string DatasetNote(const std::string& dataset) {
  if (dataset == "synthetic") {
    return "synthetic data: these submissions were graded on generated data against the real "
           "Kaggle leaderboards' thresholds, so their medals and above-median shares mean "
           "nothing about Kaggle performance";
  }
  if (dataset.empty()) {
    return "the reports do not record their data (upstream's grading reports do not); they are "
           "kept apart from reports that do";
  }
  return "";
}

// A failing report for a competition a seed lacks (upstream's zero_report),
// with the thresholds of another seed's report of it where there is one.
CompetitionReport PaddedReport(const Group& g, const std::string& id, int64_t seed) {
  CompetitionReport r;
  for (const auto& [other_seed, reports] : g.seeds) {
    if (auto it = reports.find(id); it != reports.end()) {
      const CompetitionReport& t = it->second->report;
      r.set_gold_threshold(t.gold_threshold());
      r.set_silver_threshold(t.silver_threshold());
      r.set_bronze_threshold(t.bronze_threshold());
      r.set_median_threshold(t.median_threshold());
      r.set_is_lower_better(t.is_lower_better());
      r.set_thresholds_source(t.thresholds_source());
      break;
    }
  }
  r.set_competition_id(id);
  r.mutable_score()->set_null_value(google::protobuf::NULL_VALUE);
  r.set_invalid_reason(absl::StrCat("no report for this competition in seed ", seed,
                                    ": counted as failing (mlebench aggregate --pad-missing)"));
  r.set_agent(g.agent);
  r.set_agent_digest(g.agent_digest);
  r.set_dataset(g.dataset);
  r.set_seed(seed);
  return r;
}

std::string SeedList(const std::vector<int64_t>& seeds) { return absl::StrJoin(seeds, ", "); }

// Aggregates one group on one split into `out`, or says why it cannot.
void AggregateSplit(const Group& g, const std::string& directory, const SplitDefinition& split,
                    const AggregateOptions& options, AgentAggregate* agent,
                    std::vector<GradingReportFile>* files, std::string* csv) {
  const std::set<std::string> in_split(split.competitions.begin(), split.competitions.end());
  std::vector<int64_t> seeds;  // seeds with a report of the split
  std::map<int64_t, std::vector<std::string>> missing;
  std::set<std::string> seen;
  for (const auto& [seed, reports] : g.seeds) {
    bool any = false;
    for (const auto& [id, r] : reports) {
      if (in_split.count(id) > 0) {
        any = true;
        seen.insert(id);
      }
    }
    if (!any) continue;
    seeds.push_back(seed);
    for (const std::string& id : split.competitions) {
      if (reports.count(id) == 0) missing[seed].push_back(id);
    }
  }
  auto skip = [&](std::string reason) {
    SkippedSplit* s = agent->add_skipped_splits();
    s->set_split(split.name);
    s->set_reason(std::move(reason));
  };
  if (seeds.empty()) {
    skip(absl::StrCat("no report of any of its ", split.competitions.size(), " competitions"));
    return;
  }
  SplitAggregate out;
  out.set_split(split.name);
  out.set_competitions(static_cast<int64_t>(split.competitions.size()));
  std::vector<int64_t> used;
  for (int64_t seed : seeds) {
    if (options.pad_missing || missing.count(seed) == 0) {
      used.push_back(seed);
    } else {
      LeftOutSeed* left = out.add_seeds_left_out();
      left->set_seed(seed);
      for (const std::string& id : missing[seed]) left->add_missing_competitions(id);
    }
  }
  if (used.empty()) {
    std::vector<std::string> never;
    for (const std::string& id : split.competitions) {
      if (seen.count(id) == 0) never.push_back(id);
    }
    std::string why;
    if (!never.empty()) {
      why = absl::StrCat("no complete seed: ", never.size(), " of its ", split.competitions.size(),
                         " competitions have no report in any seed (",
                         Shown(absl::StrJoin(never, ", ")), ")");
    } else {
      std::vector<std::string> lacks;
      for (const auto& [seed, ids] : missing) {
        lacks.push_back(absl::StrCat("seed ", seed, " lacks ", Shown(absl::StrJoin(ids, ", "))));
      }
      why = absl::StrCat("no complete seed: ", absl::StrJoin(lacks, "; "));
    }
    skip(absl::StrCat(why, "; --pad-missing counts missing reports as failing"));
    return;
  }
  if (options.num_seeds >= 0 && static_cast<int64_t>(used.size()) > options.num_seeds) {
    for (size_t i = static_cast<size_t>(options.num_seeds); i < used.size(); ++i) {
      out.add_seeds_left_out()->set_seed(used[i]);
    }
    used.resize(static_cast<size_t>(options.num_seeds));
    std::sort(out.mutable_seeds_left_out()->begin(), out.mutable_seeds_left_out()->end(),
              [](const LeftOutSeed& a, const LeftOutSeed& b) { return a.seed() < b.seed(); });
  }
  const int width = static_cast<int>(absl::StrCat(used.back()).size());
  out.set_experiment_id(absl::StrCat(directory, ".", split.name));
  const int64_t total = static_cast<int64_t>(split.competitions.size());
  std::vector<double> totals, exists, valid, above, gold, silver, bronze, any;
  for (int64_t seed : used) {
    const auto& reports = g.seeds.at(seed);
    SeedMetrics* s = out.add_seeds();
    s->set_seed(seed);
    std::vector<CompetitionReport> written;
    int64_t n_exists = 0, n_valid = 0, n_above = 0, n_gold = 0, n_silver = 0, n_bronze = 0,
            n_any = 0;
    for (const std::string& id : split.competitions) {
      auto it = reports.find(id);
      CompetitionReport r;
      if (it == reports.end()) {
        r = PaddedReport(g, id, seed);
        s->add_padded_competitions(id);
        out.set_padded_reports(out.padded_reports() + 1);
      } else {
        r = it->second->report;
        r.set_seed(seed);  // the number by order, for reports without one
      }
      n_exists += r.submission_exists();
      n_valid += r.valid_submission();
      n_above += r.above_median();
      n_gold += r.gold_medal();
      n_silver += r.silver_medal();
      n_bronze += r.bronze_medal();
      n_any += r.gold_medal() || r.silver_medal() || r.bronze_medal();
      written.push_back(std::move(r));
    }
    s->set_total_competitions(total);
    s->set_submission_exists_percentage(Percentage(n_exists, total));
    s->set_valid_submissions_percentage(Percentage(n_valid, total));
    s->set_above_median_percentage(Percentage(n_above, total));
    s->set_gold_medal_percentage(Percentage(n_gold, total));
    s->set_silver_medal_percentage(Percentage(n_silver, total));
    s->set_bronze_medal_percentage(Percentage(n_bronze, total));
    s->set_any_medal_percentage(Percentage(n_any, total));
    totals.push_back(static_cast<double>(total));
    exists.push_back(s->submission_exists_percentage());
    valid.push_back(s->valid_submissions_percentage());
    above.push_back(s->above_median_percentage());
    gold.push_back(s->gold_medal_percentage());
    silver.push_back(s->silver_medal_percentage());
    bronze.push_back(s->bronze_medal_percentage());
    any.push_back(s->any_medal_percentage());
    const std::string run_group =
        absl::StrCat(directory, "/", split.name, "/", absl::StrFormat("seed-%0*d", width, seed));
    const std::string file = absl::StrCat(run_group, "/",
                                          absl::StrFormat("seed-%0*d", width, seed),
                                          "_grading_report.json");
    s->set_grading_report(file);
    files->push_back({file, Aggregate(written)});
    absl::StrAppend(csv, out.experiment_id(), ",", run_group, "\n");
  }
  AggregateMetrics* a = out.mutable_aggregate();
  a->set_num_seeds_averaged(static_cast<int64_t>(used.size()));
  a->set_num_competitions_per_seed(total);
  AggregateMetricsByName* m = a->mutable_metrics();
  *m->mutable_total_competitions() = AcrossSeeds(totals);
  *m->mutable_submission_exists_percentage() = AcrossSeeds(exists);
  *m->mutable_valid_submissions_percentage() = AcrossSeeds(valid);
  *m->mutable_above_median_percentage() = AcrossSeeds(above);
  *m->mutable_gold_medal_percentage() = AcrossSeeds(gold);
  *m->mutable_silver_medal_percentage() = AcrossSeeds(silver);
  *m->mutable_bronze_medal_percentage() = AcrossSeeds(bronze);
  *m->mutable_any_medal_percentage() = AcrossSeeds(any);

  std::vector<std::string> note;
  note.push_back(absl::StrCat(
      "mean over ", used.size(), used.size() == 1 ? " seed (" : " seeds (", SeedList(used), ") of ",
      total, " competitions", options.pad_missing ? "" : ", complete seeds only"));
  if (used.size() == 1) {
    note.push_back(
        "one seed: the standard error is undefined; it is 0.0 here, as upstream reports it, so "
        "the interval is the mean alone");
  } else {
    note.push_back(
        "standard error of the mean (ddof=1, as scipy.stats.sem); 95% interval mean -+ 1.96 "
        "standard errors (normal), as upstream");
  }
  if (out.padded_reports() > 0) {
    note.push_back(absl::StrCat(
        "padded: ", out.padded_reports(),
        " missing reports counted as failing (--pad-missing; upstream's leaderboard marks such "
        "figures \"computed by padding incomplete seeds with failing scores\")"));
  }
  std::vector<int64_t> incomplete, beyond;
  for (const LeftOutSeed& left : out.seeds_left_out()) {
    (left.missing_competitions_size() > 0 ? incomplete : beyond).push_back(left.seed());
  }
  if (!incomplete.empty()) {
    note.push_back(absl::StrCat("left out, incomplete: seed", incomplete.size() == 1 ? " " : "s ",
                                SeedList(incomplete)));
  }
  if (!beyond.empty()) {
    note.push_back(absl::StrCat("left out, beyond --num-seeds: seed",
                                beyond.size() == 1 ? " " : "s ", SeedList(beyond)));
  }
  out.set_note(absl::StrJoin(note, "; "));
  *agent->add_splits() = std::move(out);
}

std::string MetricText(const AggregateMetric& m) {
  return absl::StrFormat("%.2f%% +- %.2f [%.2f, %.2f]", m.mean(), m.standard_error(),
                         m.ci_lower(), m.ci_upper());
}

}  // namespace

absl::StatusOr<std::vector<SplitDefinition>> SplitsByName(
    const std::map<std::string, CompetitionInfo>& table, const std::vector<std::string>& names) {
  std::vector<SplitDefinition> out;
  for (const std::string& given : names) {
    const std::string name = given == "lite" ? "low" : given;
    if (name != "low" && name != "medium" && name != "high" && name != "split75" &&
        name != "dev" && name != "all") {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown split '", Shown(given),
                       "' (lite, low, medium, high, split75, dev or all)"));
    }
    if (std::any_of(out.begin(), out.end(),
                    [&](const SplitDefinition& s) { return s.name == name; })) {
      continue;
    }
    SplitDefinition split{name, {}};
    for (const auto& [id, info] : table) {
      if (name == "all" ||
          std::find(info.splits.begin(), info.splits.end(), name) != info.splits.end()) {
        split.competitions.push_back(id);
      }
    }
    if (split.competitions.empty()) {
      return absl::NotFoundError(absl::StrCat("split ", name, " has no competitions"));
    }
    out.push_back(std::move(split));
  }
  if (out.empty()) return absl::InvalidArgumentError("no split to aggregate");
  return out;
}

absl::StatusOr<AggregateOutput> AggregateRuns(const std::vector<SourcedReport>& reports,
                                              const AggregateOptions& options) {
  if (reports.empty()) return absl::InvalidArgumentError("no reports to aggregate");
  if (options.splits.empty()) return absl::InvalidArgumentError("no split to aggregate");
  AggregateOutput output;
  AggregateSummary& summary = output.summary;
  summary.set_pad_missing(options.pad_missing);
  summary.set_num_seeds_requested(options.num_seeds);
  std::map<GroupKey, Group> groups;
  for (const SourcedReport& sourced : reports) {
    const CompetitionReport& r = sourced.report;
    Group& g = groups[{r.agent(), r.agent_digest(), r.dataset()}];
    g.agent = r.agent();
    g.agent_digest = r.agent_digest();
    g.dataset = r.dataset();
    (sourced.seed_recorded ? g.with_seed : g.without_seed) = true;
    if (g.with_seed && g.without_seed) {
      return absl::InvalidArgumentError(absl::StrCat(
          "agent ", AgentLabel(r.agent()), " on ", DatasetLabel(r.dataset()),
          ": some reports record their seed and some do not (", Shown(sourced.source),
          "); aggregate them separately"));
    }
    int64_t seed = r.seed();
    if (!sourced.seed_recorded) seed = g.next_position[r.competition_id()]++;
    if (seed < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(Shown(sourced.source), ": negative seed ", seed));
    }
    const SourcedReport*& slot = g.seeds[seed][r.competition_id()];
    if (slot == nullptr) {
      slot = &sourced;
      summary.set_reports(summary.reports() + 1);
      continue;
    }
    const std::string difference = ReportDifference(slot->report, r);
    if (difference.empty()) {
      summary.set_duplicate_reports(summary.duplicate_reports() + 1);
      continue;
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "conflicting reports for ", Shown(r.competition_id()), " (agent ", AgentLabel(r.agent()),
        ", ", DatasetLabel(r.dataset()), ", seed ", seed, "): ", Shown(slot->source), " and ",
        Shown(sourced.source), " differ (", Shown(difference), ")"));
  }
  std::set<std::string> datasets;
  std::set<std::string> directories;
  output.run_group_experiments_csv = "experiment_id,run_group\n";
  std::vector<std::string> skipped;
  bool aggregated = false;
  for (const auto& [key, g] : groups) {
    datasets.insert(g.dataset);
    AgentAggregate* agent = summary.add_agents();
    agent->set_agent(g.agent);
    agent->set_agent_digest(g.agent_digest);
    agent->set_dataset(g.dataset);
    agent->set_dataset_note(DatasetNote(g.dataset));
    agent->set_seeds_by_order(g.without_seed);
    std::string directory = DirectoryName(g);
    for (int i = 2; directories.count(directory) > 0; ++i) {
      directory = absl::StrCat(DirectoryName(g), "-", i);
    }
    directories.insert(directory);
    agent->set_directory(directory);
    for (const SplitDefinition& split : options.splits) {
      AggregateSplit(g, directory, split, options, agent, &output.grading_reports,
                     &output.run_group_experiments_csv);
    }
    aggregated = aggregated || agent->splits_size() > 0;
    for (const SkippedSplit& s : agent->skipped_splits()) {
      skipped.push_back(absl::StrCat("agent ", AgentLabel(g.agent), " on ",
                                     DatasetLabel(g.dataset), ", split ", s.split(), ": ",
                                     s.reason()));
    }
  }
  if (!aggregated) {
    return absl::InvalidArgumentError(
        absl::StrCat("nothing to aggregate: ", absl::StrJoin(skipped, "; ")));
  }
  if (datasets.size() > 1) {
    std::vector<std::string> names;
    for (const std::string& d : datasets) names.push_back(d.empty() ? "not recorded" : d);
    summary.set_datasets_note(absl::StrCat(
        "the reports are on ", datasets.size(), " kinds of data (", absl::StrJoin(names, ", "),
        "), aggregated apart and never averaged together"));
  }
  return output;
}

bool IsAggregateSummaryJson(std::string_view json) {
  google::protobuf::Struct object;
  return google::protobuf::util::JsonStringToMessage(
             google::protobuf::StringPiece(json.data(), json.size()), &object)
             .ok() &&
         object.fields().contains("agents");
}

std::string FormatAggregate(const AggregateSummary& summary) {
  std::string out = absl::StrCat(summary.reports(), " reports");
  if (summary.duplicate_reports() > 0) {
    absl::StrAppend(&out, " (and ", summary.duplicate_reports(), " identical copies, counted once)");
  }
  absl::StrAppend(&out, ", ", summary.agents_size(),
                  summary.agents_size() == 1 ? " agent" : " agents",
                  summary.pad_missing() ? "; missing reports padded as failing" : "", "\n");
  if (!summary.datasets_note().empty()) absl::StrAppend(&out, "note: ", summary.datasets_note(), "\n");
  for (const AgentAggregate& agent : summary.agents()) {
    absl::StrAppend(&out, "\nagent ", AgentLabel(agent.agent()),
                    agent.agent_digest().empty()
                        ? ""
                        : absl::StrCat(" (digest ", Shown(agent.agent_digest().substr(0, 12)), ")"),
                    " on ", DatasetLabel(agent.dataset()), " -> ", agent.directory(), "/\n");
    if (!agent.dataset_note().empty()) absl::StrAppend(&out, "  note: ", agent.dataset_note(), "\n");
    if (agent.seeds_by_order()) {
      absl::StrAppend(&out,
                      "  note: the reports record no seed; seeds are numbered by order, as "
                      "upstream pairs them\n");
    }
    for (const SplitAggregate& split : agent.splits()) {
      const AggregateMetricsByName& m = split.aggregate().metrics();
      absl::StrAppend(&out, "  ", split.split(), ": any medal ", MetricText(m.any_medal_percentage()),
                      "  (mean +- standard error [95% interval])\n");
      absl::StrAppend(&out, "    gold ", MetricText(m.gold_medal_percentage()), "  silver ",
                      MetricText(m.silver_medal_percentage()), "  bronze ",
                      MetricText(m.bronze_medal_percentage()), "\n");
      absl::StrAppend(&out, "    above median ", MetricText(m.above_median_percentage()),
                      "  valid ", MetricText(m.valid_submissions_percentage()), "  submitted ",
                      MetricText(m.submission_exists_percentage()), "\n");
      absl::StrAppend(&out, "    ", split.note(), "\n");
      for (const LeftOutSeed& left : split.seeds_left_out()) {
        if (left.missing_competitions_size() == 0) continue;
        absl::StrAppend(&out, "    seed ", left.seed(), " left out: no report for ",
                        Shown(absl::StrJoin(left.missing_competitions(), ", ")), "\n");
      }
      for (const SeedMetrics& seed : split.seeds()) {
        if (seed.padded_competitions_size() == 0) continue;
        absl::StrAppend(&out, "    seed ", seed.seed(), " padded: ",
                        Shown(absl::StrJoin(seed.padded_competitions(), ", ")),
                        " counted as failing\n");
      }
    }
    for (const SkippedSplit& s : agent.skipped_splits()) {
      absl::StrAppend(&out, "  ", s.split(), ": skipped: ", s.reason(), "\n");
    }
  }
  return out;
}

}  // namespace mlebench
