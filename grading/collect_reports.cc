#include "grading/collect_reports.h"

#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "base/status_macros.h"
#include "formats/zip_archive.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// Reports are a few hundred bytes each; an aggregated report of thousands of
// runs stays far below this.
constexpr std::uintmax_t kMaxReportBytes = std::uintmax_t{64} << 20;

bool IsReportName(std::string_view name) { return name.ends_with(".report.json"); }

bool IsAggregatedReportName(std::string_view name) {
  return name.ends_with("_grading_report.json");
}

absl::Status AppendReportsFromFile(const fs::path& file, const std::string& source,
                                   std::vector<SourcedReport>* out) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(file, error);
  if (error) return absl::NotFoundError(absl::StrCat(source, ": cannot read: ", error.message()));
  if (size > kMaxReportBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": ", size, " bytes is too large for a report"));
  }
  ASSIGN_OR_RETURN(std::string json, ReadFileToString(file));
  ASSIGN_OR_RETURN(std::vector<SourcedReport> reports, ParseReports(json, source));
  for (SourcedReport& r : reports) out->push_back(std::move(r));
  return absl::OkStatus();
}

// A fresh directory under $TMPDIR (or /tmp), for extracting archives.
absl::StatusOr<fs::path> NewScratchDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      (fs::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") / "mlebench-summarize-XXXXXX")
          .string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("cannot create a scratch directory ", pattern));
  }
  return fs::path(pattern);
}

absl::Status AppendReportsFromZip(const fs::path& zip, std::vector<SourcedReport>* out) {
  ASSIGN_OR_RETURN(std::vector<std::string> names, ListZip(zip));
  std::vector<std::string> report_names;
  for (const std::string& name : names) {
    if (IsReportName(fs::path(name).filename().string())) report_names.push_back(name);
  }
  if (report_names.empty()) return absl::OkStatus();
  std::sort(report_names.begin(), report_names.end());
  ASSIGN_OR_RETURN(fs::path scratch, NewScratchDir());
  absl::Status status = ExtractZip(zip, scratch);
  for (const std::string& name : report_names) {
    if (!status.ok()) break;
    status = AppendReportsFromFile(scratch / name, absl::StrCat(zip.string(), ":", name), out);
  }
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  return status;
}

absl::Status AppendReportsFromDirectory(const fs::path& dir, std::vector<SourcedReport>* out) {
  std::vector<fs::path> files;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (!IsReportName(name) && !IsAggregatedReportName(name) && name != "outputs.zip") continue;
    std::error_code type_error;
    if (it->is_regular_file(type_error)) files.push_back(it->path());
  }
  if (error) {
    return absl::NotFoundError(absl::StrCat(dir.string(), ": cannot search: ", error.message()));
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    absl::Status s = file.filename() == "outputs.zip"
                         ? AppendReportsFromZip(file, out)
                         : AppendReportsFromFile(file, file.string(), out);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<SourcedReport>> CollectReports(const std::vector<fs::path>& paths) {
  std::vector<SourcedReport> reports;
  for (const fs::path& path : paths) {
    const size_t before = reports.size();
    std::error_code error;
    absl::Status s;
    const bool is_directory = fs::is_directory(path, error);
    if (is_directory) {
      s = AppendReportsFromDirectory(path, &reports);
    } else if (!fs::is_regular_file(path, error)) {
      s = absl::NotFoundError(absl::StrCat(path.string(), ": no such file or directory"));
    } else if (path.filename().string().ends_with(".zip")) {
      s = AppendReportsFromZip(path, &reports);
    } else {
      s = AppendReportsFromFile(path, path.string(), &reports);
    }
    if (!s.ok()) return s;
    if (reports.size() == before) {
      return absl::NotFoundError(absl::StrCat(
          path.string(), is_directory ? ": no reports found (looked for *.report.json, "
                                        "*_grading_report.json and outputs.zip)"
                                      : ": holds no reports"));
    }
  }
  return reports;
}

}  // namespace mlebench
