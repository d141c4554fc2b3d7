// The helpers graders call on typed columns (TypedTable, as read for the
// fast path) against the same helpers on cells (Table): for many random CSV
// inputs, both must give the same outcome (the same values, or the same
// error). The typed storage has fast paths (bulk numbers, text views, ids
// paired row by row); the cells path is the reference.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "grading/metrics/classification/log_loss.h"
#include "grading/metrics/metric_inputs.h"
#include "grading/metrics/probability_rows.h"
#include "grading/metrics/ranking/map_at_k.h"
#include "grading/outcome.h"
#include "gtest/gtest.h"
#include "pycompat/pandas_ops.h"

namespace mlebench {
namespace {

struct Both {
  Table cells;
  TypedTable typed;
};

Both Read(const std::string& csv) {
  absl::StatusOr<Table> cells = ReadCsvString(csv, "x.csv");
  absl::StatusOr<TypedTable> typed = ReadTypedCsvString(csv, "x.csv");
  EXPECT_TRUE(cells.ok() && typed.ok()) << csv;
  return {cells.ok() ? *std::move(cells) : Table(), typed.ok() ? *std::move(typed) : TypedTable()};
}

bool SameDouble(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

template <typename T, typename Same>
void ExpectSameOutcome(const absl::StatusOr<T>& typed, const absl::StatusOr<T>& cells,
                       Same same, const std::string& what) {
  ASSERT_EQ(typed.ok(), cells.ok()) << what << "\ntyped: " << typed.status()
                                    << "\ncells: " << cells.status();
  if (!typed.ok()) {
    EXPECT_EQ(typed.status(), cells.status()) << what;
    return;
  }
  EXPECT_TRUE(same(*typed, *cells)) << what;
}

bool SameVectors(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!SameDouble(a[i], b[i])) return false;
  }
  return true;
}

class RandomCsv {
 public:
  explicit RandomCsv(uint32_t seed) : rng_(seed) {}

  int Int(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  // Ids: distinct text usually, sometimes repeated, missing, numeric or
  // sharing a long prefix.
  std::vector<std::string> Ids(size_t n) {
    std::vector<std::string> ids;
    const int style = Int(5);
    for (size_t i = 0; i < n; ++i) {
      switch (style) {
        case 0:
          ids.push_back("img_" + std::to_string(i * 7 % 1000));
          break;
        case 1:
          ids.push_back("id000000" + std::to_string(Int(static_cast<int>(n))));  // repeats
          break;
        case 2:
          ids.push_back(std::to_string(i));  // an int64 column
          break;
        default:
          ids.push_back("r" + std::to_string(i));
      }
    }
    if (Int(4) == 0 && n > 0) ids[Int(static_cast<int>(n))] = "";  // a missing id
    if (Int(5) == 0 && n > 1) ids[Int(static_cast<int>(n))] = "7";  // text with a number
    return ids;
  }

  // A probability as text: mostly in [0, 1], sometimes NaN, out of range,
  // text or a number written as text.
  std::string Value() {
    switch (Int(30)) {
      case 0:
        return "";
      case 1:
        return "1.5";
      case 2:
        return "abc";
      case 3:
        return "-0.25";
      default:
        return std::to_string(std::uniform_real_distribution<double>(0, 1)(rng_));
    }
  }

  std::vector<std::string> Shuffled(std::vector<std::string> v) {
    if (Int(2) == 0) std::shuffle(v.begin(), v.end(), rng_);
    if (Int(6) == 0 && !v.empty()) v[Int(static_cast<int>(v.size()))] = "other";
    return v;
  }

 private:
  std::mt19937 rng_;
};

TEST(TypedColumnsTest, AurocInputsAgreeWithCells) {
  for (uint32_t seed = 0; seed < 400; ++seed) {
    RandomCsv r(seed);
    const size_t n = 1 + r.Int(40);
    const std::vector<std::string> ids = r.Ids(n);
    std::string answers = "id,y\n", submission = "id,y\n";
    for (size_t i = 0; i < n; ++i) answers += ids[i] + "," + std::to_string(r.Int(2)) + "\n";
    for (const std::string& id : r.Shuffled(ids)) submission += id + "," + r.Value() + "\n";
    const Both a = Read(answers), s = Read(submission);
    ExpectSameOutcome(
        PrepareForAurocMetric(s.typed, a.typed, "id", "y"),
        PrepareForAurocMetric(s.cells, a.cells, "id", "y"),
        [](const AurocInputs& x, const AurocInputs& y) {
          // Typed inputs may keep the rows' own order when every row pairs
          // with itself; the pairs must be the same.
          std::vector<std::pair<double, double>> px, py;
          for (size_t i = 0; i < x.y_true.size(); ++i) px.emplace_back(x.y_true[i], x.y_score[i]);
          for (size_t i = 0; i < y.y_true.size(); ++i) py.emplace_back(y.y_true[i], y.y_score[i]);
          const auto less = [](const auto& p, const auto& q) {
            return std::make_pair(p.first, std::isnan(p.second) ? 2.0 : p.second) <
                   std::make_pair(q.first, std::isnan(q.second) ? 2.0 : q.second);
          };
          std::sort(px.begin(), px.end(), less);
          std::sort(py.begin(), py.end(), less);
          if (px.size() != py.size()) return false;
          for (size_t i = 0; i < px.size(); ++i) {
            if (px[i].first != py[i].first || !SameDouble(px[i].second, py[i].second)) return false;
          }
          return true;
        },
        submission + "\n" + answers);
  }
}

TEST(TypedColumnsTest, LogLossInputsAgreeWithCells) {
  for (uint32_t seed = 0; seed < 400; ++seed) {
    RandomCsv r(seed);
    const size_t n = 1 + r.Int(30);
    const std::vector<std::string> ids = r.Ids(n);
    std::string answers = "id,a,b\n", submission = r.Int(8) == 0 ? "id,a\n" : "id,b,a\n";
    for (size_t i = 0; i < n; ++i) {
      const int label = r.Int(2);
      answers += ids[i] + "," + std::to_string(label) + "," + std::to_string(1 - label) + "\n";
    }
    for (const std::string& id : r.Shuffled(ids)) {
      submission += id + "," + r.Value() + "," + r.Value() + "\n";
    }
    const Both a = Read(answers), s = Read(submission);
    ExpectSameOutcome(
        OneHotTablesToLogLossInputs(s.typed, a.typed, "id"),
        OneHotTablesToLogLossInputs(s.cells, a.cells, "id"),
        [](const LogLossInputs& x, const LogLossInputs& y) {
          return x.rows == y.rows && x.cols == y.cols && SameVectors(x.y_true, y.y_true) &&
                 SameVectors(x.y_pred, y.y_pred);
        },
        submission + "\n" + answers);
    // The probability-row checks on the same columns.
    std::vector<const TypedColumn*> typed_columns;
    std::vector<const Column*> cell_columns;
    for (size_t c = 1; c < s.typed.num_columns(); ++c) {
      typed_columns.push_back(&s.typed.columns()[c]);
      cell_columns.push_back(&s.cells.columns()[c]);
    }
    EXPECT_EQ(CheckProbabilityRows(typed_columns, "sum", "range"),
              CheckProbabilityRows(cell_columns, "sum", "range"))
        << submission;
  }
}

// OneHotLogLossAlignedOnIds (which skips the matrices when every value is a
// number) against the matrices and LogLoss, bit for bit or the same error,
// from typed columns and from cells; up to 70,000 rows, where the row losses
// are computed on two threads.
TEST(TypedColumnsTest, OneHotLogLossAgreesWithMatricesAndLogLoss) {
  for (uint32_t seed = 0; seed < 300; ++seed) {
    RandomCsv r(seed);
    const size_t n = seed % 50 == 0 ? 70000 : 1 + r.Int(30);
    const bool clean = r.Int(2) == 0;  // every value a probability
    const size_t classes = 1 + r.Int(3);
    std::vector<std::string> ids = r.Ids(n);
    if (clean) {
      for (size_t i = 0; i < n; ++i) ids[i] = "r" + std::to_string(i);
    }
    std::string answers = "id", submission = "id";
    for (size_t c = 0; c < classes; ++c) {
      answers += ",c" + std::to_string(c);
      submission += ",c" + std::to_string(classes - 1 - c);
    }
    answers += "\n";
    submission += "\n";
    for (size_t i = 0; i < n; ++i) {
      const size_t label = static_cast<size_t>(r.Int(static_cast<int>(classes)));
      answers += ids[i];
      for (size_t c = 0; c < classes; ++c) {
        answers += c == label ? (r.Int(200) == 0 ? ",2" : ",1") : ",0";
      }
      answers += "\n";
    }
    for (const std::string& id : r.Shuffled(ids)) {
      submission += id;
      for (size_t c = 0; c < classes; ++c) {
        submission += "," + (clean ? std::to_string(r.Int(1001) / 1000.0) : r.Value());
      }
      submission += "\n";
    }
    const Both a = Read(answers), s = Read(submission);
    absl::StatusOr<double> expected = [&]() -> absl::StatusOr<double> {
      ASSIGN_OR_RETURN(LogLossInputs inputs, OneHotTablesToLogLossInputs(s.cells, a.cells, "id"));
      absl::StatusOr<double> score = LogLoss(inputs.true_view(), inputs.pred_view());
      if (!score.ok()) {
        return InvalidSubmission(
            absl::StrCat("log_loss rejects the submission: ", score.status().message()));
      }
      return score;
    }();
    const auto same = [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; };
    const std::string what = n > 100 ? "seed " + std::to_string(seed) : submission + "\n" + answers;
    ExpectSameOutcome(OneHotLogLossAlignedOnIds(s.typed, a.typed, "id"), expected, same, what);
    ExpectSameOutcome(OneHotLogLossAlignedOnIds(s.cells, a.cells, "id"), expected, same, what);
  }
}

TEST(TypedColumnsTest, MapAtKAgreesWithCells) {
  for (uint32_t seed = 0; seed < 300; ++seed) {
    RandomCsv r(seed);
    const size_t n = 1 + r.Int(30);
    std::vector<std::string> ids = r.Ids(n);
    std::string answers = "Image,Id\n", submission = "Image,Id\n";
    const auto labels = [&](int count) {
      std::string text;
      for (int k = 0; k < count; ++k) text += (k ? " " : "") + std::string("w") + std::to_string(r.Int(6));
      return text;
    };
    for (size_t i = 0; i < n; ++i) answers += ids[i] + "," + labels(1 + r.Int(2)) + "\n";
    for (const std::string& id : r.Shuffled(ids)) submission += id + "," + labels(r.Int(6)) + "\n";
    CsvReadOptions options;
    options.string_columns = {"Image"};
    const auto read = [&](const std::string& csv) {
      return Both{*ReadCsvString(csv, "x.csv", options), *ReadTypedCsvString(csv, "x.csv", options)};
    };
    const Both a = read(answers), s = read(submission);
    const bool same_typed = SameIdSets(**s.typed.Get("Image"), **a.typed.Get("Image"));
    ASSERT_EQ(same_typed, SameIdSets(**s.cells.Get("Image"), **a.cells.Get("Image")));
    if (!same_typed || s.cells.num_rows() != a.cells.num_rows()) continue;
    ExpectSameOutcome(
        MapAtKAlignedOnIds(**s.typed.Get("Image"), **s.typed.Get("Id"), **a.typed.Get("Image"),
                           **a.typed.Get("Id"), 5),
        MapAtKAlignedOnIds(**s.cells.Get("Image"), **s.cells.Get("Id"), **a.cells.Get("Image"),
                           **a.cells.Get("Id"), 5),
        [](double x, double y) { return SameDouble(x, y); }, submission + "\n" + answers);
  }
}

TEST(TypedColumnsTest, SortValuesOrderAgreesWithCells) {
  for (uint32_t seed = 0; seed < 300; ++seed) {
    RandomCsv r(seed);
    const size_t n = r.Int(50);
    std::string csv = "v\n";
    const int kind = r.Int(5);
    for (size_t i = 0; i < n; ++i) {
      switch (kind) {
        case 0:
          csv += std::to_string(r.Int(10) - 5) + "\n";  // int64 with ties
          break;
        case 1:
          csv += (r.Int(6) == 0 ? std::string("NA") : std::to_string(r.Int(10) * 0.5)) + "\n";
          break;
        case 2:
          csv += (r.Int(2) ? "True\n" : "False\n");
          break;
        case 3:
          csv += (r.Int(8) == 0 ? std::string("") : "prefix_" + std::to_string(r.Int(20))) + "\n";
          break;
        default:
          csv += (r.Int(10) == 0 ? std::string("x") : std::to_string(r.Int(9))) + "\n";  // mixed
      }
    }
    const Both t = Read(csv);
    if (t.cells.num_columns() == 0) continue;
    ExpectSameOutcome(SortValuesOrder(t.typed.columns()[0]), SortValuesOrder(t.cells.columns()[0]),
                      [](const std::vector<size_t>& x, const std::vector<size_t>& y) {
                        return x == y;
                      },
                      csv);
  }
}

TEST(TypedColumnsTest, DistinctTextArgsortSortsLongSharedPrefixes) {
  // More than the comparison-sort cutoff, with a shared prefix and keys that
  // tie on their first 8 bytes after it.
  std::mt19937 rng(7);
  std::vector<std::string> storage;
  for (int i = 0; i < 20000; ++i) {
    storage.push_back("ISIC_000000" + std::to_string(rng() % 100000000) + "_" + std::to_string(i));
  }
  std::vector<std::string_view> text(storage.begin(), storage.end());
  const std::vector<size_t> order = DistinctTextArgsort(text);
  ASSERT_EQ(order.size(), text.size());
  for (size_t k = 1; k < order.size(); ++k) ASSERT_LT(text[order[k - 1]], text[order[k]]);
  text.push_back(text[5]);  // a repeat: no distinct order
  EXPECT_TRUE(DistinctTextArgsort(text).empty());
}

}  // namespace
}  // namespace mlebench
