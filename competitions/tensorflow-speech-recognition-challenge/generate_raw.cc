// Synthetic raw download of tensorflow-speech-recognition-challenge, in
// Kaggle's layout:
//   train.7z: train/audio/<word>/<speaker>_nohash_<n>.wav for the ten command
//     words and three other words, train/audio/_background_noise_/ (two
//     longer noise recordings and a README.md), train/validation_list.txt,
//     train/testing_list.txt, train/LICENSE;
//   test.7z: test/audio/clip_<9 hex digits>.wav, unlabelled;
//   sample_submission.7z: sample_submission.csv (fname, label = "silence").
// Clips are 16 kHz mono 16-bit PCM WAVs of a quarter second (Kaggle's are one
// second): a tone whose pitch is set by the word (plus a harmonic, a fade in
// and out, a speaker-dependent shift of a few percent and noise), so a
// clip's dominant frequency tells its word.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/seven_zip.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"
#include "synthetic/wav_writer.h"

namespace mlebench {
namespace {

constexpr int kSampleRate = 16000;
constexpr int kClipSamples = kSampleRate / 4;
constexpr int kNoiseSamples = kSampleRate;
constexpr int kNumSpeakers = 25;
constexpr int kNumTest = 20;
// Kaggle's folders: the ten commands, then some of the other twenty words.
const char* const kWords[] = {"yes", "no",  "up", "down", "left", "right", "on",
                              "off", "stop", "go", "bed",  "cat",  "happy"};
constexpr int kNumWords = sizeof(kWords) / sizeof(kWords[0]);

// The word's pitch: 150 Hz apart, so a few percent of speaker shift keeps
// words apart.
double WordFrequency(int word) { return 300.0 + 150.0 * word; }

absl::StatusOr<std::string> Utterance(SyntheticRng& rng, int word, double speaker_shift) {
  const double frequency = WordFrequency(word) * speaker_shift * rng.Uniform(0.99, 1.01);
  const double amplitude = rng.Uniform(2500, 9000);
  const double phase = rng.Uniform(0, 2 * std::numbers::pi);
  const int start = static_cast<int>(rng.UniformInt(0, kClipSamples / 4));
  const int length = static_cast<int>(rng.UniformInt(kClipSamples / 2, kClipSamples - start));
  std::vector<int16_t> samples(kClipSamples);
  for (int i = 0; i < kClipSamples; ++i) {
    double value = rng.Normal(0, 300);
    if (i >= start && i < start + length) {
      const double t = static_cast<double>(i) / kSampleRate;
      const double position = static_cast<double>(i - start) / length;
      const double envelope = std::sin(std::numbers::pi * position);
      const double angle = 2 * std::numbers::pi * frequency * t + phase;
      value += amplitude * envelope * (std::sin(angle) + 0.3 * std::sin(2 * angle));
    }
    samples[i] = static_cast<int16_t>(std::clamp(std::round(value), -32768.0, 32767.0));
  }
  return EncodeWav16(samples, kSampleRate);
}

absl::StatusOr<std::string> Noise(SyntheticRng& rng, bool pink) {
  std::vector<int16_t> samples(kNoiseSamples);
  double smoothed = 0;
  for (int16_t& sample : samples) {
    const double white = rng.Normal(0, 2000);
    smoothed = pink ? 0.9 * smoothed + 0.45 * white : white;
    sample = static_cast<int16_t>(std::clamp(std::round(smoothed), -32768.0, 32767.0));
  }
  return EncodeWav16(samples, kSampleRate);
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng rng = root.Fork(1), test_rng = root.Fork(2);
  std::vector<std::string> speakers;
  std::vector<double> shifts;
  for (int i = 0; i < kNumSpeakers; ++i) {
    speakers.push_back(rng.Hex(8));
    shifts.push_back(rng.Uniform(0.97, 1.03));
  }

  std::vector<SevenZipEntry> train;
  std::string validation_list, testing_list;
  for (int word = 0; word < kNumWords; ++word) {
    const int count = static_cast<int>(rng.UniformInt(9, 14));
    std::set<std::string> names;
    while (static_cast<int>(names.size()) < count) {
      const int speaker = static_cast<int>(rng.UniformInt(0, kNumSpeakers - 1));
      const std::string name =
          absl::StrCat(speakers[speaker], "_nohash_", rng.UniformInt(0, 3), ".wav");
      if (!names.insert(name).second) continue;
      ASSIGN_OR_RETURN(std::string wav, Utterance(rng, word, shifts[speaker]));
      const std::string relative = absl::StrCat(kWords[word], "/", name);
      train.push_back(SevenZipEntry::FromBytes("train/audio/" + relative, std::move(wav)));
      // Kaggle's suggested validation and test subsets (upstream ignores them).
      const double u = rng.Uniform();
      if (u < 0.1) absl::StrAppend(&validation_list, relative, "\n");
      if (u > 0.9) absl::StrAppend(&testing_list, relative, "\n");
    }
  }
  for (const bool pink : {false, true}) {
    ASSIGN_OR_RETURN(std::string wav, Noise(rng, pink));
    train.push_back(SevenZipEntry::FromBytes(
        absl::StrCat("train/audio/_background_noise_/", pink ? "pink" : "white", "_noise.wav"),
        std::move(wav)));
  }
  train.push_back(SevenZipEntry::FromBytes("train/audio/_background_noise_/README.md",
                                           "Synthetic background noise recordings.\n"));
  train.push_back(SevenZipEntry::FromBytes("train/validation_list.txt", validation_list));
  train.push_back(SevenZipEntry::FromBytes("train/testing_list.txt", testing_list));
  train.push_back(SevenZipEntry::FromBytes("train/LICENSE", "Synthetic data, no rights.\n"));

  std::vector<SevenZipEntry> test;
  std::set<std::string> test_names;
  while (static_cast<int>(test_names.size()) < kNumTest) test_names.insert(test_rng.Hex(9));
  CsvTextBuilder sample;
  sample.Row({"fname", "label"});
  for (const std::string& hex : test_names) {
    const int speaker = static_cast<int>(test_rng.UniformInt(0, kNumSpeakers - 1));
    ASSIGN_OR_RETURN(std::string wav,
                     Utterance(test_rng, static_cast<int>(test_rng.UniformInt(0, kNumWords - 1)),
                               shifts[speaker]));
    const std::string name = absl::StrCat("clip_", hex, ".wav");
    test.push_back(SevenZipEntry::FromBytes("test/audio/" + name, std::move(wav)));
    sample.String(name).String("silence").EndRow();
  }

  RETURN_IF_ERROR(Write7z(raw_dir / "train.7z", std::move(train)));
  RETURN_IF_ERROR(Write7z(raw_dir / "test.7z", std::move(test)));
  return Write7z(raw_dir / "sample_submission.7z",
                 {SevenZipEntry::FromBytes("sample_submission.csv", sample.text())});
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
