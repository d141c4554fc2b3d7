#ifndef MLEBENCH_AGENT_RUNNER_RUNNER_H_
#define MLEBENCH_AGENT_RUNNER_RUNNER_H_

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mlebench {

// How the agent is confined (see README.md and sandbox.h).
enum class Isolation {
  kAuto,   // kBwrap when bwrap works here, else kNone (noted in the agent's log)
  kBwrap,  // inside bubblewrap; an error when bwrap is missing or cannot start
  kNone,   // a plain child process that can read whatever its user can
};

// Whether the agent may use the network. Real agents call LLM APIs, so
// kAllow is the default; kDeny needs bwrap (an empty network namespace).
enum class Network { kAllow, kDeny };

// "auto", "bwrap", "none"; "allow", "deny".
const char* IsolationName(Isolation isolation);
const char* NetworkName(Network network);
// The inverse of the above; nullopt for any other text.
std::optional<Isolation> ParseIsolation(absl::string_view text);
std::optional<Network> ParseNetwork(absl::string_view text);

// Runs an agent on one competition the way upstream's container does, but in a
// local scratch directory (the "workspace") instead of a Docker container.
//
// Workspace layout (relative to its root, which is the agent's working
// directory; upstream's `/home`):
//   data/              copy of every file under `public_dir` (or, with
//                      `link_public`, a symlink to each of its entries), plus
//   data/description.md  a copy of `description_file` (replaces any in public_dir)
//   submission/        empty; the agent must write submission/submission.csv
//   logs/  code/       empty, for the agent's own use
//   instructions.txt   the benchmark rules (see instructions.h)
struct RunOptions {
  std::string competition_id;
  std::filesystem::path public_dir;        // the competition's prepared public files
  // Symlink the entries of `public_dir` into data/ instead of copying them,
  // for real datasets (up to hundreds of GB) kept in a stable data dir; under
  // bubblewrap, `public_dir` is then bound read-only at its own path so that
  // the links resolve and the agent cannot change the files (without
  // isolation it can, like anything else its user may write).
  bool link_public = false;
  std::filesystem::path description_file;  // becomes data/description.md
  std::filesystem::path agent;             // executable; relative paths are resolved first
  std::vector<std::string> agent_args;     // passed to the agent after argv[0]
  int64_t time_limit_s = 0;                // > 0
  double grace_s = 5.0;                    // SIGTERM -> SIGKILL delay at the deadline, >= 0
  int64_t seed = 0;                        // passed to the agent as MLEBENCH_SEED
  // The sample submission's path inside the public files (upstream names it
  // per competition: sample_submission.csv, sampleSubmission.csv, ...);
  // passed to the agent as MLEBENCH_SAMPLE_SUBMISSION (absolute, in data/).
  // Must be relative and stay inside data/.
  std::filesystem::path sample_submission = "sample_submission.csv";

  std::filesystem::path submission_out;  // directory; receives submission.csv if any
  std::filesystem::path log_out;         // the agent's stdout and stderr, interleaved

  // Where to build the workspace; it must be absent or an empty directory.
  // Unset: a fresh directory under $TMPDIR (or /tmp).
  std::optional<std::filesystem::path> workspace;
  bool keep_workspace = false;

  // Also kills and reaps every child of the calling process once the agent is
  // done: descendants that left the agent's process group (setsid, setpgid)
  // are reparented to the caller when it is a child subreaper (see
  // BecomeChildSubreaper). Only for a process whose only children are agents,
  // such as run_agent.
  bool kill_all_children = false;

  Isolation isolation = Isolation::kAuto;
  Network network = Network::kAllow;  // kDeny with kNone is an error
  // The bubblewrap executable (tests point it elsewhere to simulate its
  // absence).
  std::filesystem::path bwrap = "/usr/bin/bwrap";
};

// What happened to one agent run. Failures of the agent are results, not
// errors: they are recorded here.
struct RunRecord {
  std::string competition_id;
  std::string agent;  // basename of RunOptions::agent
  int64_t seed = 0;
  std::optional<int> exit_code;  // set when the agent exited by itself
  std::optional<int> signal;     // set when the agent was killed by a signal
  bool timed_out = false;        // the deadline passed before the agent exited
  double duration_s = 0;         // wall-clock time from start to exit
  int64_t time_limit_s = 0;
  bool submission_exists = false;  // a submission.csv was copied to submission_out
  int64_t submission_bytes = 0;
  Isolation isolation = Isolation::kNone;  // what the agent really ran under: never kAuto
  Network network = Network::kAllow;       // kAllow whenever isolation is kNone
};

// Builds the workspace, runs the agent in it (own process group, stdin
// /dev/null, minimal environment: see runner.cc), enforces the time limit
// (SIGTERM to the group at the deadline, SIGKILL after `grace_s`), kills
// whatever is left of the group when the agent's main process ends, then
// copies submission/submission.csv to `submission_out` if it is a regular
// file (a symlink counts only if it resolves to a regular file inside the
// workspace), and deletes the workspace unless `keep_workspace`.
//
// Under bwrap (see sandbox.h), the agent sees only the system, its workspace
// (at the same absolute path) and its own executable and runfiles; bwrap runs
// in a session of its own. At the deadline every process in the sandbox gets
// SIGTERM; SIGKILL to bwrap's process group then ends the sandbox's pid
// namespace, and with it every process the agent started, even those that
// left its session. The agent's exit status is the one bwrap passes on: an
// agent that a signal kills by itself is recorded as exit code 128 + signal.
// Before each run, bwrap is tried once with the run's own mounts, running
// /bin/true.
//
// Returns an error only for problems of the runner itself: invalid options,
// unreadable inputs, a non-empty workspace or submission_out, an agent that
// is not an executable file, failing system calls, bwrap requested (or
// needed for Network::kDeny) but unusable.
absl::StatusOr<RunRecord> RunAgent(const RunOptions& options);

// The record as one line of JSON with a fixed key order and a trailing
// newline, e.g. {"competition_id": "x", "agent": "dummy", "seed": 0,
// "exit_code": 0, "signal": null, "timed_out": false, "duration_s": 0.012,
// "time_limit_s": 60, "submission_exists": true, "submission_bytes": 42,
// "isolation": "bwrap", "network": "allow"}.
// duration_s has exactly 3 decimals; everything else is deterministic.
std::string RunRecordToJson(const RunRecord& record);

// Makes the calling process a child subreaper (prctl PR_SET_CHILD_SUBREAPER),
// so that orphaned descendants of its agents become its children and
// RunOptions::kill_all_children can reach them.
absl::Status BecomeChildSubreaper();

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_RUNNER_H_
