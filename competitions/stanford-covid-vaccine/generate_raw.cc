// Synthetic raw download for stanford-covid-vaccine in Kaggle's layout:
// train.json and test.json (one JSON object per line, Kaggle's keys in
// Kaggle's order) and sample_submission.csv (id_seqpos and the five targets,
// zeros, for test.json's sequences).
//
// Each RNA sequence is a hairpin: a 5' tail, a stem, a loop, the paired stem
// and a 3' tail. The degradation targets carry real signal: unpaired bases
// (loop and tails) are far more reactive than paired ones, A and G a bit
// more than C and U, plus noise; so a model using `structure` and `sequence`
// clearly beats the all-zero sample submission.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kTrainRows = 120;
constexpr int kTestRows = 30;
constexpr int kSeqLength = 40;
constexpr int kSeqScored = 28;
constexpr const char* kTargets[] = {"reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C",
                                    "deg_50C"};

struct Rna {
  std::string id, sequence, structure, loop_type;
};

Rna MakeRna(SyntheticRng& rng) {
  Rna rna;
  rna.id = "id_" + rng.Hex(9);
  const int stem = static_cast<int>(rng.UniformInt(int64_t{5}, int64_t{10}));
  const int loop = static_cast<int>(rng.UniformInt(int64_t{4}, int64_t{8}));
  const int head = static_cast<int>(rng.UniformInt(int64_t{2}, int64_t{kSeqLength - 2 * stem - loop - 2}));
  const int tail = kSeqLength - head - 2 * stem - loop;
  const std::string bases = "ACGU";
  std::string stem5;
  for (int i = 0; i < stem; ++i) stem5 += "GC"[rng.UniformInt(2)];
  std::string stem3;
  for (int i = stem - 1; i >= 0; --i) stem3 += stem5[i] == 'G' ? 'C' : 'G';
  auto random_bases = [&](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += bases[rng.UniformInt(4)];
    return s;
  };
  rna.sequence = random_bases(head) + stem5 + random_bases(loop) + stem3 + random_bases(tail);
  rna.structure = std::string(head, '.') + std::string(stem, '(') + std::string(loop, '.') +
                  std::string(stem, ')') + std::string(tail, '.');
  rna.loop_type = std::string(head, 'E') + std::string(stem, 'S') + std::string(loop, 'H') +
                  std::string(stem, 'S') + std::string(tail, 'E');
  return rna;
}

std::string JsonString(const std::string& text) { return absl::StrCat("\"", text, "\""); }

std::string JsonList(const std::vector<double>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    absl::StrAppend(&out, i ? "," : "", absl::StrFormat("%.4f", values[i]));
  }
  return out + "]";
}

std::string CommonFields(int index, const Rna& rna) {
  return absl::StrCat("\"index\":", index, ",\"id\":", JsonString(rna.id),
                      ",\"sequence\":", JsonString(rna.sequence),
                      ",\"structure\":", JsonString(rna.structure),
                      ",\"predicted_loop_type\":", JsonString(rna.loop_type));
}

std::string TrainLine(int index, const Rna& rna, SyntheticRng& rng) {
  const double signal_to_noise = rng.Uniform(0.0, 10.0);
  const bool sn_filter = signal_to_noise > 1.0;
  std::string line = absl::StrCat(
      "{", CommonFields(index, rna), ",\"signal_to_noise\":",
      absl::StrFormat("%.3f", signal_to_noise), ",\"SN_filter\":", sn_filter ? "1.0" : "0.0",
      ",\"seq_length\":", kSeqLength, ",\"seq_scored\":", kSeqScored);
  std::vector<std::vector<double>> targets(5), errors(5);
  for (int t = 0; t < 5; ++t) {
    for (int j = 0; j < kSeqScored; ++j) {
      const bool paired = rna.structure[j] != '.';
      const char base = rna.sequence[j];
      const double mean = (paired ? 0.15 : 0.9) + ((base == 'A' || base == 'G') ? 0.3 : 0.0) +
                          0.1 * t;
      targets[t].push_back(mean + rng.Normal(0.0, 0.15));
      errors[t].push_back(rng.Uniform(0.05, 0.3));
    }
  }
  const char* error_names[] = {"reactivity_error", "deg_error_Mg_pH10", "deg_error_pH10",
                               "deg_error_Mg_50C", "deg_error_50C"};
  for (int t = 0; t < 5; ++t) absl::StrAppend(&line, ",\"", error_names[t], "\":", JsonList(errors[t]));
  for (int t = 0; t < 5; ++t) absl::StrAppend(&line, ",\"", kTargets[t], "\":", JsonList(targets[t]));
  return line + "}\n";
}

absl::Status GenerateRaw(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::string train, test, sample = "id_seqpos,reactivity,deg_Mg_pH10,deg_pH10,deg_Mg_50C,deg_50C\n";
  for (int i = 0; i < kTrainRows; ++i) {
    const Rna rna = MakeRna(rng);
    train += TrainLine(i, rna, rng);
  }
  for (int i = 0; i < kTestRows; ++i) {
    const Rna rna = MakeRna(rng);
    absl::StrAppend(&test, "{", CommonFields(i, rna), ",\"seq_length\":", kSeqLength,
                    ",\"seq_scored\":", kSeqScored, "}\n");
    for (int j = 0; j < kSeqLength; ++j) absl::StrAppend(&sample, rna.id, "_", j, ",0.0,0.0,0.0,0.0,0.0\n");
  }
  for (const auto& [name, text] : {std::pair{"train.json", &train}, std::pair{"test.json", &test},
                                   std::pair{"sample_submission.csv", &sample}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, *text));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &GenerateRaw});

}  // namespace
}  // namespace mlebench
