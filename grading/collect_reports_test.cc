#include "grading/collect_reports.h"

#include <filesystem>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "grading/report.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string ReportJson(const std::string& id, int64_t seed = 0) {
  const MedalThresholds thresholds{.gold = 0.9, .silver = 0.8, .bronze = 0.7, .median = 0.5};
  ReportContext context{.agent = "//agents:a", .seed = seed};
  return ToPythonJson(MakeReport(id, true, 0.95, "", thresholds, context), 2) + "\n";
}

// What a competition test leaves in bazel-testlogs/<pkg>/<test>/test.outputs/.
void WriteOutputsZip(const fs::path& path, const std::string& id, int64_t seed = 0) {
  fs::create_directories(path.parent_path());
  ASSERT_TRUE(WriteZip(path, {ZipEntry::FromBytes(id + ".agent.log", "agent says hi\n"),
                              ZipEntry::FromBytes(id + ".report.json", ReportJson(id, seed)),
                              ZipEntry::FromBytes(id + ".run_record.json", "{}\n")})
                  .ok());
}

std::vector<std::string> Sources(const std::vector<SourcedReport>& reports, const fs::path& base) {
  std::vector<std::string> out;
  for (const SourcedReport& r : reports) {
    std::string s = r.source;
    const std::string prefix = base.string() + "/";
    if (s.rfind(prefix, 0) == 0) s = s.substr(prefix.size());
    out.push_back(s + " " + r.report.competition_id());
  }
  return out;
}

TEST(CollectReports, SearchesDirectoriesInSortedOrder) {
  const fs::path dir = testing::NewTempDir("search");
  WriteOutputsZip(dir / "testlogs/competitions/b/b/test.outputs/outputs.zip", "b");
  WriteOutputsZip(dir / "testlogs/competitions/a/a/test.outputs/outputs.zip", "a");
  WriteFileOrFail(dir / "loose/c.report.json", ReportJson("c"));
  WriteFileOrFail(dir / "grades/2024-01-01T00-00-00-UTC_grading_report.json",
                  ToPythonJson(Aggregate(
                      {*ReportFromJson(ReportJson("e")), *ReportFromJson(ReportJson("d"))})));
  // Not reports: bazel-bin's graded report (no agent or seed), other JSON, a
  // test's outputs.zip without a report.
  WriteFileOrFail(dir / "bin/a_report.json", ReportJson("a", 7));
  WriteFileOrFail(dir / "other.json", "[]");
  fs::create_directories(dir / "testlogs/other/test.outputs");
  ASSERT_TRUE(WriteZip(dir / "testlogs/other/test.outputs/outputs.zip",
                       {ZipEntry::FromBytes("log.txt", "x")})
                  .ok());

  auto reports = CollectReports({dir});
  ASSERT_TRUE(reports.ok()) << reports.status();
  EXPECT_THAT(Sources(*reports, dir),
              ElementsAre("grades/2024-01-01T00-00-00-UTC_grading_report.json: "
                          "competition_reports[0] e",
                          "grades/2024-01-01T00-00-00-UTC_grading_report.json: "
                          "competition_reports[1] d",
                          "loose/c.report.json c",
                          "testlogs/competitions/a/a/test.outputs/outputs.zip:a.report.json a",
                          "testlogs/competitions/b/b/test.outputs/outputs.zip:b.report.json b"));
  EXPECT_EQ((*reports)[2].report.agent(), "//agents:a");
}

TEST(CollectReports, ReadsFilesGivenDirectly) {
  const fs::path dir = testing::NewTempDir("files");
  WriteOutputsZip(dir / "seed3.zip", "x", 3);
  WriteFileOrFail(dir / "one.json", ReportJson("y", 1));
  auto reports = CollectReports({dir / "seed3.zip", dir / "one.json", dir / "one.json"});
  ASSERT_TRUE(reports.ok()) << reports.status();
  EXPECT_THAT(Sources(*reports, dir),
              ElementsAre("seed3.zip:x.report.json x", "one.json y", "one.json y"));
  EXPECT_EQ((*reports)[0].report.seed(), 3);
}

TEST(CollectReports, DoesNotFollowDirectorySymlinks) {
  const fs::path dir = testing::NewTempDir("links");
  WriteFileOrFail(dir / "real/a.report.json", ReportJson("a"));
  fs::create_directory_symlink(dir / "real", dir / "real/loop");
  auto reports = CollectReports({dir});
  ASSERT_TRUE(reports.ok()) << reports.status();
  EXPECT_EQ(reports->size(), 1u);
}

TEST(CollectReports, MissingPathsAndEmptyPlacesAreErrors) {
  const fs::path dir = testing::NewTempDir("empty");
  auto missing = CollectReports({dir / "nope"});
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()),
              HasSubstr("nope: no such file or directory"));

  auto empty = CollectReports({dir});
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(std::string(empty.status().message()), HasSubstr(": no reports found"));

  ASSERT_TRUE(WriteZip(dir / "x.zip", {ZipEntry::FromBytes("log.txt", "x")}).ok());
  auto no_report = CollectReports({dir / "x.zip"});
  ASSERT_FALSE(no_report.ok());
  EXPECT_THAT(std::string(no_report.status().message()), HasSubstr("x.zip: holds no reports"));

  WriteFileOrFail(dir / "empty_grading_report.json", "{\"competition_reports\": []}");
  EXPECT_FALSE(CollectReports({dir / "empty_grading_report.json"}).ok());
}

TEST(CollectReports, BrokenFilesAreErrorsNamingThem) {
  const fs::path dir = testing::NewTempDir("broken");
  WriteFileOrFail(dir / "a/outputs.zip", "not a zip");
  auto corrupt = CollectReports({dir});
  ASSERT_FALSE(corrupt.ok());
  EXPECT_THAT(std::string(corrupt.status().message()), HasSubstr("a/outputs.zip"));

  const fs::path dir2 = testing::NewTempDir("broken2");
  ASSERT_TRUE(WriteZip(dir2 / "outputs.zip",
                       {ZipEntry::FromBytes("c.report.json", "{\"competition_id\": \"c\"}")})
                  .ok());
  auto bad_entry = CollectReports({dir2});
  ASSERT_FALSE(bad_entry.ok());
  EXPECT_THAT(std::string(bad_entry.status().message()),
              HasSubstr("outputs.zip:c.report.json: missing field `gold_medal`"));

  const fs::path dir3 = testing::NewTempDir("broken3");
  WriteFileOrFail(dir3 / "huge.report.json", "");
  fs::resize_file(dir3 / "huge.report.json", std::uintmax_t{65} << 20);  // sparse
  auto huge = CollectReports({dir3});
  ASSERT_FALSE(huge.ok());
  EXPECT_THAT(std::string(huge.status().message()), HasSubstr("too large for a report"));
}

}  // namespace
}  // namespace mlebench
