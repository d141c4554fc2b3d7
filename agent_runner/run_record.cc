// The run record's JSON, and the names of isolation and network: the parts
// of runner.h that are formats, apart from running the agent (runner.cc).
#include "agent_runner/runner.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "agent_runner/admission.h"
#include "base/json_text.h"

namespace mlebench {
namespace {

std::string JsonOptionalInt(const std::optional<int>& value) {
  return value.has_value() ? absl::StrCat(*value) : "null";
}

}  // namespace

std::string RunRecordToJson(const RunRecord& record) {
  std::string json = "{\"competition_id\": ";
  json += JsonString(record.competition_id);
  json += ", \"agent\": ";
  json += JsonString(record.agent);
  absl::StrAppend(&json, ", \"seed\": ", record.seed,
                  ", \"exit_code\": ", JsonOptionalInt(record.exit_code),
                  ", \"signal\": ", JsonOptionalInt(record.signal),
                  ", \"timed_out\": ", record.timed_out ? "true" : "false",
                  ", \"duration_s\": ", absl::StrFormat("%.3f", record.duration_s),
                  ", \"time_limit_s\": ", record.time_limit_s,
                  ", \"submission_exists\": ", record.submission_exists ? "true" : "false",
                  ", \"submission_bytes\": ", record.submission_bytes, ", \"isolation\": \"",
                  IsolationName(record.isolation), "\"", ", \"network\": \"",
                  NetworkName(record.network), "\"",
                  ", \"quota_exceeded\": ", record.quota_exceeded ? "true" : "false",
                  ", \"out_of_memory\": ", record.out_of_memory ? "true" : "false",
                  ", \"log_truncated\": ", record.log_truncated ? "true" : "false");
  json += ", \"agent_label\": ";
  json += JsonString(record.agent_label);
  json += ", \"agent_digest\": ";
  json += JsonString(record.agent_digest);
  json += ", \"environment_digest\": ";
  json += JsonString(record.environment_digest);
  absl::StrAppend(&json, ", \"cpus\": ", record.cpus, ", \"cpu_ids\": \"",
                  CpuListText(record.cpu_ids), "\", \"memory_limit_bytes\": ",
                  record.memory_limit_bytes, ", \"processes_limit\": ", record.processes_limit,
                  ", \"gpu_ids\": \"", absl::StrJoin(record.gpu_ids, ","), "\"",
                  ", \"admission_wait_s\": ", absl::StrFormat("%.3f", record.admission_wait_s),
                  ", \"cpu_seconds\": ", absl::StrFormat("%.3f", record.cpu_seconds),
                  ", \"memory_peak_bytes\": ", record.memory_peak_bytes,
                  ", \"processes_limit_hits\": ", record.processes_limit_hits,
                  ", \"ended_by\": \"", record.ended_by, "\"",
                  ", \"kept_files\": ", record.kept_files, ", \"kept_bytes\": ",
                  record.kept_bytes, ", \"kept_skipped\": ", record.kept_skipped);
  json += ", \"allowed_hosts\": [";
  for (size_t i = 0; i < record.allowed_hosts.size(); ++i) {
    if (i > 0) json += ", ";
    json += JsonString(record.allowed_hosts[i].ToString());
  }
  const ProxyLog& log = record.connections;
  absl::StrAppend(&json, "], \"egress_gateway\": ", JsonString(record.egress_gateway),
                  ", \"connections_total\": ", log.total,
                  ", \"connections_refused\": ", log.refused,
                  ", \"connections_failed\": ", log.failed,
                  ", \"connections_refused_upstream\": ", log.refused_upstream,
                  ", \"connections_truncated\": ", log.truncated ? "true" : "false",
                  ", \"connections\": [");
  for (size_t i = 0; i < log.connections.size(); ++i) {
    const ProxyConnection& c = log.connections[i];
    absl::StrAppend(&json, i > 0 ? ", " : "", "{\"method\": ", JsonString(c.method),
                    ", \"host\": ", JsonString(c.host), ", \"port\": ", c.port,
                    ", \"allowed\": ", c.allowed ? "true" : "false", ", \"status\": ", c.status,
                    ", \"bytes_sent\": ", c.bytes_sent,
                    ", \"bytes_received\": ", c.bytes_received, "}");
  }
  json += "], \"secrets\": [";
  for (size_t i = 0; i < record.secret_names.size(); ++i) {
    if (i > 0) json += ", ";
    json += JsonString(record.secret_names[i]);
  }
  json += "]}\n";
  return json;
}

const char* IsolationName(Isolation isolation) {
  switch (isolation) {
    case Isolation::kBwrap:
      return "bwrap";
    case Isolation::kNone:
      return "none";
  }
  return "unknown";
}

const char* NetworkName(Network network) {
  switch (network) {
    case Network::kUnconfined:
      return "unconfined";
    case Network::kDeny:
      return "deny";
    case Network::kAllowlist:
      return "allowlist";
  }
  return "unknown";
}

std::optional<Isolation> ParseIsolation(absl::string_view text) {
  for (Isolation isolation : {Isolation::kBwrap, Isolation::kNone}) {
    if (text == IsolationName(isolation)) return isolation;
  }
  return std::nullopt;
}

std::optional<Network> ParseNetwork(absl::string_view text) {
  for (Network network : {Network::kUnconfined, Network::kDeny, Network::kAllowlist}) {
    if (text == NetworkName(network)) return network;
  }
  return std::nullopt;
}

}  // namespace mlebench
