#include "base/table.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mlebench {

std::string_view DtypeName(Dtype dtype) {
  switch (dtype) {
    case Dtype::kInt64:
      return "int64";
    case Dtype::kFloat64:
      return "float64";
    case Dtype::kBool:
      return "bool";
    case Dtype::kObject:
      return "object";
  }
  return "object";
}

const Column* Table::Find(std::string_view name) const {
  for (const Column& c : columns_) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

Column* Table::FindMutable(std::string_view name) {
  for (Column& c : columns_) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

absl::StatusOr<const Column*> Table::Get(std::string_view name) const {
  const Column* c = Find(name);
  if (c == nullptr) return absl::NotFoundError(absl::StrCat("no column named '", std::string(name), "'"));
  return c;
}

std::vector<std::string> Table::ColumnNames() const {
  std::vector<std::string> names;
  names.reserve(columns_.size());
  for (const Column& c : columns_) names.push_back(c.name);
  return names;
}

}  // namespace mlebench
