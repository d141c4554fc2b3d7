#include "grading/medals.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <utility>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/python_float.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

// Python's int(n * fraction) for a positive product.
int64_t Truncated(int64_t n, double fraction) {
  return static_cast<int64_t>(static_cast<double>(n) * fraction);
}

// pandas Series.median(): NaN skipped; NaN when nothing is left.
double PandasMedian(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }),
               values.end());
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  if (n % 2 == 1) return values[n / 2];
  return (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

absl::StatusOr<double> NumericCell(const Cell& cell, const std::string& what) {
  if (std::holds_alternative<double>(cell)) return std::get<double>(cell);
  if (std::holds_alternative<int64_t>(cell)) return static_cast<double>(std::get<int64_t>(cell));
  if (std::holds_alternative<std::monostate>(cell)) return std::nan("");
  return absl::InvalidArgumentError(absl::StrCat(what, " is not a number"));
}

// The `score` column of an upstream `leaderboard.csv`, in its rows' order.
absl::StatusOr<std::vector<double>> ReadLeaderboardScores(const std::string& path) {
  // Upstream keeps leaderboards in Git LFS: a checkout without `git lfs pull`
  // has a three-line pointer file instead.
  {
    std::ifstream in(path, std::ios::binary);
    std::string first_line;
    if (in && std::getline(in, first_line) &&
        first_line.rfind("version https://git-lfs.github.com/spec/", 0) == 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          path, " is a Git LFS pointer, not the leaderboard: run `git lfs pull` in the "
                "upstream checkout"));
    }
  }
  ASSIGN_OR_RETURN(Table table, ReadCsvFile(path));
  const Column* score = table.Find("score");
  if (score == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": leaderboard must have a `score` column"));
  }
  std::vector<double> scores;
  scores.reserve(score->cells.size());
  for (size_t i = 0; i < score->cells.size(); ++i) {
    ASSIGN_OR_RETURN(double v,
                     NumericCell(score->cells[i], absl::StrCat(path, ": score of row ", i + 1)));
    scores.push_back(v);
  }
  return scores;
}

}  // namespace

absl::StatusOr<MedalThresholds> ThresholdsFromLeaderboard(const std::vector<double>& scores) {
  const int64_t n = static_cast<int64_t>(scores.size());
  if (n < 1) {
    return absl::InvalidArgumentError("Number of teams in leaderboard must be greater than 0.");
  }
  auto at = [&](int64_t position) -> absl::StatusOr<double> {
    if (position < 1 || position > n) {
      return absl::OutOfRangeError(absl::StrCat("Position ", position,
                                                " out of bounds in a leaderboard of ", n));
    }
    return scores[static_cast<size_t>(position - 1)];
  };
  int64_t gold_pos, silver_pos, bronze_pos;
  if (n < 100) {
    gold_pos = std::max<int64_t>(1, Truncated(n, 0.1));
    silver_pos = std::max<int64_t>(1, Truncated(n, 0.2));
    bronze_pos = std::max<int64_t>(1, Truncated(n, 0.4));
  } else if (n < 250) {
    gold_pos = 10;
    silver_pos = std::max<int64_t>(1, Truncated(n, 0.2));
    bronze_pos = std::max<int64_t>(1, Truncated(n, 0.4));
  } else if (n < 1000) {
    gold_pos = 10 + Truncated(n, 0.002);
    silver_pos = 50;
    bronze_pos = 100;
  } else {
    gold_pos = 10 + Truncated(n, 0.002);
    silver_pos = std::max<int64_t>(1, Truncated(n, 0.05));
    bronze_pos = std::max<int64_t>(1, Truncated(n, 0.1));
  }
  MedalThresholds t;
  absl::StatusOr<double> v = at(gold_pos);
  if (!v.ok()) return v.status();
  t.gold = *v;
  if (!(v = at(silver_pos)).ok()) return v.status();
  t.silver = *v;
  if (!(v = at(bronze_pos)).ok()) return v.status();
  t.bronze = *v;
  t.median = PandasMedian(scores);
  t.is_lower_better = scores.front() < scores.back();
  return t;
}

absl::StatusOr<MedalThresholds> ThresholdsFromLeaderboardFile(const std::string& path,
                                                              std::vector<double>* scores) {
  ASSIGN_OR_RETURN(std::vector<double> read, ReadLeaderboardScores(path));
  absl::StatusOr<MedalThresholds> t = ThresholdsFromLeaderboard(read);
  if (!t.ok()) return absl::Status(t.status().code(), absl::StrCat(path, ": ", t.status().message()));
  if (scores != nullptr) *scores = std::move(read);
  return t;
}

std::optional<size_t> FirstScoreOutOfOrder(const std::vector<double>& scores) {
  if (scores.empty()) return std::nullopt;
  const bool lower_is_better = scores.front() < scores.back();
  std::optional<double> worst_so_far;
  for (size_t i = 0; i < scores.size(); ++i) {
    const double v = scores[i];
    if (std::isnan(v)) continue;
    if (worst_so_far.has_value() && (lower_is_better ? v < *worst_so_far : v > *worst_so_far)) {
      return i + 1;
    }
    worst_so_far = v;
  }
  return std::nullopt;
}

absl::StatusOr<std::map<std::string, MedalThresholds, std::less<>>> ReadThresholdsTable(
    const std::string& path) {
  CsvReadOptions options;
  options.string_columns = {"competition_id"};
  ASSIGN_OR_RETURN(Table table, ReadCsvFile(path, options));
  const char* required[] = {"competition_id", "gold", "silver", "bronze", "median",
                            "is_lower_better"};
  for (const char* name : required) {
    if (table.Find(name) == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": missing column `", name, "`"));
    }
  }
  const Column& ids = *table.Find("competition_id");
  const Column& lower = *table.Find("is_lower_better");
  std::map<std::string, MedalThresholds, std::less<>> out;
  for (size_t i = 0; i < table.num_rows(); ++i) {
    const std::string where = absl::StrCat(path, " line ", i + 2);
    if (!std::holds_alternative<std::string>(ids.cells[i])) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": missing competition_id"));
    }
    MedalThresholds t;
    double* fields[] = {&t.gold, &t.silver, &t.bronze, &t.median};
    for (int f = 0; f < 4; ++f) {
      ASSIGN_OR_RETURN(double v, NumericCell(table.Find(required[f + 1])->cells[i],
                                             absl::StrCat(where, ": ", required[f + 1])));
      *fields[f] = v;
    }
    if (!std::holds_alternative<bool>(lower.cells[i])) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": is_lower_better must be true/false"));
    }
    t.is_lower_better = std::get<bool>(lower.cells[i]);
    const std::string& id = std::get<std::string>(ids.cells[i]);
    if (!out.emplace(id, t).second) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": duplicate competition_id ", id));
    }
  }
  return out;
}

MedalResult RankScore(std::optional<double> score, const MedalThresholds& t) {
  MedalResult r;
  if (!score.has_value()) return r;
  const double s = *score;
  auto reaches = [&](double threshold) {
    return t.is_lower_better ? s <= threshold : s >= threshold;
  };
  r.gold = reaches(t.gold);
  r.silver = !r.gold && reaches(t.silver);
  r.bronze = !r.gold && !r.silver && reaches(t.bronze);
  r.above_median = t.is_lower_better ? s < t.median : s > t.median;
  return r;
}

std::string FormatThresholdsRow(std::string_view id, const MedalThresholds& t) {
  return absl::StrCat(std::string(id), ",", FormatPythonFloat(t.gold), ",",
                      FormatPythonFloat(t.silver), ",", FormatPythonFloat(t.bronze), ",",
                      FormatPythonFloat(t.median), ",", t.is_lower_better ? "true" : "false");
}

absl::StatusOr<ChosenThresholds> ChooseThresholds(std::string_view competition_id,
                                                  const std::string& leaderboard_csv,
                                                  const std::string& thresholds_csv) {
  if (!leaderboard_csv.empty()) {
    ASSIGN_OR_RETURN(MedalThresholds thresholds, ThresholdsFromLeaderboardFile(leaderboard_csv));
    return ChosenThresholds{thresholds, "leaderboard"};
  }
  ASSIGN_OR_RETURN(auto table, ReadThresholdsTable(thresholds_csv));
  auto it = table.find(competition_id);
  if (it == table.end()) {
    return absl::NotFoundError(
        absl::StrCat("no medal thresholds for '", std::string(competition_id), "'"));
  }
  return ChosenThresholds{it->second, "embedded"};
}

}  // namespace mlebench
