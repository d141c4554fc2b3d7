#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

TEST(NomadRawTest, SameSeedSameBytesOtherSeedOtherBytes) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  std::vector<std::string> names;
  size_t total = 0;
  for (const auto& [name, bytes] : *tree) {
    names.push_back(name);
    total += bytes.size();
  }
  EXPECT_THAT(names, ElementsAre("sample_submission.csv.zip", "test.csv.zip", "test.zip",
                                 "train.csv.zip", "train.zip"));
  EXPECT_LT(total, 4'000'000u);
}

// Python's zipfile and pandas see Kaggle's layout and dtypes; every geometry
// file agrees with its row (lattice lengths and angles, atom count and
// composition); and, split as upstream's prepare.py splits, a linear model on
// the table's features beats the sample submission's column-wise RMSLE.
constexpr char kCheckScript[] = R"py(
import io, sys, zipfile
import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split

raw = sys.argv[1]
def only_member(name, member):
    with zipfile.ZipFile(f"{raw}/{name}") as z:
        assert z.testzip() is None
        assert z.namelist() == [member], z.namelist()
        return pd.read_csv(io.BytesIO(z.read(member)))
train = only_member("train.csv.zip", "train.csv")
test = only_member("test.csv.zip", "test.csv")
sample = only_member("sample_submission.csv.zip", "sample_submission.csv")
features = ["id", "spacegroup", "number_of_total_atoms", "percent_atom_al", "percent_atom_ga",
            "percent_atom_in", "lattice_vector_1_ang", "lattice_vector_2_ang", "lattice_vector_3_ang",
            "lattice_angle_alpha_degree", "lattice_angle_beta_degree", "lattice_angle_gamma_degree"]
targets = ["formation_energy_ev_natom", "bandgap_energy_ev"]
assert list(train.columns) == features + targets, list(train.columns)
assert list(test.columns) == features, list(test.columns)
assert list(sample.columns) == ["id"] + targets
assert len(train) == 1000 and 240 <= len(test) <= 260 and len(sample) == len(test)
for frame in (train, test):
    assert frame["id"].dtype == np.int64 and frame["spacegroup"].dtype == np.int64
    for col in features[2:]:
        assert frame[col].dtype == np.float64, col
    assert list(frame["id"]) == list(range(1, len(frame) + 1))
    assert set(frame["spacegroup"]) == {12, 33, 167, 194, 206, 227}
    assert set(frame["number_of_total_atoms"]) <= {10.0, 20.0, 30.0, 40.0, 60.0, 80.0}
    fractions = frame[["percent_atom_al", "percent_atom_ga", "percent_atom_in"]]
    assert (abs(fractions.sum(axis=1) - 1) < 2e-4).all()
assert list(sample["id"]) == list(test["id"])
assert (sample[targets[0]] == 0.1779).all() and (sample[targets[1]] == 1.8892).all()
for col in targets:
    assert train[col].dtype == np.float64 and (train[col] >= 0).all()
assert 0.05 < train[targets[0]].mean() < 0.4 and 1.0 < train[targets[1]].mean() < 4.0

def check_geometry(zip_name, folder, frame):
    with zipfile.ZipFile(f"{raw}/{zip_name}") as z:
        names = z.namelist()
        files = [f"{folder}/{i}/geometry.xyz" for i in frame["id"]]
        assert set(files) <= set(names)
        assert len([n for n in names if not n.endswith("/")]) == len(files)
        for row, name in zip(frame.itertuples(), files):
            lines = z.read(name).decode().splitlines()
            vectors = np.array([[float(x) for x in l.split()[1:4]]
                                for l in lines if l.startswith("lattice_vector")])
            atoms = [l.split() for l in lines if l.startswith("atom")]
            assert vectors.shape == (3, 3) and all(len(a) == 5 for a in atoms)
            lengths = np.linalg.norm(vectors, axis=1)
            assert np.allclose(lengths, [row.lattice_vector_1_ang, row.lattice_vector_2_ang,
                                         row.lattice_vector_3_ang], rtol=1e-4), (name, lengths)
            def angle(u, v):
                return np.degrees(np.arccos(u @ v / np.linalg.norm(u) / np.linalg.norm(v)))
            assert np.allclose([angle(vectors[1], vectors[2]), angle(vectors[0], vectors[2]),
                                angle(vectors[0], vectors[1])],
                               [row.lattice_angle_alpha_degree, row.lattice_angle_beta_degree,
                                row.lattice_angle_gamma_degree], atol=1e-3), name
            elements = [a[4] for a in atoms]
            n = int(row.number_of_total_atoms)
            assert len(atoms) == n and elements.count("O") == n * 3 // 5, name
            for symbol, share in (("Al", row.percent_atom_al), ("Ga", row.percent_atom_ga),
                                  ("In", row.percent_atom_in)):
                assert abs(elements.count(symbol) - share * n * 2 / 5) < 0.01, (name, symbol)
check_geometry("train.zip", "train", train)
check_geometry("test.zip", "test", test)

# Upstream keeps a tenth of train.csv for grading; the rest is for fitting.
fit, held_out = train_test_split(train, test_size=0.1, random_state=0)
def X(f):
    out = f[features[2:]].copy()
    for sg in [12, 33, 167, 194, 206]:
        out[f"sg{sg}"] = (f["spacegroup"] == sg).astype(float)
    out["al_in"] = f["percent_atom_al"] * f["percent_atom_in"]
    out["mix"] = f["percent_atom_al"] * (1 - f["percent_atom_al"])
    return out
def rmsle(y, p):
    return np.sqrt(np.mean((np.log1p(p) - np.log1p(y)) ** 2))
score = baseline = 0.0
for col, constant in zip(targets, [0.1779, 1.8892]):
    model = LinearRegression().fit(X(fit), np.log1p(fit[col]))
    predicted = np.maximum(np.expm1(model.predict(X(held_out))), 0)
    score += rmsle(held_out[col], predicted) / 2
    baseline += rmsle(held_out[col], np.full(len(held_out), constant)) / 2
print(f"score={score:.4f} baseline={baseline:.4f}")
assert score < 0.5 * baseline, (score, baseline)
)py";

TEST(NomadRawTest, PythonReadsKaggleLayoutWithLearnableSignal) {
  for (uint64_t seed : {0, 7}) {
    absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
    ASSERT_TRUE(raw.ok()) << raw.status();
    testing::CommandResult result = testing::RunPython(kCheckScript, {raw->string()});
    EXPECT_EQ(result.exit_code, 0) << "seed " << seed << ":\n" << result.output;
  }
}

}  // namespace
}  // namespace mlebench::generate_raw_test
