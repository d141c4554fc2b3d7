// `mlebench audit`: what reviewers of agent runs need, from the code and logs
// each run keeps (run-<i>/artifacts/, agent_runner/keep_tree.h):
//
//   1. the input of upstream's rule-violation detector
//      (extras/rule_violation_detector of openai/mle-bench): a JSONL file,
//      one line per run, with the keys its reader takes - competition_id,
//      submission_path, logs_path, code_path - plus ours;
//   2. the similarity of each run's Python code to reference solutions the
//      user supplies (e.g. a competition's popular Kaggle kernels), computed
//      by Dolos (@dodona/dolos-lib, the library of upstream's plagiarism
//      detector): one JSONL file per run, pairs sorted by similarity.
//
// Everything under the runs is treated as hostile: no symlink is followed,
// only regular files are read, and every read is bounded (AuditLimits); what
// is left out is listed with the reason in the summary, never a crash.
// Outputs are deterministic: the same runs and references give the same
// bytes.
#ifndef MLEBENCH_TOOLS_AUDIT_H_
#define MLEBENCH_TOOLS_AUDIT_H_

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench {

// Bounds on what an audit reads. The Python-file limits keep Dolos's cost
// bounded: its longest-fragment search is quadratic in the size of two
// similar files (two copies of a 250 KiB file take about 5 s).
struct AuditLimits {
  int64_t max_python_file_bytes = int64_t{256} << 10;  // one .py file
  int64_t max_run_python_files = 1'000;                // per run's code/
  int64_t max_run_python_bytes = int64_t{4} << 20;     // per run's code/, all files
  int64_t max_reference_files = 10'000;                // per reference folder
  int64_t max_reference_bytes = int64_t{64} << 20;     // per reference folder
  int64_t max_log_bytes = int64_t{16} << 20;           // per run's log bundle
  int64_t max_tree_entries = 100'000;                  // entries looked at per tree
  int max_depth = 32;                                  // directory levels per tree
  int64_t max_run_search_entries = 5'000'000;          // entries looked at to find runs
};

// One agent run: a directory holding a regular file run_record.json (as
// bazel-bin/competitions/<id>/<id>_run/run-<i>/), with what its record says.
struct AuditRun {
  std::filesystem::path dir;  // canonical
  std::string competition_id;
  int64_t seed = 0;
  std::string agent_label;
  std::string agent_digest;
  // Unique among the audited runs and safe as a file name:
  // "<competition_id>.seed-<seed>.<first 12 of agent_digest>" (characters
  // outside [A-Za-z0-9._-] replaced by '_'), "-2", "-3", ... for repeats.
  std::string name;
};

struct FindRunsResult {
  std::vector<AuditRun> runs;  // sorted by competition, agent, digest, seed, directory
  int64_t sample_runs_left_out = 0;
  std::vector<std::string> warnings;  // records that could not be read, and such
  // With an agent label: the labels of the runs left out for another agent.
  std::set<std::string> other_agents;
};

// Finds the runs under `roots`: each root is a run directory, its
// run_record.json, or a directory searched recursively (symlinks below a
// root are not followed; *.runfiles trees and the artifacts/, submission/
// and workspace/ directories of a run, which its agent wrote, are not
// searched). The same run reached twice counts once. Runs of the sample
// submission (a parent directory named *_sample_run: the dummy agent that
// every competition runs) are left out unless `include_sample_runs`; with a
// non-empty `agent_label`, so are runs of other agents. NotFoundError for a
// root that does not exist.
absl::StatusOr<FindRunsResult> FindRuns(const std::vector<std::filesystem::path>& roots,
                                        const std::string& agent_label, bool include_sample_runs,
                                        const AuditLimits& limits);

// A Python file read for comparison.
struct PythonFile {
  std::string relative;        // path below the searched directory, '/'-separated
  std::filesystem::path path;  // the file
  std::string text;            // valid UTF-8, no NUL byte
};

struct SkippedFile {
  std::string relative;  // escaped for display (base/display_text.h)
  std::string reason;
};

struct PythonFiles {
  std::vector<PythonFile> files;     // sorted by `relative` (bytewise)
  std::vector<SkippedFile> skipped;  // sorted by `relative`
  int64_t other_files = 0;           // regular files not named *.py, not read
};

// The *.py files under `dir` (none when it does not exist), walked in
// bytewise name order (a directory's files before its subdirectories)
// without following symlinks, unless `follow_symlinks` (for the user's own
// references; loops end at max_depth). Skipped, with the reason: symlinks
// (when not followed), anything not a regular file, names that are not
// printable UTF-8, directories deeper than max_depth, files over
// max_python_file_bytes, files past max_files or max_total_bytes (in walk
// order), files with a NUL byte (binary) or bytes that are not UTF-8, and
// whatever lies past max_tree_entries.
PythonFiles CollectPythonFiles(const std::filesystem::path& dir, int64_t max_files,
                               int64_t max_total_bytes, const AuditLimits& limits,
                               bool follow_symlinks = false);

// How to run Dolos (tools/dolos/): Debian's node, the wrapper script and the
// installation's node_modules.
struct DolosSetup {
  std::filesystem::path node = "/usr/bin/node";
  std::filesystem::path script;        // tools/dolos/dolos_similarity.mjs
  std::filesystem::path node_modules;  // what tools/dolos/install_dolos.py made
  double timeout_s = 300;              // per run; the run's similarity fails past it
};

struct AuditOptions {
  std::vector<std::filesystem::path> runs;  // the RUNS arguments (FindRuns)
  std::filesystem::path output_dir;         // must be absent or empty
  // Reference solutions: every .py file under `references` for every run, or
  // for a run of competition C those under `references_by_competition`/C/
  // (symlinks followed: they are the user's files). Neither: no similarity
  // is computed (only the rule-violation input).
  std::optional<std::filesystem::path> references;
  std::optional<std::filesystem::path> references_by_competition;
  std::optional<DolosSetup> dolos;  // required when references are given
  std::string agent_label;          // only this agent's runs, when not empty
  bool include_sample_runs = false;
  AuditLimits limits;
};

struct AuditResult {
  int64_t runs = 0;
  int64_t similarity_failures = 0;  // runs whose Dolos comparison failed
};

// Writes, in options.output_dir:
//   rule_violation_input.jsonl  one line per run, in FindRuns order:
//       {"competition_id", "submission_path" (null without a submission),
//        "logs_path", "code_path" (null without a Python file), "seed",
//        "agent_label", "agent_digest", "run", "run_dir"}
//     - upstream's detector reads competition_id, submission_path,
//       logs_path and code_path and ignores the rest. The paths are absolute
//       and point into the output directory: logs_path to
//       runs/<run>/log.txt, and code_path to runs/<run>/code/, copies made by
//       the audit (next two lines), so that the input outlives the next
//       build (which replaces bazel-bin) and every file the detector opens
//       reads as UTF-8 (it stops at the first that does not);
//   runs/<run>/log.txt     the run's agent.log (what the agent printed) and
//       then every file the agent left in logs/, each under a header line,
//       bytes that are not UTF-8 replaced by U+FFFD, binary files (a NUL byte)
//       named but left out, at most max_log_bytes in all;
//   runs/<run>/code/...    the run's Python files as CollectPythonFiles read
//       them from artifacts/code/ (the files compared below);
//   similarity/<run>.jsonl one line per (run file, reference file) pair that
//       shares any code, sorted by similarity (highest first), then by the two
//       paths (submitted_file: the copy under runs/<run>/code/; reference_file:
//       the reference as found, absolute): {"run", "competition_id", "seed", "agent_label",
//       "submitted_file", "reference_file", "similarity", "longest_fragment",
//       "overlap", "submitted_covered", "reference_covered",
//       "submitted_kgrams", "reference_kgrams"} (Dolos's pair metrics;
//       tools/dolos/dolos_similarity.mjs says what each means). Written for
//       every run when references are given (empty when nothing is shared);
//   audit_summary.json     per run: files compared, files skipped and why,
//       the best pair, errors; the references read and skipped; Dolos's
//       version.
// Progress goes to `log`, one line per run. Errors: no runs found, an output
// directory that is not empty, unreadable references, no Dolos when
// references are given. A run whose Dolos comparison fails (or times out) is
// recorded in the summary and counted in `similarity_failures`; the other
// runs are still audited.
absl::StatusOr<AuditResult> RunAudit(const AuditOptions& options, std::ostream& log);

}  // namespace mlebench

#endif  // MLEBENCH_TOOLS_AUDIT_H_
