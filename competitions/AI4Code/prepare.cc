// Upstream's AI4Code/prepare.py: Kaggle's training notebooks are split into
// a new train set and a 20000-notebook test set such that no test notebook
// shares an ancestor (the notebook it was forked from) with a train notebook:
// after shuffling train_ancestors.csv (pandas' sample(frac=1,
// random_state=0)), whole ancestor groups, in order of first appearance, go
// to the test set while they fit. The notebooks' JSON files are copied as is;
// train_orders.csv is split accordingly (the test part is the answers), and
// the sample submission lists each test notebook's cells in the order of its
// JSON file's `cell_type` object.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "pycompat/numpy_random.h"
#include "pycompat/python_json.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr size_t kTestSize = 20000;

struct Split {
  std::vector<Cell> train_ids, test_ids;
};

// Upstream's create_train_test_split on the shuffled ancestors table.
absl::StatusOr<Split> SplitOnAncestors(const Table& ancestors, size_t test_size) {
  ASSIGN_OR_RETURN(const Column* ids, ancestors.Get("id"));
  ASSIGN_OR_RETURN(const Column* ancestor_ids, ancestors.Get("ancestor_id"));
  // Groups in order of first appearance (a Python dict's order). Missing
  // ancestors (pandas' NaN) form one group.
  std::map<Cell, size_t> group_of;
  std::vector<std::vector<size_t>> groups;
  for (size_t row = 0; row < ancestors.num_rows(); ++row) {
    const Cell& key = ancestor_ids->cells[row];
    const Cell normalized = IsMissing(key) ? Cell() : key;
    auto [it, inserted] = group_of.try_emplace(normalized, groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].push_back(row);
  }
  Split split;
  for (const std::vector<size_t>& rows : groups) {
    std::vector<Cell>& side =
        split.test_ids.size() + rows.size() <= test_size ? split.test_ids : split.train_ids;
    for (size_t row : rows) side.push_back(ids->cells[row]);
  }
  if (split.test_ids.size() != test_size) {
    return absl::FailedPreconditionError(
        absl::StrCat("the ancestor groups fill ", split.test_ids.size(), " test notebooks, not ",
                     test_size, " (upstream's assert)"));
  }
  return split;
}

// The rows of `table` whose `id` is (or, with `keep` false, is not) among
// `ids`, in table order: `table[table["id"].isin(ids)]`.
absl::StatusOr<Table> RowsWithIds(const Table& table, const std::set<Cell>& ids, bool keep) {
  ASSIGN_OR_RETURN(const Column* column, table.Get("id"));
  std::vector<int64_t> rows;
  for (size_t row = 0; row < table.num_rows(); ++row) {
    if ((ids.count(column->cells[row]) != 0) == keep) rows.push_back(static_cast<int64_t>(row));
  }
  return TakeRows(table, rows);
}

absl::Status CopyNotebooks(const fs::path& from_dir, const fs::path& to_dir,
                           const std::vector<Cell>& ids) {
  std::vector<std::string> names;
  for (const Cell& id : ids) names.push_back(PythonStr(id));
  return CopyNamedFiles(from_dir, to_dir, names, ".json");
}

// `" ".join(json.load(f)["cell_type"].keys())` for one notebook file.
absl::StatusOr<std::string> CellTypeKeys(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path.filename().string()));
  absl::StatusOr<JsonValue> notebook = ParseJson(bytes.str());
  if (!notebook.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path.filename().string(), ": ",
                                                   std::string(notebook.status().message())));
  }
  const JsonValue* cell_types = notebook->is_object() ? notebook->Find("cell_type") : nullptr;
  if (cell_types == nullptr || !cell_types->is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path.filename().string(), ": no \"cell_type\" object"));
  }
  std::string order;
  for (size_t i = 0; i < cell_types->members.size(); ++i) {
    if (i > 0) order += " ";
    order += cell_types->members[i].key;
  }
  return order;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table read_ancestors, ReadCsvFile((raw / "train_ancestors.csv").string()));
  const std::vector<int64_t> shuffled = NumpyRandomState(0).Permutation(read_ancestors.num_rows());
  ASSIGN_OR_RETURN(Table ancestors, TakeRows(read_ancestors, shuffled));
  ASSIGN_OR_RETURN(Split split, SplitOnAncestors(ancestors, kTestSize));

  RETURN_IF_ERROR(CopyNotebooks(raw / "train", public_dir / "train", split.train_ids));
  RETURN_IF_ERROR(CopyNotebooks(raw / "train", public_dir / "test", split.test_ids));

  ASSIGN_OR_RETURN(Table train_orders, ReadCsvFile((raw / "train_orders.csv").string()));
  const std::set<Cell> train_ids(split.train_ids.begin(), split.train_ids.end());
  const std::set<Cell> test_ids(split.test_ids.begin(), split.test_ids.end());
  ASSIGN_OR_RETURN(Table new_train_orders, RowsWithIds(train_orders, train_ids, true));
  ASSIGN_OR_RETURN(Table test_orders, RowsWithIds(train_orders, test_ids, true));
  ASSIGN_OR_RETURN(Table new_ancestors, RowsWithIds(ancestors, test_ids, false));
  for (const auto& [table, path] : {
           std::pair<const Table*, fs::path>{&new_train_orders, public_dir / "train_orders.csv"},
           {&test_orders, private_dir / "test_orders.csv"},
           {&new_ancestors, public_dir / "train_ancestors.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }

  // The sample submission: each answer row's id and its cells in file order.
  const Column& answer_ids = *test_orders.Find("id");
  Column sample_orders{.name = "cell_order", .dtype = Dtype::kObject, .cells = {}};
  for (const Cell& id : answer_ids.cells) {
    ASSIGN_OR_RETURN(std::string order,
                     CellTypeKeys(public_dir / "test" / (PythonStr(id) + ".json")));
    sample_orders.cells.push_back(std::move(order));
  }
  if (answer_ids.cells.size() != split.test_ids.size()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Sample submission length does not match test length: train_orders.csv has ",
        answer_ids.cells.size(), " of the ", split.test_ids.size(), " test notebooks"));
  }
  Column sample_ids = answer_ids;
  sample_ids.name = "id";
  const Table sample_submission({std::move(sample_ids), std::move(sample_orders)});
  return WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
