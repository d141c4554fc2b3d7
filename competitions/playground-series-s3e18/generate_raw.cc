// Synthetic raw download of playground-series-s3e18: train.csv (id, Kaggle's
// 31 molecular descriptors, EC1..EC6), test.csv (id and the descriptors) and
// sample_submission.csv (id, EC1, EC2, all 0.5). Ids are consecutive ints,
// test ids following train ids; descriptors are floats with six decimals
// except the counts NumHeteroatoms, fr_COO and fr_COO2; labels are 0/1.
//
// Each molecule has a few latent traits (size, share of heteroatoms,
// aromaticity, polarity) from which the descriptors follow with noise, so
// they are correlated as real descriptors are. Each EC label is a noisy
// logistic function of the traits and the carboxyl count, with Kaggle's
// rough positive rates (EC1 about two thirds, EC2 about four fifths), so a
// linear model on the descriptors ranks well above chance but far from
// perfectly, as in the competition.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

// Row counts vary a little with the seed (so that every file does).
constexpr int kMinTrain = 2900, kMaxTrain = 3100;
constexpr int kMinTest = 950, kMaxTest = 1050;

// clang-format off
const std::vector<std::string> kFeatures = {
    "BertzCT", "Chi1", "Chi1n", "Chi1v", "Chi2n", "Chi2v", "Chi3v", "Chi4n", "EState_VSA1",
    "EState_VSA2", "ExactMolWt", "FpDensityMorgan1", "FpDensityMorgan2", "FpDensityMorgan3",
    "HallKierAlpha", "HeavyAtomMolWt", "Kappa3", "MaxAbsEStateIndex", "MinEStateIndex",
    "NumHeteroatoms", "PEOE_VSA10", "PEOE_VSA14", "PEOE_VSA6", "PEOE_VSA7", "PEOE_VSA8",
    "SMR_VSA10", "SMR_VSA5", "SlogP_VSA3", "VSA_EState9", "fr_COO", "fr_COO2"};
// clang-format on
const std::vector<std::string> kLabels = {"EC1", "EC2", "EC3", "EC4", "EC5", "EC6"};

// A descriptor value: a double written with six decimals, or a count.
struct Value {
  bool is_count = false;
  double number = 0.0;
  int64_t count = 0;
};

struct Molecule {
  std::vector<Value> features;  // in kFeatures order
  std::array<int, 6> labels{};
};

Value Decimal(double x) {
  // Six decimals, as Kaggle's values; "+ 0.0" turns -0.0 into 0.0.
  return Value{false, std::round(x * 1e6) / 1e6 + 0.0, 0};
}
Value Count(int64_t n) { return Value{true, 0.0, n}; }
double Logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

Molecule MakeMolecule(SyntheticRng& rng) {
  // Latent traits.
  const double atoms = std::clamp(std::exp(rng.Normal(3.0, 0.6)), 3.0, 250.0);
  const double hetero = rng.Uniform(0.05, 0.6);
  const double aromatic = rng.Uniform();
  const double polarity = rng.Normal();
  const auto noisy = [&](double x, double relative) {
    return x * std::exp(rng.Normal(0, relative));
  };
  const auto positive = [](double x) { return std::max(0.0, x); };

  int64_t carboxyl = 0;
  for (int i = 0; i < 4; ++i) carboxyl += rng.Bernoulli(Logistic(polarity - 1.5)) ? 1 : 0;
  const double chi1 = noisy(0.48 * atoms, 0.05);
  const double chi1n = chi1 * rng.Uniform(0.55, 0.7);
  const double chi1v = chi1n * (1 + 0.2 * hetero);
  const double chi2n = noisy(0.75 * chi1n, 0.05);
  const double chi2v = chi2n * (1 + 0.2 * hetero);
  const double chi3v = noisy(0.6 * chi2v, 0.1);
  const double mol_wt = noisy(atoms * (12.5 + 6 * hetero), 0.03);
  const double morgan1 = std::clamp(0.6 + 0.6 * aromatic + rng.Normal(0, 0.1), 0.1, 2.0);

  Molecule m;
  m.features = {
      Decimal(noisy(std::pow(atoms, 1.4) * (2 + 3 * aromatic), 0.2)),    // BertzCT
      Decimal(chi1),                                                     // Chi1
      Decimal(chi1n),                                                    // Chi1n
      Decimal(chi1v),                                                    // Chi1v
      Decimal(chi2n),                                                    // Chi2n
      Decimal(chi2v),                                                    // Chi2v
      Decimal(chi3v),                                                    // Chi3v
      Decimal(noisy(0.5 * chi3v, 0.1)),                                  // Chi4n
      Decimal(positive(atoms * hetero * 3 + rng.Normal(0, 5))),          // EState_VSA1
      Decimal(positive(rng.Normal(5, 4) * aromatic)),                    // EState_VSA2
      Decimal(mol_wt),                                                   // ExactMolWt
      Decimal(morgan1),                                                  // FpDensityMorgan1
      Decimal(morgan1 * rng.Uniform(1.35, 1.6)),                         // FpDensityMorgan2
      Decimal(morgan1 * rng.Uniform(1.8, 2.2)),                          // FpDensityMorgan3
      Decimal(-0.05 * atoms * (0.5 + aromatic) + rng.Normal(0, 0.3)),    // HallKierAlpha
      Decimal(mol_wt * rng.Uniform(0.92, 0.96)),                         // HeavyAtomMolWt
      Decimal(0.15 * atoms * (1 - aromatic) + rng.Normal(0, 0.5)),       // Kappa3
      Decimal(8 + 4 * hetero + rng.Normal(0, 1.5)),                      // MaxAbsEStateIndex
      Decimal(-4.5 * hetero + rng.Normal(0, 0.7)),                       // MinEStateIndex
      Count(std::llround(atoms * hetero)),                               // NumHeteroatoms
      Decimal(positive(rng.Normal(5, 5) * (1 + 0.5 * polarity))),        // PEOE_VSA10
      Decimal(positive(rng.Normal(3, 4) + 2 * carboxyl)),                // PEOE_VSA14
      Decimal(positive(atoms * aromatic * 1.5 + rng.Normal(0, 5))),      // PEOE_VSA6
      Decimal(positive(atoms * 0.8 + rng.Normal(0, 6))),                 // PEOE_VSA7
      Decimal(positive(rng.Normal(8, 6))),                               // PEOE_VSA8
      Decimal(positive(atoms * hetero * 1.2 + rng.Normal(0, 4))),        // SMR_VSA10
      Decimal(positive(atoms * (1 - aromatic) * 2 + rng.Normal(0, 8))),  // SMR_VSA5
      Decimal(positive(atoms * hetero * 0.8 + rng.Normal(0, 3))),        // SlogP_VSA3
      Decimal(rng.Normal(0.3 * atoms, 5)),                               // VSA_EState9
      Count(carboxyl),                                                   // fr_COO
      Count(rng.Bernoulli(0.95) ? carboxyl : carboxyl + 1),              // fr_COO2
  };

  // Labels from standardised traits, each with its own noise.
  const double z_hetero = (hetero - 0.325) / 0.16;
  const double z_aromatic = (aromatic - 0.5) / 0.29;
  const double z_size = (std::log(atoms) - 3.0) / 0.6;
  const std::array<double, 6> logits = {
      0.9 + 1.3 * z_hetero - 0.9 * z_aromatic + 0.6 * carboxyl,
      1.9 + 1.2 * z_aromatic + 0.9 * z_size - 0.7 * polarity,
      -1.0 + 1.0 * polarity + 0.6 * z_hetero,
      -1.8 + 1.1 * z_size - 0.6 * z_aromatic,
      -2.2 + 0.9 * z_hetero * z_aromatic,
      -2.2 + 0.9 * polarity - 0.7 * z_size,
  };
  for (size_t l = 0; l < logits.size(); ++l) {
    m.labels[l] = rng.Bernoulli(Logistic(logits[l] + rng.Normal(0, 0.5))) ? 1 : 0;
  }
  return m;
}

void WriteFeatures(CsvTextBuilder& csv, const Molecule& m) {
  for (const Value& v : m.features) {
    if (v.is_count) {
      csv.Int(v.count);
    } else {
      csv.Float(v.number);
    }
  }
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng size_rng = root.Fork(1), train_rng = root.Fork(2), test_rng = root.Fork(3);
  const int num_train = static_cast<int>(size_rng.UniformInt(kMinTrain, kMaxTrain));
  const int num_test = static_cast<int>(size_rng.UniformInt(kMinTest, kMaxTest));

  CsvTextBuilder train, test, sample;
  train.String("id");
  test.String("id");
  for (const std::string& name : kFeatures) {
    train.String(name);
    test.String(name);
  }
  for (const std::string& name : kLabels) train.String(name);
  train.EndRow();
  test.EndRow();
  sample.Row({"id", "EC1", "EC2"});
  for (int id = 0; id < num_train; ++id) {
    const Molecule m = MakeMolecule(train_rng);
    train.Int(id);
    WriteFeatures(train, m);
    for (int label : m.labels) train.Int(label);
    train.EndRow();
  }
  for (int id = num_train; id < num_train + num_test; ++id) {
    const Molecule m = MakeMolecule(test_rng);  // Kaggle keeps the test labels
    test.Int(id);
    WriteFeatures(test, m);
    test.EndRow();
    sample.Int(id).Float(0.5).Float(0.5).EndRow();
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", train.text()));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "test.csv", test.text()));
  return WriteStringToFile(raw_dir / "sample_submission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
