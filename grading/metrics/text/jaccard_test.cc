#include "grading/metrics/text/jaccard.h"

#include <cmath>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;

TEST(WordJaccardTest, SetsOfLowerCasedWords) {
  EXPECT_EQ(*WordJaccard("very good", "very good"), 1.0);
  EXPECT_EQ(*WordJaccard("Very GOOD", "  very\tgood "), 1.0);
  // {it, was, good} vs {it, was, bad}: 2 common of 4.
  EXPECT_EQ(*WordJaccard("it was good", "it was bad"), 0.5);
  // Repeated words count once; punctuation stays part of a word.
  EXPECT_EQ(*WordJaccard("good good good", "good"), 1.0);
  EXPECT_EQ(*WordJaccard("good!", "good"), 0.0);
  EXPECT_EQ(*WordJaccard("a b c", "c d"), 1.0 / 4.0);
  // One side empty: 0, not an error.
  EXPECT_EQ(*WordJaccard("", "good"), 0.0);
  EXPECT_EQ(*WordJaccard("good", " "), 0.0);
  // Unicode lower-casing.
  EXPECT_EQ(*WordJaccard("CAF\xc3\x89", "caf\xc3\xa9"), 1.0);
}

TEST(WordJaccardTest, BothEmptyIsDivisionByZero) {
  EXPECT_THAT(WordJaccard("", "").status().message(), HasSubstr("division by zero"));
  EXPECT_THAT(WordJaccard(" \n", "\xc2\xa0").status().message(), HasSubstr("division by zero"));
  EXPECT_THAT(WordJaccard("\xff", "a").status().message(), HasSubstr("UTF-8"));
}

TEST(MeanWordJaccardTest, NumpyMeanOfPairs) {
  EXPECT_EQ(*MeanWordJaccard({"a", "a b", "x"}, {"a", "a", "y"}), (1.0 + 0.5 + 0.0) / 3.0);
  EXPECT_TRUE(std::isnan(*MeanWordJaccard({}, {})));
  EXPECT_THAT(MeanWordJaccard({"a", ""}, {"a", " "}).status().message(),
              HasSubstr("pair 1: float division by zero"));
  EXPECT_FALSE(MeanWordJaccard({"a"}, {}).ok());
}

}  // namespace
}  // namespace mlebench
