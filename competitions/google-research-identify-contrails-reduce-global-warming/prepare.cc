// Upstream's google-research-identify-contrails-reduce-global-warming/prepare.py:
// a new test split (as many records as Kaggle's validation set) carved out of
// Kaggle's train records with train_test_split(random_state=0); the test
// records' human_pixel_masks become run-length encoded answers, the other
// files are copied, the validation set is copied as is, and the sample
// submission draws "1 3 10 5" or "-" per record with Python's random.seed(0).

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/csv.h"
#include "base/status_macros.h"
#include "base/table.h"
#include "competitions/common/copy_files.h"
#include "competitions/common/preparer.h"
#include "formats/npy.h"
#include "pycompat/python_json.h"
#include "pycompat/python_random.h"
#include "pycompat/train_test_split.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kFirstBand = 8;
constexpr int kLastBand = 16;

std::string BandFileName(int band) { return absl::StrFormat("band_%02d.npy", band); }

absl::StatusOr<JsonValue> ReadJsonFile(const fs::path& path) {
  std::error_code error;
  const uintmax_t size = fs::file_size(path, error);
  if (error) return absl::NotFoundError(absl::StrCat("cannot read ", path.string()));
  if (size > (uintmax_t{1} << 30)) {
    return absl::InvalidArgumentError(absl::StrCat(path.string(), " is too large"));
  }
  std::string bytes(size, '\0');
  FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return absl::NotFoundError(absl::StrCat("cannot open ", path.string()));
  const size_t read = std::fread(bytes.data(), 1, bytes.size(), file);
  std::fclose(file);
  if (read != bytes.size()) return absl::DataLossError(absl::StrCat("short read of ", path.string()));
  absl::StatusOr<JsonValue> value = ParseJson(bytes);
  if (!value.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path.filename().string(), ": ", value.status().message()));
  }
  return value;
}

// The record ids of a metadata list (each record's "record_id", a string:
// upstream joins it onto paths).
absl::StatusOr<std::vector<std::string>> RecordIds(const JsonValue& metadata,
                                                   std::string_view file) {
  if (!metadata.is_array()) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(file), " is not a JSON list"));
  }
  std::vector<std::string> ids;
  for (const JsonValue& record : metadata.items) {
    const JsonValue* id = record.is_object() ? record.Find("record_id") : nullptr;
    if (id == nullptr || id->type != JsonValue::Type::kString || id->text.empty() ||
        id->text.find('/') != std::string::npos || id->text == "." || id->text == "..") {
      return absl::InvalidArgumentError(absl::StrCat(
          std::string(file), ": every record needs a \"record_id\" string naming a directory"));
    }
    ids.push_back(id->text);
  }
  return ids;
}

// Whether element `index` of `array` equals 1 (rle_encode's fg_val).
absl::StatusOr<bool> ElementIsOne(const NpyArray& array, int64_t index, int64_t item_size) {
  const char* p = array.data.data() + index * item_size;
  const char kind = array.descr[1];
  if (array.descr[0] == '>' && item_size > 1) {
    return absl::UnimplementedError("big-endian masks are not supported");
  }
  if (kind == 'b' || kind == 'u' || kind == 'i') {
    uint64_t raw = 0;
    std::memcpy(&raw, p, item_size);  // little-endian host
    return raw == 1;
  }
  if (kind == 'f' && item_size == 4) {
    float value;
    std::memcpy(&value, p, 4);
    return value == 1.0f;
  }
  if (kind == 'f' && item_size == 8) {
    double value;
    std::memcpy(&value, p, 8);
    return value == 1.0;
  }
  return absl::UnimplementedError(
      absl::StrCat("masks of dtype ", array.descr, " are not supported"));
}

// rle_encode(mask) joined with spaces, "-" when no pixel is 1: runs over the
// elements in the order of mask.T.flatten() (the first axis fastest).
absl::StatusOr<std::string> EncodeMask(const NpyArray& mask) {
  ASSIGN_OR_RETURN(int64_t item_size, NpyItemSize(mask.descr));
  int64_t count = 1;
  for (int64_t dim : mask.shape) count *= dim;
  // C-order strides, to visit elements in transposed order.
  std::vector<int64_t> strides(mask.shape.size(), 1);
  for (size_t axis = mask.shape.size(); axis-- > 1;) {
    strides[axis - 1] = strides[axis] * mask.shape[axis];
  }
  if (mask.fortran_order) {
    int64_t stride = 1;
    for (size_t axis = 0; axis < mask.shape.size(); ++axis) {
      strides[axis] = stride;
      stride *= mask.shape[axis];
    }
  }
  std::string rle;
  std::vector<int64_t> position(mask.shape.size(), 0);
  int64_t run_start = -1;
  auto close_run = [&](int64_t end) {
    if (run_start < 0) return;
    if (!rle.empty()) rle += ' ';
    absl::StrAppend(&rle, run_start + 1, " ", end - run_start);
    run_start = -1;
  };
  for (int64_t f = 0; f < count; ++f) {
    int64_t offset = 0;
    for (size_t axis = 0; axis < position.size(); ++axis) offset += position[axis] * strides[axis];
    ASSIGN_OR_RETURN(bool set, ElementIsOne(mask, offset, item_size));
    if (set && run_start < 0) run_start = f;
    if (!set) close_run(f);
    for (size_t axis = 0; axis < position.size(); ++axis) {
      if (++position[axis] < mask.shape[axis]) break;
      position[axis] = 0;
    }
  }
  close_run(count);
  return rle.empty() ? "-" : rle;
}

// How many files under `dir` (recursively) `matches` accepts by name.
template <typename Match>
int64_t CountFiles(const fs::path& dir, Match matches) {
  int64_t count = 0;
  if (!fs::is_directory(dir)) return 0;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir)) {
    if (matches(entry.path().filename().string())) ++count;
  }
  return count;
}

absl::Status Prepare(const fs::path& raw, const fs::path& public_dir, const fs::path& private_dir,
                     const fs::path& /*scratch*/) {
  ASSIGN_OR_RETURN(JsonValue train_metadata, ReadJsonFile(raw / "train_metadata.json"));
  ASSIGN_OR_RETURN(JsonValue validation_metadata, ReadJsonFile(raw / "validation_metadata.json"));
  ASSIGN_OR_RETURN(std::vector<std::string> ids, RecordIds(train_metadata, "train_metadata.json"));
  // len() of the validation metadata, whatever its records hold.
  int64_t validation_size = 0;
  if (validation_metadata.is_array()) {
    validation_size = static_cast<int64_t>(validation_metadata.items.size());
  } else if (validation_metadata.is_object()) {
    validation_size = static_cast<int64_t>(validation_metadata.members.size());
  } else {
    return absl::InvalidArgumentError("validation_metadata.json has no length");
  }

  TrainTestSplitOptions options;
  options.test_size = SplitSize(int64_t{validation_size});
  options.random_state = 0;
  ASSIGN_OR_RETURN(TrainTestIndices split,
                   TrainTestSplitIndices(static_cast<int64_t>(ids.size()), options));

  // The answers: the test records' masks and image sizes.
  Column answer_ids{"record_id", Dtype::kObject, {}};
  Column encoded{"encoded_pixels", Dtype::kObject, {}};
  Column heights{"height", Dtype::kInt64, {}};
  Column widths{"width", Dtype::kInt64, {}};
  for (int64_t index : split.test_indices) {
    const std::string& id = (ids)[index];
    const fs::path record = raw / "train" / id;
    ASSIGN_OR_RETURN(NpyArray mask, ReadNpyFile(record / "human_pixel_masks.npy"));
    ASSIGN_OR_RETURN(std::string rle, EncodeMask(mask));
    ASSIGN_OR_RETURN(NpyArray band, ReadNpyFile(record / "band_08.npy"));
    if (band.shape.size() != 3) {
      return absl::InvalidArgumentError(
          absl::StrCat("train/", id, "/band_08.npy must have 3 axes (height, width, time), has ",
                       band.shape.size()));
    }
    answer_ids.cells.push_back(id);
    encoded.cells.push_back(rle);
    heights.cells.push_back(band.shape[0]);
    widths.cells.push_back(band.shape[1]);
  }

  for (int64_t index : split.train_indices) {
    const std::string& id = (ids)[index];
    for (int band = kFirstBand; band <= kLastBand; ++band) {
      RETURN_IF_ERROR(CopyRegularFile(raw / "train" / id / BandFileName(band),
                                      public_dir / "train" / id / BandFileName(band)));
    }
    for (const char* name : {"human_individual_masks.npy", "human_pixel_masks.npy"}) {
      RETURN_IF_ERROR(CopyRegularFile(raw / "train" / id / name, public_dir / "train" / id / name));
    }
  }
  for (int64_t index : split.test_indices) {
    const std::string& id = (ids)[index];
    for (int band = kFirstBand; band <= kLastBand; ++band) {
      RETURN_IF_ERROR(CopyRegularFile(raw / "train" / id / BandFileName(band),
                                      public_dir / "test" / id / BandFileName(band)));
    }
  }

  // Upstream creates raw/validation when absent; here an absent one copies
  // as an empty directory, leaving raw untouched.
  std::error_code error;
  fs::create_directories(public_dir / "validation", error);
  if (error) return absl::InternalError("cannot create public/validation");
  if (fs::is_directory(raw / "validation")) {
    fs::copy(raw / "validation", public_dir / "validation",
             fs::copy_options::recursive | fs::copy_options::overwrite_existing, error);
    if (error) {
      return absl::InternalError(absl::StrCat("cannot copy validation/: ", error.message()));
    }
  }
  RETURN_IF_ERROR(
      CopyRegularFile(raw / "validation_metadata.json", public_dir / "validation_metadata.json"));

  JsonValue new_train = JsonValue::Array();
  for (int64_t index : split.train_indices) new_train.items.push_back(train_metadata.items[index]);
  ASSIGN_OR_RETURN(std::string new_train_json, DumpJson(new_train));
  {
    FILE* file = std::fopen((public_dir / "train_metadata.json").c_str(), "wb");
    if (file == nullptr) return absl::InternalError("cannot write train_metadata.json");
    const size_t written = std::fwrite(new_train_json.data(), 1, new_train_json.size(), file);
    if (std::fclose(file) != 0 || written != new_train_json.size()) {
      return absl::InternalError("cannot write train_metadata.json");
    }
  }

  // pd.DataFrame of no records has no columns; to_csv then writes "\n"
  // (unreachable: train_test_split needs a test set).
  const Table answers({answer_ids, encoded, heights, widths});
  RETURN_IF_ERROR(WriteCsvFile(answers, (private_dir / "answers.csv").string()));
  PythonRandom random(0);
  Column sample_encoded{"encoded_pixels", Dtype::kObject, {}};
  for (size_t i = 0; i < answer_ids.cells.size(); ++i) {
    ASSIGN_OR_RETURN(int64_t choice, random.ChoiceIndex(2));
    sample_encoded.cells.push_back(std::string(choice == 0 ? "1 3 10 5" : "-"));
  }
  const Table sample({answer_ids, sample_encoded, heights, widths});
  RETURN_IF_ERROR(WriteCsvFile(sample, (public_dir / "sample_submission.csv").string()));

  // Upstream's sanity checks on the file counts (duplicate record ids fail
  // them).
  auto is_band = [](const std::string& name) {
    return name.rfind("band", 0) == 0 && name.size() >= 8 &&
           name.compare(name.size() - 4, 4, ".npy") == 0;
  };
  auto is_name = [](const char* wanted) {
    return [wanted](const std::string& name) { return name == wanted; };
  };
  const int64_t n_train = static_cast<int64_t>(split.train_indices.size());
  const int64_t n_test = static_cast<int64_t>(split.test_indices.size());
  if (CountFiles(public_dir / "train", is_band) != n_train * 9) {
    return absl::FailedPreconditionError(
        absl::StrCat("Expected ", n_train * 9, " bands in the train set"));
  }
  if (CountFiles(public_dir / "test", is_band) != n_test * 9) {
    return absl::FailedPreconditionError(
        absl::StrCat("Expected ", n_test * 9, " bands in the test set"));
  }
  for (const char* name : {"human_individual_masks.npy", "human_pixel_masks.npy"}) {
    if (CountFiles(public_dir / "train", is_name(name)) != n_train) {
      return absl::FailedPreconditionError(
          absl::StrCat("Expected 1 ", name, " per sample in the train set"));
    }
    if (CountFiles(public_dir / "test", is_name(name)) != 0) {
      return absl::FailedPreconditionError(absl::StrCat("Expected no ", name, " in the test set"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

MLEBENCH_REGISTER_PREPARER(CompetitionPreparer{
    .id = MLEBENCH_COMPETITION_ID,
    .prepare = &Prepare,
});

}  // namespace mlebench
