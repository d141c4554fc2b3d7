// Upstream's h-and-m-personalized-fashion-recommendations/prepare.py: the
// last week of transactions_train.csv (every day from the last date minus 7
// days on) becomes the test period. public/ gets the earlier transactions,
// Kaggle's sample_submission.csv, articles.csv, customers.csv and images/
// unchanged; private/answers.csv lists, per customer who bought something in
// the test period (sorted by customer_id), the article ids bought, in file
// order, joined by spaces.
//
// Kaggle's transactions_train.csv has 31.8M rows (3.5 GB): held as a Table
// (~40 bytes a cell) it needed ~27 GiB. A plain file (no quotes and the like:
// base/csv_segments.h; Kaggle's dates, hex ids and numbers should be one) is
// streamed instead, 2**19 rows at a time (PrepareStreaming); any other file,
// and any the streamed path would refuse, is read whole (PrepareInMemory),
// which also gives every error. Both write the same bytes.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/csv.h"
#include "base/csv_segments.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "base/typed_csv_writer.h"
#include "base/typed_table.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/pandas_ops.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kTestDays = 7;

const std::vector<std::string>& ExpectedColumns() {
  static const std::vector<std::string>* const columns = new std::vector<std::string>{
      "t_dat", "customer_id", "article_id", "price", "sales_channel_id"};
  return *columns;
}

// Days since 1970-01-01 of a "YYYY-MM-DD" date (the format of Kaggle's
// t_dat), or nullopt for anything else.
std::optional<int64_t> DayNumber(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  for (int i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
  }
  auto number = [&](size_t begin, size_t size) {
    int value = 0;
    for (size_t i = begin; i < begin + size; ++i) value = value * 10 + (text[i] - '0');
    return value;
  };
  const int year = number(0, 4);
  const unsigned month = static_cast<unsigned>(number(5, 2));
  const unsigned day = static_cast<unsigned>(number(8, 2));
  const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(month),
                                         std::chrono::day(day)};
  if (!date.ok()) return std::nullopt;
  return std::chrono::sys_days(date).time_since_epoch().count();
}

std::optional<int64_t> DayNumber(const Cell& cell) {
  const std::string* text = std::get_if<std::string>(&cell);
  if (text == nullptr) return std::nullopt;
  return DayNumber(std::string_view(*text));
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
    while (end < rows.size() &&
           CellsEqual(customers.cells[rows[begin]], customers.cells[rows[end]])) {
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

// Copies Kaggle's other files, then writes answers.csv and, through
// `write_train`, transactions_train.csv, then copies images/ (upstream's
// order, so that a missing file fails at the same point on either path).
absl::Status WriteOutputs(const fs::path& raw, const fs::path& public_dir,
                          const fs::path& private_dir, const Table& answers,
                          const std::function<absl::Status()>& write_train) {
  for (const char* name : {"sample_submission.csv", "articles.csv", "customers.csv"}) {
    RETURN_IF_ERROR(CopyRegularFile(raw / name, public_dir / name));
  }
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  RETURN_IF_ERROR(write_train());
  if (!fs::is_directory(raw / "images")) {
    return absl::NotFoundError(
        absl::StrCat("raw data has no directory ", (raw / "images").string()));
  }
  std::error_code error;
  fs::copy(raw / "images", public_dir / "images",
           fs::copy_options::recursive | fs::copy_options::overwrite_existing, error);
  if (error) {
    return absl::InternalError(
        absl::StrCat("cannot copy ", (raw / "images").string(), ": ", error.message()));
  }
  return absl::OkStatus();
}

// The whole file as a Table.
absl::Status PrepareInMemory(const fs::path& raw, const fs::path& public_dir,
                             const fs::path& private_dir) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "transactions_train.csv").string()));
  // Upstream asserts these columns (in this order) after its writes; we check
  // first so that bad input leaves no output.
  const std::vector<std::string>& expected_columns = ExpectedColumns();
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

  return WriteOutputs(raw, public_dir, private_dir, answers, [&] {
    return WriteCsvFile(new_train, (public_dir / "transactions_train.csv").string());
  });
}

// The streamed path: false (nothing written) where it does not apply or the
// data is not what it expects (valid dates, the expected columns, a row at
// least); PrepareInMemory then gives the error. Two passes over the file:
// one finds the last date, one writes each train row to
// transactions_train.csv's temporary file and keeps the test rows' ids.
// Memory: a segment, and the test period's customer and article ids (Kaggle's
// last week: ~0.3M of the 31.8M rows).
//
// Upstream's check that no purchase id (customer_article_date) is in both
// periods is not made here because it cannot fail: the ids end in t_dat,
// which is ten characters on every row, so equal ids have equal dates, and
// every train date is before every test date.
absl::StatusOr<bool> PrepareStreaming(const fs::path& raw, const fs::path& public_dir,
                                      const fs::path& private_dir) {
  const fs::path path = raw / "transactions_train.csv";
  const std::optional<PlainCsvFile> file = ScanPlainCsvFile(path);
  if (!file.has_value() || file->rows == 0) return false;

  // The dates, checked, and the last of them.
  CsvColumnKinds kinds;
  bool expected = true;
  int64_t last_day = std::numeric_limits<int64_t>::min();
  ASSIGN_OR_RETURN(bool applies,
                   ForEachCsvSegment(path, *file, kinds, [&](const TypedTable& segment, size_t) {
                     if (!expected) return absl::OkStatus();
                     const TypedColumn* dates = segment.Find("t_dat");
                     if (segment.ColumnNames() != ExpectedColumns() ||
                         dates->storage() != TypedColumn::Storage::kText) {
                       expected = false;
                       return absl::OkStatus();
                     }
                     for (const std::string_view text : dates->text()) {
                       const std::optional<int64_t> day = DayNumber(text);
                       if (!day) {
                         expected = false;
                         break;
                       }
                       last_day = std::max(last_day, *day);
                     }
                     return absl::OkStatus();
                   }));
  if (!applies || !expected) return false;
  const int64_t first_test_day = last_day - kTestDays;

  // The train rows written, the test rows' ids kept.
  ASSIGN_OR_RETURN(TypedCsvRowsWriter train,
                   TypedCsvRowsWriter::Create((public_dir / "transactions_train.csv").string()));
  Column test_customers, test_articles;
  ASSIGN_OR_RETURN(
      applies, ForEachCsvSegment(path, *file, kinds, [&](const TypedTable& segment, size_t) {
        const TypedColumn& customers = *segment.Find("customer_id");
        const TypedColumn& articles = *segment.Find("article_id");
        if (test_customers.name.empty()) {
          test_customers = Column{customers.name(), customers.dtype(), {}};
          test_articles = Column{articles.name(), articles.dtype(), {}};
        }
        std::vector<int64_t> train_rows;
        const std::span<const std::string_view> dates = segment.Find("t_dat")->text();
        for (size_t row = 0; row < dates.size(); ++row) {
          const std::optional<int64_t> day = DayNumber(dates[row]);
          if (!day.has_value()) {  // every date parsed in the first pass
            return absl::InternalError("transactions_train.csv changed while it was read");
          }
          if (*day >= first_test_day) {
            test_customers.cells.push_back(customers.CellAt(row));
            test_articles.cells.push_back(articles.CellAt(row));
          } else {
            train_rows.push_back(static_cast<int64_t>(row));
          }
        }
        std::vector<const TypedColumn*> columns;
        for (const TypedColumn& column : segment.columns()) columns.push_back(&column);
        return train.Append(columns, train_rows);
      }));
  if (!applies) return false;
  std::vector<int64_t> test_rows(test_customers.cells.size());
  std::iota(test_rows.begin(), test_rows.end(), int64_t{0});
  ASSIGN_OR_RETURN(const Table answers,
                   AnswersByCustomer(test_customers, test_articles, test_rows));
  RETURN_IF_ERROR(
      WriteOutputs(raw, public_dir, private_dir, answers, [&] { return train.Finish(); }));
  return true;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(const bool done, PrepareStreaming(raw, public_dir, private_dir));
  if (done) return absl::OkStatus();
  return PrepareInMemory(raw, public_dir, private_dir);
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
