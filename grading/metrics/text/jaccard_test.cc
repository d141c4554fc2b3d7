#include "grading/metrics/text/jaccard.h"

#include <cmath>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gmock/gmock.h"
#include "pycompat/numpy_sum.h"
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

// ASCII texts against a plain oracle (lower-case, split on Python's ASCII
// whitespace, std::set of strings): words sharing their first eight bytes,
// of eight bytes exactly, differing in case or only in length, and words at
// the very end of a text.
TEST(WordJaccardTest, AsciiWordSetsAgainstStringSets) {
  const std::vector<std::string> vocabulary = {
      "a",         "A",         "ab",         "abcdefg",    "abcdefgh",  "ABCDEFGH", "abcdefghi",
      "abcdefghj", "abcdefgh1", "abcdefghij", "abcdefghiJ", "x.y!",      "12345678", "123456789",
      "abcdefgh\x01", "longer-than-sixteen-bytes", "longer-than-sixteen-bytez"};
  const std::vector<std::string> spaces = {" ", "  ", "\t", "\n", "\x1c", "\x1f", "\r\n"};
  const auto oracle = [](const std::string& text) {
    std::set<std::string> words;
    std::string word;
    for (const char c : text + " ") {
      const unsigned char u = static_cast<unsigned char>(c);
      if ((u >= 9 && u <= 13) || (u >= 28 && u <= 32)) {
        if (!word.empty()) words.insert(word);
        word.clear();
      } else {
        word.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
      }
    }
    return words;
  };
  std::mt19937_64 rng(3);
  const auto random_text = [&] {
    std::string text = rng() % 3 == 0 ? spaces[rng() % spaces.size()] : "";
    for (int w = static_cast<int>(rng() % 7); w > 0; --w) {
      text += vocabulary[rng() % vocabulary.size()];
      if (w > 1 || rng() % 2 == 0) text += spaces[rng() % spaces.size()];
    }
    return text;
  };
  for (int round = 0; round < 5000; ++round) {
    const std::string a = random_text(), b = random_text();
    const std::set<std::string> words_a = oracle(a), words_b = oracle(b);
    size_t common = 0;
    for (const std::string& word : words_a) common += words_b.count(word);
    const size_t total = words_a.size() + words_b.size() - common;
    const absl::StatusOr<double> score = WordJaccard(a, b);
    if (total == 0) {
      EXPECT_FALSE(score.ok());
      continue;
    }
    ASSERT_TRUE(score.ok()) << score.status();
    EXPECT_EQ(*score, static_cast<double>(common) / static_cast<double>(total))
        << "'" << a << "' vs '" << b << "'";
  }
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

// Above 16,384 pairs the pairs are scored on two threads: the same mean as
// pair by pair, and the first failing pair named, even in the second half.
TEST(MeanWordJaccardTest, LargeInputsAsPairByPair) {
  std::vector<std::string> storage_a, storage_b;
  for (int i = 0; i < 40000; ++i) {
    storage_a.push_back("w" + std::to_string(i % 7) + " x" + std::to_string(i % 3));
    storage_b.push_back(i % 5 == 0 ? std::string("W0 \xc3\xa9") : "x" + std::to_string(i % 4));
  }
  std::vector<std::string_view> a(storage_a.begin(), storage_a.end());
  std::vector<std::string_view> b(storage_b.begin(), storage_b.end());
  std::vector<double> one_by_one;
  for (size_t i = 0; i < a.size(); ++i) one_by_one.push_back(*WordJaccard(a[i], b[i]));
  const absl::StatusOr<double> mean = MeanWordJaccard(a, b);
  ASSERT_TRUE(mean.ok()) << mean.status();
  EXPECT_EQ(*mean, NumpyMean(one_by_one));
  // In another order: the mean sums in it, an error names the position.
  std::vector<size_t> order(a.size());
  std::vector<double> reordered;
  for (size_t i = 0; i < a.size(); ++i) {
    order[i] = (i * 7919) % a.size();
    reordered.push_back(one_by_one[order[i]]);
  }
  EXPECT_EQ(*MeanWordJaccard(a, b, order), NumpyMean(reordered));
  a[order[12345]] = "";
  b[order[12345]] = "";
  a[order[100]] = "\xff";
  EXPECT_THAT(MeanWordJaccard(a, b, order).status().message(),
              HasSubstr("pair 100: text is not valid UTF-8"));
  a[order[100]] = "x";
  EXPECT_THAT(MeanWordJaccard(a, b, order).status().message(),
              HasSubstr("pair 12345: float division by zero"));
  EXPECT_FALSE(MeanWordJaccard(a, b, std::vector<size_t>{0}).ok());
  a[order[12345]] = "y";
  a[30001] = "";
  b[30001] = " ";
  a[35000] = "\xff";
  EXPECT_THAT(MeanWordJaccard(a, b).status().message(),
              HasSubstr("pair 30001: float division by zero"));
  a[25000] = "\xff";
  EXPECT_THAT(MeanWordJaccard(a, b).status().message(), HasSubstr("pair 25000: text is not valid UTF-8"));
}

}  // namespace
}  // namespace mlebench
