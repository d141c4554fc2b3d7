// Upstream's nomad2018-predict-transparent-conductors/prepare.py: a 90/10
// split of Kaggle's labelled train.csv (inside train.csv.zip), ids renumbered
// 1, 2, ... within each split, and each material's geometry file (inside
// train.zip, as train/<id>/geometry.xyz) copied to
// public/{train,test}/<new id>/geometry.xyz.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/python_int.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// A table and the file it is written to.
using CsvOutput = std::pair<const Table*, fs::path>;

constexpr char kFormation[] = "formation_energy_ev_natom";
constexpr char kBandgap[] = "bandgap_energy_ev";
constexpr double kSampleFormation = 0.1779;
constexpr double kSampleBandgap = 1.8892;

// `{old: new for new, old in enumerate(ids, start=1)}`: a repeated id keeps
// its last position.
absl::StatusOr<std::map<int64_t, int64_t>> NewIds(const Column& ids) {
  if (ids.dtype != Dtype::kInt64) {
    return absl::InvalidArgumentError(
        absl::StrCat("train.csv's id column must hold integers, found dtype ",
                     std::string(DtypeName(ids.dtype))));
  }
  std::map<int64_t, int64_t> new_ids;
  for (size_t row = 0; row < ids.cells.size(); ++row) {
    new_ids[std::get<int64_t>(ids.cells[row])] = static_cast<int64_t>(row) + 1;
  }
  return new_ids;
}

// `table["id"] = table["id"].map(new_ids)`.
void RenumberIds(Table& table, const std::map<int64_t, int64_t>& new_ids) {
  for (Cell& cell : table.FindMutable("id")->cells) cell = new_ids.at(std::get<int64_t>(cell));
}

// A geometry file found by `glob("<root>/*/*.xyz")`, with its folder's id.
struct GeometryFile {
  fs::path path;
  std::string relative;       // "<folder>/<file>", for messages
  std::optional<int64_t> id;  // nullopt: an integer no int64 id can equal
};

bool IsHidden(const std::string& name) { return !name.empty() && name[0] == '.'; }

// sorted(glob.glob(f"{root}/**/*.xyz")): without recursive=True, "**" is
// "*", so this is every non-hidden *.xyz entry in a non-hidden folder just
// below `root`, in code-point order of the path. Upstream takes int() of
// every such folder name before looking at the id, so one that is not an
// integer is an error (int()'s ValueError) even when no row uses it.
absl::StatusOr<std::vector<GeometryFile>> FindGeometryFiles(const fs::path& root) {
  std::vector<std::pair<std::string, fs::path>> found;  // ("<folder>/<file>", path)
  std::error_code error;
  if (!fs::is_directory(root, error)) return std::vector<GeometryFile>();  // glob finds nothing
  auto cannot_list = [](const fs::path& dir, const std::error_code& e) {
    return absl::InternalError(
        absl::StrCat("listing ", dir.filename().string(), ": ", e.message()));
  };
  for (fs::directory_iterator folder(root, error), end; folder != end; folder.increment(error)) {
    if (error) return cannot_list(root, error);
    const std::string folder_name = folder->path().filename().string();
    if (IsHidden(folder_name) || !folder->is_directory(error)) continue;
    for (fs::directory_iterator file(folder->path(), error); file != end; file.increment(error)) {
      if (error) return cannot_list(folder->path(), error);
      const std::string file_name = file->path().filename().string();
      if (IsHidden(file_name) || file_name.size() < 4 ||
          file_name.compare(file_name.size() - 4, 4, ".xyz") != 0) {
        continue;
      }
      found.emplace_back(folder_name + "/" + file_name, file->path());
    }
    if (error) return cannot_list(folder->path(), error);
  }
  if (error) return cannot_list(root, error);
  std::sort(found.begin(), found.end());
  std::vector<GeometryFile> files;
  for (const auto& [relative, path] : found) {
    // int() of the folder name; a valid integer beyond int64 can match no id.
    absl::StatusOr<int64_t> id = PythonIntFromString(path.parent_path().filename().string());
    if (!id.ok() && id.status().code() != absl::StatusCode::kOutOfRange) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.zip: folder of train/", relative, ": ", id.status().message()));
    }
    files.push_back({path, relative, id.ok() ? std::optional<int64_t>(*id) : std::nullopt});
  }
  return files;
}

// The copies upstream makes for one split: each new id's geometry.xyz comes
// from the last file (in glob order) whose folder is one of the split's old
// ids. Such a file must be a regular file (shutil.copy fails on a folder).
absl::StatusOr<std::map<int64_t, fs::path>> GeometrySources(
    const std::vector<GeometryFile>& files, const std::map<int64_t, int64_t>& new_ids) {
  std::map<int64_t, fs::path> sources;
  for (const GeometryFile& file : files) {
    if (!file.id) continue;
    auto it = new_ids.find(*file.id);
    if (it == new_ids.end()) continue;
    if (!fs::is_regular_file(file.path)) {
      return absl::InvalidArgumentError(
          absl::StrCat("train.zip: train/", file.relative, " is not a regular file"));
    }
    sources[it->second] = file.path;
  }
  return sources;
}

absl::Status CopyGeometry(const std::map<int64_t, fs::path>& sources, const fs::path& dir) {
  for (const auto& [new_id, source] : sources) {
    RETURN_IF_ERROR(CopyRegularFile(source, dir / absl::StrCat(new_id) / "geometry.xyz"));
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  // Upstream extracts these four into raw/ (test.zip and test.csv.zip only
  // to fail if they are missing or broken); we extract into scratch/.
  for (const char* name : {"train.zip", "train.csv.zip", "test.zip", "test.csv.zip"}) {
    const std::string archive(name);
    const fs::path dest = scratch / archive.substr(0, archive.size() - 4);
    RETURN_IF_ERROR(ExtractZip(raw / archive, dest));
  }
  ASSIGN_OR_RETURN(Table old_train, ReadCsvFile((scratch / "train.csv" / "train.csv").string()));

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestTables split, TrainTestSplitTable(old_train, options));
  Table& new_train = split.train;
  Table& new_test = split.test;
  if (new_train.Find("id") == nullptr) return absl::NotFoundError("train.csv has no 'id' column");
  absl::StatusOr<std::map<int64_t, int64_t>> train_ids = NewIds(*new_train.Find("id"));
  if (!train_ids.ok()) return train_ids.status();
  absl::StatusOr<std::map<int64_t, int64_t>> test_ids = NewIds(*new_test.Find("id"));
  if (!test_ids.ok()) return test_ids.status();
  RenumberIds(new_train, *train_ids);
  RenumberIds(new_test, *test_ids);

  ASSIGN_OR_RETURN(Table new_test_without_labels, (DropColumns(new_test, {kFormation, kBandgap})));
  ASSIGN_OR_RETURN(Table sample_submission, (SelectColumns(new_test, {"id"})));
  for (const auto& [column, value] :
       {std::pair{kFormation, kSampleFormation}, std::pair{kBandgap, kSampleBandgap}}) {
    RETURN_IF_ERROR(SetConstantColumn(sample_submission, column, value));
  }

  // Upstream checks each split's geometry count after copying it; we check
  // both before writing anything, so that bad input leaves no output.
  ASSIGN_OR_RETURN(std::vector<GeometryFile> geometry,
                   FindGeometryFiles(scratch / "train" / "train"));
  absl::StatusOr<std::map<int64_t, fs::path>> train_sources = GeometrySources(geometry, *train_ids);
  if (!train_sources.ok()) return train_sources.status();
  if (train_sources->size() != new_train.num_rows()) {
    return CheckFailed(absl::StrCat("Expected ", new_train.num_rows(),
                                    " train geometry files, found ", train_sources->size()));
  }
  absl::StatusOr<std::map<int64_t, fs::path>> test_sources = GeometrySources(geometry, *test_ids);
  if (!test_sources.ok()) return test_sources.status();
  if (test_sources->size() != new_test.num_rows()) {
    return CheckFailed(absl::StrCat("Expected ", new_test.num_rows(),
                                    " test geometry files, found ", test_sources->size()));
  }
  if (sample_submission.num_rows() != new_test.num_rows()) {
    return CheckFailed("Sample submission should have the same number of rows as the test set");
  }

  for (const auto& [table, path] : {
           CsvOutput{&new_train, public_dir / "train.csv"},
           CsvOutput{&new_test, private_dir / "test.csv"},
           CsvOutput{&new_test_without_labels, public_dir / "test.csv"},
           CsvOutput{&sample_submission, public_dir / "sample_submission.csv"},
       }) {
    RETURN_IF_ERROR(WriteCsvFile(*table, path.string()));
  }
  RETURN_IF_ERROR(CopyGeometry(*train_sources, public_dir / "train"));
  return CopyGeometry(*test_sources, public_dir / "test");
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
