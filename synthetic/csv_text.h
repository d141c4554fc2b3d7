#ifndef MLEBENCH_SYNTHETIC_CSV_TEXT_H_
#define MLEBENCH_SYNTHETIC_CSV_TEXT_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace mlebench {

// How string fields are quoted; numbers, booleans and missing values never
// are. A quoted field has its '"' doubled.
enum class CsvStringQuoting {
  // Only fields holding ',', '"', '\n' or '\r' (pandas' to_csv; most Kaggle
  // files).
  kMinimal,
  // Every string field (R's write.csv; some Kaggle files, e.g. spooky's).
  kAll,
};

// Builds CSV text row by row, with "," separators and "\n" line ends, the way
// Kaggle's raw files are written. Unlike base/csv.h's WriteCsvString (a
// Table written as pandas would), the caller controls each field's spelling
// and quoting, so that generators can imitate files pandas did not write.
class CsvTextBuilder {
 public:
  explicit CsvTextBuilder(CsvStringQuoting quoting = CsvStringQuoting::kMinimal)
      : quoting_(quoting) {}

  CsvTextBuilder& String(std::string_view value);
  CsvTextBuilder& Int(int64_t value);
  // Python's repr: 39.0, 0.1, 1e-05.
  CsvTextBuilder& Float(double value);
  // True / False, as pandas writes them.
  CsvTextBuilder& Bool(bool value);
  // An empty field, which pandas reads as NaN.
  CsvTextBuilder& Missing();
  // Ends the current row.
  CsvTextBuilder& EndRow();
  // A whole row of string fields (e.g. the header).
  CsvTextBuilder& Row(std::initializer_list<std::string_view> values);

  const std::string& text() const { return text_; }

 private:
  void StartField();

  CsvStringQuoting quoting_;
  std::string text_;
  bool at_row_start_ = true;
};

}  // namespace mlebench

#endif  // MLEBENCH_SYNTHETIC_CSV_TEXT_H_
