// Differential test: ParseJson and DumpJson against Python 3.11's
// json module (python_json_diff_test.py) on thousands of random documents,
// valid and mangled. The json module's behaviour checked here (its scanner,
// escapes, number handling, indent layout) is the same in upstream's Python
// versions; the int-string digit limit exists from Python 3.11 on.

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"
#include "pycompat/python_json.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr char kScript[] = "pycompat/python_json_diff_test.py";

TEST(PythonJsonDiffTest, MatchesPythonsJsonModule) {
  constexpr int kCases = 4000;
  const fs::path dir = testing::NewTempDir("json_cases");
  const testing::CommandResult run =
      testing::RunCommand({testing::ReferencePython(), kScript, dir.string(), absl::StrCat(kCases), "7"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  int accepted = 0, rejected = 0, failures = 0;
  for (int i = 0; i < kCases && failures < 10; ++i) {
    SCOPED_TRACE(absl::StrCat("case ", i));
    const fs::path stem = dir / absl::StrCat(i);
    absl::StatusOr<std::string> input = ReadFileToString(stem.string() + ".json");
    ASSERT_TRUE(input.ok()) << input.status();
    absl::StatusOr<JsonValue> value = ParseJson(*input);
    if (fs::exists(stem.string() + ".error")) {
      ++rejected;
      if (value.ok()) {
        ++failures;
        ADD_FAILURE() << "Python rejects what we accept: " << *input
                      << "\nPython: " << *ReadFileToString(stem.string() + ".error");
      }
      continue;
    }
    ++accepted;
    if (!value.ok()) {
      ++failures;
      ADD_FAILURE() << "we reject what Python accepts: " << *input << "\n" << value.status();
      continue;
    }
    absl::StatusOr<std::string> compact = DumpJson(*value);
    absl::StatusOr<std::string> indented = DumpJson(*value, 4);
    ASSERT_TRUE(compact.ok() && indented.ok());
    const std::string expected_compact = *ReadFileToString(stem.string() + ".compact");
    const std::string expected_indented = *ReadFileToString(stem.string() + ".indent4");
    if (*compact != expected_compact || *indented != expected_indented) {
      ++failures;
      EXPECT_EQ(*compact, expected_compact) << "input: " << *input;
      EXPECT_EQ(*indented, expected_indented) << "input: " << *input;
    }
    // What we dump parses back to the same value.
    absl::StatusOr<JsonValue> reparsed = ParseJson(*indented);
    ASSERT_TRUE(reparsed.ok()) << reparsed.status();
    EXPECT_TRUE(*reparsed == *value);
  }
  // Both outcomes are well represented.
  EXPECT_GT(accepted, kCases / 2);
  EXPECT_GT(rejected, kCases / 10);
}

}  // namespace
}  // namespace mlebench
