#include "grading/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/display_text.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "grading/report.h"

namespace mlebench {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Struct;
using google::protobuf::Value;

// What upstream's experiments/aggregate_grading_reports.py reads from each
// report; without these a report cannot be counted.
constexpr const char* kRequiredBooleans[] = {"gold_medal",        "silver_medal",
                                             "bronze_medal",      "above_median",
                                             "submission_exists", "valid_submission"};

std::string KindName(const Value& v) {
  switch (v.kind_case()) {
    case Value::kNullValue:
      return "null";
    case Value::kNumberValue:
      return "a number";
    case Value::kStringValue:
      return "a string";
    case Value::kBoolValue:
      return "a boolean";
    case Value::kStructValue:
      return "an object";
    case Value::kListValue:
      return "a list";
    default:
      return "nothing";
  }
}

absl::Status FieldError(const std::string& where, const std::string& field, const std::string& want,
                        const Value& got) {
  return absl::InvalidArgumentError(
      absl::StrCat(where, ": field `", field, "` must be ", want, ", not ", KindName(got)));
}

// Fills a CompetitionReport from a parsed JSON object, field by field, so
// that a wrong type is reported by name. Keys that are not report fields are
// ignored (upstream may add some).
absl::StatusOr<CompetitionReport> ReportFromStruct(const Struct& object, const std::string& where) {
  const auto& fields = object.fields();
  if (auto id = fields.find("competition_id"); id == fields.end()) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": missing field `competition_id`"));
  } else if (id->second.kind_case() != Value::kStringValue || id->second.string_value().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": field `competition_id` must be a non-empty string"));
  }
  for (const char* name : kRequiredBooleans) {
    if (fields.find(name) == fields.end()) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": missing field `", name, "`"));
    }
  }
  CompetitionReport report;
  const auto* descriptor = report.GetDescriptor();
  const auto* reflection = report.GetReflection();
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const FieldDescriptor* field = descriptor->field(i);
    auto it = fields.find(field->name());
    if (it == fields.end()) continue;
    const Value& value = it->second;
    if (field->is_repeated()) {  // allowed_hosts: a list of strings
      if (value.kind_case() != Value::kListValue) {
        return FieldError(where, field->name(), "a list of strings", value);
      }
      for (const Value& item : value.list_value().values()) {
        if (item.kind_case() != Value::kStringValue ||
            field->cpp_type() != FieldDescriptor::CPPTYPE_STRING) {
          return FieldError(where, field->name(), "a list of strings", value);
        }
        reflection->AddString(&report, field, item.string_value());
      }
      continue;
    }
    switch (field->cpp_type()) {
      case FieldDescriptor::CPPTYPE_STRING:
        if (value.kind_case() != Value::kStringValue) {
          return FieldError(where, field->name(), "a string", value);
        }
        reflection->SetString(&report, field, value.string_value());
        break;
      case FieldDescriptor::CPPTYPE_BOOL:
        if (value.kind_case() != Value::kBoolValue) {
          return FieldError(where, field->name(), "true or false", value);
        }
        reflection->SetBool(&report, field, value.bool_value());
        break;
      case FieldDescriptor::CPPTYPE_DOUBLE:
        if (std::optional<double> v = NonFiniteNumber(value); v.has_value()) {
          reflection->SetDouble(&report, field, *v);
          break;
        }
        if (value.kind_case() != Value::kNumberValue) {
          return FieldError(where, field->name(), "a number", value);
        }
        reflection->SetDouble(&report, field, value.number_value());
        break;
      case FieldDescriptor::CPPTYPE_INT64: {
        const double v = value.number_value();
        // Below 2^53 every integer is exact in a double, and seeds are small.
        if (value.kind_case() != Value::kNumberValue || v != std::floor(v) ||
            std::fabs(v) > 9.0e15) {
          return FieldError(where, field->name(), "an integer", value);
        }
        reflection->SetInt64(&report, field, static_cast<int64_t>(v));
        break;
      }
      case FieldDescriptor::CPPTYPE_MESSAGE: {  // score, sample_score: a number or null
        Value* target = field->name() == "score" ? report.mutable_score()
                                                 : report.mutable_sample_score();
        if (std::optional<double> v = NonFiniteNumber(value); v.has_value()) {
          target->set_number_value(*v);
          break;
        }
        if (value.kind_case() != Value::kNumberValue && value.kind_case() != Value::kNullValue) {
          return FieldError(where, field->name(), "a number or null", value);
        }
        // A null sample score is an unknown one, as in a report that never had one.
        if (field->name() == "sample_score" && value.kind_case() == Value::kNullValue) {
          report.clear_sample_score();
          break;
        }
        *target = value;
        break;
      }
      default:
        return absl::InternalError(
            absl::StrCat("report field ", field->name(), " has an unexpected type"));
    }
  }
  const bool medal = report.gold_medal() || report.silver_medal() || report.bronze_medal();
  if (fields.count("any_medal") > 0 && report.any_medal() != medal) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": `any_medal` is ", report.any_medal() ? "true" : "false",
        " but gold_medal, silver_medal and bronze_medal say ", medal ? "true" : "false"));
  }
  return report;
}

// Text from a report file, which anyone (an agent among them) may have
// written, as the console may show it.
std::string Shown(std::string_view text) { return EscapeForConsole(text, 200); }

std::string AgentLabel(const std::string& agent) {
  return agent.empty() ? "(agent not recorded)" : Shown(agent);
}

std::string DatasetLabel(const std::string& dataset) {
  return dataset.empty() ? "data not recorded" : absl::StrCat(Shown(dataset), " data");
}

std::string Outcome(const CompetitionReport& r) {
  if (!r.submission_exists()) return "no-submission";
  if (!r.valid_submission()) return "invalid";
  if (r.gold_medal()) return "gold";
  if (r.silver_medal()) return "silver";
  if (r.bronze_medal()) return "bronze";
  return r.above_median() ? "above-median" : "below-median";
}

double Percentage(int64_t count, int64_t total) {
  return static_cast<double>(count) / static_cast<double>(total) * 100.0;
}

MetricAcrossSeeds AcrossSeeds(const std::vector<double>& values) {
  MetricAcrossSeeds m;
  double sum = 0;
  for (double v : values) sum += v;
  const double n = static_cast<double>(values.size());
  const double mean = sum / n;
  m.set_mean(mean);
  if (values.size() < 2) {
    m.mutable_standard_error()->set_null_value(google::protobuf::NULL_VALUE);
    m.mutable_ci_lower()->set_null_value(google::protobuf::NULL_VALUE);
    m.mutable_ci_upper()->set_null_value(google::protobuf::NULL_VALUE);
    return m;
  }
  double squares = 0;
  for (double v : values) squares += (v - mean) * (v - mean);
  const double standard_error = std::sqrt(squares / (n - 1)) / std::sqrt(n);
  m.mutable_standard_error()->set_number_value(standard_error);
  m.mutable_ci_lower()->set_number_value(mean - 1.96 * standard_error);
  m.mutable_ci_upper()->set_number_value(mean + 1.96 * standard_error);
  return m;
}

// Reports of one (agent, dataset): seed -> competition id -> report.
using SeedTable = std::map<int64_t, std::map<std::string, const SourcedReport*>>;

AgentSummary SummarizeAgent(const std::string& agent, const std::string& dataset,
                            const SeedTable& seeds) {
  AgentSummary out;
  out.set_agent(agent);
  out.set_dataset(dataset);
  out.set_num_seeds(static_cast<int64_t>(seeds.size()));
  std::set<std::string> all_competitions;
  for (const auto& [seed, reports] : seeds) {
    for (const auto& [id, report] : reports) {
      all_competitions.insert(id);
      if (report->report.isolation() == "none") {
        out.set_unisolated_reports(out.unisolated_reports() + 1);
      } else if (report->report.isolation().empty()) {
        out.set_isolation_unknown_reports(out.isolation_unknown_reports() + 1);
      }
    }
  }
  std::vector<double> any, gold, silver, bronze, above, valid, exists;
  for (const auto& [seed, reports] : seeds) {
    SeedSummary* s = out.add_seeds();
    s->set_seed(seed);
    const int64_t total = static_cast<int64_t>(reports.size());
    s->set_total_competitions(total);
    for (const auto& [id, sourced] : reports) {
      const CompetitionReport& r = sourced->report;
      s->set_submissions(s->submissions() + r.submission_exists());
      s->set_valid_submissions(s->valid_submissions() + r.valid_submission());
      s->set_gold_medals(s->gold_medals() + r.gold_medal());
      s->set_silver_medals(s->silver_medals() + r.silver_medal());
      s->set_bronze_medals(s->bronze_medals() + r.bronze_medal());
      s->set_any_medals(s->any_medals() + (r.gold_medal() || r.silver_medal() || r.bronze_medal()));
      s->set_above_median(s->above_median() + r.above_median());
      s->set_beats_sample(s->beats_sample() + r.beats_sample());
    }
    for (const std::string& id : all_competitions) {
      if (reports.count(id) == 0) s->add_missing_competitions(id);
    }
    s->set_any_medal_percentage(Percentage(s->any_medals(), total));
    s->set_above_median_percentage(Percentage(s->above_median(), total));
    s->set_valid_submissions_percentage(Percentage(s->valid_submissions(), total));
    any.push_back(s->any_medal_percentage());
    gold.push_back(Percentage(s->gold_medals(), total));
    silver.push_back(Percentage(s->silver_medals(), total));
    bronze.push_back(Percentage(s->bronze_medals(), total));
    above.push_back(s->above_median_percentage());
    valid.push_back(s->valid_submissions_percentage());
    exists.push_back(Percentage(s->submissions(), total));
  }
  *out.mutable_any_medal_percentage() = AcrossSeeds(any);
  *out.mutable_gold_medal_percentage() = AcrossSeeds(gold);
  *out.mutable_silver_medal_percentage() = AcrossSeeds(silver);
  *out.mutable_bronze_medal_percentage() = AcrossSeeds(bronze);
  *out.mutable_above_median_percentage() = AcrossSeeds(above);
  *out.mutable_valid_submissions_percentage() = AcrossSeeds(valid);
  *out.mutable_submission_exists_percentage() = AcrossSeeds(exists);
  for (const std::string& id : all_competitions) {
    CompetitionAcrossSeeds* c = out.add_competitions();
    c->set_competition_id(id);
    for (const auto& [seed, reports] : seeds) {
      auto it = reports.find(id);
      if (it == reports.end()) continue;
      const CompetitionReport& r = it->second->report;
      c->set_seeds_seen(c->seeds_seen() + 1);
      c->set_medals(c->medals() + (r.gold_medal() || r.silver_medal() || r.bronze_medal()));
      SeedOutcome* o = c->add_outcomes();
      o->set_seed(seed);
      o->set_outcome(Outcome(r));
      if (r.score().kind_case() == Value::kNumberValue) {
        o->set_score(FormatPythonFloat(r.score().number_value()));
      }
      o->set_beats_sample(r.beats_sample());
      c->set_beats_sample(c->beats_sample() + r.beats_sample());
      if (r.sample_score().kind_case() == Value::kNumberValue) {
        c->set_sample_score(FormatPythonFloat(r.sample_score().number_value()));
      }
    }
  }
  return out;
}

}  // namespace

std::string ReportDifference(const CompetitionReport& a, const CompetitionReport& b) {
  std::string difference;
  {
    google::protobuf::util::MessageDifferencer differencer;
    // When it was graded, and what the run measured (a second run of the
    // same agent, seed and code - an agent_test beside the competition test,
    // say - uses other seconds and bytes): the same result either way.
    for (const char* field : {"created_at", "wall_seconds", "cpu_seconds", "memory_peak_bytes"}) {
      differencer.IgnoreField(CompetitionReport::descriptor()->FindFieldByName(field));
    }
    differencer.ReportDifferencesToString(&difference);
    if (differencer.Compare(a, b)) return "";
  }  // the reporter writes its last lines when the differencer goes
  std::vector<std::string> lines = absl::StrSplit(difference, '\n', absl::SkipEmpty());
  return absl::StrJoin(lines, "; ");
}

namespace {

// Rows of cells as left-aligned columns two spaces apart, each line
// indented by `indent`, without trailing blanks.
std::string Columns(const std::vector<std::vector<std::string>>& rows, const std::string& indent) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line = indent;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line.append(widths[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string Percent(double v) { return absl::StrFormat("%.1f%%", v); }

std::string MetricText(const MetricAcrossSeeds& m, int64_t seeds) {
  if (m.standard_error().kind_case() != Value::kNumberValue) {
    return absl::StrCat(Percent(m.mean()), " (1 seed: standard error n/a)");
  }
  return absl::StrCat(Percent(m.mean()), " +- ", Percent(m.standard_error().number_value()),
                      " (mean +- standard error over ", seeds, " seeds)");
}

}  // namespace

absl::StatusOr<std::vector<SourcedReport>> ParseReports(std::string_view json,
                                                        std::string_view source) {
  const std::string where(source);
  Struct object;
  auto parsed = google::protobuf::util::JsonStringToMessage(QuoteNonFiniteNumbers(json), &object);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": not a JSON object: ", std::string(parsed.message())));
  }
  std::vector<SourcedReport> out;
  auto list = object.fields().find("competition_reports");
  if (list == object.fields().end()) {
    ASSIGN_OR_RETURN(CompetitionReport report, ReportFromStruct(object, where));
    out.push_back({std::move(report), where, object.fields().count("seed") > 0});
    return out;
  }
  if (list->second.kind_case() != Value::kListValue) {
    return FieldError(where, "competition_reports", "a list", list->second);
  }
  const auto& values = list->second.list_value().values();
  for (int i = 0; i < values.size(); ++i) {
    const std::string item = absl::StrCat(where, ": competition_reports[", i, "]");
    if (values[i].kind_case() != Value::kStructValue) {
      return absl::InvalidArgumentError(
          absl::StrCat(item, " must be an object, not ", KindName(values[i])));
    }
    ASSIGN_OR_RETURN(CompetitionReport report, ReportFromStruct(values[i].struct_value(), item));
    out.push_back({std::move(report), item, values[i].struct_value().fields().count("seed") > 0});
  }
  return out;
}

absl::StatusOr<BenchmarkSummary> Summarize(const std::vector<SourcedReport>& reports) {
  if (reports.empty()) return absl::InvalidArgumentError("no reports to summarize");
  // Agent, agent digest, dataset: results of other code under the same label,
  // or of other data, are never mixed.
  std::map<std::tuple<std::string, std::string, std::string>, SeedTable> groups;
  BenchmarkSummary summary;
  for (const SourcedReport& sourced : reports) {
    const CompetitionReport& r = sourced.report;
    auto& slot =
        groups[{r.agent(), r.agent_digest(), r.dataset()}][r.seed()][r.competition_id()];
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
    return absl::InvalidArgumentError(
        absl::StrCat("conflicting reports for ", Shown(r.competition_id()), " (agent ",
                     AgentLabel(r.agent()), ", ", DatasetLabel(r.dataset()), ", seed ", r.seed(),
                     "): ", Shown(slot->source), " and ", Shown(sourced.source), " differ (",
                     Shown(difference),
                     "); two runs of one agent, seed and code that disagree, or reports of "
                     "different seeds that do not say so (mlebench grade --seed N)"));
  }
  for (const auto& [key, seeds] : groups) {
    AgentSummary* agent = summary.add_agents();
    *agent = SummarizeAgent(std::get<0>(key), std::get<2>(key), seeds);
    agent->set_agent_digest(std::get<1>(key));
  }
  return summary;
}

std::string FormatSummary(const BenchmarkSummary& summary) {
  std::string out = absl::StrCat(summary.reports(), " reports");
  if (summary.duplicate_reports() > 0) {
    absl::StrAppend(&out, " (and ", summary.duplicate_reports(), " identical ",
                    summary.duplicate_reports() == 1 ? "duplicate" : "duplicates",
                    ", counted once)");
  }
  absl::StrAppend(&out, ", ", summary.agents_size(),
                  summary.agents_size() == 1 ? " agent" : " agents", "\n");
  for (const AgentSummary& agent : summary.agents()) {
    absl::StrAppend(&out, "\nagent ", AgentLabel(agent.agent()),
                    agent.agent_digest().empty()
                        ? ""
                        : absl::StrCat(" (digest ", Shown(agent.agent_digest().substr(0, 12)), ")"),
                    " on ",
                    DatasetLabel(agent.dataset()), ": ", agent.num_seeds(),
                    agent.num_seeds() == 1 ? " seed, " : " seeds, ", agent.competitions_size(),
                    agent.competitions_size() == 1 ? " competition\n" : " competitions\n");
    const int64_t n = agent.num_seeds();
    out += Columns({{"any medal", MetricText(agent.any_medal_percentage(), n)},
                    {"gold", MetricText(agent.gold_medal_percentage(), n)},
                    {"silver", MetricText(agent.silver_medal_percentage(), n)},
                    {"bronze", MetricText(agent.bronze_medal_percentage(), n)},
                    {"above median", MetricText(agent.above_median_percentage(), n)},
                    {"valid submission", MetricText(agent.valid_submissions_percentage(), n)}},
                   "  ");
    int64_t reports = 0;
    for (const SeedSummary& s : agent.seeds()) reports += s.total_competitions();
    if (agent.unisolated_reports() > 0) {
      absl::StrAppend(&out, "  warning: ", agent.unisolated_reports(), " of ", reports,
                      " reports come from runs without isolation (isolation none): the agent "
                      "could have read the answers, so these numbers are no result\n");
    }
    if (agent.isolation_unknown_reports() > 0) {
      absl::StrAppend(&out, "  note: ", agent.isolation_unknown_reports(), " of ", reports,
                      " reports do not record the isolation of their run (graded outside a "
                      "competition test)\n");
    }
    for (const SeedSummary& s : agent.seeds()) {
      if (s.missing_competitions_size() == 0) continue;
      absl::StrAppend(&out, "  warning: seed ", s.seed(), " has no report for ",
                      Shown(absl::StrJoin(s.missing_competitions(), ", ")),
                      "; its percentages are over its ", s.total_competitions(), " competitions\n");
    }
    std::vector<std::vector<std::string>> seed_rows = {{"seed", "competitions", "submissions",
                                                        "valid", "beat sample", "gold", "silver",
                                                        "bronze", "any medal", "above median"}};
    for (const SeedSummary& s : agent.seeds()) {
      seed_rows.push_back({absl::StrCat(s.seed()), absl::StrCat(s.total_competitions()),
                           absl::StrCat(s.submissions()), absl::StrCat(s.valid_submissions()),
                           absl::StrCat(s.beats_sample()),
                           absl::StrCat(s.gold_medals()), absl::StrCat(s.silver_medals()),
                           absl::StrCat(s.bronze_medals()), Percent(s.any_medal_percentage()),
                           Percent(s.above_median_percentage())});
    }
    out += "\n" + Columns(seed_rows, "  ");
    std::vector<std::vector<std::string>> competition_rows = {
        {"competition", "seeds", "medals", "beat sample", "sample score"}};
    for (const SeedSummary& s : agent.seeds()) {
      competition_rows[0].push_back(absl::StrCat("seed ", s.seed()));
    }
    for (const CompetitionAcrossSeeds& c : agent.competitions()) {
      std::vector<std::string> row = {Shown(c.competition_id()), absl::StrCat(c.seeds_seen()),
                                      absl::StrCat(c.medals()), absl::StrCat(c.beats_sample()),
                                      c.sample_score().empty() ? "-" : c.sample_score()};
      int next = 0;
      for (const SeedSummary& s : agent.seeds()) {
        if (next < c.outcomes_size() && c.outcomes(next).seed() == s.seed()) {
          const SeedOutcome& o = c.outcomes(next++);
          row.push_back(o.score().empty() ? o.outcome()
                                          : absl::StrCat(o.score(), " ", o.outcome()));
        } else {
          row.push_back("-");
        }
      }
      competition_rows.push_back(std::move(row));
    }
    out += "\n" + Columns(competition_rows, "  ");
  }
  return out;
}

}  // namespace mlebench
