#include "grading/metrics/text/levenshtein.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "pycompat/python_str.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

// The textbook O(m * n) dynamic programme, as the oracle.
size_t NaiveDistance(std::u32string_view a, std::u32string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

TEST(LevenshteinTest, KnownDistances) {
  EXPECT_EQ(*Utf8LevenshteinDistance("", ""), 0u);
  EXPECT_EQ(*Utf8LevenshteinDistance("", "abc"), 3u);
  EXPECT_EQ(*Utf8LevenshteinDistance("abc", ""), 3u);
  EXPECT_EQ(*Utf8LevenshteinDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(*Utf8LevenshteinDistance("lewenstein", "levenshtein"), 2u);
  EXPECT_EQ(*Utf8LevenshteinDistance("flaw", "lawn"), 2u);
  EXPECT_EQ(*Utf8LevenshteinDistance("abc", "abc"), 0u);
  EXPECT_EQ(*Utf8LevenshteinDistance("InChI=1S/H2O/h1H2", "InChI=1S/CH4/h1H4"), 4u);
}

TEST(LevenshteinTest, CountsCodePointsNotBytes) {
  // "é" is two bytes, "😀" four: each is one substitution or insertion.
  EXPECT_EQ(*Utf8LevenshteinDistance("caf\xc3\xa9", "cafe"), 1u);
  EXPECT_EQ(*Utf8LevenshteinDistance("\xf0\x9f\x98\x80", ""), 1u);
  EXPECT_EQ(*Utf8LevenshteinDistance("a\xf0\x9f\x98\x80"
                                     "b",
                                     "ab"),
            1u);
  // Two code points sharing their first UTF-8 bytes differ as wholes.
  EXPECT_EQ(*Utf8LevenshteinDistance("\xc3\xa9", "\xc3\xa8"), 1u);
}

TEST(LevenshteinTest, InvalidUtf8IsAnError) {
  EXPECT_EQ(Utf8LevenshteinDistance("\xff", "a").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Utf8LevenshteinDistance("a", "\xc3").status().code(),
            absl::StatusCode::kInvalidArgument);
  // An encoded surrogate (U+D800), which Python's codec rejects.
  EXPECT_FALSE(Utf8LevenshteinDistance("\xed\xa0\x80", "a").ok());
}

// Random code point sequences over small alphabets (many matches) and large
// ones (elements >= 256), lengths across the one-word / many-word boundary.
TEST(LevenshteinTest, MatchesNaiveDynamicProgrammeOnRandomSequences) {
  std::mt19937_64 rng(7);
  const std::vector<size_t> lengths = {0, 1, 2, 5, 31, 63, 64, 65, 100, 127, 128, 129, 200, 300};
  const std::vector<std::u32string> alphabets = {U"ab", U"abcd", U"ACGT\u00e9\u4e2d",
                                                 U"x\U0001F600\u0100\u0101\u00ff"};
  int cases = 0;
  for (int round = 0; round < 1500; ++round) {
    const std::u32string &alphabet = alphabets[rng() % alphabets.size()];
    auto random_text = [&](size_t length) {
      std::u32string text;
      for (size_t i = 0; i < length; ++i) text.push_back(alphabet[rng() % alphabet.size()]);
      return text;
    };
    const size_t m = round < 400 ? lengths[rng() % lengths.size()] : rng() % 150;
    std::u32string a = random_text(m);
    std::u32string b;
    if (rng() % 2 == 0) {
      b = random_text(lengths[rng() % lengths.size()]);
    } else {
      // A few edits of `a`: small distances, long shared runs.
      b = a;
      for (int e = static_cast<int>(rng() % 6); e > 0; --e) {
        const size_t at = b.empty() ? 0 : rng() % b.size();
        switch (rng() % 3) {
          case 0:
            b.insert(b.begin() + at, alphabet[rng() % alphabet.size()]);
            break;
          case 1:
            if (!b.empty()) b.erase(b.begin() + at);
            break;
          default:
            if (!b.empty()) b[at] = alphabet[rng() % alphabet.size()];
        }
      }
    }
    const size_t expected = NaiveDistance(a, b);
    ASSERT_EQ(LevenshteinDistance(a, b), expected) << "round " << round;
    ASSERT_EQ(LevenshteinDistance(b, a), expected) << "round " << round;
    ASSERT_EQ(*Utf8LevenshteinDistance(EncodeUtf8(a), EncodeUtf8(b)), expected);
    ++cases;
  }
  EXPECT_EQ(cases, 1500);
}

TEST(LevenshteinTest, LongTexts) {
  const std::u32string a(2000, U'a');
  std::u32string b(1500, U'a');
  b += std::u32string(700, U'b');
  EXPECT_EQ(LevenshteinDistance(a, b), NaiveDistance(a, b));
  EXPECT_EQ(LevenshteinDistance(a, U""), 2000u);
}

TEST(LevenshteinTest, MeanOfDistances) {
  EXPECT_EQ(*MeanLevenshteinDistance({"abc", "kitten", ""}, {"abc", "sitting", "xy"}), 5.0 / 3.0);
  EXPECT_TRUE(std::isnan(*MeanLevenshteinDistance({}, {})));
  EXPECT_EQ(MeanLevenshteinDistance({"a"}, {}).status().code(), absl::StatusCode::kInvalidArgument);
  absl::StatusOr<double> invalid = MeanLevenshteinDistance({"a", "b"}, {"a", "\xff"});
  ASSERT_FALSE(invalid.ok());
  EXPECT_NE(std::string(invalid.status().message()).find("row 1"), std::string::npos);
}

// Above 16,384 rows the distances are summed on two threads: the same mean,
// and the first invalid row named, even in the second half.
TEST(LevenshteinTest, MeanOfManyDistances) {
  std::vector<std::string> storage_a, storage_b;
  uint64_t sum = 0;
  for (int i = 0; i < 40000; ++i) {
    storage_a.push_back(std::string(i % 9, 'a') + (i % 2 == 0 ? "\xc3\xa9" : "b"));
    storage_b.push_back(std::string(i % 5, 'a'));
  }
  std::vector<std::string_view> a(storage_a.begin(), storage_a.end());
  std::vector<std::string_view> b(storage_b.begin(), storage_b.end());
  for (size_t i = 0; i < a.size(); ++i) sum += *Utf8LevenshteinDistance(a[i], b[i]);
  EXPECT_EQ(*MeanLevenshteinDistance(a, b), static_cast<double>(sum) / a.size());
  b[39000] = "\xff";
  b[30000] = "\xc3";
  absl::StatusOr<double> invalid = MeanLevenshteinDistance(a, b);
  ASSERT_FALSE(invalid.ok());
  EXPECT_NE(std::string(invalid.status().message()).find("row 30000:"), std::string::npos)
      << invalid.status();
}

// The mean over many rows, as the grader computes it (ASCII rows two at a
// time, others one at a time, two threads from 16,384 rows), against the
// naive distance of each row: short and long texts either side of one
// word, empty ones, rows that are not ASCII between ASCII ones, odd counts.
TEST(LevenshteinTest, MeanMatchesTheNaiveDistanceRowByRow) {
  std::mt19937_64 rng(11);
  const std::vector<std::u32string> alphabets = {U"ab", U"CHNOS0123456789/-,()", U"ab\u00e9"};
  const auto random_text = [&](const std::u32string &alphabet, size_t length) {
    std::u32string text;
    for (size_t i = 0; i < length; ++i) text.push_back(alphabet[rng() % alphabet.size()]);
    return text;
  };
  for (const size_t rows : {size_t{1}, size_t{2}, size_t{3}, size_t{7}, size_t{1001},
                            size_t{20001}}) {
    std::vector<std::string> truths, predictions;
    uint64_t sum = 0;
    for (size_t i = 0; i < rows; ++i) {
      // Mostly ASCII (two of three alphabets), every eighth row maybe not.
      const std::u32string &alphabet = alphabets[i % 8 == 0 ? rng() % 3 : rng() % 2];
      const size_t shared = rng() % 3 == 0 ? 0 : rng() % 40;  // a common prefix
      const std::u32string prefix = random_text(alphabet, shared);
      const std::u32string a = prefix + random_text(alphabet, rng() % 100);
      const std::u32string b = prefix + random_text(alphabet, rng() % 100);
      if (rows <= 1001) sum += NaiveDistance(a, b);
      truths.push_back(EncodeUtf8(a));
      predictions.push_back(EncodeUtf8(b));
    }
    std::vector<std::string_view> t(truths.begin(), truths.end());
    std::vector<std::string_view> p(predictions.begin(), predictions.end());
    if (rows > 1001) {  // the naive programme is slow: row by row instead
      for (size_t i = 0; i < rows; ++i) sum += *Utf8LevenshteinDistance(t[i], p[i]);
    }
    EXPECT_EQ(*MeanLevenshteinDistance(t, p), static_cast<double>(sum) / rows) << rows << " rows";
    // An invalid row is named whether it would have been first or second of
    // two ASCII rows.
    if (rows >= 7) {
      for (const size_t bad : {size_t{4}, size_t{5}, rows - 1}) {
        std::vector<std::string_view> broken = p;
        broken[bad] = "\xff";
        const absl::StatusOr<double> invalid = MeanLevenshteinDistance(t, broken);
        ASSERT_FALSE(invalid.ok());
        EXPECT_NE(std::string(invalid.status().message()).find(absl::StrCat("row ", bad, ":")),
                  std::string::npos)
            << invalid.status();
      }
    }
  }
}

}  // namespace
}  // namespace mlebench
