// python_stack.py, run by the reference environment's Python under the
// agents' seccomp filter (seccomp_exec): every step of a baseline agent's
// stack works, and the calls the filter refuses stay refused.
#include <string>

#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::mlebench::testing::ReferencePython;
using ::mlebench::testing::RunCommand;
using ::testing::HasSubstr;

TEST(SeccompPythonStackTest, ABaselineAgentsStackRunsUnderTheFilter) {
  const auto result = RunCommand({"agent_runner/testing/seccomp_exec", ReferencePython(),
                                  "agent_runner/testing/python_stack.py"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  for (const char* step :
       {"pandas", "sklearn threads", "sklearn loky processes", "lightgbm", "multiprocessing fork",
        "multiprocessing spawn", "multiprocessing forkserver", "executors and shared memory",
        "memmap", "subprocess and threads", "sockets", "refusals"}) {
    EXPECT_THAT(result.output, HasSubstr(std::string("ok ") + step + "\n")) << result.output;
  }
  EXPECT_THAT(result.output, HasSubstr("python stack: all steps ok"));
}

}  // namespace
}  // namespace mlebench
