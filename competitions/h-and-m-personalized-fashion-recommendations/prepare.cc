// Upstream's h-and-m-personalized-fashion-recommendations/prepare.py: the
// last week of transactions_train.csv (every day from the last date minus 7
// days on) becomes the test period. public/ gets the earlier transactions,
// Kaggle's sample_submission.csv, articles.csv, customers.csv and images/
// unchanged; private/answers.csv lists, per customer who bought something in
// the test period (sorted by customer_id), the article ids bought, in file
// order, joined by spaces.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kTestDays = 7;

// Days since 1970-01-01 of a "YYYY-MM-DD" date (the format of Kaggle's
// t_dat), or nullopt for anything else.
std::optional<int64_t> DayNumber(const Cell& cell) {
  const std::string* text = std::get_if<std::string>(&cell);
  if (text == nullptr || text->size() != 10 || (*text)[4] != '-' || (*text)[7] != '-') {
    return std::nullopt;
  }
  for (int i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if ((*text)[i] < '0' || (*text)[i] > '9') return std::nullopt;
  }
  const int year = std::stoi(text->substr(0, 4));
  const unsigned month = static_cast<unsigned>(std::stoi(text->substr(5, 2)));
  const unsigned day = static_cast<unsigned>(std::stoi(text->substr(8, 2)));
  const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(month),
                                         std::chrono::day(day)};
  if (!date.ok()) return std::nullopt;
  return std::chrono::sys_days(date).time_since_epoch().count();
}

// Python's `<` between two groupby keys: numbers by value, strings by code
// point (UTF-8 byte order). A column mixing both cannot be grouped (pandas
// raises TypeError when sorting the keys).
absl::StatusOr<bool> KeyLess(const Cell& a, const Cell& b) {
  const std::string* text_a = std::get_if<std::string>(&a);
  const std::string* text_b = std::get_if<std::string>(&b);
  if (text_a != nullptr && text_b != nullptr) return *text_a < *text_b;
  const std::optional<double> number_a = NumericValue(a);
  const std::optional<double> number_b = NumericValue(b);
  if (text_a == nullptr && text_b == nullptr && number_a && number_b) {
    if (std::holds_alternative<int64_t>(a) && std::holds_alternative<int64_t>(b)) {
      return std::get<int64_t>(a) < std::get<int64_t>(b);
    }
    return *number_a < *number_b;
  }
  return absl::InvalidArgumentError(
      "transactions_train.csv: customer_id mixes text and numbers; its values cannot be sorted");
}

// `new_test.groupby("customer_id")["article_id"].apply(" ".join of str)`
// with reset_index: one row per customer (missing ids dropped, as groupby
// does), keys sorted, each group's articles in row order.
absl::StatusOr<Table> AnswersByCustomer(const Column& customers, const Column& articles,
                                        const std::vector<int64_t>& test_rows) {
  std::vector<int64_t> rows;
  for (int64_t row : test_rows) {
    if (!IsMissing(customers.cells[row])) rows.push_back(row);
  }
  absl::Status error;
  std::stable_sort(rows.begin(), rows.end(), [&](int64_t a, int64_t b) {
    absl::StatusOr<bool> less = KeyLess(customers.cells[a], customers.cells[b]);
    if (!less.ok()) {
      error = less.status();
      return false;
    }
    return *less;
  });
  if (!error.ok()) return error;
  Column ids{.name = "customer_id", .dtype = customers.dtype, .cells = {}};
  Column predictions{.name = "prediction", .dtype = Dtype::kObject, .cells = {}};
  for (size_t begin = 0; begin < rows.size();) {
    size_t end = begin + 1;
    while (end < rows.size() && CellsEqual(customers.cells[rows[begin]], customers.cells[rows[end]])) {
      ++end;
    }
    std::vector<std::string> bought;
    for (size_t i = begin; i < end; ++i) bought.push_back(PythonStr(articles.cells[rows[i]]));
    ids.cells.push_back(customers.cells[rows[begin]]);
    predictions.cells.push_back(absl::StrJoin(bought, " "));
    begin = end;
  }
  return Table({std::move(ids), std::move(predictions)});
}

absl::Status CopyFile(const fs::path& from, const fs::path& to) {
  if (!fs::is_regular_file(from)) {
    return absl::NotFoundError(absl::StrCat("raw data has no file ", from.string()));
  }
  std::error_code error;
  fs::copy_file(from, to, fs::copy_options::overwrite_existing, error);
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot copy ", from.string(), " to ", to.string(), ": ", error.message()));
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "transactions_train.csv").string()));
  // Upstream asserts these columns (in this order) after its writes; we check
  // first so that bad input leaves no output.
  const std::vector<std::string> expected_columns = {"t_dat", "customer_id", "article_id", "price",
                                                     "sales_channel_id"};
  if (old_train.ColumnNames() != expected_columns) {
    return absl::FailedPreconditionError(
        absl::StrCat("check failed: Unexpected columns in transactions_train.csv, expected [",
                     absl::StrJoin(expected_columns, ", "), "], got [",
                     absl::StrJoin(old_train.ColumnNames(), ", "), "]"));
  }
  const Column& dates = *old_train.Find("t_dat");
  const Column& customers = *old_train.Find("customer_id");
  const Column& articles = *old_train.Find("article_id");
  if (old_train.num_rows() == 0) {
    return absl::InvalidArgumentError("transactions_train.csv has no transactions");
  }
  std::vector<int64_t> days;
  days.reserve(old_train.num_rows());
  for (size_t row = 0; row < old_train.num_rows(); ++row) {
    std::optional<int64_t> day = DayNumber(dates.cells[row]);
    if (!day) {
      return absl::InvalidArgumentError(
          absl::StrCat("transactions_train.csv: t_dat must be a YYYY-MM-DD date, got '",
                       PythonStr(dates.cells[row]), "' on data row ", row + 1));
    }
    days.push_back(*day);
  }
  const int64_t first_test_day = *std::max_element(days.begin(), days.end()) - kTestDays;
  std::vector<int64_t> train_rows, test_rows;
  for (size_t row = 0; row < days.size(); ++row) {
    (days[row] >= first_test_day ? test_rows : train_rows).push_back(static_cast<int64_t>(row));
  }

  // Upstream's check: no purchase (customer, article, date) in both periods.
  auto purchase_id = [&](int64_t row) {
    return absl::StrCat(PythonStr(customers.cells[row]), "_", PythonStr(articles.cells[row]), "_",
                        PythonStr(dates.cells[row]));
  };
  std::set<std::string> train_purchases;
  for (int64_t row : train_rows) train_purchases.insert(purchase_id(row));
  for (int64_t row : test_rows) {
    if (train_purchases.count(purchase_id(row)) > 0) {
      return absl::FailedPreconditionError(
          "check failed: No purchase_ids should be shared between new_test and new_train");
    }
  }

  ASSIGN_OR_RETURN(Table new_train, TakeRows(old_train, train_rows));
  ASSIGN_OR_RETURN(Table answers, AnswersByCustomer(customers, articles, test_rows));

  for (const char* name : {"sample_submission.csv", "articles.csv", "customers.csv"}) {
    RETURN_IF_ERROR(CopyFile(raw / name, public_dir / name));
  }
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(new_train, (public_dir / "transactions_train.csv").string()));
  if (!fs::is_directory(raw / "images")) {
    return absl::NotFoundError(absl::StrCat("raw data has no directory ", (raw / "images").string()));
  }
  std::error_code error;
  fs::copy(raw / "images", public_dir / "images",
           fs::copy_options::recursive | fs::copy_options::overwrite_existing, error);
  if (error) {
    return absl::InternalError(absl::StrCat("cannot copy ", (raw / "images").string(), ": ",
                                            error.message()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
