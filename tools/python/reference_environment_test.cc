// The reference environment (MLEBENCH_PYTHON, made by ./bazelw from
// requirements.lock) is what the differential tests are meant to run on.

#include <string>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;

constexpr char kCheck[] = "tools/python/check_environment.py";
constexpr char kLock[] = "tools/python/requirements.lock";

TEST(ReferenceEnvironmentTest, HoldsExactlyTheLock) {
  const testing::CommandResult result =
      testing::RunCommand({testing::ReferencePython(), kCheck, kLock});
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

// The versions upstream's container pins (environment/requirements.txt), so
// that a lock regenerated from an edited requirements.in cannot drift away
// from them unnoticed; and each library comes from the environment.
TEST(ReferenceEnvironmentTest, HasUpstreamsPinnedVersions) {
  const testing::CommandResult result = testing::RunCommand(
      {testing::ReferencePython(), "-c",
       "import sys, numpy, pandas, sklearn, scipy, pyarrow, Levenshtein, PIL, yaml, py7zr\n"
       "for m in (numpy, pandas, sklearn, scipy, pyarrow, Levenshtein, PIL, py7zr):\n"
       "    print(m.__name__, m.__version__, m.__file__.startswith(sys.prefix + '/'))\n"
       "print('yaml', yaml.__version__, yaml.__file__.startswith(sys.prefix + '/'))\n"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output,
            "numpy 1.26.4 True\n"
            "pandas 2.2.2 True\n"
            "sklearn 1.5.1 True\n"
            "scipy 1.14.1 True\n"
            "pyarrow 17.0.0 True\n"
            "Levenshtein 0.25.1 True\n"
            "PIL 10.4.0 True\n"
            "py7zr 0.22.0 True\n"
            "yaml 6.0.2 True\n");
}

TEST(ReferenceEnvironmentTest, CheckRejectsAnotherLock) {
  const std::string lock = (testing::NewTempDir("lock") / "requirements.lock").string();
  ASSERT_TRUE(WriteStringToFile(lock,
                                "pandas==1.5.3 \\\n    --hash=sha256:00\n"
                                "not-a-real-package==1.0\n")
                  .ok());
  const testing::CommandResult result =
      testing::RunCommand({testing::ReferencePython(), kCheck, lock});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("pandas 2.2.2 is installed, the lock says 1.5.3"));
  EXPECT_THAT(result.output, HasSubstr("not-a-real-package is not installed"));
}

// Debian's python3 itself is not the environment.
TEST(ReferenceEnvironmentTest, CheckRejectsDebiansInterpreter) {
  const testing::CommandResult result = testing::RunCommand({"/usr/bin/python3", kCheck, kLock});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("is not a virtual environment"));
}

}  // namespace
}  // namespace mlebench
