#include "base/baseline_libm.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kProbe[] = "base/baseline_libm_probe";

TEST(TunablesForBaselineLibmTest, NoTunablesGivesTheMaskAlone) {
  EXPECT_EQ(TunablesForBaselineLibm(""), "glibc.cpu.hwcaps=-FMA,-FMA4");
}

TEST(TunablesForBaselineLibmTest, OtherTunablesAreKept) {
  EXPECT_EQ(TunablesForBaselineLibm("glibc.malloc.check=3:glibc.malloc.arena_max=1"),
            "glibc.malloc.check=3:glibc.malloc.arena_max=1:glibc.cpu.hwcaps=-FMA,-FMA4");
}

TEST(TunablesForBaselineLibmTest, MasksJoinTheLastHwcapsListWhichIsTheOneGlibcApplies) {
  EXPECT_EQ(TunablesForBaselineLibm("glibc.cpu.hwcaps=-AVX512F"),
            "glibc.cpu.hwcaps=-AVX512F,-FMA,-FMA4");
  EXPECT_EQ(TunablesForBaselineLibm("glibc.cpu.hwcaps=-AVX2:glibc.malloc.check=3:"
                                    "glibc.cpu.hwcaps=-AVX512F"),
            "glibc.cpu.hwcaps=-AVX2:glibc.malloc.check=3:glibc.cpu.hwcaps=-AVX512F,-FMA,-FMA4");
  EXPECT_EQ(TunablesForBaselineLibm("glibc.cpu.hwcaps="), "glibc.cpu.hwcaps=-FMA,-FMA4");
  EXPECT_EQ(TunablesForBaselineLibm("glibc.cpu.hwcaps=-FMA4"), "glibc.cpu.hwcaps=-FMA4,-FMA");
}

TEST(TunablesForBaselineLibmTest, AppliedTwiceChangesNothing) {
  for (const std::string current :
       {"", "glibc.malloc.check=3", "glibc.cpu.hwcaps=-AVX512F", "glibc.cpu.hwcaps=-FMA"}) {
    const std::string once = TunablesForBaselineLibm(current);
    EXPECT_EQ(TunablesForBaselineLibm(once), once) << current;
  }
  // A mask earlier than the last hwcaps list is one glibc does not apply.
  EXPECT_EQ(TunablesForBaselineLibm("glibc.cpu.hwcaps=-FMA,-FMA4:glibc.cpu.hwcaps=-AVX2"),
            "glibc.cpu.hwcaps=-FMA,-FMA4:glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4");
}

TEST(BaselineLibmBzlTest, TheActionsSetTheSameValue) {
  EXPECT_THAT(testing::ReadFileOrFail("base/baseline_libm.bzl"),
              HasSubstr(absl::StrCat("BASELINE_LIBM_TUNABLE = \"", kBaselineLibmTunable, "\"")));
}

// The probe's line, run with GLIBC_TUNABLES unset or set to `tunables`.
std::string Probe(const char* tunables, bool pinned = true) {
  std::vector<std::string> argv = {"/usr/bin/env"};
  argv.push_back(tunables == nullptr ? "-u" : absl::StrCat("GLIBC_TUNABLES=", tunables));
  if (tunables == nullptr) argv.push_back("GLIBC_TUNABLES");
  argv.push_back(kProbe);
  if (!pinned) argv.push_back("--unpinned");
  const testing::CommandResult result = testing::RunCommand(argv);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return result.output;
}

std::string HashOf(const std::string& probe_line) {
  const size_t at = probe_line.find("hash=");
  return at == std::string::npos ? "" : probe_line.substr(at);
}

// Whether the CPU has FMA, as a process without GLIBC_TUNABLES sees it: asked
// of the probe, not of this process, which may run with the variable itself
// (an older CPU imitated through --test_env=GLIBC_TUNABLES=...).
bool CpuHasFma() {
  return absl::StartsWith(Probe(nullptr, /*pinned=*/false), "fma_variants=1 ");
}

TEST(UseBaselineLibmTest, AToolStartedWithoutTheVariableRestartsWithIt) {
  const std::string line = Probe(nullptr);
  if (!CpuHasFma()) {
    EXPECT_THAT(line, StartsWith("fma_variants=0 GLIBC_TUNABLES=(unset) "));
    return;
  }
  EXPECT_THAT(line, StartsWith("fma_variants=0 GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-FMA4 "));
}

TEST(UseBaselineLibmTest, TheUsersTunablesAreKept) {
  const std::string line = Probe("glibc.malloc.check=0:glibc.cpu.hwcaps=-AVX512F");
  EXPECT_THAT(line, StartsWith(CpuHasFma()
                                   ? "fma_variants=0 GLIBC_TUNABLES=glibc.malloc.check=0:"
                                     "glibc.cpu.hwcaps=-AVX512F,-FMA,-FMA4 "
                                   : "fma_variants=0 GLIBC_TUNABLES=glibc.malloc.check=0:"
                                     "glibc.cpu.hwcaps=-AVX512F "));
}

TEST(UseBaselineLibmTest, AToolStartedWithTheVariableDoesNotRestart) {
  // Nothing to do: the probe's environment is the one it was given.
  EXPECT_THAT(Probe("glibc.cpu.hwcaps=-FMA,-FMA4"),
              StartsWith("fma_variants=0 GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-FMA4 "));
}

TEST(UseBaselineLibmTest, EveryCpuGivesTheBaselineResults) {
  // By default, as on a CPU without FMA, without AVX2 (no FMA variant then
  // either) and without AVX-512 (which glibc's libm does not use).
  const std::string baseline = HashOf(Probe("glibc.cpu.hwcaps=-FMA,-FMA4"));
  EXPECT_EQ(HashOf(Probe(nullptr)), baseline);
  EXPECT_EQ(HashOf(Probe("glibc.cpu.hwcaps=-AVX2")), baseline);
  EXPECT_EQ(HashOf(Probe("glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512DQ,-AVX512BW")), baseline);
  EXPECT_EQ(HashOf(Probe("glibc.cpu.hwcaps=-AVX,-AVX2,-FMA,-FMA4,-AVX512F")), baseline);
}

TEST(UseBaselineLibmTest, WithoutItTheFmaVariantsGiveOtherBits) {
  if (!CpuHasFma()) GTEST_SKIP() << "this CPU has no FMA: the variants cannot be compared here";
  // Why the pin exists: on this CPU, glibc 2.36's FMA variants round some of
  // the probe's results differently.
  const std::string unpinned = Probe(nullptr, /*pinned=*/false);
  EXPECT_THAT(unpinned, StartsWith("fma_variants=1 GLIBC_TUNABLES=(unset) "));
  EXPECT_NE(HashOf(unpinned), HashOf(Probe(nullptr)));
}

}  // namespace
}  // namespace mlebench
