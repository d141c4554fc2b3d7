// Upstream's the-icml-2013-whale-challenge-right-whale-redux/prepare.py:
// Kaggle's labelled clips (train2.zip, holding train2/ with files named
// "YYYYMMDD_HHMMSS_<offset>_TRAIN<idx>_<label>.aif") span four days; the
// first two days become the new training set and the last two the new test
// set. Clips are renumbered in time order, test clips lose their label
// ("..._Test<idx>.aif"), and each set is zipped as train2.zip / test2.zip.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Python's `re.sub(r"TRAIN\d+", f"TRAIN{idx}", name)`: every "TRAIN" followed
// by digits, left to right, gets `idx` as its digits. (Python's \d also takes
// non-ASCII digits; Kaggle's names are ASCII.)
std::string RenumberTrain(const std::string& name, size_t idx) {
  std::string out;
  size_t pos = 0;
  while (pos < name.size()) {
    const size_t hit = name.find("TRAIN", pos);
    if (hit == std::string::npos) break;
    size_t end = hit + 5;
    while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
    if (end == hit + 5) {  // "TRAIN" without digits stays; look past its 'T'
      out.append(name, pos, hit + 1 - pos);
      pos = hit + 1;
      continue;
    }
    out.append(name, pos, hit - pos);
    absl::StrAppend(&out, "TRAIN", idx);
    pos = end;
  }
  out.append(name, pos, std::string::npos);
  return out;
}

// Python's `Path(name).stem`: the name without its last ".suffix", where a
// leading or trailing dot starts no suffix.
std::string Stem(const std::string& name) {
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == name.size()) return name;
  return name.substr(0, dot);
}

// An output archive: the entry "<folder>/", then the clips sorted by name
// (upstream adds them in directory order).
absl::Status WriteClips(const fs::path& zip, const std::string& folder,
                        const std::map<std::string, fs::path>& clips) {
  std::vector<ZipEntry> entries = {ZipEntry::Directory(folder + "/")};
  for (const auto& [name, source] : clips) {
    entries.push_back(ZipEntry::FromFile(folder + "/" + name, source));
  }
  return WriteZip(zip, entries);
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  // Upstream unpacks into raw/; we unpack into scratch/ and leave raw alone.
  const fs::path unpacked = scratch / "train2_zip";
  RETURN_IF_ERROR(ExtractZip(raw / "train2.zip", unpacked));
  const fs::path clip_dir = unpacked / "train2";
  if (!fs::is_directory(clip_dir)) {
    return absl::NotFoundError("train2.zip has no folder train2/");
  }

  // Clips by day (the name up to its first '_'), each day's in name order
  // (upstream sorts paths within one folder, i.e. by name).
  std::map<std::string, std::vector<std::string>> clips_by_date;
  size_t n_train_old = 0;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(clip_dir, error)) {
    const std::string name = entry.path().filename().string();
    clips_by_date[name.substr(0, name.find('_'))].push_back(name);
    ++n_train_old;
  }
  if (error) return absl::InternalError(absl::StrCat("cannot list train2/: ", error.message()));
  if (clips_by_date.size() != 4) return CheckFailed("Expected 4 days in Train_old");
  std::vector<std::string> new_train, new_test;
  auto day = clips_by_date.begin();
  for (int i = 0; i < 4; ++i, ++day) {
    std::vector<std::string>& split = i < 2 ? new_train : new_test;
    split.insert(split.end(), day->second.begin(), day->second.end());
  }
  std::sort(new_train.begin(), new_train.end());
  std::sort(new_test.begin(), new_test.end());

  // New names. Upstream copies each clip to its new name, so a name given
  // twice keeps the later clip, and then counts the *.aif files.
  std::map<std::string, fs::path> train_clips, test_clips;
  for (size_t idx = 0; idx < new_train.size(); ++idx) {
    train_clips[RenumberTrain(new_train[idx], idx)] = clip_dir / new_train[idx];
  }
  std::vector<Cell> answer_clips, answer_labels;
  for (size_t idx = 0; idx < new_test.size(); ++idx) {
    const std::string& name = new_test[idx];
    const std::string new_name =
        absl::StrCat(name.substr(0, name.find("TRAIN")), "Test", idx, ".aif");
    test_clips[new_name] = clip_dir / name;
    answer_clips.push_back(new_name);
    answer_labels.push_back(int64_t{EndsWith(Stem(name), "_1") ? 1 : 0});
  }
  for (const auto* clips : {&train_clips, &test_clips}) {
    for (const auto& [name, source] : *clips) {
      if (!fs::is_regular_file(source)) {
        return absl::InvalidArgumentError(
            absl::StrCat("train2.zip: train2/", source.filename().string(), " is not a file"));
      }
    }
  }
  const auto count_aif = [](const std::map<std::string, fs::path>& clips) {
    return std::count_if(clips.begin(), clips.end(),
                         [](const auto& clip) { return EndsWith(clip.first, ".aif"); });
  };
  if (static_cast<size_t>(count_aif(train_clips)) != new_train.size()) {
    return CheckFailed(absl::StrCat("Expected ", new_train.size(), " samples in new_train (",
                                    count_aif(train_clips), ")"));
  }
  if (static_cast<size_t>(count_aif(test_clips)) != new_test.size()) {
    return CheckFailed(absl::StrCat("Expected ", new_test.size(), " samples in new_test (",
                                    count_aif(test_clips), ")"));
  }
  if (new_train.size() + new_test.size() != n_train_old) {
    return CheckFailed("Expected every clip in new_train or new_test");
  }

  const Table answers({Column{"clip", Dtype::kObject, answer_clips},
                       Column{"probability", Dtype::kInt64, answer_labels}});
  Table sample_submission = answers;
  RETURN_IF_ERROR(SetConstantColumn(sample_submission, "probability", int64_t{0}));
  RETURN_IF_ERROR(WriteClips(public_dir / "train2.zip", "train2", train_clips));
  RETURN_IF_ERROR(WriteClips(public_dir / "test2.zip", "test2", test_clips));
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "test.csv").string()));
  return WriteCsvFile(sample_submission, (public_dir / "sampleSubmission.csv").string());
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
