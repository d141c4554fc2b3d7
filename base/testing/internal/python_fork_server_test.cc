// The fork server behind RunPython and RunPythonFile, through that interface:
// each script must see what `python script.py args...` would show it.
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(PythonForkServerTest, ScriptSeesItsArgvPathAndMain) {
  const fs::path dir = NewTempDir("argv");
  const fs::path script = dir / "show.py";
  WriteFileOrFail(script, R"py(
import os, sys
print(sys.argv)
print(sys.path[0] == os.path.dirname(os.path.realpath(__file__)))
print(__name__, sys.modules["__main__"].__file__ == __file__)
)py");
  const CommandResult result = RunPythonFile(script, {"a b", "", "ü"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, absl::StrCat("['", fs::absolute(script).string(),
                                        "', 'a b', '', 'ü']\nTrue\n__main__ True\n"));
}

TEST(PythonForkServerTest, ExitCodesAreThoseOfAnInterpreter) {
  EXPECT_EQ(RunPython("pass").exit_code, 0);
  EXPECT_EQ(RunPython("import sys\nsys.exit(3)").exit_code, 3);
  EXPECT_EQ(RunPython("import sys\nsys.exit(None)").exit_code, 0);
  EXPECT_EQ(RunPython("import sys\nsys.exit(256 + 7)").exit_code, 7);

  const CommandResult message = RunPython("import sys\nsys.exit('no such column')");
  EXPECT_EQ(message.exit_code, 1);
  EXPECT_EQ(message.output, "no such column\n");

  const CommandResult raised = RunPython("def f():\n    raise ValueError('boom')\nf()\n");
  EXPECT_EQ(raised.exit_code, 1);
  EXPECT_THAT(raised.output, HasSubstr("Traceback (most recent call last):"));
  EXPECT_THAT(raised.output, HasSubstr("script.py\", line 3, in <module>"));
  EXPECT_THAT(raised.output, HasSubstr("ValueError: boom"));
  // The server's own frame is not part of the script's traceback.
  EXPECT_THAT(raised.output, Not(HasSubstr("<string>")));

  const CommandResult syntax = RunPython("x = (\n");
  EXPECT_EQ(syntax.exit_code, 1);
  EXPECT_THAT(syntax.output, HasSubstr("SyntaxError"));
}

TEST(PythonForkServerTest, StdoutAndStderrGoTogetherAndStdinIsEmpty) {
  const CommandResult result = RunPython(R"py(
import sys
print("out", flush=True)
print("err", file=sys.stderr, flush=True)
print(repr(sys.stdin.read()))
sys.stdout.write("x" * 1000000)
)py");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, "out\nerr\n''\n" + std::string(1000000, 'x'));
}

TEST(PythonForkServerTest, ExitRunsAtexitAndWaitsForThreads) {
  const CommandResult result = RunPython(R"py(
import atexit, threading, time
atexit.register(lambda: print("atexit"))
def late():
    time.sleep(0.2)
    print("thread")
threading.Thread(target=late).start()
print("main")
)py");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, "main\nthread\natexit\n");
}

TEST(PythonForkServerTest, WhatAScriptChangesDiesWithIt) {
  ASSERT_EQ(RunPython(R"py(
import json, pickle
import pandas as pd
pd.set_option("display.max_rows", 3)
json.left_by_an_earlier_script = True
def f():
    return 41
assert pickle.loads(pickle.dumps(f))() == 41  # pickling finds __main__.f
)py")
                .exit_code,
            0);
  const CommandResult later = RunPython(R"py(
import json
import pandas as pd
print(pd.get_option("display.max_rows"), hasattr(json, "left_by_an_earlier_script"))
print("f" in globals())
)py");
  EXPECT_EQ(later.exit_code, 0) << later.output;
  EXPECT_EQ(later.output, "60 False\nFalse\n");
}

TEST(PythonForkServerTest, OneServerServesScriptsAndKeepsTheirImports) {
  const CommandResult first = RunPython(
      "import os\nfrom sklearn.model_selection import train_test_split\nprint(os.getppid())");
  const CommandResult second = RunPython(
      "import os, sys\nprint(os.getppid())\nprint('sklearn.model_selection' in sys.modules)");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_EQ(second.output, first.output + "True\n");
}

TEST(PythonForkServerTest, EachScriptIsSeededAnew) {
  constexpr char kDraw[] = "import random, numpy\nprint(random.random(), numpy.random.random())";
  const CommandResult first = RunPython(kDraw);
  const CommandResult second = RunPython(kDraw);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output, second.output);
}

TEST(PythonForkServerTest, ScriptRunsInTheCallersWorkingDirectory) {
  const fs::path before = fs::current_path();
  const fs::path dir = NewTempDir("cwd");
  fs::current_path(dir);
  const CommandResult result = RunPython("import os\nprint(os.getcwd())");
  fs::current_path(before);
  EXPECT_EQ(result.output, fs::canonical(dir).string() + "\n");
}

TEST(PythonForkServerTest, AChangedEnvironmentGetsANewServer) {
  constexpr char kShow[] = "import os\nprint(os.environ.get('MLEBENCH_FORK_SERVER_TEST'))";
  ASSERT_EQ(setenv("MLEBENCH_FORK_SERVER_TEST", "first", 1), 0);
  const CommandResult first = RunPython(kShow);
  ASSERT_EQ(setenv("MLEBENCH_FORK_SERVER_TEST", "second", 1), 0);
  const CommandResult second = RunPython(kShow);
  ASSERT_EQ(unsetenv("MLEBENCH_FORK_SERVER_TEST"), 0);
  const CommandResult unset = RunPython(kShow);
  EXPECT_EQ(first.output, "first\n");
  EXPECT_EQ(second.output, "second\n");
  EXPECT_EQ(unset.output, "None\n");
}

TEST(PythonForkServerTest, AKilledScriptIsMinusOne) {
  const CommandResult result = RunPython("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)");
  EXPECT_EQ(result.exit_code, -1);
  EXPECT_EQ(RunPython("pass").exit_code, 0);
}

TEST(PythonForkServerTest, AKilledServerIsReportedAndReplaced) {
  const CommandResult result = RunPython(
      "import os, signal\nprint('before', flush=True)\nos.kill(os.getppid(), signal.SIGKILL)");
  EXPECT_EQ(result.exit_code, -1);
  EXPECT_THAT(result.output, HasSubstr("exited while running"));
  EXPECT_THAT(result.output, HasSubstr("before"));
  const CommandResult next = RunPython("print('after')");
  EXPECT_EQ(next.exit_code, 0);
  EXPECT_EQ(next.output, "after\n");
}

}  // namespace
}  // namespace mlebench::testing
