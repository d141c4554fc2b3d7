// Upstream's champs-scalar-coupling/prepare.py: Kaggle's train.csv split
// 90/10 by molecule (sklearn's train_test_split over the molecule groups, in
// molecule_name order). public/ gets train.csv, test.csv (without the
// target), a sample submission (target 0), the per-molecule CSVs
// (structures, dipole_moments, magnetic_shielding_tensors, mulliken_charges,
// potential_energy, scalar_coupling_contributions) filtered to the train
// molecules, and structures/<molecule_name>.xyz for each train molecule;
// private/answers.csv is the test rows with the target.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMoleculeColumn = "molecule_name";
constexpr std::string_view kTargetColumn = "scalar_coupling_constant";
// The per-molecule CSVs, filtered to the train molecules, in upstream's order.
constexpr std::string_view kDataCsvs[] = {
    "structures", "dipole_moments", "magnetic_shielding_tensors", "mulliken_charges",
    "potential_energy", "scalar_coupling_contributions"};

// Molecule names as text (Kaggle's "dsgdb9nsd_000001"); they name files, so
// they must stay inside structures/.
absl::StatusOr<std::vector<std::string>> MoleculeNames(const Table& table,
                                                       std::string_view file) {
  absl::StatusOr<const Column*> column = table.Get(kMoleculeColumn);
  if (!column.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(file), ": no molecule_name column"));
  }
  std::vector<std::string> names;
  names.reserve((*column)->cells.size());
  for (size_t row = 0; row < (*column)->cells.size(); ++row) {
    const std::string* name = std::get_if<std::string>(&(*column)->cells[row]);
    if (name == nullptr || !IsPlainFileName(*name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          std::string(file), " row ", row, ": molecule_name must be text naming a molecule"));
    }
    names.push_back(*name);
  }
  return names;
}

// `df[df["molecule_name"].isin(keep)]`, checking upstream's assert that the
// kept rows cover exactly the molecules of `keep`.
absl::StatusOr<Table> FilterToMolecules(const Table& table, std::string_view name,
                                        const std::set<std::string>& keep) {
  ASSIGN_OR_RETURN(std::vector<std::string> names, MoleculeNames(table, name));
  std::vector<int64_t> rows;
  std::set<std::string> seen;
  for (size_t row = 0; row < names.size(); ++row) {
    if (!keep.contains((names)[row])) continue;
    rows.push_back(static_cast<int64_t>(row));
    seen.insert((names)[row]);
  }
  if (seen != keep) {
    return CheckFailed(absl::StrCat("Filtered ", std::string(name),
                                    " should exactly match the molecule names present in the "
                                    "new_train set."));
  }
  return TakeRows(table, rows);
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((raw / "train.csv").string()));
  ASSIGN_OR_RETURN(std::vector<std::string> molecules, MoleculeNames(old_train, "train.csv"));

  // groupby("molecule_name"): groups in name order, rows in file order.
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split, TrainTestSplitGroups(molecules, options));
  const std::vector<int64_t>& train_rows = split.train_indices;
  ASSIGN_OR_RETURN(Table new_train, TakeRows(old_train, train_rows));
  ASSIGN_OR_RETURN(Table answers, TakeRows(old_train, split.test_indices));
  ASSIGN_OR_RETURN(Table new_test, (DropColumns(answers, {std::string(kTargetColumn)})));
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(new_test, {"id"})));
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, kTargetColumn, Cell(int64_t{0})));

  // The train molecules, as a set and in order of first appearance.
  std::set<std::string> train_molecules;
  std::vector<std::string> train_molecule_order;
  for (int64_t row : train_rows) {
    if (train_molecules.insert((molecules)[row]).second) {
      train_molecule_order.push_back((molecules)[row]);
    }
  }
  std::vector<std::pair<std::string, Table>> data_tables;
  for (std::string_view name : kDataCsvs) {
    const std::string file = std::string(name) + ".csv";
    ASSIGN_OR_RETURN(Table table, ReadCsvFile((raw / file).string()));
    ASSIGN_OR_RETURN(Table filtered, FilterToMolecules(table, file, train_molecules));
    data_tables.emplace_back(file, std::move(filtered));
  }

  // Upstream's remaining checks (disjoint molecules, and so ids, hold by
  // construction when ids are unique; upstream checks ids too).
  std::set<Cell> train_ids;
  for (const Cell& id : new_train.Find("id")->cells) train_ids.insert(id);
  for (const Cell& id : new_test.Find("id")->cells) {
    if (train_ids.contains(id)) {
      return CheckFailed("Train and test sets should not share any samples with the same id.");
    }
  }
  if (new_test.num_columns() != 5) {
    return CheckFailed(
        absl::StrCat("new_test should have 5 columns, but has ", new_test.num_columns()));
  }
  if (answers.num_columns() != 6) {
    return CheckFailed(
        absl::StrCat("answers should have 6 columns, but has ", answers.num_columns()));
  }

  std::error_code error;
  fs::create_directories(public_dir / "structures", error);
  for (const std::string& molecule : train_molecule_order) {
    if (!error) {
      fs::copy_file(raw / "structures" / (molecule + ".xyz"),
                    public_dir / "structures" / (molecule + ".xyz"),
                    fs::copy_options::overwrite_existing, error);
    }
    if (error) {
      return absl::InternalError(
          absl::StrCat("cannot copy structures/", molecule, ".xyz: ", error.message()));
    }
  }

  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  for (const auto& [table, file] : {
           std::pair{&new_train, std::string("train.csv")},
           std::pair{&new_test, std::string("test.csv")},
           std::pair{&sample_submission, std::string("sample_submission.csv")},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, (public_dir / file).string()));
  }
  for (const auto& [file, table] : data_tables) {
    RETURN_IF_ERROR(WriteCsvFile(table, (public_dir / file).string()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(
    CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
