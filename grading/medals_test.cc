#include "grading/medals.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

// A higher-is-better leaderboard of n teams whose i-th (1-based) score is
// 10000 - i, so a threshold tells its position.
std::vector<double> Board(int n) {
  std::vector<double> s;
  for (int i = 1; i <= n; ++i) s.push_back(10000.0 - i);
  return s;
}

int Position(double score) { return static_cast<int>(10000.0 - score); }

struct BracketCase {
  int teams, gold, silver, bronze;
};

class BracketTest : public ::testing::TestWithParam<BracketCase> {};

TEST_P(BracketTest, PositionsFollowKaggleBrackets) {
  const BracketCase c = GetParam();
  absl::StatusOr<MedalThresholds> t = ThresholdsFromLeaderboard(Board(c.teams));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(Position(t->gold), c.gold);
  EXPECT_EQ(Position(t->silver), c.silver);
  EXPECT_EQ(Position(t->bronze), c.bronze);
  EXPECT_FALSE(t->is_lower_better);
}

INSTANTIATE_TEST_SUITE_P(
    EveryBracketEdge, BracketTest,
    ::testing::Values(BracketCase{1, 1, 1, 1},        // max(1, int(0.1)) etc.
                      BracketCase{2, 1, 1, 1},        //
                      BracketCase{5, 1, 1, 2},        // int(0.5)=0 -> 1, int(2.0)=2
                      BracketCase{10, 1, 2, 4},       //
                      BracketCase{99, 9, 19, 39},     // int(9.9), int(19.8), int(39.6)
                      BracketCase{100, 10, 20, 40},   // gold fixed at 10
                      BracketCase{249, 10, 49, 99},   // int(49.8), int(99.6)
                      BracketCase{250, 10, 50, 100},  // 10 + int(0.5)
                      BracketCase{999, 11, 50, 100},  // 10 + int(1.998)
                      BracketCase{1000, 12, 50, 100}, // 10 + 2, int(50), int(100)
                      BracketCase{4321, 18, 216, 432}));

TEST(ThresholdsFromLeaderboard, EmptyLeaderboardIsAnError) {
  EXPECT_FALSE(ThresholdsFromLeaderboard({}).ok());
}

TEST(ThresholdsFromLeaderboardFile, ReadsScoresAndRejectsGitLfsPointers) {
  const std::string dir = std::getenv("TEST_TMPDIR");
  const std::string board = dir + "/leaderboard.csv";
  std::ofstream(board) << "teamId,score,rank\n1,0.9,1\n2,0.8,2\n3,0.7,3\n";
  absl::StatusOr<MedalThresholds> t = ThresholdsFromLeaderboardFile(board);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_DOUBLE_EQ(t->median, 0.8);
  EXPECT_FALSE(t->is_lower_better);

  const std::string pointer = dir + "/pointer.csv";
  std::ofstream(pointer) << "version https://git-lfs.github.com/spec/v1\n"
                            "oid sha256:e071aca01cb968fa45344d94a60553e97d1429d3b0de05910e72012248168619\n"
                            "size 125841\n";
  absl::StatusOr<MedalThresholds> p = ThresholdsFromLeaderboardFile(pointer);
  EXPECT_EQ(p.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(p.status().message()).find("git lfs pull"), std::string::npos);
}

TEST(ThresholdsFromLeaderboard, MedianIsPandasMedian) {
  // Odd count: the middle value; even count: mean of the two middle values.
  EXPECT_DOUBLE_EQ(ThresholdsFromLeaderboard({5, 4, 3, 2, 1})->median, 3.0);
  EXPECT_DOUBLE_EQ(ThresholdsFromLeaderboard({4, 3, 2, 1})->median, 2.5);
  // NaN is skipped by the median but still occupies a position.
  const double nan = std::nan("");
  absl::StatusOr<MedalThresholds> t = ThresholdsFromLeaderboard({4, nan, 2, 1});
  ASSERT_TRUE(t.ok());
  EXPECT_DOUBLE_EQ(t->median, 2.0);
}

TEST(ThresholdsFromLeaderboard, LowerIsBetterFromFirstAndLastScore) {
  EXPECT_TRUE(ThresholdsFromLeaderboard({0.1, 0.2, 0.3})->is_lower_better);
  EXPECT_FALSE(ThresholdsFromLeaderboard({0.3, 0.2, 0.1})->is_lower_better);
  // Equal first and last: upstream's `top < bottom` is false.
  EXPECT_FALSE(ThresholdsFromLeaderboard({0.5, 0.1, 0.5})->is_lower_better);
}

TEST(FirstScoreOutOfOrder, FindsTheFirstBetterScoreBelowAWorseOne) {
  EXPECT_EQ(FirstScoreOutOfOrder({}), std::nullopt);
  EXPECT_EQ(FirstScoreOutOfOrder({0.5}), std::nullopt);
  EXPECT_EQ(FirstScoreOutOfOrder({0.9, 0.9, 0.8, 0.1}), std::nullopt);  // higher is better, a tie
  EXPECT_EQ(FirstScoreOutOfOrder({0.1, 0.2, 0.2, 0.9}), std::nullopt);  // lower is better
  EXPECT_EQ(FirstScoreOutOfOrder({0.9, 0.7, 0.8, 0.1}), std::optional<size_t>(3));
  EXPECT_EQ(FirstScoreOutOfOrder({0.1, 0.3, 0.2, 0.9}), std::optional<size_t>(3));
  // NaN rows are skipped, on either side of a break.
  EXPECT_EQ(FirstScoreOutOfOrder({0.9, std::nan(""), 0.8, 0.1}), std::nullopt);
  EXPECT_EQ(FirstScoreOutOfOrder({0.9, 0.5, std::nan(""), 0.6, 0.1}), std::optional<size_t>(4));
}

TEST(RankScore, InclusiveMedalsStrictMedian) {
  MedalThresholds t{.gold = 0.9, .silver = 0.8, .bronze = 0.7, .median = 0.6,
                    .is_lower_better = false};
  MedalResult r = RankScore(0.9, t);
  EXPECT_TRUE(r.gold);
  EXPECT_FALSE(r.silver);
  EXPECT_FALSE(r.bronze);
  EXPECT_TRUE(r.any());
  r = RankScore(0.8, t);
  EXPECT_FALSE(r.gold);
  EXPECT_TRUE(r.silver);
  r = RankScore(0.7, t);
  EXPECT_TRUE(r.bronze);
  r = RankScore(0.6, t);
  EXPECT_FALSE(r.any());
  EXPECT_FALSE(r.above_median);  // strict
  r = RankScore(0.61, t);
  EXPECT_TRUE(r.above_median);
  EXPECT_FALSE(r.any());
}

TEST(RankScore, LowerIsBetter) {
  MedalThresholds t{.gold = 0.1, .silver = 0.2, .bronze = 0.3, .median = 0.4,
                    .is_lower_better = true};
  EXPECT_TRUE(RankScore(0.05, t).gold);
  EXPECT_TRUE(RankScore(0.1, t).gold);
  EXPECT_TRUE(RankScore(0.2, t).silver);
  EXPECT_TRUE(RankScore(0.3, t).bronze);
  EXPECT_FALSE(RankScore(0.31, t).any());
  EXPECT_TRUE(RankScore(0.39, t).above_median);
  EXPECT_FALSE(RankScore(0.4, t).above_median);
}

TEST(RankScore, TiedThresholdsGiveTheBestMedalOnly) {
  // aerial-cactus-identification: every medal threshold is 1.0.
  MedalThresholds t{.gold = 1.0, .silver = 1.0, .bronze = 1.0, .median = 0.9991,
                    .is_lower_better = false};
  MedalResult r = RankScore(1.0, t);
  EXPECT_TRUE(r.gold);
  EXPECT_FALSE(r.silver);
  EXPECT_FALSE(r.bronze);
  EXPECT_FALSE(RankScore(0.99999, t).any());
}

TEST(RankScore, NoScoreWinsNothing) {
  MedalThresholds t{.gold = -1, .silver = -1, .bronze = -1, .median = -1};
  MedalResult r = RankScore(std::nullopt, t);
  EXPECT_FALSE(r.any());
  EXPECT_FALSE(r.above_median);
}

TEST(FormatThresholdsRow, GivesBackEveryLineOfTheEmbeddedTable) {
  auto table = ReadThresholdsTable("grading/medal_thresholds.csv");
  ASSERT_TRUE(table.ok()) << table.status();
  std::ifstream file("grading/medal_thresholds.csv");
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), table->size() + 1);
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string id = lines[i].substr(0, lines[i].find(','));
    EXPECT_EQ(FormatThresholdsRow(id, table->at(id)), lines[i]);
  }
  MedalThresholds lower{.gold = 0.1, .silver = 0.2, .bronze = 0.3, .median = 1e-05,
                        .is_lower_better = true};
  EXPECT_EQ(FormatThresholdsRow("x", lower), "x,0.1,0.2,0.3,1e-05,true");
}

TEST(ReadThresholdsTable, EmbeddedTableCoversEveryCompetition) {
  auto table = ReadThresholdsTable("grading/medal_thresholds.csv");
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->size(), 82u);
  const MedalThresholds& spooky = table->at("spooky-author-identification");
  EXPECT_TRUE(spooky.is_lower_better);
  EXPECT_DOUBLE_EQ(spooky.gold, 0.16506);
  for (const auto& [id, t] : *table) {
    // The direction must agree with the order of the thresholds.
    if (t.is_lower_better) {
      EXPECT_LE(t.gold, t.silver) << id;
      EXPECT_LE(t.silver, t.bronze) << id;
    } else {
      EXPECT_GE(t.gold, t.silver) << id;
      EXPECT_GE(t.silver, t.bronze) << id;
    }
  }
}

TEST(ReadThresholdsTable, MalformedTablesAreErrors) {
  EXPECT_FALSE(ReadThresholdsTable("does/not/exist.csv").ok());
}

}  // namespace
}  // namespace mlebench
