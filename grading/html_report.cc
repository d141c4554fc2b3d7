#include "grading/html_report.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "grading/gating.h"
#include "grading/report.pb.h"
#include "grading/report_rows.h"

namespace mlebench {
namespace {

constexpr double kAxisMin = -1.0;
constexpr double kAxisMax = 3.5;

constexpr char kStyle[] = R"(
body { font-family: sans-serif; margin: 24px; color: #222; background: #fff; }
h1 { font-size: 24px; } h2 { font-size: 20px; margin-top: 32px; }
table { border-collapse: collapse; margin: 12px 0; font-size: 13px; }
th, td { border: 1px solid #bbb; padding: 3px 7px; text-align: left; }
th { background: #eef; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
blockquote { border-left: 4px solid #c99; margin: 8px 0; padding: 4px 12px; background: #fdf3f3; }
code { background: #f3f3f3; padding: 1px 3px; }
figure { margin: 16px 0; } figcaption { font-size: 13px; color: #555; }
svg text { font-family: sans-serif; font-size: 11px; fill: #222; }
)";

std::string MedalColour(std::string_view medal) {
  if (medal == "gold") return "#d4a017";
  if (medal == "silver") return "#9e9e9e";
  if (medal == "bronze") return "#cd7f32";
  return "#3b6ea5";
}

void AppendTable(std::string* html, const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows, const std::set<size_t>& numeric) {
  *html += "<table>\n<thead><tr>";
  for (const std::string& h : header) absl::StrAppend(html, "<th>", HtmlEscape(h), "</th>");
  *html += "</tr></thead>\n<tbody>\n";
  for (const std::vector<std::string>& row : rows) {
    *html += "<tr>";
    for (size_t i = 0; i < row.size(); ++i) {
      absl::StrAppend(html, numeric.count(i) ? "<td class=\"num\">" : "<td>", HtmlEscape(row[i]),
                      "</td>");
    }
    *html += "</tr>\n";
  }
  *html += "</tbody>\n</table>\n";
}

// Medal counts (gold, silver, bronze stacked) per split and seed.
void AppendMedalCounts(std::string* html, const AgentAggregate& agent) {
  struct Bar {
    std::string split;
    int64_t seed;
    std::array<int64_t, 3> counts;  // gold, silver, bronze
  };
  std::vector<Bar> bars;
  int64_t most = 1;
  for (const SplitAggregate& split : agent.splits()) {
    for (const SeedMetrics& seed : split.seeds()) {
      auto count = [&](double percentage) {
        return static_cast<int64_t>(std::llround(percentage * seed.total_competitions() / 100.0));
      };
      Bar bar{split.split(), seed.seed(),
              {count(seed.gold_medal_percentage()), count(seed.silver_medal_percentage()),
               count(seed.bronze_medal_percentage())}};
      most = std::max(most, bar.counts[0] + bar.counts[1] + bar.counts[2]);
      bars.push_back(std::move(bar));
    }
  }
  if (bars.empty()) return;
  constexpr int kBar = 22, kGap = 8, kGroupGap = 26, kLeft = 40, kTop = 30, kPlot = 180;
  int width = kLeft;
  std::string previous;
  for (const Bar& bar : bars) {
    if (bar.split != previous && !previous.empty()) width += kGroupGap;
    width += kBar + kGap;
    previous = bar.split;
  }
  width = std::max(width + 20, 360);
  const int height = kTop + kPlot + 50;
  absl::StrAppend(html, "<figure>\n<svg class=\"medal-counts\" xmlns=\"http://www.w3.org/2000/svg\" width=\"",
                  width, "\" height=\"", height, "\" viewBox=\"0 0 ", width, " ", height,
                  "\" role=\"img\" aria-label=\"Medal counts per split and seed\">\n");
  // Axis and ticks.
  absl::StrAppend(html, "<line x1=\"", kLeft - 4, "\" y1=\"", kTop + kPlot, "\" x2=\"", width - 10,
                  "\" y2=\"", kTop + kPlot, "\" stroke=\"#444\"/>\n");
  const int64_t step = std::max<int64_t>(1, (most + 4) / 5);
  for (int64_t t = 0; t <= most; t += step) {
    const double y = kTop + kPlot - static_cast<double>(t) / most * kPlot;
    absl::StrAppend(html, absl::StrFormat("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n",
                                          kLeft - 8, y + 4, t));
    absl::StrAppend(html, absl::StrFormat("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                                          kLeft - 4, y, width - 10, y));
  }
  // Legend.
  int lx = kLeft;
  for (const char* medal : {"gold", "silver", "bronze"}) {
    absl::StrAppend(html, "<rect x=\"", lx, "\" y=\"8\" width=\"12\" height=\"12\" fill=\"",
                    MedalColour(medal), "\"/><text x=\"", lx + 16, "\" y=\"18\">", medal, "</text>\n");
    lx += 70;
  }
  int x = kLeft;
  previous.clear();
  int group_start = x;
  auto close_group = [&](int end) {
    absl::StrAppend(html, "<text x=\"", (group_start + end) / 2, "\" y=\"", kTop + kPlot + 36,
                    "\" text-anchor=\"middle\" font-weight=\"bold\">", HtmlEscape(DisplayCell(previous, 40)),
                    "</text>\n");
  };
  for (const Bar& bar : bars) {
    if (bar.split != previous) {
      if (!previous.empty()) {
        close_group(x - kGap);
        x += kGroupGap;
      }
      group_start = x;
      previous = bar.split;
    }
    double y = kTop + kPlot;
    static constexpr std::array<const char*, 3> kMedals = {"gold", "silver", "bronze"};
    for (size_t m = 0; m < 3; ++m) {
      if (bar.counts[m] <= 0) continue;
      const double h = static_cast<double>(bar.counts[m]) / most * kPlot;
      y -= h;
      absl::StrAppend(html, absl::StrFormat("<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\">"
                                            "<title>%s seed %d: %d %s</title></rect>\n",
                                            x, y, kBar, h, MedalColour(kMedals[m]),
                                            HtmlEscape(DisplayCell(bar.split, 40)), bar.seed,
                                            bar.counts[m], kMedals[m]));
    }
    absl::StrAppend(html, "<text x=\"", x + kBar / 2, "\" y=\"", kTop + kPlot + 16,
                    "\" text-anchor=\"middle\">s", bar.seed, "</text>\n");
    x += kBar + kGap;
  }
  close_group(x - kGap);
  *html += "</svg>\n<figcaption>Medals per split and seed (s&lt;N&gt;: seed N).</figcaption>\n</figure>\n";
}

// Each competition's scores against its thresholds (ThresholdPosition).
void AppendThresholdStrips(std::string* html, const std::vector<const CompetitionReport*>& mine) {
  if (mine.empty()) return;
  std::vector<std::string> competitions;
  for (const CompetitionReport* r : mine) {
    if (competitions.empty() || competitions.back() != r->competition_id()) {
      competitions.push_back(r->competition_id());
    }
  }
  constexpr int kLabel = 250, kAxis = 600, kRow = 22, kTop = 34, kRight = 30;
  const int width = kLabel + kAxis + kRight;
  const int height = kTop + kRow * static_cast<int>(competitions.size()) + 10;
  auto x_of = [&](double position) {
    return kLabel + (position - kAxisMin) / (kAxisMax - kAxisMin) * kAxis;
  };
  absl::StrAppend(html, "<figure>\n<svg class=\"thresholds\" xmlns=\"http://www.w3.org/2000/svg\" width=\"",
                  width, "\" height=\"", height, "\" viewBox=\"0 0 ", width, " ", height,
                  "\" role=\"img\" aria-label=\"Scores against medal thresholds\">\n");
  absl::StrAppend(html, absl::StrFormat("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#f4f4f4\"/>\n",
                                        x_of(kAxisMin), kTop - 6, x_of(0) - x_of(kAxisMin),
                                        height - kTop - 4));
  static constexpr std::array<const char*, 4> kNames = {"median", "bronze", "silver", "gold"};
  for (int k = 0; k < 4; ++k) {
    const std::string colour = k == 0 ? "#444" : MedalColour(kNames[k]);
    absl::StrAppend(html, absl::StrFormat("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
                                          "stroke-width=\"2\"/>\n<text x=\"%.1f\" y=\"%d\" "
                                          "text-anchor=\"middle\">%s</text>\n",
                                          x_of(k), kTop - 6, x_of(k), height - 10, colour, x_of(k),
                                          kTop - 12, kNames[k]));
  }
  absl::StrAppend(html, absl::StrFormat("<text x=\"%.1f\" y=\"%d\" text-anchor=\"start\">no score / worse</text>\n",
                                        x_of(kAxisMin) + 2, kTop - 24));
  size_t row = 0;
  for (size_t i = 0; i < mine.size(); ++i) {
    const CompetitionReport& r = *mine[i];
    if (i > 0 && mine[i - 1]->competition_id() != r.competition_id()) ++row;
    const int y = kTop + kRow * static_cast<int>(row) + kRow / 2;
    if (i == 0 || mine[i - 1]->competition_id() != r.competition_id()) {
      absl::StrAppend(html, "<text x=\"", kLabel - 8, "\" y=\"", y + 4, "\" text-anchor=\"end\">",
                      HtmlEscape(DisplayCell(r.competition_id(), 40)), "</text>\n",
                      absl::StrFormat("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ccc\"/>\n",
                                      x_of(kAxisMin), y, x_of(kAxisMax), y));
    }
    const bool has_score = r.score().kind_case() == google::protobuf::Value::kNumberValue;
    const double position =
        has_score ? ThresholdPosition(r.score().number_value(), r.median_threshold(),
                                      r.bronze_threshold(), r.silver_threshold(),
                                      r.gold_threshold(), r.is_lower_better())
                  : NAN;
    const std::string title = HtmlEscape(absl::StrCat(
        DisplayCell(r.competition_id(), 40), " seed ", r.seed(), ": ",
        CompetitionCells(r)[2], " (", std::string(MedalName(r)), ")"));
    if (std::isnan(position)) {
      const double cx = x_of(kAxisMin) + 8;
      absl::StrAppend(html, absl::StrFormat("<path d=\"M%.1f %d l8 8 m0 -8 l-8 8\" stroke=\"#c33\" "
                                            "stroke-width=\"2\"><title>%s</title></path>\n",
                                            cx - 4, y - 4, title));
    } else {
      absl::StrAppend(html, absl::StrFormat("<circle cx=\"%.1f\" cy=\"%d\" r=\"6\" fill=\"%s\" "
                                            "fill-opacity=\"0.8\" stroke=\"#222\"><title>%s</title></circle>\n",
                                            x_of(position), y, MedalColour(MedalName(r)), title));
    }
  }
  *html += "</svg>\n<figcaption>Each competition's score per seed against its thresholds: median at 0, "
           "bronze, silver and gold at 1, 2 and 3, linear between them, better to the right whatever "
           "the metric's direction; a cross is a seed without a score.</figcaption>\n</figure>\n";
}

}  // namespace

std::string HtmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

double ThresholdPosition(double score, double median, double bronze, double silver, double gold,
                         bool is_lower_better) {
  std::array<double, 4> t = {median, bronze, silver, gold};
  if (std::isnan(score)) return NAN;
  for (double v : t) {
    if (std::isnan(v)) return NAN;
  }
  if (is_lower_better) {
    score = -score;
    for (double& v : t) v = -v;
  }
  int k = -1;  // the highest threshold the score reaches
  for (int i = 0; i < 4; ++i) {
    if (score >= t[i]) k = i;
  }
  double position;
  if (k == -1) {
    double gap = 0;
    for (int i = 0; i < 3 && gap <= 0; ++i) gap = t[i + 1] - t[i];
    position = gap > 0 ? -(t[0] - score) / gap : kAxisMin;
  } else if (k == 3) {
    double gap = 0;
    for (int i = 2; i >= 0 && gap <= 0; --i) gap = t[i + 1] - t[i];
    position = score == t[3] ? 3.0 : (gap > 0 ? 3.0 + (score - t[3]) / gap : kAxisMax);
  } else {
    // t[k] <= score < t[k + 1]: the gap is not empty.
    position = k + (score - t[k]) / (t[k + 1] - t[k]);
  }
  if (std::isnan(position)) return NAN;
  return std::clamp(position, kAxisMin, kAxisMax);
}

std::string HtmlReport(const AggregateSummary& summary,
                       const std::vector<SourcedReport>& reports) {
  std::string html = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>MLE-bench results</title>\n<style>",
      kStyle, "</style>\n</head>\n<body>\n<h1>MLE-bench results</h1>\n");
  if (!summary.datasets_note().empty()) {
    absl::StrAppend(&html, "<blockquote>", HtmlEscape(DisplayCell(summary.datasets_note(), 400)),
                    "</blockquote>\n");
  }
  for (const AgentAggregate& agent : summary.agents()) {
    absl::StrAppend(&html, "<section class=\"agent\">\n<h2>",
                    HtmlEscape(DisplayCell(agent.agent().empty() ? "(unnamed agent)" : agent.agent())),
                    "</h2>\n<p>digest <code>", HtmlEscape(DisplayCell(agent.agent_digest(), 64)),
                    "</code>, dataset ",
                    HtmlEscape(DisplayCell(agent.dataset().empty() ? "unknown" : agent.dataset())),
                    "</p>\n");
    if (!agent.dataset_note().empty()) {
      absl::StrAppend(&html, "<blockquote>", HtmlEscape(DisplayCell(agent.dataset_note(), 400)),
                      "</blockquote>\n");
    }
    AppendTable(&html, {kLeaderboardColumns.begin(), kLeaderboardColumns.end()},
                {LeaderboardCells(agent)}, {0, 1, 2, 3, 4});
    if (agent.skipped_splits_size() > 0) {
      html += "<ul>\n";
      for (const SkippedSplit& skipped : agent.skipped_splits()) {
        absl::StrAppend(&html, "<li>", HtmlEscape(DisplayCell(skipped.split())), ": not aggregated (",
                        HtmlEscape(DisplayCell(skipped.reason(), 300)), ")</li>\n");
      }
      html += "</ul>\n";
    }
    AppendMedalCounts(&html, agent);
    const std::vector<const CompetitionReport*> mine = ReportsOfAgent(agent, reports);
    AppendThresholdStrips(&html, mine);
    std::vector<std::vector<std::string>> rows;
    for (const CompetitionReport* r : mine) rows.push_back(CompetitionCells(*r));
    AppendTable(&html, CompetitionColumns(), rows, {1, 2, 3, 4, 5, 6, 10, 11, 12, 13});
    html += "</section>\n";
  }
  if (summary.agents_size() == 0) html += "<p>No reports.</p>\n";
  html += "</body>\n</html>\n";
  return html;
}

}  // namespace mlebench
