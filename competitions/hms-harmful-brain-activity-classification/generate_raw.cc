// Synthetic raw download for hms-harmful-brain-activity-classification, in
// Kaggle's layout: train.csv (one row per labelled window, expert votes per
// class), train_eegs/<eeg_id>.parquet (20 float32 channels),
// train_spectrograms/<spectrogram_id>.parquet ("time" plus 400 float32
// power columns: 4 scalp regions x 100 frequencies) and example_figures/.
// Each EEG recording has a hidden class that drives the experts' votes; its
// spectrogram carries extra power in a class-specific frequency band and its
// EEG a class-specific rhythm, so the signal files predict the votes.
// Everything is far shorter than Kaggle's (100 EEG samples, 12 spectrogram
// rows) to keep the download small.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "formats/parquet.h"
#include "synthetic/png_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kNumSpectrograms = 40;
constexpr int kEegSamples = 100;
constexpr int kSpectrogramRows = 12;
constexpr int kFrequencies = 100;
constexpr int kClasses = 6;

const std::vector<std::string>& EegChannels() {
  static const auto* channels = new std::vector<std::string>{
      "Fp1", "F3", "C3", "P3", "F7", "T3", "T5", "O1", "Fz", "Cz",
      "Pz",  "Fp2", "F4", "C4", "P4", "F8", "T4", "T6", "O2", "EKG"};
  return *channels;
}
const std::vector<std::string>& Regions() {
  static const auto* regions = new std::vector<std::string>{"LL", "RL", "LP", "RP"};
  return *regions;
}
const std::vector<std::string>& Consensus() {
  static const auto* names =
      new std::vector<std::string>{"Seizure", "LPD", "GPD", "LRDA", "GRDA", "Other"};
  return *names;
}
const std::vector<std::string>& VoteColumns() {
  static const auto* names = new std::vector<std::string>{
      "seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"};
  return *names;
}

// Spectrogram column names as Kaggle's: "<region>_<frequency in Hz, 2 dp>".
std::string FrequencyColumn(const std::string& region, int f) {
  return absl::StrFormat("%s_%.2f", region, 0.5859375 + 0.1953125 * f);
}

// The frequency band (of kFrequencies) where class `k` adds power.
bool InClassBand(int f, int k) { return f / (kFrequencies / kClasses) == k; }

struct Recording {
  int64_t eeg_id;
  int64_t spectrogram_id;
  int64_t patient_id;
  int label_class;
  double spectrogram_start;  // seconds into the spectrogram
};

absl::Status WriteEeg(const fs::path& path, int label_class, SyntheticRng& rng) {
  std::vector<Column> columns;
  const double hertz = 1.5 + 2.0 * label_class;
  for (size_t c = 0; c < EegChannels().size(); ++c) {
    Column column{EegChannels()[c], Dtype::kFloat64, std::vector<Cell>(kEegSamples, 0.0)};
    const double phase = rng.Uniform(0, 6.283);
    for (int t = 0; t < kEegSamples; ++t) {
      const double rhythm = 40.0 * std::sin(phase + 6.283 * hertz * t / 200.0);
      column.cells[t] = static_cast<double>(static_cast<float>(rhythm + rng.Normal(0, 15)));
    }
    columns.push_back(std::move(column));
  }
  ParquetWriteOptions options;
  for (const std::string& name : EegChannels()) options.storage[name] = ParquetStorage::kFloat;
  return WriteParquetFile(Table(std::move(columns)), path, options);
}

absl::Status WriteSpectrogram(const fs::path& path, int label_class, SyntheticRng& rng) {
  std::vector<Column> columns;
  Column time{"time", Dtype::kInt64, std::vector<Cell>(kSpectrogramRows, int64_t{0})};
  for (int r = 0; r < kSpectrogramRows; ++r) time.cells[r] = int64_t{1 + 2 * r};
  columns.push_back(std::move(time));
  ParquetWriteOptions options;
  for (const std::string& region : Regions()) {
    for (int f = 0; f < kFrequencies; ++f) {
      Column column{FrequencyColumn(region, f), Dtype::kFloat64,
                    std::vector<Cell>(kSpectrogramRows, 0.0)};
      const double base = 8.0 / (1.0 + 0.1 * f) + (InClassBand(f, label_class) ? 4.0 : 0.0);
      for (int r = 0; r < kSpectrogramRows; ++r) {
        const double power = base * std::exp(rng.Normal(0, 0.3));
        column.cells[r] = static_cast<double>(static_cast<float>(power));
      }
      options.storage[column.name] = ParquetStorage::kFloat;
      columns.push_back(std::move(column));
    }
  }
  return WriteParquetFile(Table(std::move(columns)), path, options);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::error_code error;
  for (const char* dir : {"train_eegs", "train_spectrograms", "example_figures"}) {
    fs::create_directories(raw_dir / dir, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", dir));
  }

  // Recordings: each spectrogram covers one or two EEG recordings of one
  // patient (an EEG belongs to exactly one spectrogram, as in Kaggle's data).
  std::set<int64_t> used_ids;
  const auto fresh_id = [&](int64_t lo, int64_t hi) {
    int64_t id;
    do {
      id = rng.UniformInt(lo, hi);
    } while (!used_ids.insert(id).second);
    return id;
  };
  std::vector<Recording> recordings;
  for (int s = 0; s < kNumSpectrograms; ++s) {
    const int64_t spectrogram_id = fresh_id(353733, 2147483647);
    const int64_t patient_id = fresh_id(56, 65494);
    const int64_t eegs = rng.UniformInt(1, 2);
    for (int64_t e = 0; e < eegs; ++e) {
      recordings.push_back(Recording{fresh_id(568657, 4294958358), spectrogram_id, patient_id,
                                     static_cast<int>(rng.UniformInt(kClasses)),
                                     static_cast<double>(2 * e * rng.UniformInt(0, 4))});
    }
  }
  for (const Recording& recording : recordings) {
    SyntheticRng eeg_rng = rng.Fork(static_cast<uint64_t>(recording.eeg_id));
    RETURN_IF_ERROR(WriteEeg(raw_dir / "train_eegs" / absl::StrCat(recording.eeg_id, ".parquet"),
                             recording.label_class, eeg_rng));
  }
  // A spectrogram shows its first recording's class.
  std::set<int64_t> written;
  for (const Recording& recording : recordings) {
    if (!written.insert(recording.spectrogram_id).second) continue;
    SyntheticRng spectrogram_rng = rng.Fork(static_cast<uint64_t>(recording.spectrogram_id));
    RETURN_IF_ERROR(WriteSpectrogram(
        raw_dir / "train_spectrograms" / absl::StrCat(recording.spectrogram_id, ".parquet"),
        recording.label_class, spectrogram_rng));
  }
  // Later recordings of a spectrogram share its class, so that the
  // spectrogram is right for all of its rows.
  int first_class = -1;
  int64_t current_spectrogram = -1;
  for (Recording& recording : recordings) {
    if (recording.spectrogram_id != current_spectrogram) {
      current_spectrogram = recording.spectrogram_id;
      first_class = recording.label_class;
    }
    recording.label_class = first_class;
  }

  // train.csv, sorted by eeg_id as Kaggle's is.
  std::sort(recordings.begin(), recordings.end(),
            [](const Recording& a, const Recording& b) { return a.eeg_id < b.eeg_id; });
  std::vector<std::string> names = {"eeg_id", "eeg_sub_id", "eeg_label_offset_seconds",
                                    "spectrogram_id", "spectrogram_sub_id",
                                    "spectrogram_label_offset_seconds", "label_id",
                                    "patient_id", "expert_consensus"};
  names.insert(names.end(), VoteColumns().begin(), VoteColumns().end());
  std::vector<Column> columns;
  for (const std::string& name : names) columns.push_back(Column{name, Dtype::kInt64, {}});
  for (int c : {2, 5}) columns[c].dtype = Dtype::kFloat64;
  columns[8].dtype = Dtype::kObject;
  std::map<int64_t, int64_t> spectrogram_rows;
  for (const Recording& recording : recordings) {
    const int64_t windows = rng.UniformInt(1, 4);
    for (int64_t w = 0; w < windows; ++w) {
      const double offset = 2.0 * w;
      std::vector<int64_t> votes(kClasses, 0);
      const int64_t experts = rng.UniformInt(1, 16);
      for (int64_t e = 0; e < experts; ++e) {
        ++votes[rng.Bernoulli(0.7) ? recording.label_class : rng.UniformInt(kClasses)];
      }
      size_t consensus = 0;
      for (size_t k = 1; k < votes.size(); ++k) {
        if (votes[k] > votes[consensus]) consensus = k;
      }
      const std::vector<Cell> row = {
          recording.eeg_id,  w, offset, recording.spectrogram_id,
          spectrogram_rows[recording.spectrogram_id]++, recording.spectrogram_start + offset,
          fresh_id(338, 4294958358), recording.patient_id, Consensus()[consensus]};
      for (size_t c = 0; c < row.size(); ++c) columns[c].cells.push_back(row[c]);
      for (int k = 0; k < kClasses; ++k) {
        columns[row.size() + k].cells.emplace_back(std::in_place_type<int64_t>, votes[k]);
      }
    }
  }
  RETURN_IF_ERROR(WriteCsvFile(Table(std::move(columns)), (raw_dir / "train.csv").string()));

  // example_figures: one small picture per class.
  for (int k = 0; k < kClasses; ++k) {
    PngImage image{.width = 16, .height = 8, .color = PngColor::kGray, .pixels = {}};
    for (int y = 0; y < image.height; ++y) {
      for (int x = 0; x < image.width; ++x) {
        image.pixels.push_back(static_cast<uint8_t>(128 + 100 * std::sin((k + 1) * x * 0.4)));
      }
    }
    ASSIGN_OR_RETURN(std::string png, EncodePng(image));
    RETURN_IF_ERROR(
        WriteStringToFile(raw_dir / "example_figures" / absl::StrCat(Consensus()[k], ".png"), png));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(
    SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
