#ifndef MLEBENCH_COMPETITIONS_COMMON_DATA_DIR_H_
#define MLEBENCH_COMPETITIONS_COMMON_DATA_DIR_H_

// Upstream's data directory layout, shared by the CLI (`mlebench prepare`)
// and the build's real-data path (--repo_env=MLEBENCH_DATA_DIR):
//
//   <data_dir>/<id>/<id>.zip            the Kaggle download (optional)
//   <data_dir>/<id>/raw/...             its extracted files
//   <data_dir>/<id>/prepared/public/    what the agent sees
//   <data_dir>/<id>/prepared/private/   the answers
//
// A directory filled by upstream's own `mlebench prepare` is accepted as is.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench {

// Marks a raw directory written by `mlebench prepare --synthetic`, so that it
// is never taken for (or replaced like) a real Kaggle download.
inline constexpr char kSyntheticRawMarker[] = ".mlebench-synthetic";
// Written beside prepared/public and prepared/private by our preparers:
// "synthetic" or "kaggle", what grading records as the report's `dataset`.
// Upstream writes no marker; its data is Kaggle data.
inline constexpr char kDatasetMarker[] = ".mlebench-dataset";

struct CompetitionDataDir {
  std::filesystem::path competition_dir;  // <data_dir>/<id>
  std::string id;

  CompetitionDataDir(const std::filesystem::path& data_dir, std::string_view competition_id)
      : competition_dir(data_dir / std::string(competition_id)), id(competition_id) {}
  std::filesystem::path raw() const { return competition_dir / "raw"; }
  std::filesystem::path zip() const { return competition_dir / (id + ".zip"); }
  std::filesystem::path prepared() const { return competition_dir / "prepared"; }
  std::filesystem::path public_dir() const { return prepared() / "public"; }
  std::filesystem::path private_dir() const { return prepared() / "private"; }
};

// Upstream's `is_dataset_prepared`: public/ and private/ are non-empty
// directories and the answers and the sample submission (paths relative to
// prepared/, e.g. "private/test.csv") are files. IsPreparedDir takes the
// prepared/ directory itself, wherever it is (e.g. an action's inputs).
bool IsPrepared(const CompetitionDataDir& dir, const std::filesystem::path& answers,
                const std::filesystem::path& sample_submission);
bool IsPreparedDir(const std::filesystem::path& prepared, const std::filesystem::path& answers,
                   const std::filesystem::path& sample_submission);

// "synthetic" when prepared/ carries our marker saying so, else "kaggle".
std::string PreparedDataset(const CompetitionDataDir& dir);
std::string PreparedDirDataset(const std::filesystem::path& prepared);

// Runs the registered preparer of `dir.id` on `raw` and moves the result to
// dir.prepared(), replacing what was there only once the new data is
// complete: it is staged in <id>/prepared.partial first (removed on failure).
// `dataset` ("synthetic" or "kaggle") is written as the dataset marker.
absl::Status PrepareIntoDataDir(const CompetitionDataDir& dir, const std::filesystem::path& raw,
                                std::string_view dataset);

// A listing of every regular file under `root` (recursively, following no
// symlinks to directories), one line per file, sorted by path:
//   <path relative to root>\t<size in bytes>\t<mtime in ns>
// Symlinks to files are listed with their target's size and mtime. It is the
// cache key of real data: cheap (stat only, no reading) and it changes when a
// file is added, removed, resized or rewritten. Errors on unreadable entries.
absl::StatusOr<std::string> StatManifest(const std::filesystem::path& root);

// Upstream's checksums.yaml: md5 hex digests of the Kaggle zip ("zip") and of
// the top-level csv/json/jsonl/parquet/bson files of public/ and private/.
struct UpstreamChecksums {
  std::optional<std::string> zip;
  std::map<std::string, std::string> public_files;
  std::map<std::string, std::string> private_files;
};

// Parses the YAML subset yaml.dump writes for that file (block mappings,
// plain or quoted scalars). Anything else is an InvalidArgument error.
absl::StatusOr<UpstreamChecksums> ParseUpstreamChecksums(std::string_view yaml_text);

// The lowercase hex md5 of a file's bytes (OpenSSL's libcrypto).
absl::StatusOr<std::string> Md5File(const std::filesystem::path& path);

// Upstream's check of prepared data: the md5s of the top-level csv, json,
// jsonl, parquet and bson files of public/ and private/ must equal the
// expected ones exactly (no file missing, none extra); the zip's too when
// both `expected.zip` and the zip file exist. The error lists every mismatch.
// Parquet files too, whoever wrote them: our preparers write fastparquet's
// bytes where upstream's prepare.py uses fastparquet (formats/parquet.h,
// ParquetLayout::kFastparquet).
absl::Status VerifyUpstreamChecksums(const CompetitionDataDir& dir,
                                     const UpstreamChecksums& expected);
// The same check on public/ and private/ wherever they are (the build's
// content mode: an action's inputs or outputs), and on `zip` when given and
// `expected.zip` is set. `id` names the competition in the error.
absl::Status VerifyUpstreamChecksumsOf(std::string_view id, const std::filesystem::path& public_dir,
                                       const std::filesystem::path& private_dir,
                                       const std::optional<std::filesystem::path>& zip,
                                       const UpstreamChecksums& expected);

// The build's real-data step. Takes dir.prepared() as is when IsPrepared()
// (upstream never re-prepares either); refuses to touch a non-empty but
// incomplete prepared/; otherwise prepares from raw/, first extracting the
// Kaggle zip into raw/ when only the zip is there (as upstream does). Then
// checks `checksums` when given. Returns the data handle: the dataset
// ("kaggle", or "synthetic" for data our CLI generated), whether checksums
// were verified, and StatManifest of prepared/ - a pure function of the
// prepared files, so that downstream actions rerun exactly when they change.
struct PreparedData {
  std::string handle;
  std::string dataset;  // "kaggle" or "synthetic"
  std::string log;      // one line: what was done
};
absl::StatusOr<PreparedData> EnsurePreparedData(const CompetitionDataDir& dir,
                                                const std::filesystem::path& answers,
                                                const std::filesystem::path& sample_submission,
                                                const std::optional<UpstreamChecksums>& checksums);

// The build's content mode (--repo_env=MLEBENCH_DATA_INPUTS=content): the data
// dir's files are the prepare action's inputs, at relative paths in its input
// root (local execroot or a remote executor's), and nothing is written beside
// them. Both functions return the dataset ("kaggle", or "synthetic" for data
// our CLI generated).
//
// Prepared data taken as is: `prepared` must hold what IsPreparedDir asks
// for (a FailedPrecondition naming what is missing otherwise; only the
// files the check reads need be present), then `checksums` when given.
absl::StatusOr<std::string> CheckPreparedInputs(std::string_view id,
                                                const std::filesystem::path& prepared,
                                                const std::filesystem::path& answers,
                                                const std::filesystem::path& sample_submission,
                                                const std::optional<UpstreamChecksums>& checksums);

// A raw download: exactly one of `raw` (the extracted files) and `zip` (the
// Kaggle zip only, extracted into a fresh directory under $TMPDIR that is
// removed afterwards) is given. Runs the registered preparer into
// `public_dir` and `private_dir` (created if absent), then checks `checksums`
// when given (the zip's md5 too, when the zip is the input). "synthetic" when
// the raw files carry our marker (kSyntheticRawMarker).
struct RawInputs {
  std::optional<std::filesystem::path> raw;
  std::optional<std::filesystem::path> zip;
};
absl::StatusOr<std::string> PrepareFromInputs(std::string_view id, const RawInputs& inputs,
                                              const std::filesystem::path& public_dir,
                                              const std::filesystem::path& private_dir,
                                              const std::optional<UpstreamChecksums>& checksums);

// Whether prepared/ still holds exactly the files `handle` (written by
// EnsurePreparedData) lists, by StatManifest. A FailedPrecondition naming the
// first difference otherwise: the data changed after the build last looked
// at it, so results built from the handle are stale.
absl::Status CheckHandleIsCurrent(std::string_view handle, const std::filesystem::path& prepared);

}  // namespace mlebench

#endif  // MLEBENCH_COMPETITIONS_COMMON_DATA_DIR_H_
