#ifndef MLEBENCH_GRADING_COLLECT_REPORTS_H_
#define MLEBENCH_GRADING_COLLECT_REPORTS_H_

#include <filesystem>
#include <vector>

#include "absl/status/statusor.h"
#include "grading/summary.h"

namespace mlebench {

// Reads the reports that `mlebench summarize` is pointed at. Each path is
//  - a directory, searched recursively (directory symlinks inside it are not
//    followed) for `*.report.json` (a competition test's final report),
//    `*_grading_report.json` (an aggregated report of `mlebench grade`) and
//    `outputs.zip` (Bazel's archive of a test's undeclared outputs, in
//    bazel-testlogs/<package>/<test>/test.outputs/), whose `*.report.json`
//    entries are read; other files are ignored; or
//  - a file: a `.zip` archive read as above, anything else parsed as one
//    report or an aggregated report (ParseReports).
// Files are visited in sorted path order, so the result is deterministic.
// Sources are named by the path as given ("x/outputs.zip:id.report.json").
// A missing path, a directory without any report, an unreadable or corrupt
// file or archive, and a report file over 64 MiB are errors naming the file.
absl::StatusOr<std::vector<SourcedReport>> CollectReports(
    const std::vector<std::filesystem::path>& paths);

}  // namespace mlebench

#endif  // MLEBENCH_GRADING_COLLECT_REPORTS_H_
