#include "synthetic/csv_text.h"

#include "absl/strings/str_cat.h"
#include "base/python_float.h"

namespace mlebench {

void CsvTextBuilder::StartField() {
  if (!at_row_start_) text_ += ',';
  at_row_start_ = false;
}

CsvTextBuilder& CsvTextBuilder::String(std::string_view value) {
  StartField();
  const bool quote = quoting_ == CsvStringQuoting::kAll ||
                     value.find_first_of(",\"\n\r") != std::string_view::npos;
  if (!quote) {
    text_ += value;
    return *this;
  }
  text_ += '"';
  for (char c : value) {
    if (c == '"') text_ += '"';
    text_ += c;
  }
  text_ += '"';
  return *this;
}

CsvTextBuilder& CsvTextBuilder::Int(int64_t value) {
  StartField();
  absl::StrAppend(&text_, value);
  return *this;
}

CsvTextBuilder& CsvTextBuilder::Float(double value) {
  StartField();
  text_ += FormatPythonFloat(value);
  return *this;
}

CsvTextBuilder& CsvTextBuilder::Bool(bool value) {
  StartField();
  text_ += value ? "True" : "False";
  return *this;
}

CsvTextBuilder& CsvTextBuilder::Missing() {
  StartField();
  return *this;
}

CsvTextBuilder& CsvTextBuilder::EndRow() {
  text_ += '\n';
  at_row_start_ = true;
  return *this;
}

CsvTextBuilder& CsvTextBuilder::Row(std::initializer_list<std::string_view> values) {
  for (std::string_view value : values) String(value);
  return EndRow();
}

}  // namespace mlebench
