// Installs the agents' seccomp filter (seccomp_filter.h) and runs a command
// under it, nothing else of the sandbox: for seccomp_python_stack_test, which
// checks that what an agent runs still works under the filter.
//
//   seccomp_exec PROGRAM [ARGS...]
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "agent_runner/seccomp_filter.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: seccomp_exec PROGRAM [ARGS...]\n");
    return 2;
  }
  if (const absl::Status status = mlebench::InstallAgentSeccompFilter(); !status.ok()) {
    std::fprintf(stderr, "seccomp_exec: %s\n", std::string(status.message()).c_str());
    return 2;
  }
  execv(argv[1], argv + 1);
  std::fprintf(stderr, "seccomp_exec: cannot execute %s: %s\n", argv[1], std::strerror(errno));
  return 127;
}
