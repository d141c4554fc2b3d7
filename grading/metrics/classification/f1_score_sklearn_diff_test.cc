// Differential test: f1_score.h against scikit-learn 1.5.1's (upstream's
// pinned version) precision_recall_fscore_support (average micro/macro, several betas and
// zero_division values) on 3000 random cases written by
// f1_score_sklearn_diff_test.py: string and integer multiclass labels (labels
// only in the predictions, empty inputs, length mismatches) and multilabel
// label sets through MultiLabelBinarizer (empty rows, duplicate and unknown
// labels, duplicate or fewer than two classes), sizes 0..1e5.
// Outcomes must agree (raise or not); precision, recall and F bit for bit
// (the script writes F twice, see there).

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "base/testing/diff_test_text.h"
#include "base/testing/test_util.h"
#include "grading/metrics/classification/f1_score.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

constexpr char kScript[] = "grading/metrics/classification/f1_score_sklearn_diff_test.py";

// "x" + hex -> bytes.
std::string DecodeText(const std::string& token) { return testing::Unhex(token.substr(1)); }

// "r" + comma-separated hex labels -> label list.
std::vector<std::string> DecodeRow(const std::string& token) {
  std::vector<std::string> labels;
  if (token.size() <= 1) return labels;
  const std::vector<std::string> hexes = absl::StrSplit(token.substr(1), ',');
  for (const std::string& hex : hexes) {
    labels.push_back(testing::Unhex(hex));
  }
  return labels;
}

bool SameDouble(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

bool Close(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

TEST(F1ScoreSklearnDiffTest, MatchesSklearn) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  const std::string cases_path = absl::StrCat(tmp, "/f1_cases.txt");
  const std::string command = absl::StrCat(testing::ReferencePython(), " ", kScript, " ", cases_path);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;

  std::ifstream in(cases_path);
  ASSERT_TRUE(in) << cases_path;
  std::string header, true_line, pred_line, classes_line, expected_line;
  int total = 0, errors = 0, mismatches = 0, large = 0;
  while (std::getline(in, header)) {
    ASSERT_TRUE(std::getline(in, true_line) && std::getline(in, pred_line) &&
                std::getline(in, classes_line) && std::getline(in, expected_line));
    const std::vector<std::string> h = testing::Tokens(header);
    ASSERT_EQ(h.size(), 5u) << header;
    const std::string& kind = h[1];
    FScoreOptions options;
    options.average = h[2] == "micro" ? FScoreAverage::kMicro : FScoreAverage::kMacro;
    options.beta = testing::ParseDouble(h[3]);
    options.zero_division = h[4] == "1" ? 1.0 : 0.0;
    const std::vector<std::string> t = testing::Tokens(true_line);
    const std::vector<std::string> p = testing::Tokens(pred_line);
    if (t.size() >= 99990) ++large;

    absl::StatusOr<PrecisionRecallFScore> ours;
    if (kind == "s") {
      std::vector<std::string> yt, yp;
      for (const std::string& s : t) yt.push_back(DecodeText(s));
      for (const std::string& s : p) yp.push_back(DecodeText(s));
      ours = MulticlassPrecisionRecallFScore(yt, yp, options);
    } else if (kind == "i") {
      std::vector<int64_t> yt, yp;
      for (const std::string& s : t) yt.push_back(std::stoll(s));
      for (const std::string& s : p) yp.push_back(std::stoll(s));
      ours = MulticlassPrecisionRecallFScore(yt, yp, options);
    } else {
      std::vector<std::vector<std::string>> yt, yp;
      for (const std::string& s : t) yt.push_back(DecodeRow(s));
      for (const std::string& s : p) yp.push_back(DecodeRow(s));
      std::vector<std::string> classes;
      for (const std::string& s : testing::Tokens(classes_line)) classes.push_back(DecodeText(s));
      ours = MultilabelPrecisionRecallFScore(yt, yp, classes, options);
    }
    ++total;
    bool same;
    if (expected_line == "err") {
      ++errors;
      same = !ours.ok();
    } else {
      const std::vector<std::string> e = testing::Tokens(expected_line);
      ASSERT_EQ(e.size(), 4u) << expected_line;
      same = ours.ok() && SameDouble(ours->precision, testing::ParseDouble(e[0])) &&
             SameDouble(ours->recall, testing::ParseDouble(e[1])) &&
             Close(ours->f_score, testing::ParseDouble(e[2])) &&
             SameDouble(ours->f_score, testing::ParseDouble(e[3]));
    }
    if (!same && ++mismatches <= 20) {
      ADD_FAILURE() << "case " << total << ": " << header << " (n=" << t.size()
                    << "): sklearn " << expected_line << ", ours "
                    << (ours.ok() ? absl::StrFormat("%.17g %.17g %.17g", ours->precision, ours->recall,
                                                      ours->f_score)
                                  : std::string(ours.status().message()));
    }
  }
  std::cout << total << " cases, " << errors << " raise, " << large << " above 1e4 rows, "
            << mismatches << " mismatches\n";
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(total, 3000);
  EXPECT_GT(errors, 100);
  EXPECT_EQ(large, 6);
}

}  // namespace
}  // namespace mlebench
