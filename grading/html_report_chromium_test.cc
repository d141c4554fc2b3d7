// Renders an HTML report made from a small fixture in headless Chromium (Debian's
// `chromium`), as a person would see it: the page loads with no console
// message, its DOM holds the tables and plots, and its screenshot (a PNG in
// the test's undeclared outputs) is not blank and shows the plots' colours.

#include <png.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "grading/html_report.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::ReadFileOrEmpty;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int kWidth = 1400;
constexpr int kHeight = 1600;

SourcedReport Report(const std::string& id, int64_t seed, double score, bool lower_is_better,
                     const std::string& medal) {
  SourcedReport s;
  CompetitionReport& r = s.report;
  r.set_competition_id(id);
  r.set_agent("//agents:dummy");
  r.set_agent_digest("sha256:0123abcd");
  r.set_dataset("synthetic");
  r.set_seed(seed);
  r.set_submission_exists(true);
  r.set_valid_submission(true);
  r.mutable_score()->set_number_value(score);
  r.set_is_lower_better(lower_is_better);
  if (lower_is_better) {  // an error: 10 median, 8 bronze, 6 silver, 2 gold
    r.set_median_threshold(10);
    r.set_bronze_threshold(8);
    r.set_silver_threshold(6);
    r.set_gold_threshold(2);
  } else {  // an accuracy
    r.set_median_threshold(0.5);
    r.set_bronze_threshold(0.6);
    r.set_silver_threshold(0.7);
    r.set_gold_threshold(0.9);
  }
  r.set_gold_medal(medal == "gold");
  r.set_silver_medal(medal == "silver");
  r.set_bronze_medal(medal == "bronze");
  r.set_above_median(medal != "none");
  r.set_wall_seconds(12.5 + seed);
  r.set_cpu_seconds(30.25);
  r.set_memory_peak_bytes(int64_t{3} << 29);
  r.set_ended_by("exit");
  r.set_isolation("bubblewrap");
  r.set_network("none");
  return s;
}

void AddSplit(AgentAggregate* agent, const std::string& name,
              const std::vector<std::array<double, 3>>& seeds, int64_t competitions) {
  SplitAggregate* split = agent->add_splits();
  split->set_split(name);
  split->set_competitions(competitions);
  split->mutable_aggregate()->set_num_seeds_averaged(static_cast<int64_t>(seeds.size()));
  AggregateMetric* any = split->mutable_aggregate()->mutable_metrics()->mutable_any_medal_percentage();
  double sum = 0;
  for (size_t i = 0; i < seeds.size(); ++i) {
    SeedMetrics* seed = split->add_seeds();
    seed->set_seed(static_cast<int64_t>(i));
    seed->set_total_competitions(competitions);
    seed->set_gold_medal_percentage(seeds[i][0] * 100 / competitions);
    seed->set_silver_medal_percentage(seeds[i][1] * 100 / competitions);
    seed->set_bronze_medal_percentage(seeds[i][2] * 100 / competitions);
    sum += (seeds[i][0] + seeds[i][1] + seeds[i][2]) * 100 / competitions;
  }
  any->set_mean(sum / seeds.size());
  any->set_standard_error(4.5);
}

// Runs `command` through the shell; returns its exit status and prints how long it took.
int RunTimed(const std::string& what, const std::string& command) {
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << what << ": " << seconds << " s\n";
  return status;
}

TEST(HtmlReportInChromium, LoadsCleanlyAndShowsTablesAndPlots) {
  const char* chromium_env = std::getenv("CHROMIUM");
  const std::string chromium = chromium_env != nullptr ? chromium_env : "/usr/bin/chromium";
  ASSERT_TRUE(fs::exists(chromium)) << chromium
                                    << " is missing: Debian's chromium package (bazel/debian_packages.txt; "
                                       "./bazelw installs it)";
  const fs::path tmp = std::getenv("TEST_TMPDIR");
  const char* outputs_env = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR");
  const fs::path outputs = outputs_env != nullptr ? fs::path(outputs_env) : tmp;

  AggregateSummary summary;
  AgentAggregate* agent = summary.add_agents();
  agent->set_agent("//agents:dummy");
  agent->set_agent_digest("sha256:0123abcd");
  agent->set_dataset("synthetic");
  agent->set_dataset_note(
      "synthetic data: the medals say nothing about Kaggle performance <b>(fixture)</b>");
  AddSplit(agent, "low", {{1, 1, 1}, {1, 0, 2}}, 6);
  AddSplit(agent, "medium", {{0, 1, 0}, {1, 0, 0}}, 6);
  AddSplit(agent, "split75", {{1, 2, 1}, {2, 0, 2}}, 6);
  std::vector<SourcedReport> reports = {
      Report("aerial-cactus", 0, 0.95, false, "gold"),
      Report("aerial-cactus", 1, 0.92, false, "gold"),
      Report("denoising-documents", 0, 7, true, "bronze"),
      Report("denoising-documents", 1, 1.5, true, "gold"),
      Report("jigsaw-toxic", 0, 0.72, false, "silver"),
      Report("jigsaw-toxic", 1, 0.4, false, "none"),
      Report("spooky-author", 0, 5, true, "silver"),
      Report("spooky-author", 1, 9, true, "none"),
  };
  SourcedReport invalid = Report("spaceship-titanic", 0, 0, false, "none");
  invalid.report.clear_score();
  invalid.report.set_valid_submission(false);
  invalid.report.set_invalid_reason("missing column <Transported>\n</table><script>x()</script>");
  invalid.report.set_ended_by("time limit");
  reports.push_back(invalid);
  reports.push_back(Report("spaceship-titanic", 1, 0.8, false, "silver"));

  const fs::path html = outputs / "report.html";
  WriteFileOrFail(html, HtmlReport(summary, reports));
  const fs::path png = outputs / "report.png";
  // Chromium writes its profile and caches under HOME and --user-data-dir:
  // both in the test's own directory. Every console message goes to stderr
  // (--enable-logging=stderr) as an "INFO:CONSOLE" line.
  const std::string common =
      "HOME='" + tmp.string() + "' XDG_CONFIG_HOME='" + tmp.string() + "/config' XDG_CACHE_HOME='" +
      tmp.string() + "/cache' '" + chromium +
      "' --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions "
      "--disable-background-networking --disable-component-update --disable-sync "
      "--hide-scrollbars --enable-logging=stderr --v=0 --user-data-dir='" +
      tmp.string() + "/profile' ";
  const std::string url = "'file://" + html.string() + "'";
  ASSERT_EQ(RunTimed("screenshot", common + "--window-size=" + std::to_string(kWidth) + "," +
                                  std::to_string(kHeight) + " --screenshot='" + png.string() + "' " +
                                  url + " >'" + (tmp / "screenshot.out").string() + "' 2>'" +
                                  (tmp / "screenshot.err").string() + "'"),
            0)
      << ReadFileOrEmpty(tmp / "screenshot.err");
  ASSERT_EQ(RunTimed("dump-dom", common + "--dump-dom " + url + " >'" + (tmp / "dom.html").string() +
                                "' 2>'" + (tmp / "dom.err").string() + "'"),
            0)
      << ReadFileOrEmpty(tmp / "dom.err");

  // No console message from the page (it has no script: any is an error,
  // e.g. a resource that failed to load), and no failed request. Chromium's
  // own pages log too (on a loaded machine, "Slow network is detected" with
  // source chrome://resources/...): those are not the report's.
  for (const char* log : {"screenshot.err", "dom.err"}) {
    const std::string text = ReadFileOrEmpty(tmp / log);
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      if (absl::StrContains(line, "source: chrome://")) continue;
      EXPECT_THAT(std::string(line), Not(HasSubstr(":CONSOLE"))) << log << ":\n" << text;
    }
    EXPECT_THAT(text, Not(HasSubstr("net::ERR_"))) << log << ":\n" << text;
  }

  // The DOM as Chromium parsed it: the tables, the plots, every marker, and
  // the agent's text as text (no element of its own).
  const std::string dom = ReadFileOrEmpty(tmp / "dom.html");
  EXPECT_THAT(dom, HasSubstr("<th>Low (%)</th><th>Medium (%)</th><th>High (%)</th><th>All (%)</th>"));
  EXPECT_THAT(dom, HasSubstr("<th>Competition</th><th>Seed</th><th>Score</th>"));
  EXPECT_THAT(dom, HasSubstr("<svg class=\"medal-counts\""));
  EXPECT_THAT(dom, HasSubstr("<svg class=\"thresholds\""));
  size_t circles = 0;
  for (size_t at = dom.find("<circle"); at != std::string::npos; at = dom.find("<circle", at + 1)) {
    ++circles;
  }
  EXPECT_EQ(circles, 9u) << "one marker per scored report";
  EXPECT_THAT(dom, HasSubstr("&lt;/table&gt;&lt;script&gt;x()&lt;/script&gt;"));
  EXPECT_THAT(dom, Not(HasSubstr("<script")));

  // The screenshot: the window's size, mostly white page with text, and the
  // plots' gold and bronze fills (#d4a017, #cd7f32) drawn.
  png_image image;
  std::memset(&image, 0, sizeof(image));
  image.version = PNG_IMAGE_VERSION;
  ASSERT_TRUE(png_image_begin_read_from_file(&image, png.c_str())) << image.message;
  image.format = PNG_FORMAT_RGB;
  std::vector<uint8_t> pixels(PNG_IMAGE_SIZE(image));
  ASSERT_TRUE(png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) << image.message;
  EXPECT_EQ(image.width, static_cast<png_uint_32>(kWidth));
  EXPECT_EQ(image.height, static_cast<png_uint_32>(kHeight));
  auto near = [](const uint8_t* p, int r, int g, int b) {
    return std::abs(p[0] - r) <= 8 && std::abs(p[1] - g) <= 8 && std::abs(p[2] - b) <= 8;
  };
  size_t white = 0, dark = 0, gold = 0, bronze = 0;
  const size_t n = pixels.size() / 3;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = &pixels[3 * i];
    if (near(p, 255, 255, 255)) ++white;
    if (p[0] < 80 && p[1] < 80 && p[2] < 80) ++dark;
    if (near(p, 0xd4, 0xa0, 0x17)) ++gold;
    if (near(p, 0xcd, 0x7f, 0x32)) ++bronze;
  }
  std::cout << "pixels: " << n << " white " << white << " dark " << dark << " gold " << gold
            << " bronze " << bronze << "\n";
  EXPECT_GT(white, n / 2) << "the page's background";
  EXPECT_LT(white, n - n / 50) << "a blank page";
  EXPECT_GT(dark, 2000u) << "no text drawn";
  EXPECT_GT(gold, 1000u) << "no gold bars drawn";
  EXPECT_GT(bronze, 500u) << "no bronze bars drawn";
}

}  // namespace
}  // namespace mlebench
