#include "competitions/common/preparer.h"

#include <stdlib.h>

#include <cstdlib>
#include <string>
#include <system_error>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

absl::Status CreateDirectories(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir)) {
    return absl::InvalidArgumentError(absl::StrCat(dir.string(), ": cannot create directory",
                                                   error ? ": " + error.message() : ""));
  }
  return absl::OkStatus();
}

// A fresh directory under $TMPDIR (or /tmp).
absl::StatusOr<fs::path> CreateTempScratch() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      (fs::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") / "mlebench-prepare-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("cannot create a scratch directory ", pattern));
  }
  return fs::path(pattern);
}

}  // namespace

absl::Status RunRegisteredPreparer(std::string_view id, const fs::path& raw,
                                   const fs::path& public_dir, const fs::path& private_dir,
                                   const std::optional<fs::path>& scratch) {
  const std::string name(id);
  const CompetitionPreparer* preparer = PreparerRegistry::Find(id);
  if (preparer == nullptr) {
    return absl::NotFoundError(absl::StrCat("no preparer registered for '", name, "'"));
  }
  std::error_code error;
  if (!fs::is_directory(raw, error)) {
    return absl::NotFoundError(absl::StrCat(name, ": raw data ", raw.string(), " is not a directory"));
  }
  RETURN_IF_ERROR(CreateDirectories(public_dir));
  RETURN_IF_ERROR(CreateDirectories(private_dir));
  fs::path scratch_dir;
  if (scratch.has_value()) {
    scratch_dir = *scratch;
    RETURN_IF_ERROR(CreateDirectories(scratch_dir));
    if (!fs::is_empty(scratch_dir, error)) {
      return absl::InvalidArgumentError(
          absl::StrCat("scratch directory ", scratch_dir.string(), " must be empty"));
    }
  } else {
    ASSIGN_OR_RETURN(fs::path tmp, CreateTempScratch());
    scratch_dir = tmp;
  }
  absl::Status prepared = preparer->prepare(raw, public_dir, private_dir, scratch_dir);
  if (!scratch.has_value()) fs::remove_all(scratch_dir, error);
  if (!prepared.ok()) {
    return absl::Status(prepared.code(), absl::StrCat(name, ": ", prepared.message()));
  }
  return absl::OkStatus();
}

absl::Status CheckFailed(std::string_view message) {
  return absl::FailedPreconditionError(absl::StrCat("check failed: ", std::string(message)));
}

bool IsPlainFileName(std::string_view name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of(std::string_view("/\\\0", 3)) == std::string_view::npos;
}

absl::StatusOr<std::vector<std::string>> IdFileNames(const Table& table, std::string_view csv_name,
                                                     std::string_view suffix) {
  ASSIGN_OR_RETURN(const Column* ids, table.Get("id"));
  std::vector<std::string> names;
  names.reserve(ids->cells.size());
  for (size_t row = 0; row < ids->cells.size(); ++row) {
    const Cell& cell = ids->cells[row];
    if (const auto* i = std::get_if<int64_t>(&cell)) {
      names.push_back(absl::StrCat(*i, std::string(suffix)));
      continue;
    }
    const auto* text = std::get_if<std::string>(&cell);
    if (text == nullptr || !IsPlainFileName(*text)) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(csv_name), " row ", row, ": 'id' must be an integer or a file name"));
    }
    names.push_back(absl::StrCat(*text, std::string(suffix)));
  }
  return names;
}

}  // namespace mlebench
