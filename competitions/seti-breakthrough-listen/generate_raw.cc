// Synthetic raw download of seti-breakthrough-listen: train_labels.csv
// (id = 15 hex digits, target 0/1), train/<id[0]>/<id>.npy,
// test/<id[0]>/<id>.npy (unlabelled, as on Kaggle), sample_submission.csv
// (the test ids, target = 0.5) and old_leaky_data/ (Kaggle's withdrawn first
// release: train_labels_old.csv and a few train_old/<id[0]>/<id>.npy).
// Each .npy is a float16 array of shape (6, 16, 16): six cadences of a
// spectrogram (time x frequency) alternating on-target (0, 2, 4) and
// off-target (1, 3, 5) pointings, as on Kaggle (there 273 x 256). Background
// is unit noise; some snippets also carry a narrow band of interference in
// all six cadences. About one in ten, the targets, carry a narrow drifting
// line in the on-target cadences only, so on-minus-off peak brightness
// separates the classes well but not perfectly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/npy_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kCadences = 6;
constexpr int kTimes = 16;
constexpr int kChannels = 16;
constexpr int kNumTrain = 300;
constexpr int kNumTest = 40;
constexpr int kNumOld = 6;
constexpr double kTargetRate = 0.1;  // about Kaggle's share

std::vector<float> DrawSnippet(SyntheticRng& rng, bool target) {
  std::vector<float> values(kCadences * kTimes * kChannels);
  for (float& v : values) v = static_cast<float>(rng.Normal());
  auto at = [&](int cadence, int time, int channel) -> float& {
    return values[(cadence * kTimes + time) * kChannels + channel];
  };
  if (rng.Bernoulli(0.3)) {  // terrestrial interference: in every cadence
    const int channel = static_cast<int>(rng.UniformInt(kChannels));
    const double strength = rng.Uniform(1.5, 3.5);
    for (int c = 0; c < kCadences; ++c) {
      for (int t = 0; t < kTimes; ++t) at(c, t, channel) += static_cast<float>(strength);
    }
  }
  if (target) {  // a drifting tone seen only when pointing at the star
    const double start = rng.Uniform(2, kChannels - 2);
    const double drift = rng.Uniform(-0.04, 0.04);  // channels per time step
    const double strength = rng.Uniform(1.5, 4.0);
    for (int c = 0; c < kCadences; c += 2) {
      for (int t = 0; t < kTimes; ++t) {
        const int channel = static_cast<int>(std::lround(start + drift * (c * kTimes + t)));
        if (channel >= 0 && channel < kChannels) at(c, t, channel) += static_cast<float>(strength);
      }
    }
  }
  return values;
}

// A new 15-hex-digit id with at least two letters among a-d and f, so that
// pandas never reads the id column as numbers.
std::string NewId(SyntheticRng& rng, std::set<std::string>& used) {
  while (true) {
    std::string id = rng.Hex(15);
    if (std::count_if(id.begin(), id.end(), [](char c) { return c >= 'a' && c != 'e'; }) >= 2 &&
        used.insert(id).second) {
      return id;
    }
  }
}

struct Labelled {
  std::vector<std::string> ids;
  std::vector<bool> targets;
};

// Writes `count` snippets under `dir`/<id[0]>/ and returns their ids in
// creation order.
absl::StatusOr<Labelled> WriteSnippets(SyntheticRng& rng, std::set<std::string>& used, int count,
                                       const fs::path& dir) {
  Labelled out;
  for (int i = 0; i < count; ++i) {
    const std::string id = NewId(rng, used);
    const bool target = rng.Bernoulli(kTargetRate);
    ASSIGN_OR_RETURN(std::string npy,
                     (EncodeFloatNpy({kCadences, kTimes, kChannels}, DrawSnippet(rng, target),
                                     NpyFloatType::kFloat16)));
    std::error_code error;
    fs::create_directories(dir / id.substr(0, 1), error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", dir.string()));
    RETURN_IF_ERROR(WriteStringToFile(dir / id.substr(0, 1) / (id + ".npy"), npy));
    out.ids.push_back(id);
    out.targets.push_back(target);
  }
  return out;
}

std::string LabelsCsv(const Labelled& labelled) {
  CsvTextBuilder csv;
  csv.Row({"id", "target"});
  for (size_t i = 0; i < labelled.ids.size(); ++i) {
    csv.String(labelled.ids[i]).Int(labelled.targets[i] ? 1 : 0).EndRow();
  }
  return csv.text();
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng train_rng = root.Fork(1), test_rng = root.Fork(2), old_rng = root.Fork(3);
  std::set<std::string> used;
  ASSIGN_OR_RETURN(Labelled train, WriteSnippets(train_rng, used, kNumTrain, raw_dir / "train"));
  ASSIGN_OR_RETURN(Labelled test, WriteSnippets(test_rng, used, kNumTest, raw_dir / "test"));
  const fs::path leaky = raw_dir / "old_leaky_data";
  ASSIGN_OR_RETURN(Labelled old, WriteSnippets(old_rng, used, kNumOld, leaky / "train_old"));

  CsvTextBuilder sample;
  sample.Row({"id", "target"});
  for (const std::string& id : test.ids) sample.String(id).Float(0.5).EndRow();
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train_labels.csv", LabelsCsv(train)));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "sample_submission.csv", sample.text()));
  return WriteStringToFile(leaky / "train_labels_old.csv", LabelsCsv(old));
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
