// Runs an agent on one competition inside a Bazel action (see runner.h):
//
//   run_agent --competition ID --public DIR --description FILE --agent EXE
//             --time_limit_s N --seed N
//             --submission_out DIR --log_out FILE --record_out FILE
//             [--grace_s S] [--workspace DIR [--workspace_outside_execroot]]
//             [--keep_workspace] [--link_public]
//             [--isolation bwrap|none] [--network deny|allowlist|unconfined]
//             [--allowed_hosts HOST[:PORT],...] [--egress_gateway SOCKET] [--bwrap PATH]
//             [--secrets NAME,... [--secrets_file FILE] [--secrets_dir DIR]]
//             [--validator EXE]
//             [--sandbox_entry EXE] [--allowed_roots DIR:DIR...]
//             [--source_tree_marker FILE] [--forbidden_roots DIR:DIR...]
//             [--resource_limits on|off] [--memory_bytes N] [--pids N] [--cpus X]
//             [--max_submission_bytes N] [--max_log_bytes N] [--max_staged_bytes N]
//             [--workspace_quota_bytes N] [--workspace_quota_inodes N]
//             [--rootfs DIR [--rootfs_manifest FILE]]
//             [-- extra args passed to the agent]
//
// --isolation (default bwrap) and --network (default deny): see README.md and
// docs/security.md; --allowed_hosts (network allowlist only) lists the
// hosts the egress proxy lets through (egress_proxy.h). --egress_gateway
// (network allowlist only; an error with another network) names the Unix
// socket of an upstream HTTP proxy, a remote worker's egress gateway
// (tools/remote/egress_gateway_main.cc), that the run's proxy sends every
// allowed request through instead of connecting itself; when it is missing
// or refuses connections, the run fails before the agent starts. --secrets names
// environment variables the agent gets; their values come from --secrets_dir
// (default: where ./bazelw leaves them from its environment for the output
// base of this execroot), else from --secrets_file (NAME=VALUE lines):
// secrets.h. --bwrap names the bubblewrap executable (default
// /usr/bin/bwrap); --sandbox_entry the sandbox entry program (required with
// bwrap). --allowed_roots are the directories the agent's files may resolve
// into (relative ones are taken from the working directory);
// --source_tree_marker names a source file at a known place in the source
// tree (e.g. bazel/source_tree_marker.txt), whose resolved path minus that
// relative path is the source tree's root, which is then allowed too.
// --resource_limits off runs without a cgroup; otherwise --memory_bytes and
// --pids (0: the default of DefaultResourceLimits) are kernel limits.
// --cpus N (0: every CPU) and --gpus N are the cores and GPUs the run gets:
// before the agent starts, the run waits in the machine's admission ledger
// (admission.h; --admission_ledger FILE for tests) until they, and the
// memory, fit beside the other runs' (see docs/agents.md, "Budgets").
// --environment DIR is mounted read-only at --environment_mount with
// --environment_path entries (colon-separated) first on PATH;
// --environment_digest_file, --agent_label and --agent_digest_file are
// recorded. --rootfs DIR is the agent's own root file system, shown instead
// of the host's system (checked against --rootfs_manifest when given; see
// rootfs.h). --device_dir replaces /dev as where GPU nodes are found (tests).
// --artifacts_out DIR keeps the agent's code/ and logs/ there (keep_tree.h).
// --link_public links the public files into data/ instead of copying them
// (real datasets in a stable data dir; see RunOptions::link_public).
// --workspace_outside_execroot puts the (relative) --workspace under
// <output base>/mlebench-workspaces/<workspace name>/ when the runner runs in
// an execroot, and leaves it relative elsewhere (see agent_runner/README.md).
//
// Exits 0 whenever the agent could be run, whatever it did; non-zero only for
// errors of the runner itself (bad flags, unreadable inputs, failed syscalls).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>

#include <unistd.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "agent_runner/admission.h"
#include "agent_runner/cgroup.h"
#include "agent_runner/runner.h"
#include "agent_runner/workspace_lease.h"
#include "base/command_line.h"
#include "base/display_text.h"
#include "base/files.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

constexpr char kUsage[] =
    "usage: run_agent --competition ID --public DIR --description FILE --agent EXE\n"
    "                 --time_limit_s N --seed N\n"
    "                 --submission_out DIR --log_out FILE --record_out FILE\n"
    "                 [--grace_s S] [--workspace DIR [--workspace_outside_execroot]]\n"
    "                 [--keep_workspace] [--link_public]\n"
    "                 [--sample_submission NAME]   # inside --public; default sample_submission.csv\n"
    "                 [--isolation bwrap|none] [--network deny|allowlist|unconfined]\n"
    "                 [--allowed_hosts HOST[:PORT],...] [--egress_gateway SOCKET]\n"
    "                 [--bwrap PATH]\n"
    "                 [--secrets NAME,... [--secrets_file FILE] [--secrets_dir DIR]]\n"
    "                 [--validator EXE]   # validate_submission.sh in the workspace runs it\n"
    "                 [--sandbox_entry EXE] [--allowed_roots DIR:DIR...]\n"
    "                 [--source_tree_marker FILE] [--forbidden_roots DIR:DIR...]\n"
    "                 [--resource_limits on|off] [--memory_bytes N] [--pids N]\n"
    "                 [--cpus N] [--gpus N] [--admission_ledger FILE] [--device_dir DIR]\n"
    "                 [--environment DIR --environment_mount DIR [--environment_path A:B]\n"
    "                  [--environment_digest_file FILE]]\n"
    "                 [--rootfs DIR [--rootfs_manifest FILE]]\n"
    "                 [--agent_label LABEL] [--agent_digest_file FILE] [--artifacts_out DIR]\n"
    "                 [--max_submission_bytes N] [--max_log_bytes N] [--max_staged_bytes N]\n"
    "                 [--workspace_quota_bytes N] [--workspace_quota_inodes N]\n"
    "                 [-- extra args passed to the agent]\n";

// The source tree's root from a marker file at `marker` (relative to the
// source root, as an execroot path is): its resolved path minus `marker`.
absl::StatusOr<std::filesystem::path> SourceTreeRoot(const std::string& marker) {
  std::error_code ec;
  const std::filesystem::path resolved = std::filesystem::canonical(marker, ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot resolve the source tree marker ", marker, ": ", ec.message()));
  }
  std::filesystem::path root = resolved;
  const std::filesystem::path relative = std::filesystem::path(marker).lexically_normal();
  for (auto it = relative.begin(); it != relative.end(); ++it) root = root.parent_path();
  if (root / relative != resolved) {
    return absl::InvalidArgumentError(absl::StrCat("the source tree marker ", marker,
                                                   " resolves to ", resolved.string(),
                                                   ", which does not end in it"));
  }
  return root;
}

struct Flags {
  RunOptions run;
  std::string record_out;
  ResourceRequest request;
  std::filesystem::path admission_ledger = DefaultLedgerPath();
};

// The first line of a small file the build made (a digest), or an error.
absl::StatusOr<std::string> ReadDigestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char buffer[129];
  in.read(buffer, sizeof(buffer));
  std::string text(buffer, static_cast<size_t>(in.gcount()));  // never more than 129 bytes
  text = text.substr(0, text.find('\n'));
  if (text.empty() || text.size() > 128 ||
      text.find_first_not_of("0123456789abcdef") != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read a digest (hexadecimal, one line) from ", path));
  }
  return text;
}

absl::StatusOr<Flags> ParseFlags(int argc, char** argv) {
  ASSIGN_OR_RETURN(
      CommandLine cl,
      ParseCommandLine(
          std::vector<std::string>(argv + 1, argv + argc),
          {"competition", "public", "description", "agent", "time_limit_s", "seed",
           "submission_out", "log_out", "record_out", "workspace", "grace_s", "isolation",
           "network", "allowed_hosts", "egress_gateway", "secrets", "secrets_file", "secrets_dir", "validator",
           "bwrap", "sample_submission", "sandbox_entry", "allowed_roots",
           "source_tree_marker", "forbidden_roots", "resource_limits", "memory_bytes", "pids",
           "cpus", "gpus", "admission_ledger", "device_dir", "environment",
           "environment_mount", "environment_path", "environment_digest_file", "rootfs",
           "rootfs_manifest", "agent_label",
           "agent_digest_file", "artifacts_out", "max_submission_bytes", "max_log_bytes", "max_staged_bytes",
           "workspace_quota_bytes", "workspace_quota_inodes"},
          {"keep_workspace", "link_public", "workspace_outside_execroot"}));
  if (!cl.positional.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unexpected argument '", cl.positional.front(), "'"));
  }
  RETURN_IF_ERROR(RequireFlags(cl, {"competition", "public", "description", "agent",
                                    "time_limit_s", "seed", "submission_out", "log_out",
                                    "record_out"}));
  std::map<std::string, std::string, std::less<>>& values = cl.flags;
  Flags flags;
  flags.run.agent_args = cl.after_dash_dash;
  flags.run.keep_workspace = cl.Has("keep_workspace");
  flags.run.link_public = cl.Has("link_public");
  RunOptions& run = flags.run;
  run.competition_id = values["competition"];
  run.public_dir = values["public"];
  run.description_file = values["description"];
  run.agent = values["agent"];
  run.submission_out = values["submission_out"];
  run.log_out = values["log_out"];
  flags.record_out = values["record_out"];
  if (!absl::SimpleAtoi(values["time_limit_s"], &run.time_limit_s)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--time_limit_s must be an integer, got '", values["time_limit_s"], "'"));
  }
  if (!absl::SimpleAtoi(values["seed"], &run.seed)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--seed must be an integer, got '", values["seed"], "'"));
  }
  if (values.contains("grace_s") &&
      (!absl::SimpleAtod(values["grace_s"], &run.grace_s) || !std::isfinite(run.grace_s))) {
    return absl::InvalidArgumentError(
        absl::StrCat("--grace_s must be a number, got '", values["grace_s"], "'"));
  }
  if (values.contains("workspace")) run.workspace = values["workspace"];
  if (cl.Has("workspace_outside_execroot")) {
    if (!run.workspace.has_value() || run.workspace->is_absolute()) {
      return absl::InvalidArgumentError("--workspace_outside_execroot needs a relative --workspace");
    }
    if (std::optional<std::filesystem::path> root = WorkspacesBesideExecroot()) {
      run.workspace = *root / *run.workspace;
    }
  }
  if (values.contains("sample_submission")) run.sample_submission = values["sample_submission"];
  if (values.contains("isolation")) {
    const std::optional<Isolation> isolation = ParseIsolation(values["isolation"]);
    if (!isolation.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--isolation must be bwrap or none, got '", values["isolation"], "'",
          values["isolation"] == "auto"
              ? " (auto, which ran the agent unconfined wherever bwrap failed, is gone: a "
                "protection that cannot be set up is an error)"
              : ""));
    }
    run.isolation = *isolation;
  }
  if (values.contains("network")) {
    const std::optional<Network> network = ParseNetwork(values["network"]);
    if (!network.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--network must be deny, allowlist or unconfined, got '", values["network"], "'",
          values["network"] == "allow"
              ? " (allow, the host's whole network, is now named unconfined; allowlist reaches "
                "only the hosts named)"
              : ""));
    }
    run.network = *network;
  }
  if (values.contains("allowed_hosts")) {
    ASSIGN_OR_RETURN(run.allowed_hosts, ParseAllowedHosts(values["allowed_hosts"]));
  }
  if (values.contains("egress_gateway")) {
    if (values["egress_gateway"].empty()) {
      return absl::InvalidArgumentError("--egress_gateway needs the gateway's socket");
    }
    run.proxy.parent_socket = values["egress_gateway"];
  }
  if (values.contains("validator")) run.validator = values["validator"];
  if (values.contains("secrets")) {
    ASSIGN_OR_RETURN(const std::vector<std::string> names, ParseSecretNames(values["secrets"]));
    std::optional<std::filesystem::path> file;
    if (values.contains("secrets_file") && !values["secrets_file"].empty()) {
      file = values["secrets_file"];
    }
    // ./bazelw's handoff for the output base this runner works in (none
    // outside an execroot: only the file then).
    std::filesystem::path dir = "/nonexistent/mlebench-secrets";
    if (values.contains("secrets_dir")) {
      dir = values["secrets_dir"];
    } else if (std::optional<std::filesystem::path> output_base = OutputBaseOfExecroot()) {
      dir = InvocationSecretsDir(geteuid(), *output_base).value_or(dir);
    }
    ASSIGN_OR_RETURN(run.secrets, LoadSecrets(names, dir, file));
  } else if (values.contains("secrets_file") || values.contains("secrets_dir")) {
    return absl::InvalidArgumentError("--secrets_file and --secrets_dir need --secrets");
  }
  if (values.contains("bwrap")) run.bwrap = values["bwrap"];
  if (values.contains("sandbox_entry")) run.sandbox_entry = values["sandbox_entry"];
  for (const auto& [flag, roots] :
       {std::pair<const char*, std::vector<std::filesystem::path>*>{"allowed_roots",
                                                                    &run.allowed_roots},
        {"forbidden_roots", &run.forbidden_roots}}) {
    if (!values.contains(flag)) continue;
    for (absl::string_view dir : absl::StrSplit(values[flag], ':', absl::SkipEmpty())) {
      roots->push_back(std::filesystem::absolute(std::string(dir)));
    }
  }
  if (values.contains("source_tree_marker")) {
    ASSIGN_OR_RETURN(std::filesystem::path root, SourceTreeRoot(values["source_tree_marker"]));
    run.allowed_roots.push_back(root);
  }
  const std::string limits = values.contains("resource_limits") ? values["resource_limits"] : "on";
  if (limits != "on" && limits != "off") {
    return absl::InvalidArgumentError(
        absl::StrCat("--resource_limits must be on or off, got '", limits, "'"));
  }
  if (limits == "off") {
    run.limits.reset();
    for (const char* flag : {"memory_bytes", "pids"}) {
      if (values.contains(flag)) {
        return absl::InvalidArgumentError(
            absl::StrCat("--", flag, " needs --resource_limits on"));
      }
    }
  }
  for (const auto& [flag, target] :
       {std::pair<const char*, int64_t*>{"memory_bytes", run.limits ? &run.limits->memory_bytes : nullptr},
        {"pids", run.limits ? &run.limits->pids : nullptr},
        {"max_submission_bytes", &run.max_submission_bytes},
        {"max_log_bytes", &run.max_log_bytes},
        {"max_staged_bytes", &run.max_staged_bytes},
        {"workspace_quota_bytes", &run.workspace_quota_bytes},
        {"workspace_quota_inodes", &run.workspace_quota_inodes}}) {
    if (!values.contains(flag) || target == nullptr) continue;
    if (!absl::SimpleAtoi(values[flag], target) || *target < 0) {
      return absl::InvalidArgumentError(absl::StrCat("--", flag,
                                                     " must be a non-negative integer, got '",
                                                     values[flag], "'"));
    }
  }
  if (run.limits.has_value()) {
    // 0 asks for the default.
    const ResourceLimits defaults = DefaultResourceLimits();
    if (run.limits->memory_bytes == 0) run.limits->memory_bytes = defaults.memory_bytes;
    if (run.limits->pids == 0) run.limits->pids = defaults.pids;
    flags.request.memory_bytes = run.limits->memory_bytes;
  }
  for (const auto& [flag, target] : {std::pair<const char*, int*>{"cpus", &flags.request.cpus},
                                     {"gpus", &flags.request.gpus}}) {
    if (values.contains(flag) && (!absl::SimpleAtoi(values[flag], target) || *target < 0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", flag, " must be a non-negative whole number, got '", values[flag], "'"));
    }
  }
  if (values.contains("admission_ledger")) flags.admission_ledger = values["admission_ledger"];
  if (values.contains("device_dir")) run.device_dir = values["device_dir"];
  if (values.contains("environment")) {
    if (!values.contains("environment_mount")) {
      return absl::InvalidArgumentError("--environment needs --environment_mount");
    }
    run.environment_dir = values["environment"];
    run.environment_mount = values["environment_mount"];
    for (absl::string_view entry : absl::StrSplit(values["environment_path"], ':',
                                                  absl::SkipEmpty())) {
      run.environment_path.emplace_back(entry);
    }
  }
  if (values.contains("rootfs")) run.rootfs_dir = values["rootfs"];
  if (values.contains("rootfs_manifest")) run.rootfs_manifest = values["rootfs_manifest"];
  if (values.contains("environment_digest_file")) {
    ASSIGN_OR_RETURN(run.environment_digest, ReadDigestFile(values["environment_digest_file"]));
  }
  if (values.contains("agent_digest_file")) {
    ASSIGN_OR_RETURN(run.agent_digest, ReadDigestFile(values["agent_digest_file"]));
  }
  run.agent_label = values.contains("agent_label") ? values["agent_label"] : values["agent"];
  if (values.contains("artifacts_out")) run.artifacts_out = values["artifacts_out"];
  // This binary's only children are agents, so it may reap them all.
  run.kill_all_children = true;
  return flags;
}

// Errors quote paths and names the agent's files or the agent itself chose
// (a runfile's name, an entry its workspace held): shown escaped, since
// Bazel puts this action's stderr on the console.
void PrintError(absl::string_view message) {
  std::cerr << "run_agent: " << EscapeForConsole(std::string(message), 4000) << "\n";
}

int Main(int argc, char** argv) {
  absl::StatusOr<Flags> flags = ParseFlags(argc, argv);
  if (!flags.ok()) {
    PrintError(flags.status().message());
    // The usage helps with a command line, not with a secret or file that is
    // missing or unsafe.
    if (flags.status().code() != absl::StatusCode::kFailedPrecondition) std::cerr << kUsage;
    return 1;
  }
  absl::Status status = [&]() -> absl::Status {
    // Orphans that leave the agent's process group become our children, so
    // that they too are killed when the run ends.
    RETURN_IF_ERROR(BecomeChildSubreaper());
    ASSIGN_OR_RETURN(MachineResources machine, DetectMachine(flags->run.device_dir));
    // Held until the run is over (released by the destructor, or dropped
    // by the next run once this process is gone).
    ASSIGN_OR_RETURN(Admission admission,
                     Admission::Reserve(flags->admission_ledger, machine, flags->request,
                                        [](const std::string& line) {
                                          std::cerr << "run_agent: " << line << std::endl;
                                        }));
    RunOptions run = flags->run;
    // A run that asked for every CPU is not pinned: it may use whatever
    // this process may. Nor is one without limits: only a cpuset keeps an
    // agent from widening its affinity, so the record says every CPU.
    if (flags->request.cpus > 0 && run.limits.has_value()) {
      run.cpu_ids = admission.grant().cpu_ids;
    }
    run.gpu_ids = admission.grant().gpu_ids;
    run.admission_wait_s = admission.grant().waited_s;
    ASSIGN_OR_RETURN(RunRecord record, RunAgent(run));
    return WriteStringToFile(flags->record_out, RunRecordToJson(record));
  }();
  if (!status.ok()) {
    PrintError(status.message());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) { return mlebench::Main(argc, argv); }
