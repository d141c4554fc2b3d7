// Synthetic raw download of nomad2018-predict-transparent-conductors, in
// Kaggle's layout: train.csv.zip (train.csv: id, spacegroup, atom count,
// Al/Ga/In fractions, lattice lengths and angles, and the two targets),
// test.csv.zip (the same without targets), sample_submission.csv.zip
// (0.1779 and 1.8892 for every id), and train.zip / test.zip holding
// train/<id>/geometry.xyz and test/<id>/geometry.xyz: the cell's three
// lattice vectors and every atom's Cartesian position and element, in the
// `lattice_vector x y z` / `atom x y z El` lines of Kaggle's files.
//
// Each material is an (Al_x Ga_y In_z)_2N O_3N cell of one of Kaggle's six
// space groups with its usual shape; its volume grows with the indium
// fraction. Formation energy rises with mixing (and with the space group's
// offset); the bandgap falls from aluminium to gallium to indium, with a
// bowing term and space-group offsets; both carry noise and are >= 0. The
// geometry agrees with the table: the lattice vectors have the table's
// lengths and angles and the atoms the table's composition.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 1000;
// About 250 test materials; how many depends on the seed, so that every file
// (the sample submission too) differs between seeds.
constexpr int kMinTest = 240;
constexpr int kMaxTest = 260;

struct SpaceGroup {
  int64_t number;
  std::array<double, 3> angles;  // alpha, beta, gamma in degrees (beta of 12 is drawn)
  std::array<double, 3> ratios;  // relative lattice vector lengths
  std::vector<int> atom_counts;  // cell sizes it comes in
  double formation_offset;
  double bandgap_offset;
};

const std::vector<SpaceGroup> kSpaceGroups = {
    {12, {90, 104, 90}, {2.0, 0.5, 1.0}, {20, 40, 80}, 0.06, 0.3},
    {33, {90, 90, 90}, {1.0, 1.7, 1.6}, {40, 80}, 0.10, 0.2},
    {167, {90, 90, 120}, {1.0, 1.0, 2.7}, {30}, 0.12, 0.1},
    {194, {90, 90, 120}, {1.0, 1.0, 1.6}, {10, 30, 80}, 0.16, -0.2},
    {206, {90, 90, 90}, {1.0, 1.0, 1.0}, {80}, 0.03, 0.0},
    {227, {60, 60, 60}, {1.0, 1.0, 1.0}, {40}, 0.20, -0.5},
};
const std::vector<double> kSpaceGroupWeights = {14, 16, 17, 18, 20, 15};
const char* const kMetals[] = {"Al", "Ga", "In"};

struct Material {
  const SpaceGroup* group;
  int atoms;                        // number_of_total_atoms
  std::array<int, 3> metal_counts;  // Al, Ga, In
  std::array<double, 3> lengths;    // as written (4 decimals)
  std::array<double, 3> angles;     // as written (4 decimals)
  double formation;
  double bandgap;
};

double Round4(double x) { return std::round(x * 1e4) / 1e4; }

// Integer counts of `total` in proportion to `fractions` (largest remainder).
std::array<int, 3> Apportion(const std::array<double, 3>& fractions, int total) {
  std::array<int, 3> counts;
  std::array<double, 3> remainders;
  int assigned = 0;
  for (int i = 0; i < 3; ++i) {
    counts[i] = static_cast<int>(std::floor(fractions[i] * total));
    remainders[i] = fractions[i] * total - counts[i];
    assigned += counts[i];
  }
  while (assigned < total) {
    const int i = static_cast<int>(std::max_element(remainders.begin(), remainders.end()) -
                                   remainders.begin());
    ++counts[i];
    remainders[i] = -1.0;
    ++assigned;
  }
  return counts;
}

std::array<double, 3> DrawFractions(SyntheticRng& rng) {
  std::array<double, 3> f;
  double sum = 0.0;
  for (double& x : f) sum += x = -std::log(1.0 - rng.Uniform());  // Dirichlet(1, 1, 1)
  if (rng.Bernoulli(0.3)) {                                       // a binary alloy
    const size_t absent = rng.UniformInt(3);
    sum -= f[absent];
    f[absent] = 0.0;
  }
  for (double& x : f) x /= sum;
  return f;
}

// The volume factor of a cell with unit edges and these angles.
double VolumeFactor(const std::array<double, 3>& degrees) {
  std::array<double, 3> c;
  for (int i = 0; i < 3; ++i) c[i] = std::cos(degrees[i] * std::numbers::pi / 180.0);
  return std::sqrt(1 - c[0] * c[0] - c[1] * c[1] - c[2] * c[2] + 2 * c[0] * c[1] * c[2]);
}

Material MakeMaterial(SyntheticRng& rng) {
  Material m;
  m.group = &kSpaceGroups[rng.Categorical(kSpaceGroupWeights)];
  m.atoms = rng.Choice(m.group->atom_counts);
  const int metals = m.atoms * 2 / 5;
  m.metal_counts = Apportion(DrawFractions(rng), metals);
  const double al = static_cast<double>(m.metal_counts[0]) / metals;
  const double ga = static_cast<double>(m.metal_counts[1]) / metals;
  const double in = static_cast<double>(m.metal_counts[2]) / metals;

  std::array<double, 3> angles = m.group->angles;
  if (m.group->number == 12) angles[1] = rng.Uniform(103.0, 106.0);
  for (int i = 0; i < 3; ++i) m.angles[i] = Round4(angles[i] + rng.Normal(0, 0.01));
  const double volume_per_atom = 9.0 + 4.5 * in + 1.5 * ga + rng.Normal(0, 0.15);
  const std::array<double, 3>& r = m.group->ratios;
  const double scale =
      std::cbrt(volume_per_atom * m.atoms / (r[0] * r[1] * r[2] * VolumeFactor(m.angles)));
  for (int i = 0; i < 3; ++i) m.lengths[i] = Round4(r[i] * scale * (1 + rng.Normal(0, 0.01)));

  const double formation = 0.05 + 0.30 * al * (1 - al) + 0.25 * al * in + 0.15 * ga * in +
                           0.03 * al + m.group->formation_offset + rng.Normal(0, 0.025);
  const double bandgap = 0.2 + 4.8 * al + 2.4 * ga + 0.9 * in - 1.0 * al * in +
                         m.group->bandgap_offset - 0.3 * (volume_per_atom - 10.0) +
                         rng.Normal(0, 0.12);
  m.formation = Round4(std::max(0.0, formation));
  m.bandgap = Round4(std::max(0.0, bandgap));
  return m;
}

// The cell's lattice vectors from its edge lengths and angles (a along x, b
// in the xy plane).
std::array<std::array<double, 3>, 3> LatticeVectors(const Material& m) {
  const double to_radians = std::numbers::pi / 180.0;
  const double ca = std::cos(m.angles[0] * to_radians), cb = std::cos(m.angles[1] * to_radians);
  const double cg = std::cos(m.angles[2] * to_radians), sg = std::sin(m.angles[2] * to_radians);
  const double a = m.lengths[0], b = m.lengths[1], c = m.lengths[2];
  const double cy = (ca - cb * cg) / sg;
  return {{{a, 0.0, 0.0},
           {b * cg, b * sg, 0.0},
           {c * cb, c * cy, c * std::sqrt(std::max(0.0, 1 - cb * cb - cy * cy))}}};
}

std::string GeometryFile(SyntheticRng& rng, const Material& m) {
  std::string out =
      "#=======================================================\n"
      "# synthetic cell: lattice vectors and Cartesian atom positions, angstrom\n"
      "#=======================================================\n";
  const auto vectors = LatticeVectors(m);
  for (const auto& v : vectors) {
    absl::StrAppendFormat(&out, "lattice_vector %.16f %.16f %.16f \n", v[0], v[1], v[2]);
  }
  std::vector<std::string> elements;
  for (int k = 0; k < 3; ++k) elements.insert(elements.end(), m.metal_counts[k], kMetals[k]);
  elements.insert(elements.end(), m.atoms * 3 / 5, "O");
  rng.Shuffle(elements);
  for (const std::string& element : elements) {
    std::array<double, 3> position = {0, 0, 0};
    for (const auto& v : vectors) {
      const double fraction = rng.Uniform();
      for (int i = 0; i < 3; ++i) position[i] += fraction * v[i];
    }
    absl::StrAppendFormat(&out, "atom %.16f %.16f %.16f %s\n", position[0], position[1],
                          position[2], element);
  }
  return out;
}

void AddFeatures(const Material& m, int64_t id, CsvTextBuilder& csv) {
  const int metals = m.atoms * 2 / 5;
  csv.Int(id).Int(m.group->number).Float(m.atoms);
  for (int count : m.metal_counts) csv.Float(Round4(static_cast<double>(count) / metals));
  for (double length : m.lengths) csv.Float(length);
  for (double angle : m.angles) csv.Float(angle);
}

// The zip of one split's geometry: "<dir>/", then "<dir>/<id>/" and
// "<dir>/<id>/geometry.xyz" for each id.
std::vector<ZipEntry> GeometryEntries(SyntheticRng& rng, const std::vector<Material>& materials,
                                      const std::string& dir) {
  std::vector<ZipEntry> entries = {ZipEntry::Directory(dir + "/")};
  for (size_t i = 0; i < materials.size(); ++i) {
    const std::string folder = absl::StrCat(dir, "/", i + 1, "/");
    entries.push_back(ZipEntry::Directory(folder));
    entries.push_back(
        ZipEntry::FromBytes(folder + "geometry.xyz", GeometryFile(rng, materials[i])));
  }
  return entries;
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng material_rng = root.Fork(1), geometry_rng = root.Fork(2);
  std::vector<Material> train, test;
  for (int i = 0; i < kNumTrain; ++i) train.push_back(MakeMaterial(material_rng));
  const int64_t num_test = material_rng.UniformInt(kMinTest, kMaxTest);
  for (int64_t i = 0; i < num_test; ++i) test.push_back(MakeMaterial(material_rng));

  const std::initializer_list<std::string_view> features = {"id",
                                                            "spacegroup",
                                                            "number_of_total_atoms",
                                                            "percent_atom_al",
                                                            "percent_atom_ga",
                                                            "percent_atom_in",
                                                            "lattice_vector_1_ang",
                                                            "lattice_vector_2_ang",
                                                            "lattice_vector_3_ang",
                                                            "lattice_angle_alpha_degree",
                                                            "lattice_angle_beta_degree",
                                                            "lattice_angle_gamma_degree"};
  CsvTextBuilder train_csv, test_csv, sample;
  for (std::string_view column : features) {
    train_csv.String(column);
    test_csv.String(column);
  }
  train_csv.String("formation_energy_ev_natom").String("bandgap_energy_ev").EndRow();
  test_csv.EndRow();
  sample.Row({"id", "formation_energy_ev_natom", "bandgap_energy_ev"});
  for (size_t i = 0; i < train.size(); ++i) {
    AddFeatures(train[i], static_cast<int64_t>(i) + 1, train_csv);
    train_csv.Float(train[i].formation).Float(train[i].bandgap).EndRow();
  }
  for (size_t i = 0; i < test.size(); ++i) {
    AddFeatures(test[i], static_cast<int64_t>(i) + 1, test_csv);
    test_csv.EndRow();
    sample.Int(static_cast<int64_t>(i) + 1).Float(0.1779).Float(1.8892).EndRow();
  }

  const std::vector<std::pair<std::string, std::vector<ZipEntry>>> archives = {
      {"train.csv.zip", {ZipEntry::FromBytes("train.csv", train_csv.text())}},
      {"test.csv.zip", {ZipEntry::FromBytes("test.csv", test_csv.text())}},
      {"sample_submission.csv.zip", {ZipEntry::FromBytes("sample_submission.csv", sample.text())}},
      {"train.zip", GeometryEntries(geometry_rng, train, "train")},
      {"test.zip", GeometryEntries(geometry_rng, test, "test")},
  };
  for (const auto& [name, entries] : archives) {
    RETURN_IF_ERROR(WriteZip(raw_dir / name, entries));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
