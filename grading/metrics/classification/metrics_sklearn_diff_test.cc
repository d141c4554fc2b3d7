// Differential test: our metrics against scikit-learn 1.5.1 (upstream's
// pinned version) on random inputs. metrics_sklearn_diff_test.py generates the
// cases and records sklearn's outcome; this test replays each case and
// requires the same raise/no-raise outcome, the same error message where we
// reproduce it, and the same 64 bits (accuracy, ROC AUC, log loss).

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/python_float.h"
#include "base/table.h"
#include "base/testing/diff_test_column.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/classification/accuracy.h"
#include "grading/metrics/classification/auc_roc.h"
#include "grading/metrics/classification/log_loss.h"
#include "grading/metrics/matrix_view.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::Unhex;
using testing::ParseColumnLine;
using testing::ParseDouble;
using testing::Tokens;

constexpr char kScript[] = "grading/metrics/classification/metrics_sklearn_diff_test.py";

std::vector<double> ParseVector(const std::string& line) {
  std::vector<std::string> t = Tokens(line);
  std::vector<double> v;
  for (size_t i = 2; i < t.size(); ++i) v.push_back(ParseDouble(t[i]));
  EXPECT_EQ(v.size(), std::stoul(t.at(1)));
  return v;
}

struct Matrix {
  std::vector<double> values;
  size_t rows = 0;
  size_t cols = 0;
  bool one_dimensional = false;
  MatrixView view() const { return {values, rows, cols}; }
};

Matrix ParseMatrix(const std::string& line) {
  std::vector<std::string> t = Tokens(line);
  Matrix m;
  m.rows = std::stoul(t.at(1));
  m.cols = std::stoul(t.at(2));
  m.one_dimensional = t.at(3) == "1";
  for (size_t i = 4; i < t.size(); ++i) m.values.push_back(ParseDouble(t[i]));
  EXPECT_EQ(m.values.size(), m.rows * m.cols);
  return m;
}

// The part of sklearn's message that we reproduce: all of it for check_array's
// and check_consistent_length's ("Found ..."), else up to the first printed
// array/set/tuple, whose numpy formatting depends on dtypes we don't carry.
std::string ComparablePrefix(const std::string& message) {
  if (message.rfind("Found ", 0) == 0) return message;
  const size_t cut = message.find_first_of("([{");
  return cut == std::string::npos ? message : message.substr(0, cut);
}

struct Tally {
  int ok = 0;
  int raise = 0;
  int bit_exact = 0;
  int failures = 0;
};

TEST(MetricsSklearnDiffTest, MatchesScikitLearnOnRandomInputs) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/metric_cases.txt");
  // METRICS_DIFF_SEED (e.g. --test_env=METRICS_DIFF_SEED=7) explores other inputs.
  const char* seed = std::getenv("METRICS_DIFF_SEED");
  const std::string command =
      absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::vector<std::string> block;
  std::map<std::string, Tally> tallies;
  int reported = 0;
  bool saw_rounding_tie = false;
  std::string line;
  while (std::getline(in, line)) {
    block.push_back(line);
    if (line.rfind("ok ", 0) != 0 && line.rfind("raise ", 0) != 0) continue;

    const std::vector<std::string> header = Tokens(block.at(0));
    const std::string& metric = header.at(1);
    const std::string label = absl::StrCat(metric, " case ", header.at(2));
    absl::StatusOr<double> ours;
    if (metric == "accuracy") {
      ours = AccuracyScore(ParseColumnLine(block.at(1)), ParseColumnLine(block.at(2)));
    } else if (metric == "auc") {
      ours = RocAucScore(ParseVector(block.at(1)), ParseVector(block.at(2)));
    } else if (metric == "auc_macro") {
      Matrix y = ParseMatrix(block.at(1));
      Matrix s = ParseMatrix(block.at(2));
      ours = MacroRocAucScore(y.view(), s.view());
    } else {
      ASSERT_EQ(metric, "log_loss");
      Matrix y = ParseMatrix(block.at(1));
      Matrix p = ParseMatrix(block.at(2));
      ours = p.one_dimensional ? LogLoss(y.values, p.values) : LogLoss(y.view(), p.view());
    }

    Tally& tally = tallies[metric];
    const std::vector<std::string> expect = Tokens(line);
    std::string problem;
    if (expect[0] == "ok") {
      ++tally.ok;
      const double theirs = ParseDouble(expect.at(1));
      if (!ours.ok()) {
        problem =
            absl::StrCat("sklearn returned ", theirs, ", we failed: ", ours.status().ToString());
      } else {
        // The same 64 bits as sklearn's float; -0.0 == 0.0 cannot occur.
        if (!(*ours == theirs || (std::isnan(*ours) && std::isnan(theirs)))) {
          problem = absl::StrCat("ours ", FormatPythonFloat(*ours), " vs sklearn ",
                                 FormatPythonFloat(theirs), " (difference ", *ours - theirs, ")");
        }
        tally.bit_exact += problem.empty();
      }
    } else {
      ++tally.raise;
      const std::string& exception = expect.at(1);
      const std::string message = expect.size() > 2 ? Unhex(expect[2]) : "";
      if (ours.ok()) {
        problem =
            absl::StrCat("sklearn raised ", exception, "(", message, "), we returned ", *ours);
      } else if (ours.status().code() != absl::StatusCode::kInvalidArgument) {
        problem = absl::StrCat("wrong status code: ", ours.status().ToString());
      } else if (exception == "ValueError") {
        const std::string prefix = ComparablePrefix(message);
        if (std::string(ours.status().message()).rfind(prefix, 0) != 0) {
          problem = absl::StrCat("message differs: sklearn \"", message, "\", ours \"",
                                 ours.status().message(), "\"");
        }
      }
    }
    if (label == "auc case rounding_tie") {
      saw_rounding_tie = true;
      EXPECT_TRUE(ours.ok() && *ours == 0.48437499999999994) << "the 40-row rounding tie";
    }
    if (!problem.empty()) {
      ++tally.failures;
      if (++reported <= 25) ADD_FAILURE() << label << ": " << problem;
    }
    block.clear();
  }

  int total = 0;
  for (const auto& [metric, t] : tallies) {
    total += t.ok + t.raise;
    std::cout << metric << ": " << t.ok << " scored (" << t.bit_exact << " bit-exact), " << t.raise
              << " raised, " << t.failures << " mismatches\n";
    EXPECT_EQ(t.failures, 0) << metric;
    EXPECT_GT(t.ok, 50) << metric << ": too few scored cases to mean anything";
    EXPECT_GT(t.raise, 10) << metric << ": too few error cases to mean anything";
  }
  EXPECT_TRUE(saw_rounding_tie);
  EXPECT_EQ(tallies.size(), 4u);
  EXPECT_GT(total, 1500);
}

}  // namespace
}  // namespace mlebench
