// Synthetic raw download for multi-modal-gesture-recognition, in Kaggle's
// layout:
//   training.csv              Id ("0001"), Sequence ("3 17 5 ...": gesture
//                             ids 1-20 in the order performed)
//   training{1,2,3,4}.tar.gz  labelled videos: Sample0XXXX.zip at the top
//                             level, each holding Sample0XXXX_skeleton.csv
//                             (per frame, 20 joints x 9 numbers: world x, y,
//                             z, 4 rotation numbers, pixel x, y) and
//                             Sample0XXXX_labels.csv (gesture, first frame,
//                             last frame)
//   validation{1,2,3}.tar.gz  unlabelled videos (skeletons only)
//   test.csv, randomPredictions.csv  Kaggle's validation ids and a random
//                             submission for them (upstream ignores both)
//   devel01-40.7z, valid_all_files_combined.7z, sample_code_mmrgc.zip
//                             small stand-ins (upstream copies them unopened)
// The signal: during each gesture the right hand (joint 11) holds a position
// that depends on the gesture; between gestures it rests low. Segmenting the
// frames by the hand's distance from rest and matching each segment to the
// nearest per-gesture mean recovers the sequences.

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/seven_zip.h"
#include "formats/tar_archive.h"
#include "formats/zip_archive.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kJoints = 20;
constexpr int kRightHand = 11;
constexpr int kGestures = 20;
constexpr int kSamplesPerTraining = 7;
constexpr int kSamplesPerValidation = 3;

// The right hand's (x, y) while performing `gesture` (1-20): points on a
// circle around the chest.
void HandPosition(int gesture, double& x, double& y) {
  const double angle = 2 * M_PI * (gesture - 1) / kGestures;
  x = 0.45 * std::cos(angle);
  y = 0.3 + 0.45 * std::sin(angle);
}

struct Video {
  std::string skeleton;
  std::string labels;
};

// One performance of `sequence`: rest frames, then each gesture's frames
// followed by rest frames.
Video MakeVideo(SyntheticRng& rng, const std::vector<int>& sequence) {
  std::vector<double> body(kJoints * 9);
  for (double& v : body) v = std::round(rng.Uniform(-1, 1) * 1000) / 1000;
  Video video;
  int frame = 1;
  auto add_frame = [&](double hand_x, double hand_y) {
    std::vector<std::string> values;
    values.reserve(kJoints * 9);
    for (int j = 0; j < kJoints; ++j) {
      for (int k = 0; k < 9; ++k) {
        double v = body[j * 9 + k];
        if (j == kRightHand && k == 0) v = hand_x + rng.Normal(0, 0.03);
        if (j == kRightHand && k == 1) v = hand_y + rng.Normal(0, 0.03);
        values.push_back(absl::StrFormat("%.3f", v));
      }
    }
    absl::StrAppend(&video.skeleton, absl::StrJoin(values, ","), "\n");
    ++frame;
  };
  auto rest = [&](int frames) {
    for (int i = 0; i < frames; ++i) add_frame(0.0, -0.6);
  };
  rest(3 + static_cast<int>(rng.UniformInt(uint64_t{3})));
  for (int gesture : sequence) {
    double x, y;
    HandPosition(gesture, x, y);
    const int first = frame;
    const int frames = 4 + static_cast<int>(rng.UniformInt(uint64_t{3}));
    for (int i = 0; i < frames; ++i) add_frame(x, y);
    absl::StrAppend(&video.labels, gesture, ",", first, ",", frame - 1, "\n");
    rest(2 + static_cast<int>(rng.UniformInt(uint64_t{3})));
  }
  return video;
}

// 6-10 distinct gestures in random order.
std::vector<int> RandomSequence(SyntheticRng& rng) {
  std::vector<int> all;
  for (int g = 1; g <= kGestures; ++g) all.push_back(g);
  for (size_t i = all.size(); i > 1; --i) std::swap(all[i - 1], all[rng.UniformInt(uint64_t{i})]);
  all.resize(6 + rng.UniformInt(uint64_t{5}));
  return all;
}

// A Sample0XXXX.zip as bytes (written through a file beside the outputs).
absl::StatusOr<std::string> SampleZip(const fs::path& scratch, const std::string& sample,
                                      const Video& video, bool labelled) {
  std::vector<ZipEntry> entries = {
      ZipEntry::FromBytes(absl::StrCat(sample, "_skeleton.csv"), video.skeleton)};
  if (labelled) entries.push_back(ZipEntry::FromBytes(absl::StrCat(sample, "_labels.csv"), video.labels));
  RETURN_IF_ERROR(WriteZip(scratch, entries));
  absl::StatusOr<std::string> bytes = ReadFileToString(scratch);
  fs::remove(scratch);
  return bytes;
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  const fs::path scratch = raw_dir / ".sample.zip.tmp";
  std::string training_csv = "Id,Sequence\n";
  int next_id = 1;
  for (int archive = 1; archive <= 4; ++archive) {
    std::vector<TarEntry> samples;
    for (int i = 0; i < kSamplesPerTraining; ++i, ++next_id) {
      const std::vector<int> sequence = RandomSequence(rng);
      const std::string sample = absl::StrFormat("Sample%05d", next_id);
      absl::StrAppendFormat(&training_csv, "%04d,%s\n", next_id, absl::StrJoin(sequence, " "));
      ASSIGN_OR_RETURN(std::string zip,
                       SampleZip(scratch, sample, MakeVideo(rng, sequence), /*labelled=*/true));
      samples.push_back({absl::StrCat(sample, ".zip"), std::move(zip), {}});
    }
    RETURN_IF_ERROR(WriteTarGz(raw_dir / absl::StrCat("training", archive, ".tar.gz"), samples));
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "training.csv", training_csv));

  std::string test_csv = "Id\n";
  std::string random_csv = "Id,Sequence\n";
  next_id = 410;
  for (int archive = 1; archive <= 3; ++archive) {
    std::vector<TarEntry> samples;
    for (int i = 0; i < kSamplesPerValidation; ++i, ++next_id) {
      const std::string sample = absl::StrFormat("Sample%05d", next_id);
      ASSIGN_OR_RETURN(
          std::string zip,
          SampleZip(scratch, sample, MakeVideo(rng, RandomSequence(rng)), /*labelled=*/false));
      samples.push_back({absl::StrCat(sample, ".zip"), std::move(zip), {}});
      absl::StrAppendFormat(&test_csv, "%04d\n", next_id);
      absl::StrAppendFormat(&random_csv, "%04d,%s\n", next_id,
                            absl::StrJoin(RandomSequence(rng), " "));
    }
    RETURN_IF_ERROR(WriteTarGz(raw_dir / absl::StrCat("validation", archive, ".tar.gz"), samples));
  }
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "test.csv", test_csv));
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "randomPredictions.csv", random_csv));

  // Stand-ins for the files upstream copies without opening.
  std::vector<SevenZipEntry> devel;
  for (int d = 1; d <= 3; ++d) {
    devel.push_back(SevenZipEntry::FromBytes(
        absl::StrFormat("devel%02d/devel%02d_train.csv", d, d),
        absl::StrCat("Sample,Gestures\n", d, ",", absl::StrJoin(RandomSequence(rng), " "), "\n")));
  }
  RETURN_IF_ERROR(Write7z(raw_dir / "devel01-40.7z", devel));
  RETURN_IF_ERROR(Write7z(raw_dir / "valid_all_files_combined.7z",
                          {SevenZipEntry::FromBytes("valid_all_files_combined/README.txt",
                                                    "Validation videos (synthetic stand-in).\n")}));
  return WriteZip(raw_dir / "sample_code_mmrgc.zip",
                  {ZipEntry::FromBytes("sample_code_mmrgc/README.txt",
                                       "Sample code (synthetic stand-in).\n"),
                   ZipEntry::FromBytes("sample_code_mmrgc/main.py",
                                       "print('predict gestures here')\n")});
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
