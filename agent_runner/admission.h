#ifndef MLEBENCH_AGENT_RUNNER_ADMISSION_H_
#define MLEBENCH_AGENT_RUNNER_ADMISSION_H_

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mlebench {

// Admission of agent runs on one machine: Bazel starts as many agent actions
// at once as it has jobs, and each wants CPUs, memory and maybe GPUs. Every
// run_agent reserves its budget in one ledger file shared by all runs on the
// machine (whatever checkout or output base they come from) before it starts
// the agent, and waits while the budget does not fit beside the runs that
// hold theirs. So the budgets of concurrent runs never add up to more than
// the machine, and each run gets CPU cores and GPUs of its own.

// What a machine offers agents.
struct MachineResources {
  std::vector<int> cpu_ids;  // the CPUs this process may run on (sched_getaffinity)
  int64_t memory_bytes = 0;  // MemTotal
  std::vector<int> gpu_ids;  // N of each <dev>/nvidiaN
};

// Reads the machine: CPUs from the affinity of the calling process, memory
// from /proc/meminfo, GPUs from the character devices `dev_dir`/nvidiaN.
absl::StatusOr<MachineResources> DetectMachine(const std::filesystem::path& dev_dir = "/dev");

// What one run asks for. cpus 0 means every CPU of the machine; memory 0,
// nothing reserved beyond the machine's default limit (the run then reserves
// DefaultMemoryBytes).
struct ResourceRequest {
  int cpus = 0;
  int64_t memory_bytes = 0;
  int gpus = 0;
};

// What the ledger gave a run.
struct Grant {
  std::vector<int> cpu_ids;
  int64_t memory_bytes = 0;
  std::vector<int> gpu_ids;
  double waited_s = 0;  // how long the run waited for it
};

// Where the ledger lives unless a test says otherwise: one file for the whole
// machine, /run/lock/mlebench-agent-admission (or /tmp/... where /run/lock
// is missing).
std::filesystem::path DefaultLedgerPath();

// "0-3,6" for {0,1,2,3,6}: the kernel's CPU list format (cpuset.cpus,
// /sys/devices/system/cpu/online).
std::string CpuListText(const std::vector<int>& ids);

// A reservation in the ledger, released when destroyed (or when its process
// dies: entries of processes that are gone, or whose pid was reused, are
// dropped by the next run that reads the ledger). Movable, not copyable.
class Admission {
 public:
  // Waits until `request` fits beside the live entries of the ledger at
  // `ledger` (created 0666 where absent) and adds this process's entry: the
  // lowest free CPU ids, the memory, the lowest free GPU ids. `on_wait` is
  // called once when the run has to wait, with a line that says for what.
  // Errors: a request larger than the machine (it could never start), or a
  // ledger that cannot be read or written.
  static absl::StatusOr<Admission> Reserve(const std::filesystem::path& ledger,
                                           const MachineResources& machine,
                                           const ResourceRequest& request,
                                           const std::function<void(const std::string&)>& on_wait);

  Admission(Admission&& other) noexcept;
  Admission& operator=(Admission&& other) noexcept;
  Admission(const Admission&) = delete;
  Admission& operator=(const Admission&) = delete;
  ~Admission();

  const Grant& grant() const { return grant_; }

  // Removes the entry now (the destructor does it otherwise).
  absl::Status Release();

 private:
  Admission() = default;
  std::filesystem::path ledger_;
  std::string entry_;  // the line this reservation wrote; empty once released
  Grant grant_;
};

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_ADMISSION_H_
