#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pycompat/train_test_split.h"
#include "synthetic/csv_text.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

// One material of the raw train.csv: its id, the CSV row after the id, and
// its geometry file's bytes.
struct Material {
  int64_t id;
  std::string features;
  std::string geometry;
};

std::vector<Material> RandomMaterials(int count, uint64_t seed) {
  SyntheticRng rng(seed);
  std::vector<Material> materials;
  for (int i = 0; i < count; ++i) {
    CsvTextBuilder row;
    row.Int(rng.Choice(std::vector<int64_t>{12, 33, 167, 194, 206, 227}))
        .Float(10.0 * static_cast<double>(rng.UniformInt(1, 8)));
    for (int k = 0; k < 3; ++k) row.Float(rng.UniformInt(0, 32) / 32.0);
    for (int k = 0; k < 3; ++k) row.Float(std::round(rng.Uniform(3, 25) * 1e4) / 1e4);
    for (int k = 0; k < 3; ++k) row.Float(std::round(rng.Uniform(60, 120) * 1e4) / 1e4);
    row.Float(std::round(rng.Uniform(0, 0.6) * 1e4) / 1e4)
        .Float(std::round(rng.Uniform(0, 5) * 1e4) / 1e4);
    std::string features = row.text();
    materials.push_back({i + 1, features,
                         absl::StrFormat("lattice_vector %.16f 0 0 \natom 0 0 0 Ga\n# %s\n",
                                         rng.Uniform(3, 25), rng.Hex(8))});
  }
  return materials;
}

std::string TrainCsv(const std::vector<Material>& materials) {
  std::string csv =
      "id,spacegroup,number_of_total_atoms,percent_atom_al,percent_atom_ga,percent_atom_in,"
      "lattice_vector_1_ang,lattice_vector_2_ang,lattice_vector_3_ang,lattice_angle_alpha_degree,"
      "lattice_angle_beta_degree,lattice_angle_gamma_degree,formation_energy_ev_natom,"
      "bandgap_energy_ev\n";
  for (const Material& m : materials) absl::StrAppend(&csv, m.id, ",", m.features, "\n");
  return csv;
}

// Kaggle's layout: four archives. train.zip holds train/<id>/geometry.xyz
// (folder names as given), plus `extra` entries.
fs::path MakeRaw(const std::vector<Material>& materials,
                 const std::vector<std::pair<std::string, std::string>>& folders_and_bytes = {},
                 const std::vector<ZipEntry>& extra = {}) {
  const fs::path raw = testing::NewTempDir("raw");
  std::vector<ZipEntry> train = {ZipEntry::Directory("train/")};
  if (folders_and_bytes.empty()) {
    for (const Material& m : materials) {
      train.push_back(
          ZipEntry::FromBytes(absl::StrCat("train/", m.id, "/geometry.xyz"), m.geometry));
    }
  } else {
    for (const auto& [folder, bytes] : folders_and_bytes) {
      train.push_back(ZipEntry::FromBytes(absl::StrCat("train/", folder, "/geometry.xyz"), bytes));
    }
  }
  train.insert(train.end(), extra.begin(), extra.end());
  EXPECT_TRUE(WriteZip(raw / "train.zip", train).ok());
  EXPECT_TRUE(
      WriteZip(raw / "train.csv.zip", {ZipEntry::FromBytes("train.csv", TrainCsv(materials))})
          .ok());
  EXPECT_TRUE(
      WriteZip(raw / "test.zip", {ZipEntry::FromBytes("test/1/geometry.xyz", "atom 0 0 0 O\n")})
          .ok());
  EXPECT_TRUE(
      WriteZip(raw / "test.csv.zip", {ZipEntry::FromBytes("test.csv", "id,spacegroup\n1,12\n")})
          .ok());
  return raw;
}

absl::Status PrepareStatus(const fs::path& raw) { return testing::RunPreparer(kId, raw).status(); }

TEST(NomadPrepareTest, SplitsRenumbersAndCopiesGeometry) {
  const std::vector<Material> materials = RandomMaterials(200, 1);
  const fs::path raw = MakeRaw(materials);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  const std::map<std::string, std::string> public_files = testing::ReadTree(dirs->public_dir);
  EXPECT_EQ(public_files.size(), 3u + 200u);  // three CSVs and a geometry file per material
  std::vector<std::string> private_names;
  for (const auto& [name, bytes] : testing::ReadTree(dirs->private_dir))
    private_names.push_back(name);
  EXPECT_THAT(private_names, ElementsAre("test.csv"));

  const Table train = testing::ReadCsvOrFail(dirs->public_dir / "train.csv");
  const Table test = testing::ReadCsvOrFail(dirs->public_dir / "test.csv");
  const Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  const Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  absl::StatusOr<Table> old_train = ReadCsvString(TrainCsv(materials), "train.csv");
  ASSERT_TRUE(old_train.ok()) << old_train.status();
  EXPECT_EQ(train.num_rows(), 180u);
  EXPECT_EQ(answers.num_rows(), 20u);  // ceil(0.1 * 200)
  EXPECT_EQ(train.num_columns(), 14u);
  EXPECT_EQ(answers.ColumnNames(), train.ColumnNames());
  std::vector<std::string> without_targets = train.ColumnNames();
  without_targets.resize(12);
  EXPECT_EQ(test.ColumnNames(), without_targets);
  EXPECT_THAT(sample.ColumnNames(),
              ElementsAre("id", "formation_energy_ev_natom", "bandgap_energy_ev"));
  EXPECT_EQ(sample.num_rows(), 20u);
  for (const Cell& v : sample.Find("formation_energy_ev_natom")->cells) EXPECT_EQ(v, Cell(0.1779));
  for (const Cell& v : sample.Find("bandgap_energy_ev")->cells) EXPECT_EQ(v, Cell(1.8892));

  // Rows in train_test_split order, ids renumbered 1..n, each material's
  // geometry under its new id.
  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  absl::StatusOr<TrainTestIndices> split = TrainTestSplitIndices(200, options);
  ASSERT_TRUE(split.ok());
  for (const auto& [table, indices, folder] :
       {std::tuple{&train, &split->train_indices, "train"},
        std::tuple{&answers, &split->test_indices, "test"}}) {
    for (size_t row = 0; row < indices->size(); ++row) {
      const Material& m = materials[(*indices)[row]];
      const int64_t new_id = static_cast<int64_t>(row) + 1;
      EXPECT_EQ(table->Find("id")->cells[row], Cell(new_id));
      for (const Column& column : table->columns()) {
        if (column.name == "id") continue;
        EXPECT_EQ(column.cells[row], old_train->Find(column.name)->cells[(*indices)[row]])
            << column.name;
      }
      EXPECT_EQ(public_files.at(absl::StrCat(folder, "/", new_id, "/geometry.xyz")), m.geometry);
    }
  }
  EXPECT_EQ(sample.Find("id")->cells, answers.Find("id")->cells);
  EXPECT_EQ(test.Find("id")->cells, answers.Find("id")->cells);
}

TEST(NomadPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw(RandomMaterials(60, 2));
  testing::ExpectDeterministicAndRawUntouched(kId, raw);  // upstream extracts into raw/; we do not
}

// Upstream's prepare() restated with pandas, scikit-learn, glob and shutil
// (extracting into a scratch folder instead of raw/).
constexpr char kReference[] = R"py(
import glob, shutil, sys, zipfile
from pathlib import Path
import pandas as pd
from sklearn.model_selection import train_test_split

raw, public, private, scratch = map(Path, sys.argv[1:5])
for name in ["train", "train.csv", "test", "test.csv"]:
    zipfile.ZipFile(raw / f"{name}.zip").extractall(scratch / name)
old_train = pd.read_csv(scratch / "train.csv/train.csv", float_precision="round_trip")
new_train, new_test = train_test_split(old_train, test_size=0.1, random_state=0)
train_map = {old: new for new, old in enumerate(new_train["id"], start=1)}
new_train["id"] = new_train["id"].map(train_map)
test_map = {old: new for new, old in enumerate(new_test["id"], start=1)}
new_test["id"] = new_test["id"].map(test_map)
new_train.to_csv(public / "train.csv", index=False)
new_test.to_csv(private / "test.csv", index=False)
new_test.drop(columns=["formation_energy_ev_natom", "bandgap_energy_ev"]).to_csv(
    public / "test.csv", index=False)
paths = sorted(glob.glob(str(scratch / "train/train/**/*.xyz")))
for mapping, folder in ((train_map, "train"), (test_map, "test")):
    for src in paths:
        old = int(Path(src).parts[-2])
        if old in mapping:
            (public / folder / str(mapping[old])).mkdir(parents=True, exist_ok=True)
            shutil.copy(src, public / folder / str(mapping[old]) / "geometry.xyz")
pd.DataFrame({"id": new_test["id"], "formation_energy_ev_natom": 0.1779,
              "bandgap_energy_ev": 1.8892}).to_csv(public / "sample_submission.csv", index=False)
)py";

TEST(NomadPrepareTest, MatchesUpstreamsStepsByteForByte) {
  for (const auto& [rows, seed] :
       std::vector<std::pair<int, uint64_t>>{{11, 10}, {300, 11}, {1000, 12}}) {
    SCOPED_TRACE(rows);
    std::vector<Material> materials = RandomMaterials(rows, seed);
    // Geometry in folders spelled "007" and " 8" (int() reads both), a
    // duplicate of one material under a second spelling (the later one in
    // glob order wins), files that glob skips, and one for an unknown id.
    std::vector<std::pair<std::string, std::string>> folders;
    for (const Material& m : materials) {
      folders.emplace_back(m.id == 7 ? "007" : m.id == 8 ? " 8" : absl::StrCat(m.id), m.geometry);
    }
    folders.emplace_back("0_3", "another spelling of 3\n");
    folders.emplace_back("99999", "no such material\n");
    const fs::path raw = MakeRaw(materials, folders,
                                 {ZipEntry::FromBytes("train/1/notes.txt", "not geometry\n"),
                                  ZipEntry::FromBytes("train/1/.hidden.xyz", "hidden\n"),
                                  ZipEntry::FromBytes("train/.cache/geometry.xyz", "hidden\n")});
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    for (const char* dir : {"public", "private", "scratch"})
      fs::create_directories(reference / dir);
    const testing::CommandResult run = testing::RunPython(
        kReference, {raw.string(), (reference / "public").string(),
                     (reference / "private").string(), (reference / "scratch").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

TEST(NomadPrepareTest, RunsUpstreamsGeometryChecks) {
  std::vector<Material> materials = RandomMaterials(50, 3);
  // One material without geometry: whichever split it lands in is short.
  std::vector<std::pair<std::string, std::string>> folders;
  for (size_t i = 1; i < materials.size(); ++i) {
    folders.emplace_back(absl::StrCat(materials[i].id), materials[i].geometry);
  }
  EXPECT_THAT(PrepareStatus(MakeRaw(materials, folders)).message(),
              HasSubstr("geometry files, found"));
  // A repeated id within a split shares one new id, so one folder is missing.
  std::vector<Material> repeated = RandomMaterials(50, 4);
  for (Material& m : repeated) m.id = (m.id + 1) / 2;
  std::vector<std::pair<std::string, std::string>> one_folder_per_id;
  for (int id = 1; id <= 25; ++id) one_folder_per_id.emplace_back(absl::StrCat(id), "x\n");
  EXPECT_THAT(PrepareStatus(MakeRaw(repeated, one_folder_per_id)).message(),
              HasSubstr("train geometry files, found"));
  // Any folder name int() cannot read is an error, used or not.
  EXPECT_THAT(PrepareStatus(MakeRaw(RandomMaterials(20, 5), {},
                                    {ZipEntry::FromBytes("train/abc/geometry.xyz", "x\n")}))
                  .message(),
              HasSubstr("invalid literal for int() with base 10: 'abc'"));
  // A folder named like a geometry file, for a material in use, cannot be copied.
  EXPECT_THAT(PrepareStatus(
                  MakeRaw(RandomMaterials(20, 6), {}, {ZipEntry::Directory("train/1/other.xyz/")}))
                  .message(),
              HasSubstr("is not a regular file"));
}

TEST(NomadPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(PrepareStatus(testing::NewTempDir("empty_raw")).ok());
  for (const char* archive : {"train.zip", "train.csv.zip", "test.zip", "test.csv.zip"}) {
    SCOPED_TRACE(archive);
    const fs::path raw = MakeRaw(RandomMaterials(20, 7));
    fs::remove(raw / archive);
    EXPECT_FALSE(PrepareStatus(raw).ok());
    ASSERT_TRUE(WriteStringToFile(raw / archive, "not a zip").ok());
    EXPECT_FALSE(PrepareStatus(raw).ok());
  }
  // train.csv.zip without train.csv at its root.
  const fs::path misplaced = MakeRaw(RandomMaterials(20, 8));
  ASSERT_TRUE(WriteZip(misplaced / "train.csv.zip",
                       {ZipEntry::FromBytes("data/train.csv", TrainCsv(RandomMaterials(20, 8)))})
                  .ok());
  EXPECT_FALSE(PrepareStatus(misplaced).ok());
  // Ids that are not integers, and no targets to drop: errors, nothing written.
  const fs::path text_ids = MakeRaw(RandomMaterials(20, 9));
  ASSERT_TRUE(WriteZip(text_ids / "train.csv.zip",
                       {ZipEntry::FromBytes("train.csv",
                                            "id,bandgap_energy_ev,formation_energy_ev_natom\n"
                                            "a,1,1\nb,1,1\nc,1,1\n")})
                  .ok());
  EXPECT_THAT(PrepareStatus(text_ids).message(), HasSubstr("must hold integers"));
  const fs::path no_targets = MakeRaw(RandomMaterials(20, 10));
  ASSERT_TRUE(WriteZip(no_targets / "train.csv.zip",
                       {ZipEntry::FromBytes("train.csv", "id,spacegroup\n1,12\n2,33\n3,194\n")})
                  .ok());
  const fs::path root = testing::NewTempDir("out");
  EXPECT_THAT(RunRegisteredPreparer(kId, no_targets, root / "public", root / "private").message(),
              HasSubstr("formation_energy_ev_natom"));
  EXPECT_TRUE(testing::ReadTree(root).empty());
}

}  // namespace
}  // namespace mlebench::prepare_test
