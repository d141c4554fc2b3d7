// Upstream's tensorflow-speech-recognition-challenge/prepare.py: Kaggle's
// test clips are unlabelled, so 10% of the labelled training clips become the
// test set. Every .wav file under train/audio/ (recursively) is a clip
// labelled by the name of its folder, so the answers hold the folder names
// themselves: the 30 words and "_background_noise_", not Kaggle's 12 scoring
// classes (upstream's CLASSES list is never used).
#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "formats/seven_zip.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

struct AudioFile {
  std::string label;  // the name of the folder holding it
  fs::path path;
  std::string sort_key;  // upstream's f"{label}_{name}"
};

bool EndsWithWav(const std::string& name) {
  return name.size() >= 4 && name.compare(name.size() - 4, 4, ".wav") == 0;
}

// Upstream's `audio_dir.rglob("*.wav")`, sorted by "<label>_<file name>"
// (Python's stable sort; ties, which only nested folders of one name can
// make, are broken by path so that the order does not depend on the file
// system).
absl::StatusOr<std::vector<AudioFile>> FindAudioFiles(const fs::path& audio_dir) {
  std::vector<AudioFile> files;
  std::error_code ec;
  if (fs::is_directory(audio_dir, ec)) {
    for (fs::recursive_directory_iterator it(audio_dir, ec), end; !ec && it != end;
         it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!EndsWithWav(name)) continue;
      if (!it->is_regular_file()) {
        return absl::InvalidArgumentError(
            absl::StrCat("train.7z: '", it->path().lexically_relative(audio_dir).string(),
                         "' under train/audio/ is named like a clip but is not a file"));
      }
      std::string label = it->path().parent_path().filename().string();
      std::string key = absl::StrCat(label, "_", name);
      files.push_back({std::move(label), it->path(), std::move(key)});
    }
    if (ec) {
      return absl::InternalError(
          absl::StrCat("cannot list '", audio_dir.string(), "': ", ec.message()));
    }
  }
  std::sort(files.begin(), files.end(), [](const AudioFile& a, const AudioFile& b) {
    return a.sort_key != b.sort_key ? a.sort_key < b.sort_key : a.path < b.path;
  });
  return files;
}

absl::Status MakeDirectories(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot create '", dir.string(), "': ", ec.message()));
  }
  return absl::OkStatus();
}

Column TextColumn(std::string name, std::vector<Cell> cells) {
  return Column{std::move(name), Dtype::kObject, std::move(cells)};
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  // Upstream extracts train.7z into raw/; we extract into scratch/.
  const fs::path extracted = scratch / "raw";
  RETURN_IF_ERROR(Extract7z(raw / "train.7z", extracted));
  ASSIGN_OR_RETURN(std::vector<AudioFile> audio_files,
                   FindAudioFiles(extracted / "train" / "audio"));
  if (audio_files.empty()) {
    return absl::InvalidArgumentError("train.7z holds no .wav files under train/audio/");
  }

  TrainTestSplitOptions options;
  options.test_size = 0.1;
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(audio_files.size()), options));

  const fs::path train_audio = public_dir / "train" / "audio";
  const fs::path test_audio = public_dir / "test" / "audio";
  RETURN_IF_ERROR(MakeDirectories(test_audio));
  for (int64_t index : split.train_indices) {
    const AudioFile& file = (audio_files)[index];
    RETURN_IF_ERROR(MakeDirectories(train_audio / file.label));
    RETURN_IF_ERROR(CopyRegularFile(file.path, train_audio / file.label / file.path.filename()));
  }

  // Test clips are renamed: file names repeat across label folders.
  std::vector<Cell> fnames, labels, silence;
  for (size_t i = 0; i < split.test_indices.size(); ++i) {
    const AudioFile& file = (audio_files)[split.test_indices[i]];
    std::string new_name = absl::StrFormat("clip_%08d.wav", i);
    RETURN_IF_ERROR(CopyRegularFile(file.path, test_audio / new_name));
    fnames.emplace_back(std::move(new_name));
    labels.emplace_back(file.label);
    silence.emplace_back(std::string("silence"));
  }
  const Table test({TextColumn("fname", fnames), TextColumn("label", std::move(labels))});
  const Table sample_submission(
      {TextColumn("fname", std::move(fnames)), TextColumn("label", std::move(silence))});
  RETURN_IF_ERROR(WriteCsvFile(test, (private_dir / "test.csv").string()));
  RETURN_IF_ERROR(WriteCsvFile(sample_submission, (public_dir / "sample_submission.csv").string()));

  // Upstream's closing check.
  size_t num_test_files = 0;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(test_audio, ec)) {
    num_test_files += EndsWithWav(entry.path().filename().string());
  }
  if (ec || num_test_files != sample_submission.num_rows()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "check failed: The number of test audio files (", num_test_files,
        ") does not match the number of entries in sample_submission.csv (",
        sample_submission.num_rows(), ")"));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID,
                                               .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
