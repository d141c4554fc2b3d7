// Synthetic raw download of mlsp-2013-birds: mlsp_contest_dataset.zip laid
// out as Kaggle's, under mlsp_contest_dataset/:
//  - essential_data/CVfolds_2.txt (rec_id,fold: 322 recordings in fold 0,
//    the labelled ones, as on Kaggle, which upstream's 64-recording test
//    split needs; 40 in fold 1), rec_id2filename.txt (rec_id,filename),
//    rec_labels_test_hidden.txt ("rec_id,[labels]" header, then "id,s1,s2",
//    "id" when no species is heard, "id,?" for fold 1), species_list.txt
//    (class_id,code,species for 19 species) and src_wavs/<filename>.wav
//    (16-bit mono PCM, 0.2 s at 8 kHz rather than Kaggle's 10 s at 16 kHz);
//  - supplemental_data/: spectrograms/, filtered_spectrograms/ and
//    supervised_segmentation/<filename>.bmp for every recording,
//    segmentation_examples/<filename>.bmp for a few, segment_clusters.bmp,
//    segment_mosaic.bmp (small 24-bit BMPs of the recording's spectrum), and
//    histogram_of_segments.txt, segment_features.txt and
//    segment_rectangles.txt (rec_id-keyed comma-separated features).
// Each species sings at its own pitch: a recording holds a tone at
// 300 + 180 * species Hz for each species present, over noise, so the
// spectrum's energy at a species' pitch predicts its presence.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/zip_archive.h"
#include "synthetic/synthetic.h"
#include "synthetic/wav_writer.h"

namespace mlebench {
namespace {

constexpr int kSpecies = 19;
constexpr int kTrain = 322;
constexpr int kTest = 40;
constexpr int kSampleRate = 8000;
constexpr int kSamples = 1600;
constexpr double kPresence = 0.1;
constexpr char kRoot[] = "mlsp_contest_dataset/";

double Pitch(int species) { return 300.0 + 180.0 * species; }

void AppendLittleEndian(std::string& out, uint32_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// A 24-bit uncompressed BMP (BITMAPINFOHEADER, rows bottom-up, each padded
// to 4 bytes) of `width` x `height` grey levels given top row first.
std::string EncodeBmp(int width, int height, const std::vector<uint8_t>& grey) {
  const int row_bytes = (width * 3 + 3) / 4 * 4;
  const uint32_t data_bytes = static_cast<uint32_t>(row_bytes * height);
  std::string out = "BM";
  AppendLittleEndian(out, 54 + data_bytes, 4);
  AppendLittleEndian(out, 0, 4);
  AppendLittleEndian(out, 54, 4);
  AppendLittleEndian(out, 40, 4);
  AppendLittleEndian(out, width, 4);
  AppendLittleEndian(out, height, 4);
  AppendLittleEndian(out, 1, 2);
  AppendLittleEndian(out, 24, 2);
  AppendLittleEndian(out, 0, 4);
  AppendLittleEndian(out, data_bytes, 4);
  AppendLittleEndian(out, 2835, 4);
  AppendLittleEndian(out, 2835, 4);
  AppendLittleEndian(out, 0, 4);
  AppendLittleEndian(out, 0, 4);
  for (int y = height - 1; y >= 0; --y) {
    for (int x = 0; x < width; ++x) out.append(3, static_cast<char>(grey[y * width + x]));
    out.append(row_bytes - width * 3, '\0');
  }
  return out;
}

// The recording's mean amplitude at each species' pitch (a DFT bin).
std::vector<double> PitchEnergies(const std::vector<int16_t>& samples) {
  std::vector<double> energies(kSpecies);
  for (int s = 0; s < kSpecies; ++s) {
    // The tone's phase advances by a fixed angle per sample: rotate a unit
    // vector instead of calling cos/sin for every sample.
    const double step = 2 * M_PI * Pitch(s) / kSampleRate;
    const double step_cos = std::cos(step), step_sin = std::sin(step);
    double c = 1, sn = 0, re = 0, im = 0;
    for (int t = 0; t < kSamples; ++t) {
      re += samples[t] * c;
      im += samples[t] * sn;
      const double next_c = c * step_cos - sn * step_sin;
      sn = sn * step_cos + c * step_sin;
      c = next_c;
    }
    energies[s] = std::hypot(re, im) / kSamples;
  }
  return energies;
}

// A 19 x 8 picture of the energies, brighter with `gain`.
std::string SpectrumBmp(const std::vector<double>& energies, double gain) {
  std::vector<uint8_t> grey(kSpecies * 8);
  for (int s = 0; s < kSpecies; ++s) {
    const double level = std::min(255.0, gain * energies[s] / 8);
    for (int y = 0; y < 8; ++y) grey[y * kSpecies + s] = static_cast<uint8_t>(level * (y + 1) / 8);
  }
  return EncodeBmp(kSpecies, 8, grey);
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng split_rng = root.Fork(1), audio_rng = root.Fork(2), feature_rng = root.Fork(3);
  std::vector<ZipEntry> entries;
  auto add = [&](const std::string& name, std::string bytes) {
    entries.push_back(ZipEntry::FromBytes(absl::StrCat(kRoot, name), std::move(bytes)));
  };
  for (const char* dir : {"", "essential_data/", "essential_data/src_wavs/", "supplemental_data/",
                          "supplemental_data/filtered_spectrograms/",
                          "supplemental_data/segmentation_examples/",
                          "supplemental_data/spectrograms/",
                          "supplemental_data/supervised_segmentation/"}) {
    entries.push_back(ZipEntry::Directory(absl::StrCat(kRoot, dir)));
  }
  std::string folds = "rec_id,fold\n", names = "rec_id,filename\n", labels = "rec_id,[labels]\n";
  std::string histogram = "rec_id,[histogram of segment features]\n";
  std::string features = "rec_id,[segment_id],[feature vector]\n";
  std::string rectangles = "rec_id,[segment_id],[min_x],[max_x],[min_y],[max_y],\n";
  int left_train = kTrain, left_test = kTest;
  for (int rec = 0; left_train + left_test > 0; ++rec) {
    const bool is_test =
        split_rng.UniformInt(left_train + left_test) < static_cast<uint64_t>(left_test);
    (is_test ? left_test : left_train)--;
    const std::string name = absl::StrFormat(
        "PC%d_2009%02d%02d_%02d%02d%02d_%04d", 1 + split_rng.UniformInt(int64_t{0}, int64_t{12}),
        5 + split_rng.UniformInt(int64_t{0}, int64_t{3}), 1 + split_rng.UniformInt(int64_t{0}, int64_t{27}),
        split_rng.UniformInt(int64_t{0}, int64_t{23}), split_rng.UniformInt(int64_t{0}, int64_t{59}),
        split_rng.UniformInt(int64_t{0}, int64_t{59}), rec);
    std::vector<int> present;
    for (int s = 0; s < kSpecies; ++s) {
      if (audio_rng.Bernoulli(kPresence)) present.push_back(s);
    }
    absl::StrAppend(&folds, rec, ",", is_test ? 1 : 0, "\n");
    absl::StrAppend(&names, rec, ",", name, "\n");
    if (is_test) {
      absl::StrAppend(&labels, rec, ",?\n");
    } else {
      absl::StrAppend(&labels, rec);
      for (int s : present) absl::StrAppend(&labels, ",", s);
      labels += "\n";
    }

    std::vector<double> signal(kSamples);
    for (double& v : signal) v = audio_rng.Normal(0, 1200);
    for (int s : present) {
      const double amplitude = audio_rng.Uniform(400, 1600), phase = audio_rng.Uniform(0, 6.283);
      for (int t = 0; t < kSamples; ++t) {
        signal[t] += amplitude * std::sin(2 * M_PI * Pitch(s) * t / kSampleRate + phase);
      }
    }
    std::vector<int16_t> samples(kSamples);
    for (int t = 0; t < kSamples; ++t) {
      samples[t] = static_cast<int16_t>(std::clamp(std::round(signal[t]), -32768.0, 32767.0));
    }
    ASSIGN_OR_RETURN(std::string wav, EncodeWav16(samples, kSampleRate));
    add(absl::StrCat("essential_data/src_wavs/", name, ".wav"), std::move(wav));
    const std::vector<double> energies = PitchEnergies(samples);
    add(absl::StrCat("supplemental_data/spectrograms/", name, ".bmp"), SpectrumBmp(energies, 1.0));
    add(absl::StrCat("supplemental_data/filtered_spectrograms/", name, ".bmp"),
        SpectrumBmp(energies, 1.5));
    add(absl::StrCat("supplemental_data/supervised_segmentation/", name, ".bmp"),
        SpectrumBmp(energies, 2.0));
    if (rec % 9 == 0) {
      add(absl::StrCat("supplemental_data/segmentation_examples/", name, ".bmp"),
          SpectrumBmp(energies, 3.0));
    }

    absl::StrAppend(&histogram, rec);
    for (int k = 0; k < 10; ++k) {
      absl::StrAppend(&histogram, ",", absl::StrFormat("%.6f", feature_rng.Uniform() * 0.2));
    }
    histogram += "\n";
    for (size_t segment = 0; segment < present.size(); ++segment) {
      absl::StrAppend(&features, rec, ",", segment);
      for (int k = 0; k < 5; ++k) {
        absl::StrAppend(&features, ",", absl::StrFormat("%.6f", feature_rng.Uniform()));
      }
      features += "\n";
      const int x = static_cast<int>(feature_rng.UniformInt(int64_t{0}, int64_t{900}));
      const int y = 10 + 6 * present[segment];
      absl::StrAppend(&rectangles, rec, ",", segment, ",", x, ",", x + 40, ",", y - 3, ",", y + 3,
                      ",\n");
    }
  }
  std::string species = "class_id,code,species\n";
  for (int s = 0; s < kSpecies; ++s) {
    absl::StrAppend(&species, s, ",", absl::StrFormat("SP%02d", s), ",Species ", s, "\n");
  }
  add("essential_data/CVfolds_2.txt", folds);
  add("essential_data/rec_id2filename.txt", names);
  add("essential_data/rec_labels_test_hidden.txt", labels);
  add("essential_data/species_list.txt", species);
  add("supplemental_data/histogram_of_segments.txt", histogram);
  add("supplemental_data/segment_features.txt", features);
  add("supplemental_data/segment_rectangles.txt", rectangles);
  std::vector<uint8_t> ramp(kSpecies * 8);
  for (size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<uint8_t>(i);
  add("supplemental_data/segment_clusters.bmp", EncodeBmp(kSpecies, 8, ramp));
  add("supplemental_data/segment_mosaic.bmp", EncodeBmp(8, kSpecies, ramp));
  return WriteZip(raw_dir / "mlsp_contest_dataset.zip", entries);
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
