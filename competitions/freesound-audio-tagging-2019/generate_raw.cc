// Synthetic raw download of freesound-audio-tagging-2019, in Kaggle's layout
// plus the post-competition metadata upstream downloads from Zenodo:
//   train_curated.csv, train_noisy.csv  fname,labels (labels comma-joined)
//   train_curated.zip, train_noisy.zip, test.zip  the clips (<8 hex>.wav,
//       16-bit PCM mono, 8 kHz, 0.25 s) at the archive root
//   sample_submission.csv  fname + the 80 class columns, all 0
//   FSDKaggle2019.meta.zip  FSDKaggle2019.meta/test_post_competition.csv
//       (fname,labels,usage,freesound_id,license): the test clips' labels,
//       "Private" for the clips in test.zip and "Public" for a few others.
// Clips carry one or two of twelve classes; each class is a tone at its own
// frequency (plus noise), so the spectrum identifies the labels. The noisy
// set's labels are right only 60% of the time.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "competitions/freesound-audio-tagging-2019/class_names.h"
#include "formats/zip_archive.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"
#include "synthetic/wav_writer.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using freesound::ClassNames;

constexpr int kSampleRate = 8000;
constexpr int kSamples = 2000;
constexpr int kUsedClasses = 12;
constexpr double kPi = 3.14159265358979323846;

struct Clip {
  std::string fname;
  std::vector<int> classes;  // indices into ClassNames(), ascending
};

// The class indices the synthetic clips use (spread over the vocabulary).
int UsedClass(int k) { return k * 6 + 1; }
double Frequency(int k) { return 250.0 + 230.0 * k; }

absl::StatusOr<std::string> Synthesize(SyntheticRng& rng, const std::vector<int>& used) {
  std::vector<double> wave(kSamples, 0.0);
  for (int k : used) {
    const double phase = rng.Uniform(0, 2 * kPi), amplitude = rng.Uniform(0.5, 1.0);
    for (int i = 0; i < kSamples; ++i) {
      wave[i] += amplitude * std::sin(2 * kPi * Frequency(k) * i / kSampleRate + phase);
    }
  }
  std::vector<int16_t> samples(kSamples);
  for (int i = 0; i < kSamples; ++i) {
    const double value = 6000 * (wave[i] + rng.Normal(0, 0.4));
    samples[i] = static_cast<int16_t>(std::clamp(std::round(value), -32768.0, 32767.0));
  }
  return EncodeWav16(samples, kSampleRate);
}

std::string Labels(const std::vector<int>& classes) {
  std::vector<std::string> names;
  for (int c : classes) names.push_back(ClassNames()[c]);
  return absl::StrJoin(names, ",");
}

// Draws `count` clips with unique names; writes their audio into `zip`
// (nullptr: no audio) and returns them. `noisy` replaces the labels by
// random ones 40% of the time.
absl::StatusOr<std::vector<Clip>> MakeClips(SyntheticRng& rng, std::set<std::string>& names,
                                            int count, bool noisy, const fs::path* zip) {
  std::vector<Clip> clips;
  std::vector<ZipEntry> entries;
  for (int n = 0; n < count; ++n) {
    std::string fname;
    do {
      fname = absl::StrCat(rng.Hex(8), ".wav");
    } while (!names.insert(fname).second);
    std::vector<int> used = {static_cast<int>(rng.UniformInt(uint64_t{kUsedClasses}))};
    if (rng.Bernoulli(0.35)) {
      const int other = static_cast<int>(rng.UniformInt(uint64_t{kUsedClasses}));
      if (other != used[0]) used.push_back(other);
    }
    ASSIGN_OR_RETURN(std::string wav, Synthesize(rng, used));
    if (noisy && rng.Bernoulli(0.4)) used = {static_cast<int>(rng.UniformInt(uint64_t{kUsedClasses}))};
    Clip clip{fname, {}};
    for (int k : used) clip.classes.push_back(UsedClass(k));
    std::sort(clip.classes.begin(), clip.classes.end());
    clips.push_back(std::move(clip));
    entries.push_back(ZipEntry::FromBytes(fname, std::move(wav)));
  }
  if (zip != nullptr) {
    RETURN_IF_ERROR(WriteZip(*zip, entries));
  }
  return clips;
}

absl::Status WriteLabelsCsv(const fs::path& path, const std::vector<Clip>& clips) {
  CsvTextBuilder csv;
  csv.Row({"fname", "labels"});
  for (const Clip& clip : clips) csv.String(clip.fname).String(Labels(clip.classes)).EndRow();
  return WriteStringToFile(path, csv.text());
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng = SyntheticRng(seed).Fork(1);
  std::set<std::string> names;
  const fs::path curated_zip = raw_dir / "train_curated.zip";
  const fs::path noisy_zip = raw_dir / "train_noisy.zip";
  const fs::path test_zip = raw_dir / "test.zip";
  ASSIGN_OR_RETURN(std::vector<Clip> curated, MakeClips(rng, names, 80, false, &curated_zip));
  ASSIGN_OR_RETURN(std::vector<Clip> noisy, MakeClips(rng, names, 40, true, &noisy_zip));
  ASSIGN_OR_RETURN(std::vector<Clip> test, MakeClips(rng, names, 30, false, &test_zip));
  ASSIGN_OR_RETURN(std::vector<Clip> public_test, MakeClips(rng, names, 10, false, nullptr));
  RETURN_IF_ERROR(WriteLabelsCsv(raw_dir / "train_curated.csv", curated));
  RETURN_IF_ERROR(WriteLabelsCsv(raw_dir / "train_noisy.csv", noisy));

  CsvTextBuilder sample;
  sample.String("fname");
  for (const std::string& name : ClassNames()) sample.String(name);
  sample.EndRow();
  for (const Clip& clip : test) {
    sample.String(clip.fname);
    for (size_t c = 0; c < ClassNames().size(); ++c) sample.Int(0);
    sample.EndRow();
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "sample_submission.csv", sample.text()));

  // The Zenodo metadata: public and private test clips interleaved.
  CsvTextBuilder meta;
  meta.Row({"fname", "labels", "usage", "freesound_id", "license"});
  std::vector<std::pair<const Clip*, bool>> rows;
  for (const Clip& clip : test) rows.push_back({&clip, true});
  for (const Clip& clip : public_test) rows.push_back({&clip, false});
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.first->fname < b.first->fname; });
  for (const auto& [clip, is_private] : rows) {
    meta.String(clip->fname)
        .String(Labels(clip->classes))
        .String(is_private ? "Private" : "Public")
        .Int(static_cast<int64_t>(rng.UniformInt(int64_t{10000}, int64_t{450000})))
        .String("Attribution")
        .EndRow();
  }
  return WriteZip(raw_dir / "FSDKaggle2019.meta.zip",
                  {ZipEntry::Directory("FSDKaggle2019.meta/"),
                   ZipEntry::FromBytes("FSDKaggle2019.meta/test_post_competition.csv",
                                       meta.text())});
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
