#include "grading/metrics/vision/kuzushiji_f1.h"

#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

using Page = std::optional<std::string>;

KuzushijiCounts Counts(const Page& preds, const Page& truth) {
  absl::StatusOr<KuzushijiCounts> counts = ScoreKuzushijiPage(preds, truth);
  EXPECT_TRUE(counts.ok()) << counts.status();
  return counts.value_or(KuzushijiCounts{});
}

TEST(ScoreKuzushijiPageTest, PointStrictlyInsideBoxWithSameLabelMatches) {
  // The competition's example: box U+003F 1 1 10 10, point 3 3.
  KuzushijiCounts c = Counts("U+003F 3 3", "U+003F 1 1 10 10");
  EXPECT_EQ(c.true_positives, 1);
  EXPECT_EQ(c.false_positives, 0);
  EXPECT_EQ(c.false_negatives, 0);
  // On the border, another label, or outside: no match.
  for (const char* preds : {"U+003F 1 3", "U+003F 11 3", "U+0040 3 3", "U+003F 3 20"}) {
    c = Counts(preds, "U+003F 1 1 10 10");
    EXPECT_EQ(c.true_positives, 0) << preds;
    EXPECT_EQ(c.false_positives, 1) << preds;
    EXPECT_EQ(c.false_negatives, 1) << preds;
  }
}

TEST(ScoreKuzushijiPageTest, EachPredictionMatchesOneBoxInOrder) {
  // Two overlapping boxes, one point inside both: the first box takes it.
  KuzushijiCounts c = Counts("A 5 5", "A 0 0 10 10 A 2 2 10 10");
  EXPECT_EQ(c.true_positives, 1);
  EXPECT_EQ(c.false_negatives, 1);
  EXPECT_EQ(c.false_positives, 0);
  c = Counts("A 5 5 A 6 6 B 1 1", "A 0 0 10 10 A 2 2 10 10");
  EXPECT_EQ(c.true_positives, 2);
  EXPECT_EQ(c.false_positives, 1);
  EXPECT_EQ(c.false_negatives, 0);
}

TEST(ScoreKuzushijiPageTest, MissingPagesCountWholeStrings) {
  KuzushijiCounts c = Counts(std::nullopt, std::nullopt);
  EXPECT_EQ(c.true_positives + c.false_positives + c.false_negatives, 0);
  c = Counts("A 1 1 B 2 2", std::nullopt);
  EXPECT_EQ(c.false_positives, 2);
  c = Counts(std::nullopt, "A 1 1 2 2 B 1 1 2 2 C 1 1 2 2");
  EXPECT_EQ(c.false_negatives, 3);
}

TEST(ScoreKuzushijiPageTest, MalformedStringsAreErrors) {
  EXPECT_FALSE(ScoreKuzushijiPage("A 1 1", "A 1 1 2").ok());
  EXPECT_FALSE(ScoreKuzushijiPage("A 1", "A 1 1 2 2").ok());
  EXPECT_FALSE(ScoreKuzushijiPage("A x 1", "A 1 1 2 2").ok());
  EXPECT_FALSE(ScoreKuzushijiPage("A 1 1", "A 1 1 w 2").ok());
  EXPECT_FALSE(ScoreKuzushijiPage("A  1 1", "A 1 1 2 2").ok());  // split(" ") keeps ""
  // Python float() spellings parse; NaN never matches.
  KuzushijiCounts c = Counts("A 1_0 5 A nan 5", "A 9 0 2 10");
  EXPECT_EQ(c.true_positives, 1);
  EXPECT_EQ(c.false_positives, 1);
}

TEST(KuzushijiF1Test, SumsCountsOverPages) {
  std::vector<Page> preds = {"A 5 5", "B 1 1", std::nullopt};
  std::vector<Page> truths = {"A 0 0 10 10", std::nullopt, "C 0 0 1 1"};
  // tp 1, fp 1, fn 1: precision = recall = 1/2.
  absl::StatusOr<double> f1 = KuzushijiF1(preds, truths);
  ASSERT_TRUE(f1.ok()) << f1.status();
  EXPECT_DOUBLE_EQ(*f1, 0.5);
}

TEST(KuzushijiF1Test, ZeroWithoutPredictionsOrMatches) {
  std::vector<Page> none = {std::nullopt};
  std::vector<Page> truths = {"A 0 0 10 10"};
  EXPECT_EQ(*KuzushijiF1(none, truths), 0);
  EXPECT_EQ(*KuzushijiF1(none, none), 0);
  std::vector<Page> wrong = {"B 5 5"};
  EXPECT_EQ(*KuzushijiF1(wrong, truths), 0);
  EXPECT_FALSE(KuzushijiF1(wrong, std::vector<Page>{}).ok());
  std::vector<Page> malformed = {"B 5"};
  EXPECT_FALSE(KuzushijiF1(malformed, truths).ok());
}

}  // namespace
}  // namespace mlebench
