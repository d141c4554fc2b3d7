// Differential test: MacroRocAucScore and CheckMacroRocAucTrue against
// scikit-learn 1.5.1 (upstream's pinned version) on random multi-label inputs shaped like upstream's
// multi-label graders' (auc_roc_macro_sklearn_diff_test.py generates them; see
// its header for what is and is not covered). Requires the same raise/no-raise
// outcome, sklearn's message where we reproduce it, the same float as
// sklearn's column loop bit for bit (upstream rounds it, so the last bit can
// matter), and CheckMacroRocAucTrue to fail exactly when sklearn rejects the
// labels whatever the scores.

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/python_float.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/classification/auc_roc.h"
#include "grading/metrics/matrix_view.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using testing::Unhex;

constexpr char kScript[] = "grading/metrics/classification/auc_roc_macro_sklearn_diff_test.py";

struct Matrix {
  std::vector<double> values;
  size_t rows = 0;
  size_t cols = 0;
  MatrixView view() const { return {values, rows, cols}; }
};

Matrix ParseMatrix(const std::string& line) {
  std::vector<std::string> t = absl::StrSplit(line, ' ', absl::SkipEmpty());
  Matrix m;
  m.rows = std::stoul(t.at(1));
  m.cols = std::stoul(t.at(2));
  for (size_t i = 3; i < t.size(); ++i) m.values.push_back(std::strtod(t[i].c_str(), nullptr));
  EXPECT_EQ(m.values.size(), m.rows * m.cols);
  return m;
}

TEST(AucRocMacroSklearnDiffTest, MatchesScikitLearn) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/macro_auc_cases.txt");
  const char* seed = std::getenv("METRICS_DIFF_SEED");
  const std::string command =
      absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path, " ", seed == nullptr ? "" : seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  int scored = 0, raised = 0, bad_labels = 0, failures = 0;
  std::string header, y_line, s_line, result_line, labels_line;
  while (std::getline(in, header) && std::getline(in, y_line) && std::getline(in, s_line) &&
         std::getline(in, result_line) && std::getline(in, labels_line)) {
    const Matrix y = ParseMatrix(y_line);
    const Matrix s = ParseMatrix(s_line);
    const absl::StatusOr<double> ours = MacroRocAucScore(y.view(), s.view());
    const std::vector<std::string> expect = absl::StrSplit(result_line, ' ');
    std::string problem;
    if (expect.at(0) == "ok") {
      ++scored;
      const double theirs = std::strtod(expect.at(1).c_str(), nullptr);
      if (!ours.ok()) {
        problem = absl::StrCat("sklearn ", theirs, ", ours ", ours.status().ToString());
      } else if (*ours != theirs) {
        problem = absl::StrCat("sklearn ", FormatPythonFloat(theirs), ", ours ",
                               FormatPythonFloat(*ours));
      }
    } else {
      ++raised;
      const std::string message = expect.size() > 2 ? Unhex(expect[2]) : "";
      if (ours.ok()) {
        problem = absl::StrCat("sklearn raised ", expect.at(1), "(", message, "), ours ", *ours);
      } else if (expect.at(1) == "ValueError") {
        // Compare up to the first printed array or set, whose numpy spelling
        // depends on dtypes we do not carry.
        const std::string prefix = message.substr(0, message.find_first_of("([{"));
        if (std::string(ours.status().message()).rfind(prefix, 0) != 0) {
          problem =
              absl::StrCat("sklearn \"", message, "\", ours \"", ours.status().message(), "\"");
        }
      }
    }
    const bool labels_ok = labels_line == "labels ok";
    bad_labels += !labels_ok;
    const absl::Status check = CheckMacroRocAucTrue(y.view());
    if (check.ok() != labels_ok) {
      problem += absl::StrCat(" CheckMacroRocAucTrue says ", check.ToString(), " but sklearn ",
                              labels_ok ? "accepts" : "rejects", " the labels");
    }
    if (!problem.empty() && ++failures <= 25) ADD_FAILURE() << header << ": " << problem;
  }
  std::cout << scored << " scored, " << raised << " raised, " << bad_labels
            << " with labels sklearn rejects, " << failures << " mismatches\n";
  EXPECT_EQ(failures, 0);
  EXPECT_GT(scored, 200);
  EXPECT_GT(raised, 40);
  EXPECT_GT(bad_labels, 20);
}

}  // namespace
}  // namespace mlebench
