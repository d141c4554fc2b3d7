#include "grading/gating.h"

#include "grading/junit.h"
#include "grading/report.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
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

CompetitionReport Ran(std::string isolation, std::string network, double score = 0.75) {
  CompetitionReport r = Scored(score);
  r.set_isolation(std::move(isolation));
  r.set_network(std::move(network));
  return r;
}

TEST(ParseIsolationRequest, KnownAndUnknownNames) {
  for (std::string_view n : {"bwrap", "none"}) {
    absl::StatusOr<IsolationRequest> r = ParseIsolationRequest(n);
    ASSERT_TRUE(r.ok()) << n;
    EXPECT_EQ(IsolationRequestName(*r), n);
  }
  EXPECT_EQ(IsolationRequestName(IsolationRequest::kUnspecified), "");
  EXPECT_FALSE(ParseIsolationRequest("").ok());
  EXPECT_FALSE(ParseIsolationRequest("auto").ok());  // the runner's old fallback mode
  EXPECT_FALSE(ParseIsolationRequest("docker").ok());
}

constexpr GatingPolicy kAllPolicies[] = {GatingPolicy::kNone,   GatingPolicy::kValid,
                                         GatingPolicy::kMedian, GatingPolicy::kBronze,
                                         GatingPolicy::kSilver, GatingPolicy::kGold};

TEST(Gate, UnisolatedRunFailsEveryPolicyUnlessNoneWasRequested) {
  const CompetitionReport r = Ran("none", "allow", 0.95);  // gold: only isolation can fail it
  for (GatingPolicy p : kAllPolicies) {
    SCOPED_TRACE(GatingPolicyName(p));
    EXPECT_FALSE(Gate(r, p).pass);
    EXPECT_TRUE(Gate(r, p, {.isolation_requested = IsolationRequest::kNone}).pass);
  }
  EXPECT_EQ(Gate(r, GatingPolicy::kValid).reason,
            "the agent ran without isolation (isolation none); pass "
            "--//agent_runner:isolation=none to accept unisolated runs");
  // Accepting an unisolated run leaves the policy to decide.
  EXPECT_EQ(Gate(Ran("none", "allow", 0.6), GatingPolicy::kGold,
                 {.isolation_requested = IsolationRequest::kNone})
                .reason,
            "medal none: score 0.6, gold needs 0.9");
}

TEST(Gate, RequestedBwrapThatWasNotAppliedFails) {
  const GateOptions bwrap{.isolation_requested = IsolationRequest::kBwrap};
  for (GatingPolicy p : kAllPolicies) {
    const GateDecision d = Gate(Ran("none", "allow"), p, bwrap);
    EXPECT_FALSE(d.pass) << GatingPolicyName(p);
    EXPECT_EQ(d.reason,
              "the requested isolation bwrap was not applied: the agent ran with isolation none");
  }
}

TEST(Gate, IsolatedRunPassesWhateverWasRequested) {
  for (IsolationRequest q :
       {IsolationRequest::kUnspecified, IsolationRequest::kBwrap, IsolationRequest::kNone}) {
    EXPECT_TRUE(Gate(Ran("bwrap", "deny"), GatingPolicy::kBronze, {.isolation_requested = q}).pass);
    EXPECT_TRUE(
        Gate(Ran("bwrap", "allowlist"), GatingPolicy::kBronze, {.isolation_requested = q}).pass);
  }
}

TEST(Gate, UnconfinedNetworkFailsEveryPolicyUnlessRequested) {
  for (const char* network : {"unconfined", "allow"}) {  // "allow": older records
    const CompetitionReport r = Ran("bwrap", network, 0.95);
    for (GatingPolicy p : kAllPolicies) {
      SCOPED_TRACE(absl::StrCat(network, " ", std::string(GatingPolicyName(p))));
      EXPECT_FALSE(Gate(r, p).pass);
      EXPECT_FALSE(Gate(r, p, {.isolation_requested = IsolationRequest::kBwrap}).pass);
      EXPECT_TRUE(Gate(r, p, {.unconfined_network_requested = true}).pass);
    }
    EXPECT_THAT(Gate(r, GatingPolicy::kValid).reason,
                ::testing::HasSubstr("pass --//agent_runner:network=unconfined to accept"));
  }
}

TEST(Gate, UnknownIsolationIsNotChecked) {
  // CLI grading of a submission made elsewhere: no run record, as before.
  for (IsolationRequest q : {IsolationRequest::kUnspecified, IsolationRequest::kBwrap}) {
    EXPECT_TRUE(Gate(Scored(0.75), GatingPolicy::kValid, {.isolation_requested = q}).pass);
  }
}

TEST(RunEnvironmentFromRecord, ReadsTheRunnersRecord) {
  absl::StatusOr<RunEnvironment> env = RunEnvironmentFromRecord(
      "{\"competition_id\": \"c\", \"agent\": \"dummy\", \"seed\": 0, \"exit_code\": 0, "
      "\"signal\": null, \"timed_out\": false, \"duration_s\": 0.012, \"time_limit_s\": 60, "
      "\"submission_exists\": true, \"submission_bytes\": 12, \"isolation\": \"bwrap\", "
      "\"network\": \"deny\"}\n");
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->isolation, "bwrap");
  EXPECT_EQ(env->network, "deny");
  env = RunEnvironmentFromRecord("{\"isolation\": \"none\", \"network\": \"allow\"}");
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->isolation, "none");
  EXPECT_EQ(env->network, "unconfined");  // an older runner's name
  env = RunEnvironmentFromRecord(
      "{\"isolation\": \"bwrap\", \"network\": \"allowlist\", \"allowed_hosts\": "
      "[\"api.example.com:443\", 7], \"connections_total\": 5, \"connections_refused\": 2, "
      "\"connections_failed\": 1}");
  ASSERT_TRUE(env.ok()) << env.status();
  EXPECT_EQ(env->network, "allowlist");
  EXPECT_THAT(env->allowed_hosts, ::testing::ElementsAre("api.example.com:443"));
  EXPECT_EQ(env->network_requests, 5);
  EXPECT_EQ(env->network_requests_refused, 2);
  CompetitionReport report;
  AddRunEnvironment(*env, report);
  EXPECT_EQ(report.allowed_hosts_size(), 1);
  EXPECT_EQ(report.network_requests_refused(), 2);
  EXPECT_THAT(SummaryLine(report, GatingPolicy::kNone, Gate(report, GatingPolicy::kNone)),
              ::testing::HasSubstr(" network allowlist (5 requests, 2 refused, 1 failed)"));
}

TEST(DescribeRunEnd, SaysWhatEndedTheRun) {
  const auto said = [](const std::string& fields) {
    absl::StatusOr<RunEnvironment> env = RunEnvironmentFromRecord(
        "{\"isolation\": \"bwrap\", \"network\": \"deny\", " + fields + "}");
    return env.ok() ? DescribeRunEnd(*env) : std::string(env.status().message());
  };
  EXPECT_EQ(said("\"ended_by\": \"time_limit\", \"time_limit_s\": 60, \"exit_code\": null"),
            "the agent timed out after 60 s (its time limit) and was stopped");
  EXPECT_EQ(said("\"ended_by\": \"time_limit\""), "the agent was stopped at its time limit");
  EXPECT_EQ(said("\"ended_by\": \"agent\", \"exit_code\": 3"), "the agent exited with status 3");
  EXPECT_EQ(said("\"ended_by\": \"agent\", \"exit_code\": null, \"signal\": 11"),
            "the agent was killed by signal 11");
  EXPECT_THAT(said("\"ended_by\": \"proxy_log_quota\""), ::testing::HasSubstr("egress proxy"));
  EXPECT_THAT(said("\"ended_by\": \"workspace_quota\""), ::testing::HasSubstr("disk quota"));
}

TEST(RunEnvironmentFromRecord, BrokenRecordsAreErrors) {
  for (std::string_view bad : {
           "",
           "{\"isolation\": \"bwrap\", \"network\": \"deny\"",  // truncated
           "[\"bwrap\", \"deny\"]",
           "{\"network\": \"deny\"}",
           "{\"isolation\": \"bwrap\"}",
           "{\"isolation\": \"auto\", \"network\": \"deny\"}",
           "{\"isolation\": \"bwrap\", \"network\": true}",
           "{\"isolation\": null, \"network\": \"deny\"}",
       }) {
    absl::StatusOr<RunEnvironment> env = RunEnvironmentFromRecord(bad);
    EXPECT_FALSE(env.ok()) << bad;
    EXPECT_EQ(env.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(RunEnvironmentFromRecord("{\"isolation\": \"bwrap\"}").status().message(),
            "run record's \"network\" must be \"deny\", \"allowlist\" or \"unconfined\"");
  EXPECT_EQ(RunEnvironmentFromRecord("{\"isolation\": \"x\", \"network\": \"deny\"}")
                .status()
                .message(),
            "run record's \"isolation\" must be \"bwrap\" or \"none\"");
}

TEST(SummaryLine, SaysScoreMedalThresholdsAndVerdict) {
  const CompetitionReport r = Scored(0.85);
  const std::string line = SummaryLine(r, GatingPolicy::kGold, Gate(r, GatingPolicy::kGold));
  EXPECT_EQ(line,
            "c: score 0.85 (higher is better), valid, medal silver, above median yes "
            "[gold 0.9 silver 0.8 bronze 0.7 median 0.5] gate gold: "
            "FAIL (medal silver: score 0.85, gold needs 0.9)");
}

TEST(SummaryLine, SaysIsolationAndNetworkWhenKnown) {
  const CompetitionReport isolated = Ran("bwrap", "deny");
  EXPECT_EQ(SummaryLine(isolated, GatingPolicy::kValid, Gate(isolated, GatingPolicy::kValid)),
            "c: score 0.75 (higher is better), valid, medal bronze, above median yes "
            "[gold 0.9 silver 0.8 bronze 0.7 median 0.5] isolation bwrap network deny "
            "gate valid: PASS");
  const CompetitionReport open = Ran("none", "allow");
  const GateOptions none{.isolation_requested = IsolationRequest::kNone};
  EXPECT_EQ(SummaryLine(open, GatingPolicy::kValid, Gate(open, GatingPolicy::kValid, none), none),
            "c: score 0.75 (higher is better), valid, medal bronze, above median yes "
            "[gold 0.9 silver 0.8 bronze 0.7 median 0.5] isolation none (requested) network allow "
            "gate valid: PASS");
  EXPECT_EQ(SummaryLine(open, GatingPolicy::kNone, Gate(open, GatingPolicy::kNone)),
            "c: score 0.75 (higher is better), valid, medal bronze, above median yes "
            "[gold 0.9 silver 0.8 bronze 0.7 median 0.5] isolation none network allow "
            "gate none: FAIL (the agent ran without isolation (isolation none); pass "
            "--//agent_runner:isolation=none to accept unisolated runs)");
}

TEST(CompetitionJUnitXml, IsolationNetworkAndRequest) {
  const CompetitionReport open = Ran("none", "allow");
  const GateOptions none{.isolation_requested = IsolationRequest::kNone};
  const std::string xml =
      CompetitionJUnitXml(open, GatingPolicy::kValid, Gate(open, GatingPolicy::kValid, none),
                          "s", none);
  EXPECT_NE(xml.find("<property name=\"isolation\" value=\"none\"/>\n"
                     "        <property name=\"network\" value=\"allow\"/>\n"
                     "        <property name=\"allowed_hosts\" value=\"\"/>\n"
                     "        <property name=\"network_requests\" value=\"0\"/>\n"
                     "        <property name=\"network_requests_refused\" value=\"0\"/>\n"
                     "        <property name=\"network_requests_failed\" value=\"0\"/>\n"
                     "        <property name=\"isolation_requested\" value=\"none\"/>\n"),
            std::string::npos)
      << xml;
  EXPECT_EQ(xml.find("<failure"), std::string::npos) << xml;

  const std::string refused =
      CompetitionJUnitXml(open, GatingPolicy::kValid, Gate(open, GatingPolicy::kValid), "s");
  EXPECT_NE(refused.find("<property name=\"isolation_requested\" value=\"\"/>"),
            std::string::npos)
      << refused;
  EXPECT_NE(refused.find("<failure message=\"the agent ran without isolation"), std::string::npos)
      << refused;

  // Unknown (CLI grading): the properties are there, empty.
  const CompetitionReport unknown = Scored(0.75);
  const std::string cli = CompetitionJUnitXml(unknown, GatingPolicy::kValid,
                                              Gate(unknown, GatingPolicy::kValid), "s");
  EXPECT_NE(cli.find("<property name=\"isolation\" value=\"\"/>"), std::string::npos) << cli;
  EXPECT_NE(cli.find("<property name=\"network\" value=\"\"/>"), std::string::npos) << cli;
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


}  // namespace
}  // namespace mlebench

namespace mlebench {
namespace {

CompetitionReport WithSample(CompetitionReport report, std::optional<double> sample_score,
                             bool lower_is_better = false) {
  report.set_is_lower_better(lower_is_better);
  CompetitionReport sample = MakeReport("c", true, sample_score, "", kT, {});
  sample.set_is_lower_better(lower_is_better);
  AddSampleScore(sample, report);
  return report;
}

TEST(SampleGate, StrictlyBetterInTheMetricsDirection) {
  EXPECT_TRUE(WithSample(Scored(0.8), 0.5).beats_sample());
  EXPECT_FALSE(WithSample(Scored(0.5), 0.5).beats_sample());
  EXPECT_FALSE(WithSample(Scored(0.4), 0.5).beats_sample());
  EXPECT_TRUE(WithSample(Scored(0.4), 0.5, /*lower_is_better=*/true).beats_sample());
  EXPECT_FALSE(WithSample(Scored(0.8), 0.5, /*lower_is_better=*/true).beats_sample());
  // A NaN sample score (constant predictions under a correlation) is beaten
  // by any number; a NaN score beats nothing.
  EXPECT_TRUE(WithSample(Scored(0.1), std::nan("")).beats_sample());
  EXPECT_FALSE(WithSample(Scored(std::nan("")), std::nan("")).beats_sample());
  EXPECT_FALSE(WithSample(Scored(std::nan("")), 0.5).beats_sample());
  // An invalid submission beats nothing.
  EXPECT_FALSE(
      WithSample(MakeReport("c", true, std::nullopt, "bad", kT, {}), 0.5).beats_sample());
  EXPECT_EQ(WithSample(Scored(0.8), 0.5).sample_score().number_value(), 0.5);
}

TEST(SampleGate, PassesOnlyWhenTheSampleIsBeaten) {
  EXPECT_TRUE(Gate(WithSample(Scored(0.8), 0.5), GatingPolicy::kSample).pass);
  const GateDecision equal = Gate(WithSample(Scored(0.5), 0.5), GatingPolicy::kSample);
  EXPECT_FALSE(equal.pass);
  EXPECT_EQ(equal.reason, "score 0.5 is not better than the sample submission's 0.5");
  const GateDecision unknown = Gate(WithSample(Scored(0.8), std::nullopt), GatingPolicy::kSample);
  EXPECT_FALSE(unknown.pass);
  EXPECT_EQ(unknown.reason, "the sample submission has no score to beat");
  EXPECT_EQ(ParseGatingPolicy("sample").value(), GatingPolicy::kSample);
  EXPECT_THAT(SummaryLine(WithSample(Scored(0.8), 0.5), GatingPolicy::kSample,
                          {true, ""}),
              ::testing::HasSubstr(" sample 0.5 beaten yes gate sample: PASS"));
}

}  // namespace
}  // namespace mlebench
