#include "grading/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/json_text.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "base/python_float.h"

namespace mlebench {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// Python's json float encoding: repr, with NaN/Infinity spelled as json does.
std::string JsonFloat(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return FormatPythonFloat(v);
}

void AppendMessage(const Message& m, int indent, int depth, std::string* out);

void AppendValue(const Message& m, const FieldDescriptor* f, int index, int indent, int depth,
                 std::string* out) {
  const Reflection* r = m.GetReflection();
  const bool repeated = f->is_repeated();
  switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      *out += JsonString(repeated ? r->GetRepeatedString(m, f, index) : r->GetString(m, f));
      break;
    case FieldDescriptor::CPPTYPE_BOOL:
      *out += (repeated ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f)) ? "true" : "false";
      break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      *out += JsonFloat(repeated ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f));
      break;
    case FieldDescriptor::CPPTYPE_INT64:
      *out += std::to_string(repeated ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f));
      break;
    case FieldDescriptor::CPPTYPE_INT32:
      *out += std::to_string(repeated ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f));
      break;
    case FieldDescriptor::CPPTYPE_MESSAGE: {
      const Message& sub = repeated ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f);
      if (sub.GetDescriptor() == google::protobuf::Value::descriptor()) {
        const auto& v = static_cast<const google::protobuf::Value&>(sub);
        if (v.kind_case() == google::protobuf::Value::kNumberValue) {
          *out += JsonFloat(v.number_value());
        } else if (v.kind_case() == google::protobuf::Value::kStringValue) {
          *out += JsonString(v.string_value());
        } else if (v.kind_case() == google::protobuf::Value::kBoolValue) {
          *out += v.bool_value() ? "true" : "false";
        } else {
          *out += "null";
        }
      } else {
        AppendMessage(sub, indent, depth, out);
      }
      break;
    }
    default:
      *out += "null";  // no other field types are used in report.proto
  }
}

void NewLine(int indent, int depth, std::string* out) {
  if (indent <= 0) return;
  *out += '\n';
  out->append(static_cast<size_t>(indent * depth), ' ');
}

void AppendMessage(const Message& m, int indent, int depth, std::string* out) {
  const auto* d = m.GetDescriptor();
  std::vector<const FieldDescriptor*> fields;
  for (int i = 0; i < d->field_count(); ++i) fields.push_back(d->field(i));
  std::sort(fields.begin(), fields.end(),
            [](const FieldDescriptor* a, const FieldDescriptor* b) { return a->number() < b->number(); });
  const char* item_sep = indent > 0 ? "," : ", ";
  *out += '{';
  for (size_t i = 0; i < fields.size(); ++i) {
    const FieldDescriptor* f = fields[i];
    if (i > 0) *out += item_sep;
    NewLine(indent, depth + 1, out);
    *out += JsonString(f->name());
    *out += ": ";
    if (f->is_repeated()) {
      const int n = m.GetReflection()->FieldSize(m, f);
      *out += '[';
      for (int k = 0; k < n; ++k) {
        if (k > 0) *out += item_sep;
        NewLine(indent, depth + 2, out);
        AppendValue(m, f, k, indent, depth + 2, out);
      }
      if (n > 0) NewLine(indent, depth + 1, out);
      *out += ']';
    } else {
      AppendValue(m, f, -1, indent, depth + 1, out);
    }
  }
  if (!fields.empty()) NewLine(indent, depth, out);
  *out += '}';
}

}  // namespace

CompetitionReport MakeReport(std::string_view competition_id, bool submission_exists,
                             std::optional<double> score, std::string_view invalid_reason,
                             const MedalThresholds& thresholds, const ReportContext& context) {
  const MedalResult medals = RankScore(score, thresholds);
  CompetitionReport r;
  r.set_competition_id(std::string(competition_id));
  if (score.has_value()) {
    r.mutable_score()->set_number_value(*score);
  } else {
    r.mutable_score()->set_null_value(google::protobuf::NULL_VALUE);
  }
  r.set_gold_threshold(thresholds.gold);
  r.set_silver_threshold(thresholds.silver);
  r.set_bronze_threshold(thresholds.bronze);
  r.set_median_threshold(thresholds.median);
  r.set_any_medal(medals.any());
  r.set_gold_medal(medals.gold);
  r.set_silver_medal(medals.silver);
  r.set_bronze_medal(medals.bronze);
  r.set_above_median(medals.above_median);
  r.set_submission_exists(submission_exists);
  r.set_valid_submission(score.has_value());
  r.set_is_lower_better(thresholds.is_lower_better);
  r.set_created_at(context.created_at);
  r.set_submission_path(context.submission_path);
  r.set_invalid_reason(std::string(invalid_reason));
  r.set_agent(context.agent);
  r.set_seed(context.seed);
  r.set_dataset(context.dataset);
  r.set_thresholds_source(context.thresholds_source);
  return r;
}

AggregatedReport Aggregate(const std::vector<CompetitionReport>& reports) {
  AggregatedReport a;
  a.set_total_runs(static_cast<int64_t>(reports.size()));
  for (const CompetitionReport& r : reports) {
    a.set_total_runs_with_submissions(a.total_runs_with_submissions() + r.submission_exists());
    a.set_total_valid_submissions(a.total_valid_submissions() + r.valid_submission());
    a.set_total_gold_medals(a.total_gold_medals() + r.gold_medal());
    a.set_total_silver_medals(a.total_silver_medals() + r.silver_medal());
    a.set_total_bronze_medals(a.total_bronze_medals() + r.bronze_medal());
    a.set_total_above_median(a.total_above_median() + r.above_median());
    *a.add_competition_reports() = r;
  }
  a.set_total_medals(a.total_gold_medals() + a.total_silver_medals() + a.total_bronze_medals());
  return a;
}

std::string ToPythonJson(const google::protobuf::Message& message, int indent) {
  std::string out;
  AppendMessage(message, indent, 0, &out);
  return out;
}

std::string QuoteNonFiniteNumbers(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      out.push_back(c);
      if (c == '\\' && i + 1 < json.size()) {
        out.push_back(json[++i]);
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out.push_back(c);
      continue;
    }
    bool replaced = false;
    for (std::string_view token : {"NaN", "Infinity", "-Infinity"}) {
      if (json.substr(i, token.size()) == token) {
        out += '"';
        out += token;
        out += '"';
        i += token.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out.push_back(c);
  }
  return out;
}

std::optional<double> NonFiniteNumber(const google::protobuf::Value& value) {
  if (value.kind_case() != google::protobuf::Value::kStringValue) return std::nullopt;
  const std::string& s = value.string_value();
  if (s == "NaN") return std::nan("");
  if (s == "Infinity") return HUGE_VAL;
  if (s == "-Infinity") return -HUGE_VAL;
  return std::nullopt;
}

absl::StatusOr<CompetitionReport> ReportFromJson(std::string_view json) {
  CompetitionReport report;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  const std::string quoted = QuoteNonFiniteNumbers(json);
  auto status = google::protobuf::util::JsonStringToMessage(quoted, &report, options);
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("not a report: ", status.ToString()));
  }
  if (std::optional<double> v = NonFiniteNumber(report.score()); v.has_value()) {
    report.mutable_score()->set_number_value(*v);
  }
  // Written as null when unknown: unknown again, as a report that never had one.
  if (report.sample_score().kind_case() == google::protobuf::Value::kNullValue) {
    report.clear_sample_score();
  }
  return report;
}

}  // namespace mlebench
