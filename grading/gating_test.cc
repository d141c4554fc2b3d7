#include "grading/gating.h"

#include "grading/junit.h"
#include "grading/report.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

const MedalThresholds kT{.gold = 0.9, .silver = 0.8, .bronze = 0.7, .median = 0.5,
                         .is_lower_better = false};

CompetitionReport Scored(double s) { return MakeReport("c", true, s, "", kT, {}); }

TEST(ParseGatingPolicy, KnownAndUnknownNames) {
  for (std::string_view n : {"none", "valid", "median", "bronze", "silver", "gold"}) {
    absl::StatusOr<GatingPolicy> p = ParseGatingPolicy(n);
    ASSERT_TRUE(p.ok()) << n;
    EXPECT_EQ(GatingPolicyName(*p), n);
  }
  EXPECT_FALSE(ParseGatingPolicy("platinum").ok());
  EXPECT_FALSE(ParseGatingPolicy("").ok());
}

TEST(Gate, EachPolicyAgainstEachOutcome) {
  const CompetitionReport missing = MakeReport("c", false, std::nullopt, "", kT, {});
  const CompetitionReport invalid = MakeReport("c", true, std::nullopt, "bad ids", kT, {});
  struct Case {
    CompetitionReport report;
    bool none, valid, median, bronze, silver, gold;
  };
  const Case cases[] = {
      {missing, true, false, false, false, false, false},
      {invalid, true, false, false, false, false, false},
      {Scored(0.4), true, true, false, false, false, false},
      {Scored(0.5), true, true, false, false, false, false},  // median is strict
      {Scored(0.6), true, true, true, false, false, false},
      {Scored(0.7), true, true, true, true, false, false},
      {Scored(0.8), true, true, true, true, true, false},
      {Scored(0.95), true, true, true, true, true, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(ToPythonJson(c.report, 0));
    EXPECT_EQ(Gate(c.report, GatingPolicy::kNone).pass, c.none);
    EXPECT_EQ(Gate(c.report, GatingPolicy::kValid).pass, c.valid);
    EXPECT_EQ(Gate(c.report, GatingPolicy::kMedian).pass, c.median);
    EXPECT_EQ(Gate(c.report, GatingPolicy::kBronze).pass, c.bronze);
    EXPECT_EQ(Gate(c.report, GatingPolicy::kSilver).pass, c.silver);
    EXPECT_EQ(Gate(c.report, GatingPolicy::kGold).pass, c.gold);
  }
  EXPECT_EQ(Gate(invalid, GatingPolicy::kValid).reason, "invalid submission: bad ids");
  EXPECT_EQ(Gate(missing, GatingPolicy::kValid).reason, "the agent produced no submission.csv");
}

TEST(SummaryLine, SaysScoreMedalThresholdsAndVerdict) {
  const CompetitionReport r = Scored(0.85);
  const std::string line = SummaryLine(r, GatingPolicy::kGold, Gate(r, GatingPolicy::kGold));
  EXPECT_EQ(line,
            "c: score 0.85 (higher is better), valid, medal silver, above median yes "
            "[gold 0.9 silver 0.8 bronze 0.7 median 0.5] gate gold: "
            "FAIL (medal silver: score 0.85, gold needs 0.9)");
}

TEST(CompetitionJUnitXml, PropertiesFailureAndEscaping) {
  CompetitionReport r = MakeReport("a<b>&\"c\"", true, std::nullopt, "row 3: <bad>", kT,
                                   {.agent = "//agent_runner/agents:dummy", .seed = 2});
  const GateDecision d = Gate(r, GatingPolicy::kValid);
  const std::string xml = CompetitionJUnitXml(r, GatingPolicy::kValid, d, "summary & more");
  EXPECT_NE(xml.find("<testsuite name=\"a&lt;b&gt;&amp;&quot;c&quot;\" tests=\"1\" failures=\"1\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<property name=\"score\" value=\"\"/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<property name=\"seed\" value=\"2\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<failure message=\"invalid submission: row 3: &lt;bad&gt;\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<system-out>summary &amp; more</system-out>"), std::string::npos);

  const CompetitionReport ok = Scored(0.75);
  const std::string pass_xml =
      CompetitionJUnitXml(ok, GatingPolicy::kValid, Gate(ok, GatingPolicy::kValid), "s");
  EXPECT_EQ(pass_xml.find("<failure"), std::string::npos);
  EXPECT_NE(pass_xml.find("<property name=\"medal\" value=\"bronze\"/>"), std::string::npos);
  EXPECT_NE(pass_xml.find("<property name=\"gold_threshold\" value=\"0.9\"/>"), std::string::npos);
}

TEST(XmlEscape, ControlCharactersNeverReachTheXml) {
  EXPECT_EQ(XmlEscape(std::string("a\x01z\n", 4)), "a?z&#10;");
}

}  // namespace
}  // namespace mlebench
