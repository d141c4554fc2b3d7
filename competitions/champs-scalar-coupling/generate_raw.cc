// Synthetic raw download of champs-scalar-coupling, in the Kaggle layout
// that upstream's prepare.py reads:
//  - train.csv: id (0, 1, ...), molecule_name ("dsgdb9nsd_" + 6 digits),
//    atom_index_0 (a hydrogen), atom_index_1, type (1JHC, 2JHH, ...) and
//    scalar_coupling_constant (Hz), rows grouped by molecule;
//  - structures.csv (molecule_name, atom_index, atom, x, y, z) and
//    structures/<molecule_name>.xyz (the same atoms in XYZ format);
//  - dipole_moments.csv (molecule_name, X, Y, Z), magnetic_shielding_tensors
//    .csv (molecule_name, atom_index, XX, YX, ZX, XY, YY, ZY, XZ, YZ, ZZ),
//    mulliken_charges.csv (molecule_name, atom_index, mulliken_charge),
//    potential_energy.csv (molecule_name, potential_energy) and
//    scalar_coupling_contributions.csv (molecule_name, atom_index_0,
//    atom_index_1, type, fc, sd, pso, dso), covering every molecule.
// Kaggle's test.csv and sample_submission.csv are never read upstream and
// are left out.
//
// Signal: each coupling constant is a per-type base value plus a per-type
// slope times the distance between its two atoms (from structures.csv),
// plus noise, so a per-type linear fit on that distance predicts it well.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumMolecules = 150;

struct CouplingType {
  const char* name;
  char partner;  // the element of atom_index_1
  double base;
  double slope;  // Hz per angstrom away from 1.5
};
constexpr std::array<CouplingType, 8> kTypes = {{{"1JHC", 'C', 94, -30},
                                                 {"1JHN", 'N', 48, -15},
                                                 {"2JHH", 'H', -10, 4},
                                                 {"2JHC", 'C', -1, -3},
                                                 {"2JHN", 'N', 3, 2},
                                                 {"3JHH", 'H', 4, 3},
                                                 {"3JHC", 'C', 3, 2},
                                                 {"3JHN", 'N', 1, 1}}};

struct Atom {
  char element;
  double x, y, z;
};

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  fs::create_directories(raw_dir / "structures");
  CsvTextBuilder train, structures, dipoles, tensors, charges, energies, contributions;
  train.Row({"id", "molecule_name", "atom_index_0", "atom_index_1", "type",
             "scalar_coupling_constant"});
  structures.Row({"molecule_name", "atom_index", "atom", "x", "y", "z"});
  dipoles.Row({"molecule_name", "X", "Y", "Z"});
  tensors.Row({"molecule_name", "atom_index", "XX", "YX", "ZX", "XY", "YY", "ZY", "XZ", "YZ",
               "ZZ"});
  charges.Row({"molecule_name", "atom_index", "mulliken_charge"});
  energies.Row({"molecule_name", "potential_energy"});
  contributions.Row(
      {"molecule_name", "atom_index_0", "atom_index_1", "type", "fc", "sd", "pso", "dso"});
  int64_t id = 0;
  int64_t number = 0;
  for (int m = 0; m < kNumMolecules; ++m) {
    number += rng.UniformInt(int64_t{1}, int64_t{4});
    const std::string name = absl::StrFormat("dsgdb9nsd_%06d", number);
    // Heavy atoms (C, N, O) first, then hydrogens, as in QM9.
    std::vector<Atom> atoms;
    const int heavy = static_cast<int>(rng.UniformInt(int64_t{2}, int64_t{4}));
    for (int i = 0; i < heavy; ++i) {
      const double u = rng.Uniform();
      atoms.push_back({i == 0 ? 'C' : (u < 0.6 ? 'C' : (u < 0.85 ? 'N' : 'O')),
                       rng.Normal(0, 1.2), rng.Normal(0, 1.2), rng.Normal(0, 1.2)});
    }
    const int hydrogens = static_cast<int>(rng.UniformInt(int64_t{2}, int64_t{6}));
    for (int i = 0; i < hydrogens; ++i) {
      atoms.push_back({'H', rng.Normal(0, 1.6), rng.Normal(0, 1.6), rng.Normal(0, 1.6)});
    }
    std::string xyz = absl::StrCat(atoms.size(), "\n\n");
    for (size_t i = 0; i < atoms.size(); ++i) {
      const Atom& a = atoms[i];
      structures.String(name).Int(static_cast<int64_t>(i)).String(std::string(1, a.element));
      structures.Float(a.x).Float(a.y).Float(a.z).EndRow();
      absl::StrAppend(&xyz, absl::StrFormat("%c %.8f %.8f %.8f\n", a.element, a.x, a.y, a.z));
      tensors.String(name).Int(static_cast<int64_t>(i));
      for (int k = 0; k < 9; ++k) tensors.Float(std::round(rng.Normal(k % 4 == 0 ? 100 : 0, 20) * 1e4) / 1e4);
      tensors.EndRow();
      charges.String(name).Int(static_cast<int64_t>(i)).Float(std::round(rng.Normal(0, 0.3) * 1e6) / 1e6).EndRow();
    }
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / "structures" / (name + ".xyz"), xyz));
    dipoles.String(name).Float(std::round(rng.Normal(0, 2) * 1e4) / 1e4);
    dipoles.Float(std::round(rng.Normal(0, 2) * 1e4) / 1e4).Float(std::round(rng.Normal(0, 1) * 1e4) / 1e4).EndRow();
    energies.String(name).Float(std::round(rng.Normal(-300, 60) * 1e5) / 1e5).EndRow();

    // Couplings from each hydrogen to a few other atoms.
    for (int h = heavy; h < static_cast<int>(atoms.size()); ++h) {
      for (int other = 0; other < static_cast<int>(atoms.size()); ++other) {
        if (other == h || atoms[other].element == 'O' || !rng.Bernoulli(0.6)) continue;
        std::vector<const CouplingType*> candidates;
        for (const CouplingType& t : kTypes) {
          if (t.partner == atoms[other].element) candidates.push_back(&t);
        }
        const CouplingType& type = *candidates[rng.UniformInt(candidates.size())];
        const double dx = atoms[h].x - atoms[other].x, dy = atoms[h].y - atoms[other].y,
                     dz = atoms[h].z - atoms[other].z;
        const double distance = std::sqrt(dx * dx + dy * dy + dz * dz);
        const double constant = type.base + type.slope * (std::min(distance, 4.0) - 1.5) +
                                rng.Normal(0, 0.4 + 0.02 * std::fabs(type.base));
        const double fc = constant * 0.97, sd = rng.Normal(0, 0.2), pso = rng.Normal(0, 0.5);
        const double dso = constant - fc - sd - pso;
        train.Int(id++).String(name).Int(h).Int(other).String(type.name);
        train.Float(std::round(constant * 1e5) / 1e5).EndRow();
        contributions.String(name).Int(h).Int(other).String(type.name);
        for (double v : {fc, sd, pso, dso}) contributions.Float(std::round(v * 1e6) / 1e6);
        contributions.EndRow();
      }
    }
  }
  for (const auto& [file, csv] : {std::pair{"train.csv", &train},
                                  std::pair{"structures.csv", &structures},
                                  std::pair{"dipole_moments.csv", &dipoles},
                                  std::pair{"magnetic_shielding_tensors.csv", &tensors},
                                  std::pair{"mulliken_charges.csv", &charges},
                                  std::pair{"potential_energy.csv", &energies},
                                  std::pair{"scalar_coupling_contributions.csv", &contributions}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / file, csv->text()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
