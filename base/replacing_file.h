#ifndef MLEBENCH_BASE_REPLACING_FILE_H_
#define MLEBENCH_BASE_REPLACING_FILE_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mlebench {

// A file written under a temporary name beside `path` and renamed over it by
// Commit, so that no reader ever sees it half-written and a failure leaves
// `path` as it was. Destroyed uncommitted (or after any error), the
// temporary file is removed. Move-only.
class ReplacingFile {
 public:
  // Creates the temporary file (`path`.tmp.<pid>.<n>, never one that exists).
  static absl::StatusOr<ReplacingFile> Create(const std::string& path);
  ReplacingFile(ReplacingFile&& other) noexcept;
  ReplacingFile& operator=(ReplacingFile&&) = delete;
  ReplacingFile(const ReplacingFile&) = delete;
  ReplacingFile& operator=(const ReplacingFile&) = delete;
  ~ReplacingFile();

  // Appends `bytes`. After an error the file is gone and every later call
  // fails (FailedPreconditionError, as after Commit).
  absl::Status Append(std::string_view bytes);
  // Closes the file and renames it over `path`.
  absl::Status Commit();

  // OK while the file can still be written (neither committed nor failed);
  // else the FailedPreconditionError Append and Commit then return.
  absl::Status CheckOpen() const;

  const std::string& path() const { return path_; }

 private:
  ReplacingFile(std::string path, std::string temp_path, int fd)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), fd_(fd) {}
  // Closes and removes the temporary file; returns `error`.
  absl::Status Abandon(absl::Status error);

  std::string path_;
  std::string temp_path_;
  int fd_;  // -1 once committed, failed or moved from
};

}  // namespace mlebench

#endif  // MLEBENCH_BASE_REPLACING_FILE_H_
