#include "agent_runner/instructions.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace mlebench {
namespace {

// $TIME_LIMIT is replaced by DescribeTimeLimit(). Paths are relative so that
// the text does not depend on where the workspace happens to be.
constexpr char kInstructionsTemplate[] =
    R"(MLE-bench: machine-learning engineering, offline
================================================

What this is
------------
MLE-bench measures how well an autonomous agent does machine-learning
engineering. Each task is a past Kaggle competition, rebuilt to run without
Kaggle: the organisers' hidden test labels are replaced by our own split of the
competition's training data into a training part you can see and a test part
whose labels we keep.

Your task
---------
The file data/description.md describes the competition: the problem, the data
files and the evaluation metric. Build a model on the data you are given, use
it to predict the test set, and write the predictions as a CSV file. You are
scored with the competition's metric; get the best score you can.

Where things are
----------------
All paths are relative to the directory you are started in. The environment
variables in brackets hold the same places as absolute paths.

  data/        (MLEBENCH_DATA_DIR) The competition's files and description.md.
               Because the split is ours, the files can differ slightly from
               what the description says; work with the files that are here.
               They are read-only copies.
  submission/  (MLEBENCH_SUBMISSION_DIR) Write your predictions to
               submission/submission.csv. That file, and nothing else, is
               graded; without it the attempt counts as failed. It is always a
               CSV file, even where the description asks for another format.
               If data/ contains a sample submission, copy its layout.
  logs/        (MLEBENCH_LOGS_DIR) For your logs and notes.
  code/        (MLEBENCH_CODE_DIR) For the code you write.

There is no service that checks a submission for you; check its columns and
rows against the description and the sample submission yourself.

Rules
-----
- Time limit: $TIME_LIMIT in total. At the limit every process you started is
  stopped (SIGTERM, then SIGKILL a few seconds later), and whatever
  submission/submission.csv contains at that moment is graded. Write a valid
  submission early and improve it afterwards.
$RESOURCES$NETWORK
- Predictions must come from a model or program: do not label any data by hand.
- Do not look up, read or copy other people's solutions to this competition.
  A submission that copies someone else's work is disqualified.
- Where data/description.md says something different from these rules, these
  rules apply.
)";

}  // namespace

std::string DescribeTimeLimit(int64_t seconds) {
  std::string text = absl::StrCat(seconds, seconds == 1 ? " second" : " seconds");
  if (seconds < 60) return text;
  std::vector<std::string> parts;
  if (seconds / 3600 > 0) parts.push_back(absl::StrCat(seconds / 3600, " h"));
  if (seconds % 3600 / 60 > 0) parts.push_back(absl::StrCat(seconds % 3600 / 60, " min"));
  if (seconds % 60 > 0) parts.push_back(absl::StrCat(seconds % 60, " s"));
  return absl::StrCat(text, " (", absl::StrJoin(parts, " "), ")");
}

std::string DescribeResources(int cpus, int machine_cpus, int64_t memory_bytes, int gpus,
                              int64_t processes) {
  const int granted = cpus > 0 ? cpus : machine_cpus;
  std::string memory = "no memory limit";
  if (memory_bytes > 0) {
    memory = memory_bytes % (int64_t{1} << 30) == 0
                 ? absl::StrCat(memory_bytes >> 30, " GiB of memory")
                 : absl::StrCat(memory_bytes >> 20, " MiB of memory");
  }
  return absl::StrCat(
      "- Resources: ", granted, granted == 1 ? " CPU core, " : " CPU cores, ", memory, ", ",
      gpus == 0 ? std::string("no GPU") : absl::StrCat(gpus, gpus == 1 ? " GPU" : " GPUs"),
      processes > 0 ? absl::StrCat(",\n  at most ", processes, " processes and threads") : "",
      ". Files in /dev/shm count as memory; past the\n"
      "  memory limit the kernel kills a process of yours. The environment says\n"
      "  the same (MLEBENCH_CPUS, MLEBENCH_MEMORY_BYTES, MLEBENCH_GPUS), and\n"
      "  libraries see only your cores.\n");
}

std::string AgentInstructions(int64_t time_limit_s, std::string_view network,
                              const std::vector<std::string>& allowed_hosts,
                              const std::string& resources) {
  // What the sandbox really does: with the network denied it has none at all;
  // with an allow-list only those hosts, through the proxy; unconfined, the
  // rule still holds.
  std::string network_text;
  if (network == "allowlist") {
    network_text = absl::StrCat(
        "- The network reaches only the hosts your operator named, through the HTTP\n"
        "  proxy at http://127.0.0.1:3128 (HTTP_PROXY, HTTPS_PROXY and ALL_PROXY are\n"
        "  set; HTTPS goes through it with CONNECT): ",
        allowed_hosts.empty() ? std::string("none at all") : absl::StrJoin(allowed_hosts, ", "),
        ".\n"
        "  Nothing else is reachable, names are resolved by the proxy, and every\n"
        "  request is logged. Use it only for the model APIs it is there for; use\n"
        "  only what is in data/ and the software already installed.");
  } else if (network == "unconfined") {
    network_text =
        "- The network is open so that you can reach the model APIs your operator\n"
        "  set up. Use it for nothing else: do not download data, models, code or\n"
        "  solutions; use only what is in data/ and the software already installed.";
  } else {
    network_text =
        "- There is no network: not even the host's loopback is reachable. Use only\n"
        "  what is in data/ and the software already installed.";
  }
  return absl::StrReplaceAll(kInstructionsTemplate,
                             {{"$TIME_LIMIT", DescribeTimeLimit(time_limit_s)},
                              {"$RESOURCES", resources},
                              {"$NETWORK", network_text}});
}

}  // namespace mlebench
