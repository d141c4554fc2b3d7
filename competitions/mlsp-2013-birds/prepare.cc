// Upstream's mlsp-2013-birds/prepare.py: Kaggle's labelled recordings (fold 0
// of essential_data/CVfolds_2.txt) are renumbered 0..n-1 in file order and a
// fifth of them, drawn with `sample(frac=0.2, random_state=0)`, becomes the
// new test fold (upstream asserts 64 of them). Every per-recording file is
// filtered to these recordings and renumbered; the test recordings' labels
// become "?" in public/ and one answer row per (recording, species) pair,
// Id = rec_id * 100 + species, in private/answers.csv.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "base/table_ops.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "formats/zip_archive.h"
#include "pycompat/numpy_random.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kSpecies = 19;
constexpr size_t kExpectedTestRecordings = 64;

// Python's str.splitlines() for the line ends these text files can hold
// ("\n", "\r\n", "\r").
std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || text[i] == '\r') {
      lines.emplace_back(text.substr(start, i - start));
      if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      start = i + 1;
    }
  }
  if (start < text.size()) lines.emplace_back(text.substr(start));
  return lines;
}

// Python's int(text) for plain decimal text: surrounding whitespace, an
// optional sign, digits (single underscores between them).
std::optional<int64_t> PythonIntOfText(std::string_view s) {
  auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 18 || s.front() == '_' || s.back() == '_') return std::nullopt;
  int64_t value = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_') {
      if (s[i - 1] == '_') return std::nullopt;
    } else if (s[i] >= '0' && s[i] <= '9') {
      value = value * 10 + (s[i] - '0');
    } else {
      return std::nullopt;
    }
  }
  return negative ? -value : value;
}

// A line's first comma-separated field as an int and the rest after that
// comma ("" without a comma), as upstream splits these files.
using IdLine = std::pair<int64_t, std::string>;
absl::StatusOr<IdLine> IdAndRest(const std::string& line, std::string_view file) {
  const size_t comma = line.find(',');
  const std::optional<int64_t> id = PythonIntOfText(std::string_view(line).substr(0, comma));
  if (!id.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(file), ": line '", line, "' does not start with a rec_id"));
  }
  return std::pair{*id, comma == std::string::npos ? std::string() : line.substr(comma + 1)};
}

// upstream's filter_and_write_file: drops the header, keeps the lines of
// known recordings renumbered, under upstream's fixed header.
absl::Status FilterAndWrite(const fs::path& src, const fs::path& dst,
                            const std::map<int64_t, int64_t>& old_id_to_new) {
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(src));
  std::vector<std::string> lines = SplitLines(text);
  std::string out = "rec_id,[histogram of segment features]\n";
  for (size_t i = 1; i < lines.size(); ++i) {
    ASSIGN_OR_RETURN(IdLine parts, IdAndRest(lines[i], src.filename().string()));
    auto it = old_id_to_new.find(parts.first);
    if (it != old_id_to_new.end()) absl::StrAppend(&out, it->second, ",", parts.second, "\n");
  }
  return WriteStringToFile(dst, out);
}

// File names from rec_id2filename: plain names (upstream joins them into
// paths).
absl::Status CheckFileName(const std::string& name) {
  if (!IsPlainFileName(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("rec_id2filename.txt: '", name, "' is not a plain file name"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int64_t>> IntColumn(const Table& table, const std::string& name,
                                               std::string_view file) {
  ASSIGN_OR_RETURN(const Column* column, table.Get(name));
  if (column->dtype != Dtype::kInt64) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(file), ": column '", name, "' must hold integers"));
  }
  std::vector<int64_t> values;
  for (const Cell& cell : column->cells) values.push_back(std::get<int64_t>(cell));
  return values;
}

// The new folds: the train fold renumbered 0..n-1, a fifth of it in fold 1.
struct Folds {
  std::map<int64_t, int64_t> old_id_to_new;  // a later duplicate wins, as in the dict
  std::vector<int64_t> test_rec_ids;         // the new ids in fold 1, ascending
  size_t num_recordings = 0;
};

// CVfolds_2.txt: the train fold, renumbered, with a fifth of it moved to
// fold 1.
absl::StatusOr<Folds> SplitFolds(const fs::path& essential, const fs::path& public_dir) {
  ASSIGN_OR_RETURN(Table all_folds, ReadCsvFile((essential / "CVfolds_2.txt").string()));
  ASSIGN_OR_RETURN(std::vector<int64_t> folds, IntColumn(all_folds, "fold", "CVfolds_2.txt"));
  ASSIGN_OR_RETURN(std::vector<int64_t> old_ids, IntColumn(all_folds, "rec_id", "CVfolds_2.txt"));
  std::vector<int64_t> train_rows;
  for (size_t row = 0; row < folds.size(); ++row) {
    if (folds[row] == 0) train_rows.push_back(static_cast<int64_t>(row));
  }
  Folds result;
  const size_t n = result.num_recordings = train_rows.size();
  // DataFrame.sample(frac=0.2, random_state=0): round(0.2 * n) rows, the
  // first of RandomState(0).permutation(n). Python's round is half-even, as
  // std::nearbyint in the default rounding mode.
  const size_t n_test = static_cast<size_t>(std::nearbyint(0.2 * static_cast<double>(n)));
  const std::vector<int64_t> permutation = NumpyRandomState(0).Permutation(n);
  std::vector<int64_t> new_folds(n, 0);
  for (size_t k = 0; k < n_test; ++k) new_folds[permutation[k]] = 1;
  for (size_t i = 0; i < n; ++i) result.old_id_to_new[old_ids[train_rows[i]]] = static_cast<int64_t>(i);
  ASSIGN_OR_RETURN(Table cv_folds, TakeRows(all_folds, train_rows));
  Column* rec_id = cv_folds.FindMutable("rec_id");
  Column* fold = cv_folds.FindMutable("fold");
  for (size_t i = 0; i < n; ++i) {
    rec_id->cells[i] = static_cast<int64_t>(i);
    fold->cells[i] = new_folds[i];
  }
  RETURN_IF_ERROR(WriteCsvFile(cv_folds, (public_dir / "essential_data/CVfolds_2.txt").string()));
  for (size_t i = 0; i < n; ++i) {
    if (new_folds[i] == 1) result.test_rec_ids.push_back(static_cast<int64_t>(i));
  }
  if (result.test_rec_ids.size() != kExpectedTestRecordings) {
    return CheckFailed(absl::StrCat("Expected 64 test rec_ids, got ", result.test_rec_ids.size()));
  }
  return result;
}

// rec_id2filename.txt, filtered and renumbered. Returns the kept file names.
absl::StatusOr<std::vector<std::string>> WriteFileNames(const fs::path& essential,
                                                        const fs::path& public_dir,
                                                        const Folds& folds) {
  ASSIGN_OR_RETURN(Table id2filename, ReadCsvFile((essential / "rec_id2filename.txt").string()));
  ASSIGN_OR_RETURN(std::vector<int64_t> file_ids,
                   IntColumn(id2filename, "rec_id", "rec_id2filename.txt"));
  RETURN_IF_ERROR(id2filename.Get("filename").status());
  std::vector<int64_t> kept_rows;
  for (size_t row = 0; row < file_ids.size(); ++row) {
    if (folds.old_id_to_new.count(file_ids[row]) > 0) kept_rows.push_back(static_cast<int64_t>(row));
  }
  ASSIGN_OR_RETURN(Table kept, TakeRows(id2filename, kept_rows));
  std::vector<std::string> filenames;
  for (size_t i = 0; i < kept_rows.size(); ++i) {
    kept.FindMutable("rec_id")->cells[i] = folds.old_id_to_new.at(file_ids[kept_rows[i]]);
    const std::string* name = std::get_if<std::string>(&kept.Find("filename")->cells[i]);
    if (name == nullptr) {
      return absl::InvalidArgumentError("rec_id2filename.txt: filenames must be text");
    }
    RETURN_IF_ERROR(CheckFileName(*name));
    filenames.push_back(*name);
  }
  RETURN_IF_ERROR(WriteCsvFile(kept, (public_dir / "essential_data/rec_id2filename.txt").string()));
  if (kept.num_rows() != folds.num_recordings) {
    return CheckFailed(absl::StrCat("Expected ", folds.num_recordings,
                                    " entires in rec_id2filename, got ", kept.num_rows()));
  }
  return filenames;
}

// Labels: "?" for the new test recordings in public/, one row per
// (recording, species) pair in private/answers.csv, and the sample
// submission of the same ids.
absl::Status WriteLabels(const fs::path& essential, const fs::path& public_dir,
                         const fs::path& private_dir, const Folds& folds) {
  const std::set<int64_t> test_set(folds.test_rec_ids.begin(), folds.test_rec_ids.end());
  ASSIGN_OR_RETURN(std::string labels_text,
                   ReadFileToString(essential / "rec_labels_test_hidden.txt"));
  std::vector<std::string> label_lines = SplitLines(labels_text);
  std::vector<std::pair<int64_t, std::string>> rec_labels;
  for (size_t i = 1; i < label_lines.size(); ++i) {
    ASSIGN_OR_RETURN(IdLine parts, IdAndRest(label_lines[i], "rec_labels_test_hidden.txt"));
    auto it = folds.old_id_to_new.find(parts.first);
    if (it != folds.old_id_to_new.end()) rec_labels.emplace_back(it->second, parts.second);
  }
  std::string public_labels = "rec_id,[labels]\n";
  for (const auto& [rec_id, labels] : rec_labels) {
    const std::string shown = test_set.count(rec_id) > 0 ? "?" : labels;
    absl::StrAppend(&public_labels, rec_id, shown.empty() ? "" : ",", shown, "\n");
  }
  RETURN_IF_ERROR(
      WriteStringToFile(public_dir / "essential_data/rec_labels_test_hidden.txt", public_labels));
  Column answer_ids{"Id", Dtype::kInt64, {}};
  Column answer_values{"Probability", Dtype::kInt64, {}};
  for (const auto& [rec_id, labels] : rec_labels) {
    if (test_set.count(rec_id) == 0) continue;
    std::set<int64_t> species;
    for (absl::string_view part : absl::StrSplit(labels, ',')) {
      if (part.empty()) continue;
      const std::optional<int64_t> id = PythonIntOfText(std::string_view(part.data(), part.size()));
      if (!id.has_value()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "rec_labels_test_hidden.txt: recording ", rec_id, " has a label that is not an int: '",
            std::string(part), "'"));
      }
      species.insert(*id);
    }
    for (int s = 0; s < kSpecies; ++s) {
      answer_ids.cells.push_back(rec_id * 100 + s);
      answer_values.cells.push_back(int64_t{species.count(s) > 0 ? 1 : 0});
    }
  }
  const Table answers({answer_ids, answer_values});
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  if (answers.num_rows() != folds.test_rec_ids.size() * kSpecies) {
    return CheckFailed(absl::StrCat("Expected ", folds.test_rec_ids.size() * kSpecies,
                                    " entires in answers.csv, got ", answers.num_rows()));
  }
  Column sample_ids{"Id", Dtype::kInt64, {}};
  for (int64_t rec_id : folds.test_rec_ids) {
    for (int s = 0; s < kSpecies; ++s) sample_ids.cells.push_back(rec_id * 100 + s);
  }
  Column zeros{"Probability", Dtype::kInt64, std::vector<Cell>(sample_ids.cells.size(), int64_t{0})};
  return WriteCsvFile(Table({sample_ids, zeros}), (public_dir / "sample_submission.csv").string());
}

// The recordings' files (wavs, spectrograms, segmentations) and the shared
// ones, copied; the per-recording feature files, filtered and renumbered.
absl::Status CopyRecordingFiles(const fs::path& essential, const fs::path& supplemental,
                                const fs::path& public_dir, const std::vector<std::string>& filenames,
                                const Folds& folds) {
  RETURN_IF_ERROR(CopyRegularFile(essential / "species_list.txt",
                                  public_dir / "essential_data/species_list.txt"));
  for (const std::string& name : filenames) {
    RETURN_IF_ERROR(CopyRegularFile(essential / "src_wavs" / (name + ".wav"),
                                    public_dir / "essential_data/src_wavs" / (name + ".wav")));
  }
  for (const std::string& name : filenames) {
    const std::string bmp = name + ".bmp";
    RETURN_IF_ERROR(CopyRegularFile(supplemental / "filtered_spectrograms" / bmp,
                                    public_dir / "supplemental_data/filtered_spectrograms" / bmp));
    if (fs::exists(supplemental / "segmentation_examples" / bmp)) {
      RETURN_IF_ERROR(
          CopyRegularFile(supplemental / "segmentation_examples" / bmp,
                          public_dir / "supplemental_data/segmentation_examples" / bmp));
    }
    for (const char* dir : {"spectrograms", "supervised_segmentation"}) {
      RETURN_IF_ERROR(
          CopyRegularFile(supplemental / dir / bmp, public_dir / "supplemental_data" / dir / bmp));
    }
  }
  for (const char* file : {"segment_clusters.bmp", "segment_mosaic.bmp"}) {
    RETURN_IF_ERROR(CopyRegularFile(supplemental / file, public_dir / "supplemental_data" / file));
  }
  for (const char* file :
       {"histogram_of_segments.txt", "segment_features.txt", "segment_rectangles.txt"}) {
    RETURN_IF_ERROR(FilterAndWrite(supplemental / file, public_dir / "supplemental_data" / file,
                                   folds.old_id_to_new));
  }
  return absl::OkStatus();
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& scratch) {
  RETURN_IF_ERROR(ExtractZip(raw / "mlsp_contest_dataset.zip", scratch));
  const fs::path essential = scratch / "mlsp_contest_dataset/essential_data";
  const fs::path supplemental = scratch / "mlsp_contest_dataset/supplemental_data";
  std::error_code error;
  for (const char* dir : {"essential_data/src_wavs", "supplemental_data/filtered_spectrograms",
                          "supplemental_data/segmentation_examples",
                          "supplemental_data/spectrograms",
                          "supplemental_data/supervised_segmentation"}) {
    fs::create_directories(public_dir / dir, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", dir));
  }
  ASSIGN_OR_RETURN(Folds folds, SplitFolds(essential, public_dir));
  ASSIGN_OR_RETURN(std::vector<std::string> filenames,
                   WriteFileNames(essential, public_dir, folds));
  RETURN_IF_ERROR(WriteLabels(essential, public_dir, private_dir, folds));
  return CopyRecordingFiles(essential, supplemental, public_dir, filenames, folds);
}

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{.id = MLEBENCH_COMPETITION_ID, .prepare = &Prepare});

}  // namespace
}  // namespace mlebench
