#include "tools/audit.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using google::protobuf::Struct;
using google::protobuf::Value;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::NewTempDir;
using testing::ReadFileOrFail;
using testing::WriteFileOrFail;

const fs::path kCorpus = "tools/testdata/audit";

std::vector<std::string> Relatives(const PythonFiles& files) {
  std::vector<std::string> out;
  for (const PythonFile& f : files.files) out.push_back(f.relative);
  return out;
}

std::map<std::string, std::string> Skipped(const PythonFiles& files) {
  std::map<std::string, std::string> out;
  for (const SkippedFile& s : files.skipped) out[s.relative] = s.reason;
  return out;
}

Struct ParseJson(const std::string& text) {
  Struct s;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(text, &s).ok()) << text;
  return s;
}

std::vector<Struct> ParseJsonLines(const std::string& text) {
  std::vector<Struct> out;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    out.push_back(ParseJson(std::string(line)));
  }
  return out;
}

std::string Text(const Struct& s, const std::string& key) {
  auto it = s.fields().find(key);
  return it == s.fields().end() ? "<absent>" : it->second.string_value();
}

double Number(const Struct& s, const std::string& key) {
  auto it = s.fields().find(key);
  return it == s.fields().end() ? -1 : it->second.number_value();
}

bool IsNull(const Struct& s, const std::string& key) {
  auto it = s.fields().find(key);
  return it != s.fields().end() && it->second.kind_case() == Value::kNullValue;
}

// A run directory as the agent action leaves it (competitions/rules.bzl).
fs::path MakeRun(const fs::path& root, const std::string& competition, int index, int seed,
                 const std::string& digest = "0123456789abcdef0123") {
  const fs::path dir = root / competition / (competition + "_run") / absl::StrCat("run-", index);
  WriteFileOrFail(dir / "run_record.json",
                  absl::StrCat("{\"competition_id\": \"", competition,
                               "\", \"agent\": \"agent\", \"seed\": ", seed,
                               ", \"exit_code\": 0, \"agent_label\": \"//agents:mine\", "
                               "\"agent_digest\": \"",
                               digest, "\", \"kept_files\": 0}\n"));
  WriteFileOrFail(dir / "agent.log", "training...\nscore 0.9\n");
  WriteFileOrFail(dir / "submission" / "submission.csv", "id,label\n1,0\n");
  WriteFileOrFail(dir / "artifacts" / "KEPT.txt", "kept 0 file(s), 0 bytes; left out 0\n");
  fs::create_directories(dir / "artifacts" / "code");
  fs::create_directories(dir / "artifacts" / "logs");
  return dir;
}

// Dolos as the test's runfiles hold it; the test fails without it.
std::optional<DolosSetup> TestDolos() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const fs::path root = srcdir != nullptr ? fs::path(srcdir) : fs::path("..");
  for (const fs::path& status : {root / "mlebench_dolos" / "STATUS",
                                 root / "mlebench" / "external" / "mlebench_dolos" / "STATUS"}) {
    std::error_code ec;
    if (!fs::exists(status, ec)) continue;
    const std::string text = ReadFileOrFail(status);
    if (text.rfind("ok\n", 0) != 0) {
      ADD_FAILURE() << "Dolos is not installed: " << text;
      return std::nullopt;
    }
    DolosSetup dolos;
    dolos.node_modules = fs::canonical(status).parent_path() / "node_modules";
    dolos.script = fs::absolute("tools/dolos/dolos_similarity.mjs");
    return dolos;
  }
  ADD_FAILURE() << "no @mlebench_dolos in the runfiles";
  return std::nullopt;
}

TEST(CollectPythonFilesTest, ReadsPythonFilesInNameOrderAndSkipsHostileEntriesWithReasons) {
  const fs::path dir = NewTempDir("collect");
  WriteFileOrFail(dir / "b.py", "print('b')\n");
  WriteFileOrFail(dir / "a.py", "print('a')\n");
  WriteFileOrFail(dir / "sub" / "c.py", "x = 1\n");
  WriteFileOrFail(dir / "notes.txt", "not python\n");
  WriteFileOrFail(dir / "model.pkl", std::string("\x80\x04\x95\x00", 4));
  WriteFileOrFail(dir / "binary.py", std::string("import os\n\0\0\0", 13));
  WriteFileOrFail(dir / "latin1.py", "s = 'caf\xe9'\n");
  WriteFileOrFail(dir / "huge.py", std::string(2000, '#'));
  WriteFileOrFail(dir / std::string("odd\nname.py"), "x = 2\n");
  WriteFileOrFail(dir / std::string("bad\xff.py"), "x = 3\n");
  WriteFileOrFail(dir / "spaces in name.py", "x = 4\n");
  fs::create_symlink(dir / "a.py", dir / "link.py");
  fs::create_directory_symlink("/etc", dir / "etc_link");
  ASSERT_EQ(mkfifo((dir / "fifo.py").c_str(), 0600), 0);
  fs::create_directories(dir / "d1" / "d2" / "d3" / "d4");
  WriteFileOrFail(dir / "d1" / "d2" / "ok.py", "y = 1\n");
  WriteFileOrFail(dir / "d1" / "d2" / "d3" / "d4" / "deep.py", "y = 2\n");
  fs::create_directory(dir / "dir.py");  // a directory named like a Python file

  AuditLimits limits;
  limits.max_python_file_bytes = 1000;
  limits.max_depth = 3;
  const PythonFiles files = CollectPythonFiles(dir, 100, 1 << 20, limits);
  EXPECT_THAT(Relatives(files),
              ElementsAre("a.py", "b.py", "d1/d2/ok.py", "spaces in name.py", "sub/c.py"));
  EXPECT_EQ(files.files[0].text, "print('a')\n");
  EXPECT_EQ(files.files[0].path, dir / "a.py");
  EXPECT_EQ(files.other_files, 2);  // notes.txt, model.pkl
  const std::map<std::string, std::string> skipped = Skipped(files);
  EXPECT_THAT(skipped.at("binary.py"), HasSubstr("binary"));
  EXPECT_THAT(skipped.at("latin1.py"), HasSubstr("not UTF-8"));
  EXPECT_THAT(skipped.at("huge.py"), HasSubstr("2000 bytes, over the limit of 1000 bytes"));
  EXPECT_THAT(skipped.at("odd\\nname.py"), HasSubstr("not printable UTF-8"));
  EXPECT_THAT(skipped.at("bad\\xff.py"), HasSubstr("not printable UTF-8"));
  EXPECT_THAT(skipped.at("link.py"), HasSubstr("symbolic link"));
  EXPECT_THAT(skipped.at("etc_link"), HasSubstr("symbolic link"));
  EXPECT_THAT(skipped.at("fifo.py"), HasSubstr("not a regular file"));
  EXPECT_THAT(skipped.at("d1/d2/d3/d4"), HasSubstr("deeper than 3 levels"));
  EXPECT_EQ(skipped.size(), 9u);
  // The same tree gives the same result.
  EXPECT_THAT(Relatives(CollectPythonFiles(dir, 100, 1 << 20, limits)),
              ElementsAre("a.py", "b.py", "d1/d2/ok.py", "spaces in name.py", "sub/c.py"));
}

TEST(CollectPythonFilesTest, StopsAtItsCountSizeAndEntryLimits) {
  const fs::path dir = NewTempDir("limits");
  for (int i = 0; i < 20; ++i) WriteFileOrFail(dir / absl::StrCat("f", 10 + i, ".py"), "x = 1\n");
  AuditLimits limits;
  PythonFiles by_count = CollectPythonFiles(dir, 5, 1 << 20, limits);
  EXPECT_EQ(by_count.files.size(), 5u);
  EXPECT_EQ(by_count.skipped.size(), 15u);
  EXPECT_THAT(by_count.skipped[0].reason, HasSubstr("past the limit of 5 Python files"));
  PythonFiles by_bytes = CollectPythonFiles(dir, 100, 6 * 3, limits);
  EXPECT_EQ(by_bytes.files.size(), 3u);
  EXPECT_THAT(by_bytes.skipped[0].reason, HasSubstr("past the limit of 18 bytes"));
  limits.max_tree_entries = 4;
  PythonFiles by_entries = CollectPythonFiles(dir, 100, 1 << 20, limits);
  EXPECT_EQ(by_entries.files.size(), 4u);
  ASSERT_EQ(by_entries.skipped.size(), 1u);
  EXPECT_THAT(by_entries.skipped[0].reason, HasSubstr("everything after it: more than 4 entries"));
  // A missing directory has no files.
  EXPECT_TRUE(CollectPythonFiles(dir / "missing", 100, 1 << 20, AuditLimits()).files.empty());
}

TEST(FindRunsTest, FindsEachRunOnceInOrderWithUniqueNames) {
  const fs::path root = NewTempDir("find");
  const fs::path competitions = root / "bazel-bin" / "competitions";
  const fs::path b1 = MakeRun(competitions, "beta", 1, 11);
  const fs::path a0 = MakeRun(competitions, "alpha", 0, 0);
  const fs::path b0 = MakeRun(competitions, "beta", 0, 10);
  // The same agent and seed elsewhere (another configuration's output tree).
  const fs::path other = MakeRun(root / "bazel-out" / "k8-ST" / "competitions", "alpha", 0, 0);
  // Not runs: the sample submission's run, a run record the agent planted in
  // its code, a runfiles tree, a symlink to a run, an unreadable record.
  MakeRun(competitions, "alpha_sample_dummy", 0, 0);
  fs::rename(competitions / "alpha_sample_dummy" / "alpha_sample_dummy_run",
             competitions / "alpha_sample_dummy" / "alpha_sample_run");
  WriteFileOrFail(a0 / "artifacts" / "code" / "run_record.json",
                  "{\"competition_id\": \"fake\", \"seed\": 5}");
  WriteFileOrFail(competitions / "alpha" / "x.runfiles" / "r" / "run_record.json",
                  "{\"competition_id\": \"fake\", \"seed\": 6}");
  fs::create_directory_symlink(b0, competitions / "link_to_run");
  WriteFileOrFail(competitions / "gamma" / "gamma_run" / "run-0" / "run_record.json", "{not json");
  WriteFileOrFail(b0 / "submission" / "run_record.json",
                  "{\"competition_id\": \"fake\", \"seed\": 7}");
  // An older layout's record beside today's run-<i>/: both are found.
  WriteFileOrFail(competitions / "delta" / "delta_run" / "run_record.json",
                  "{\"competition_id\": \"delta\", \"seed\": 0, \"agent\": \"dummy\"}");
  MakeRun(competitions, "delta", 0, 3);

  absl::StatusOr<FindRunsResult> found =
      FindRuns({root, b1 / "run_record.json", b1}, "", false, AuditLimits());
  ASSERT_TRUE(found.ok()) << found.status();
  std::vector<std::string> names;
  std::vector<fs::path> dirs;
  for (const AuditRun& run : found->runs) {
    names.push_back(run.name);
    dirs.push_back(run.dir);
  }
  EXPECT_THAT(names, ElementsAre("alpha.seed-0.0123456789ab", "alpha.seed-0.0123456789ab-2",
                                 "beta.seed-10.0123456789ab", "beta.seed-11.0123456789ab",
                                 "delta.seed-3.0123456789ab", "delta.seed-0.no-digest"));
  EXPECT_EQ(found->runs[5].agent_label, "dummy");  // "agent" where there is no agent_label
  EXPECT_EQ(dirs[2], fs::canonical(b0));
  EXPECT_EQ(dirs[3], fs::canonical(b1));
  EXPECT_EQ(found->runs[0].agent_label, "//agents:mine");
  EXPECT_EQ(found->runs[3].seed, 11);
  EXPECT_EQ(found->sample_runs_left_out, 1);
  ASSERT_EQ(found->warnings.size(), 1u);
  EXPECT_THAT(found->warnings[0], HasSubstr("gamma_run/run-0/run_record.json: not a JSON object"));

  absl::StatusOr<FindRunsResult> with_samples = FindRuns({competitions}, "", true, AuditLimits());
  ASSERT_TRUE(with_samples.ok());
  EXPECT_EQ(with_samples->runs.size(), 6u);
  absl::StatusOr<FindRunsResult> other_agent =
      FindRuns({competitions}, "//agents:theirs", false, AuditLimits());
  ASSERT_TRUE(other_agent.ok());
  EXPECT_TRUE(other_agent->runs.empty());
  EXPECT_THAT(other_agent->other_agents, Contains("//agents:mine"));
  // A label in Bazel's short form finds the runs of its full form.
  fs::create_directories(root / "short" / "epsilon_run" / "run-0");
  WriteFileOrFail(root / "short" / "epsilon_run" / "run-0" / "run_record.json",
                  "{\"competition_id\": \"epsilon\", \"seed\": 0, \"agent_label\": "
                  "\"//my_agent:my_agent\"}");
  absl::StatusOr<FindRunsResult> short_label =
      FindRuns({root / "short"}, "//my_agent", false, AuditLimits());
  ASSERT_TRUE(short_label.ok()) << short_label.status();
  EXPECT_EQ(short_label->runs.size(), 1u);
  EXPECT_FALSE(FindRuns({root / "missing"}, "", false, AuditLimits()).ok());
  (void)other;
}

TEST(RunAuditTest, WritesTheRuleViolationInputWithLogBundlesAndCodeCopies) {
  const fs::path root = NewTempDir("violation");
  const fs::path run = MakeRun(root / "competitions", "spaceship-titanic", 0, 0);
  WriteFileOrFail(run / "artifacts" / "code" / "train.py", "import pandas as pd\n");
  WriteFileOrFail(run / "artifacts" / "code" / "broken.py", "x = '\xff'\n");
  WriteFileOrFail(run / "artifacts" / "logs" / "steps.log", "step 1 \xff\xfe done\n");
  WriteFileOrFail(run / "artifacts" / "logs" / "weights.bin", std::string("\0\1\2", 3));
  WriteFileOrFail(run / "artifacts" / "logs" / "sub" / "notes.md", "# notes\n");
  fs::create_directory(run / "artifacts" / "logs" / "trap.log");  // a directory named *.log
  const fs::path bare = MakeRun(root / "competitions", "spaceship-titanic", 1, 1);
  fs::remove_all(bare / "submission");

  AuditOptions options;
  options.runs = {root / "competitions"};
  options.output_dir = root / "out";
  std::ostringstream log;
  absl::StatusOr<AuditResult> result = RunAudit(options, log);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->runs, 2);
  const fs::path out = fs::canonical(root / "out");
  EXPECT_FALSE(fs::exists(out / "similarity"));
  EXPECT_FALSE(fs::exists(out / ".work"));

  const std::vector<Struct> lines =
      ParseJsonLines(ReadFileOrFail(out / "rule_violation_input.jsonl"));
  ASSERT_EQ(lines.size(), 2u);
  const Struct& first = lines[0];
  EXPECT_EQ(Text(first, "competition_id"), "spaceship-titanic");
  EXPECT_EQ(Text(first, "submission_path"),
            (fs::canonical(run) / "submission" / "submission.csv").string());
  EXPECT_EQ(Text(first, "run"), "spaceship-titanic.seed-0.0123456789ab");
  EXPECT_EQ(Number(first, "seed"), 0);
  EXPECT_EQ(Text(first, "agent_label"), "//agents:mine");
  const fs::path logs = Text(first, "logs_path");
  const fs::path code = Text(first, "code_path");
  EXPECT_EQ(logs, out / "runs" / "spaceship-titanic.seed-0.0123456789ab" / "log.txt");
  EXPECT_EQ(code, out / "runs" / "spaceship-titanic.seed-0.0123456789ab" / "code");
  EXPECT_EQ(testing::ReadTree(code),
            (std::map<std::string, std::string>{{"train.py", "import pandas as pd\n"}}));
  const std::string bundle = ReadFileOrFail(logs);
  EXPECT_EQ(bundle,
            "===== agent.log (what the agent printed) =====\ntraining...\nscore 0.9\n"
            "===== logs/steps.log =====\nstep 1 \xef\xbf\xbd\xef\xbf\xbd done\n"
            "===== logs/weights.bin =====\n(left out: binary, 3 bytes)\n"
            "===== logs/sub/notes.md =====\n# notes\n");
  // The second run: no submission, no Python file.
  EXPECT_TRUE(IsNull(lines[1], "submission_path"));
  EXPECT_TRUE(IsNull(lines[1], "code_path"));
  EXPECT_EQ(Number(lines[1], "seed"), 1);

  const Struct summary = ParseJson(ReadFileOrFail(out / "audit_summary.json"));
  const auto& runs = summary.fields().at("runs").list_value().values();
  ASSERT_EQ(runs.size(), 2);
  const Struct& s0 = runs[0].struct_value();
  EXPECT_EQ(Number(s0, "python_files"), 1);
  ASSERT_EQ(s0.fields().at("skipped").list_value().values_size(), 1);
  EXPECT_EQ(Text(s0.fields().at("skipped").list_value().values(0).struct_value(), "reason"),
            "not UTF-8 text");
  EXPECT_THAT(log.str(), HasSubstr("audit: spaceship-titanic.seed-0.0123456789ab: 1 Python "
                                   "file(s), 1 skipped\n"));

  // A second audit into the same directory is refused; nothing found is an error.
  absl::StatusOr<AuditResult> again = RunAudit(options, log);
  EXPECT_THAT(again.status().message(), HasSubstr("is not empty"));
  options.output_dir = root / "out2";
  options.runs = {root / "competitions" / "spaceship-titanic" / "spaceship-titanic_run" / "run-0" /
                  "artifacts"};
  EXPECT_THAT(RunAudit(options, log).status().message(), HasSubstr("no agent runs"));
}

TEST(RunAuditTest, TheLogBundleKeepsTheBeginningOfWhatFitsItsLimit) {
  const fs::path root = NewTempDir("bundle");
  const fs::path run = MakeRun(root / "competitions", "spaceship-titanic", 0, 0);
  WriteFileOrFail(run / "agent.log", std::string(60, 'a') + std::string(40, 'b'));
  WriteFileOrFail(run / "artifacts" / "logs" / "later.log", "never shown\n");
  AuditOptions options;
  options.runs = {run};
  options.output_dir = root / "out";
  options.limits.max_log_bytes = 60;
  std::ostringstream log;
  ASSERT_TRUE(RunAudit(options, log).ok());
  EXPECT_EQ(
      ReadFileOrFail(root / "out" / "runs" / "spaceship-titanic.seed-0.0123456789ab" / "log.txt"),
      "===== agent.log (what the agent printed) =====\n" + std::string(60, 'a') +
          "\n(cut here: 40 more bytes, past the 60 bytes this file may hold)\n"
          "===== logs/later.log =====\n"
          "(left out: 12 bytes, past the 60 bytes this file may hold)\n");
}

// The corpus run: a reference copied verbatim (solution.py), one with its
// names changed and a few lines added (features.py), an unrelated file
// (plot_history.py), and hostile files beside them.
fs::path MakeCorpusRun(const fs::path& root) {
  const fs::path run = MakeRun(root / "competitions", "spaceship-titanic", 0, 0);
  const fs::path code = run / "artifacts" / "code";
  for (const char* name : {"solution.py", "features.py", "plot_history.py"}) {
    WriteFileOrFail(code / "src" / name, ReadFileOrFail(kCorpus / "run_code" / name));
  }
  // Nesting too deep for Dolos's recursive tokenizer: skipped by Dolos.
  WriteFileOrFail(code / "deep.py",
                  "x = " + std::string(20000, '(') + "1" + std::string(20000, ')') + "\n");
  WriteFileOrFail(code / "data.py", std::string("\x89PNG\r\n\x1a\n\0\0", 10));
  WriteFileOrFail(code / "empty.py", "");
  return run;
}

TEST(RunAuditTest, RanksTheCopiedReferenceFirstWithDolos) {
  std::optional<DolosSetup> dolos = TestDolos();
  ASSERT_TRUE(dolos.has_value());
  const fs::path root = NewTempDir("dolos");
  MakeCorpusRun(root);
  AuditOptions options;
  options.runs = {root / "competitions"};
  options.output_dir = root / "out";
  options.references = kCorpus / "references";
  options.dolos = dolos;
  std::ostringstream log;
  absl::StatusOr<AuditResult> result = RunAudit(options, log);
  ASSERT_TRUE(result.ok()) << result.status() << log.str();
  EXPECT_EQ(result->similarity_failures, 0) << log.str();
  const fs::path out = fs::canonical(root / "out");
  const std::string run_name = "spaceship-titanic.seed-0.0123456789ab";
  const fs::path code = out / "runs" / run_name / "code";
  const fs::path refs = fs::canonical(kCorpus / "references");
  const std::vector<Struct> pairs =
      ParseJsonLines(ReadFileOrFail(out / "similarity" / (run_name + ".jsonl")));
  ASSERT_GE(pairs.size(), 3u);
  // Sorted by similarity, highest first.
  for (size_t i = 1; i < pairs.size(); ++i) {
    EXPECT_GE(Number(pairs[i - 1], "similarity"), Number(pairs[i], "similarity"));
  }
  // The verbatim copy first, similarity 1.
  EXPECT_EQ(Text(pairs[0], "submitted_file"), (code / "src" / "solution.py").string());
  EXPECT_EQ(Text(pairs[0], "reference_file"), (refs / "tfidf_logreg.py").string());
  EXPECT_EQ(Number(pairs[0], "similarity"), 1.0);
  EXPECT_EQ(Number(pairs[0], "submitted_covered"), Number(pairs[0], "submitted_kgrams"));
  EXPECT_EQ(Number(pairs[0], "overlap"),
            Number(pairs[0], "submitted_covered") + Number(pairs[0], "reference_covered"));
  EXPECT_GT(Number(pairs[0], "longest_fragment"), 100);
  EXPECT_EQ(Text(pairs[0], "run"), run_name);
  EXPECT_EQ(Text(pairs[0], "competition_id"), "spaceship-titanic");
  EXPECT_EQ(Number(pairs[0], "seed"), 0);
  // The renamed copy second, high.
  EXPECT_EQ(Text(pairs[1], "submitted_file"), (code / "src" / "features.py").string());
  EXPECT_EQ(Text(pairs[1], "reference_file"), (refs / "lgbm_tabular.py").string());
  EXPECT_GT(Number(pairs[1], "similarity"), 0.8);
  EXPECT_LT(Number(pairs[1], "similarity"), 1.0);
  // Everything else low, the unrelated file lowest of all.
  double unrelated = 0;
  for (size_t i = 2; i < pairs.size(); ++i) {
    EXPECT_LT(Number(pairs[i], "similarity"), 0.2) << Text(pairs[i], "submitted_file");
    if (Text(pairs[i], "submitted_file") == (code / "src" / "plot_history.py").string()) {
      unrelated = std::max(unrelated, Number(pairs[i], "similarity"));
    }
  }
  EXPECT_LT(unrelated, 0.05);

  const Struct summary = ParseJson(ReadFileOrFail(out / "audit_summary.json"));
  EXPECT_EQ(Text(summary, "dolos_lib"), "3.5.1");
  const Struct& run = summary.fields().at("runs").list_value().values(0).struct_value();
  EXPECT_EQ(Number(run, "references"), 3);
  EXPECT_EQ(Number(run.fields().at("best").struct_value(), "similarity"), 1.0);
  std::map<std::string, std::string> skipped;
  for (const Value& v : run.fields().at("skipped").list_value().values()) {
    skipped[Text(v.struct_value(), "file")] = Text(v.struct_value(), "reason");
  }
  EXPECT_THAT(skipped.at("data.py"), HasSubstr("binary"));
  EXPECT_THAT(skipped.at("deep.py"), HasSubstr("Dolos cannot tokenize it"));
  EXPECT_EQ(Number(run, "python_files"), 4);  // the three, and empty.py
  EXPECT_THAT(log.str(), HasSubstr("highest similarity 1.0 (solution.py ~ tfidf_logreg.py)"));

  // The same inputs give the same bytes (but for where the outputs are).
  options.output_dir = root / "out_again";
  ASSERT_TRUE(RunAudit(options, log).ok());
  const fs::path out2 = fs::canonical(root / "out_again");
  auto normalized = [](const fs::path& dir) {
    std::map<std::string, std::string> tree = testing::ReadTree(dir);
    for (auto& [name, bytes] : tree) bytes = absl::StrReplaceAll(bytes, {{dir.string(), "OUT"}});
    return tree;
  };
  EXPECT_EQ(normalized(out), normalized(out2));
}

TEST(RunAuditTest, ComparesEachCompetitionWithItsOwnReferences) {
  std::optional<DolosSetup> dolos = TestDolos();
  ASSERT_TRUE(dolos.has_value());
  const fs::path root = NewTempDir("by_competition");
  MakeCorpusRun(root);
  const fs::path other = MakeRun(root / "competitions", "aerial-cactus-identification", 0, 0);
  WriteFileOrFail(other / "artifacts" / "code" / "net.py",
                  ReadFileOrFail(kCorpus / "references" / "cnn_images.py"));
  // Only the cactus competition has references; a pure renaming of every
  // name is still similarity 1 (Dolos compares syntax trees, not names).
  WriteFileOrFail(root / "refs" / "aerial-cactus-identification" / "kernel.py",
                  absl::StrReplaceAll(ReadFileOrFail(kCorpus / "references" / "cnn_images.py"),
                                      {{"CactusDataset", "Plants"},
                                       {"SmallNet", "Model"},
                                       {"run_epoch", "one_pass"},
                                       {"images", "xb"},
                                       {"labels", "yb"},
                                       {"self.head", "self.fc"}}));
  AuditOptions options;
  options.runs = {root / "competitions"};
  options.output_dir = root / "out";
  options.references_by_competition = root / "refs";
  options.dolos = dolos;
  std::ostringstream log;
  absl::StatusOr<AuditResult> result = RunAudit(options, log);
  ASSERT_TRUE(result.ok()) << result.status();
  const fs::path out = fs::canonical(root / "out");
  const std::vector<Struct> cactus = ParseJsonLines(ReadFileOrFail(
      out / "similarity" / "aerial-cactus-identification.seed-0.0123456789ab.jsonl"));
  ASSERT_EQ(cactus.size(), 1u);
  EXPECT_EQ(Number(cactus[0], "similarity"), 1.0);
  EXPECT_EQ(ReadFileOrFail(out / "similarity" / "spaceship-titanic.seed-0.0123456789ab.jsonl"), "");
  EXPECT_THAT(log.str(), HasSubstr("no code shared with 0 reference file(s)"));
}

TEST(RunAuditTest, ADolosFailureIsRecordedAndTheOtherOutputsAreWritten) {
  std::optional<DolosSetup> dolos = TestDolos();
  ASSERT_TRUE(dolos.has_value());
  const fs::path root = NewTempDir("failure");
  MakeCorpusRun(root);
  AuditOptions options;
  options.runs = {root / "competitions"};
  options.references = kCorpus / "references";
  options.dolos = dolos;
  options.dolos->timeout_s = 0.001;
  options.output_dir = root / "timeout";
  std::ostringstream log;
  absl::StatusOr<AuditResult> result = RunAudit(options, log);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->similarity_failures, 1);
  EXPECT_THAT(log.str(), HasSubstr("similarity FAILED: Dolos took more than 0.001 s (killed)"));
  const fs::path out = fs::canonical(root / "timeout");
  EXPECT_EQ(ParseJsonLines(ReadFileOrFail(out / "rule_violation_input.jsonl")).size(), 1u);
  const Struct summary = ParseJson(ReadFileOrFail(out / "audit_summary.json"));
  EXPECT_THAT(Text(summary.fields().at("runs").list_value().values(0).struct_value(), "error"),
              HasSubstr("killed"));

  options.dolos->timeout_s = 60;
  options.dolos->node_modules = root / "no_such_modules";
  options.output_dir = root / "broken";
  log.str("");
  result = RunAudit(options, log);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->similarity_failures, 1);
  EXPECT_THAT(log.str(), HasSubstr("similarity FAILED: Dolos exited with status 1"));
}

}  // namespace
}  // namespace mlebench
