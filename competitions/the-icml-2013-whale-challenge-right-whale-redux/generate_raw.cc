// Synthetic raw download of the-icml-2013-whale-challenge-right-whale-redux:
// train2.zip holding train2/<clip> for clips named
// "YYYYMMDD_HHMMSS_<sss>s<d>ms_TRAIN<idx>_<label>.aif" over four days
// (idx numbers the clips in time order; label 1 = right whale up-call),
// test2.zip holding test2/"YYYYMMDD_HHMMSS_<sss>s<d>ms_Test<idx>.aif" over
// three later days (unlabelled, as on Kaggle), and sampleSubmission.csv
// (clip, probability = 0). Clips are mono 16-bit AIFF at 2 kHz, half a second
// long (Kaggle's are 2 s): Gaussian sea noise; in about a quarter of them,
// the calls, a rising sweep from ~100 Hz to ~210 Hz; in some others a steady
// ship tone in the same band. Energy rising from the lower to the upper half
// of the band over the clip separates calls well but not perfectly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/zip_archive.h"
#include "synthetic/aiff_writer.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kSampleRate = 2000;
constexpr int kFrames = 1000;
constexpr int kTrainPerDay = 50;
constexpr int kTestPerDay = 20;
constexpr double kCallRate = 0.25;
constexpr double kNoise = 800;

std::vector<int16_t> DrawClip(SyntheticRng& rng, bool call) {
  std::vector<double> wave(kFrames);
  for (double& v : wave) v = rng.Normal(0, kNoise);
  if (call) {  // up-call: a Hann-windowed linear chirp
    const double f0 = rng.Uniform(80, 120), f1 = rng.Uniform(180, 240);
    // Centred in the clip, give or take 30 ms.
    const double length = rng.Uniform(0.3, 0.4);
    const double start = 0.25 - length / 2 + rng.Uniform(-0.03, 0.03);
    const double amplitude = kNoise * rng.Uniform(0.6, 2.0);
    for (int i = 0; i < kFrames; ++i) {
      const double t = static_cast<double>(i) / kSampleRate - start;
      if (t < 0 || t > length) continue;
      const double phase = 2 * std::numbers::pi * (f0 * t + (f1 - f0) * t * t / (2 * length));
      const double window = 0.5 - 0.5 * std::cos(2 * std::numbers::pi * t / length);
      wave[i] += amplitude * window * std::sin(phase);
    }
  } else if (rng.Bernoulli(0.4)) {  // ship noise: a steady tone
    const double f = rng.Uniform(90, 240), amplitude = kNoise * rng.Uniform(0.6, 2.0);
    const double phase = rng.Uniform(0, 2 * std::numbers::pi);
    for (int i = 0; i < kFrames; ++i) {
      wave[i] += amplitude * std::sin(2 * std::numbers::pi * f * i / kSampleRate + phase);
    }
  }
  std::vector<int16_t> samples(kFrames);
  for (int i = 0; i < kFrames; ++i) {
    samples[i] = static_cast<int16_t>(std::clamp(std::round(wave[i]), -32768.0, 32767.0));
  }
  return samples;
}

struct Clip {
  std::string prefix;  // "YYYYMMDD_HHMMSS_<sss>s<d>ms_"
  bool call;
};

// `per_day` clips on each of `dates`, in time order.
std::vector<Clip> ClipTimes(SyntheticRng& rng, const std::vector<std::string>& dates, int per_day) {
  std::vector<Clip> clips;
  for (const std::string& date : dates) {
    std::vector<std::tuple<int64_t, int64_t, int64_t>> times;
    for (int i = 0; i < per_day; ++i) {
      // Recordings start on the quarter hour; the clip's offset into it.
      times.emplace_back(rng.UniformInt(0, 95) * 15 * 60, rng.UniformInt(0, 899),
                         rng.UniformInt(0, 9));
    }
    std::sort(times.begin(), times.end());
    for (const auto& [start, seconds, tenths] : times) {
      clips.push_back({absl::StrFormat("%s_%02d%02d%02d_%03ds%dms_", date, start / 3600,
                                       start / 60 % 60, start % 60, seconds, tenths),
                       rng.Bernoulli(kCallRate)});
    }
  }
  return clips;
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng train_rng = root.Fork(1), test_rng = root.Fork(2);
  const std::vector<Clip> train =
      ClipTimes(train_rng, {"20090328", "20090329", "20090330", "20090331"}, kTrainPerDay);
  const std::vector<Clip> test =
      ClipTimes(test_rng, {"20090401", "20090402", "20090403"}, kTestPerDay);

  std::vector<ZipEntry> train_entries = {ZipEntry::Directory("train2/")};
  for (size_t idx = 0; idx < train.size(); ++idx) {
    ASSIGN_OR_RETURN(std::string aiff,
                     EncodeAiffMono16(DrawClip(train_rng, train[idx].call), kSampleRate));
    train_entries.push_back(
        ZipEntry::FromBytes(absl::StrCat("train2/", train[idx].prefix, "TRAIN", idx, "_",
                                         train[idx].call ? 1 : 0, ".aif"),
                            std::move(aiff)));
  }
  std::vector<ZipEntry> test_entries = {ZipEntry::Directory("test2/")};
  CsvTextBuilder sample;
  sample.Row({"clip", "probability"});
  for (size_t idx = 0; idx < test.size(); ++idx) {
    ASSIGN_OR_RETURN(std::string aiff,
                     EncodeAiffMono16(DrawClip(test_rng, test[idx].call), kSampleRate));
    const std::string name = absl::StrCat(test[idx].prefix, "Test", idx, ".aif");
    test_entries.push_back(ZipEntry::FromBytes("test2/" + name, std::move(aiff)));
    sample.String(name).Int(0).EndRow();
  }
  RETURN_IF_ERROR(WriteZip(raw_dir / "train2.zip", train_entries));
  RETURN_IF_ERROR(WriteZip(raw_dir / "test2.zip", test_entries));
  return WriteStringToFile(raw_dir / "sampleSubmission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{
    .id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
