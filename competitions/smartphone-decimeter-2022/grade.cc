// Upstream's smartphone-decimeter-2022/grade.py: for each trip of the answers
// (in order of first appearance), the submission's rows of that trip are
// paired with the answers' rows by position and scored with the notebook's
// calc_score (mean of the 50th and 95th percentile haversine distances, in
// metres); the grade is the mean over trips. Lower is better.
//
// Rows are matched by position within a trip, not by UnixTimeMillis: upstream
// only checks that the column exists.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "grading/grader.h"
#include "grading/metrics/regression/haversine.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

constexpr const char* kColumns[] = {"tripId", "UnixTimeMillis", "LatitudeDegrees",
                                    "LongitudeDegrees"};

// The row positions of each trip id (text), in row order; ids that are
// missing or not text (they never equal an answers' trip id) are left out.
std::map<std::string, std::vector<size_t>> RowsByTrip(const Column& trip_ids) {
  std::map<std::string, std::vector<size_t>> rows;
  for (size_t row = 0; row < trip_ids.cells.size(); ++row) {
    if (const std::string* id = std::get_if<std::string>(&trip_ids.cells[row])) {
      rows[*id].push_back(row);
    }
  }
  return rows;
}

// The column's values at `rows` as numpy's deg2rad sees them: ints and floats
// as doubles (NaN for missing), bools as 1.0/0.0 (AngleDtypeOf says to take
// them as float16 angles). Text (an object column) makes np.deg2rad raise a
// TypeError: nullopt.
std::optional<std::vector<double>> Numbers(const Column& column, const std::vector<size_t>& rows) {
  if (column.dtype == Dtype::kObject) return std::nullopt;
  std::vector<double> values;
  values.reserve(rows.size());
  for (size_t row : rows) {
    const Cell& cell = column.cells[row];
    if (const double* d = std::get_if<double>(&cell)) {
      values.push_back(*d);
    } else if (const int64_t* i = std::get_if<int64_t>(&cell)) {
      values.push_back(static_cast<double>(*i));
    } else if (const bool* b = std::get_if<bool>(&cell)) {
      values.push_back(*b ? 1.0 : 0.0);
    } else {
      return std::nullopt;
    }
  }
  return values;
}

AngleDtype AngleDtypeOf(const Column& column) {
  return column.dtype == Dtype::kBool ? AngleDtype::kBool : AngleDtype::kFloat64;
}

absl::StatusOr<double> Grade(const Table& submission, const Table& answers) {
  for (const char* name : kColumns) {
    if (answers.Find(name) == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("answers lack the '", name, "' column"));
    }
  }
  for (const char* name : kColumns) {
    if (submission.Find(name) == nullptr) {
      return InvalidSubmission(absl::StrCat("Submission must have a '", name, "' column."));
    }
  }
  if (submission.num_rows() != answers.num_rows()) {
    return InvalidSubmission(absl::StrCat("Submission has ", submission.num_rows(),
                                          " rows but the answers have ", answers.num_rows(),
                                          "; they must have the same number of rows."));
  }

  const Column& answer_trips = *answers.Find("tripId");
  std::vector<std::string> trip_order;  // answers["tripId"].unique()
  std::set<std::string> seen;
  for (const Cell& cell : answer_trips.cells) {
    const std::string* id = std::get_if<std::string>(&cell);
    if (id == nullptr) {
      return absl::InvalidArgumentError("answers have a missing 'tripId'");
    }
    if (seen.insert(*id).second) trip_order.push_back(*id);
  }
  const std::map<std::string, std::vector<size_t>> answer_rows = RowsByTrip(answer_trips);
  const std::map<std::string, std::vector<size_t>> submission_rows =
      RowsByTrip(*submission.Find("tripId"));

  std::vector<double> scores;
  for (const std::string& trip : trip_order) {
    const std::vector<size_t>& truth_rows = answer_rows.at(trip);
    const auto found = submission_rows.find(trip);
    const std::vector<size_t> none;
    const std::vector<size_t>& pred_rows = found == submission_rows.end() ? none : found->second;
    if (pred_rows.size() != truth_rows.size()) {
      return InvalidSubmission(absl::StrCat("Submission has ", pred_rows.size(),
                                            " rows for tripId ", trip, " but the answers have ",
                                            truth_rows.size(), "."));
    }
    std::optional<std::vector<double>> true_lat = Numbers(*answers.Find("LatitudeDegrees"), truth_rows);
    std::optional<std::vector<double>> true_lng = Numbers(*answers.Find("LongitudeDegrees"), truth_rows);
    if (!true_lat || !true_lng) {
      return absl::InvalidArgumentError("answers' LatitudeDegrees/LongitudeDegrees are not numeric");
    }
    std::optional<std::vector<double>> pred_lat = Numbers(*submission.Find("LatitudeDegrees"), pred_rows);
    std::optional<std::vector<double>> pred_lng = Numbers(*submission.Find("LongitudeDegrees"), pred_rows);
    if (!pred_lat || !pred_lng) {
      return InvalidSubmission(
          "LatitudeDegrees and LongitudeDegrees must be numbers (np.deg2rad rejects text)");
    }
    ASSIGN_OR_RETURN(double score,
                     TripHaversineScore(*pred_lat, *pred_lng, *true_lat, *true_lng,
                                        AngleDtypeOf(*submission.Find("LatitudeDegrees")),
                                        AngleDtypeOf(*submission.Find("LongitudeDegrees"))));
    scores.push_back(score);
  }
  return NumpyMean(scores);
}

}  // namespace

MLEBENCH_REGISTER_GRADER(CompetitionGrader{
    .id = MLEBENCH_COMPETITION_ID,
    .grade = &Grade,
    .submission_csv = {.string_columns = {"tripId"}},
    .answers_csv = {.string_columns = {"tripId"}},
});

}  // namespace mlebench
