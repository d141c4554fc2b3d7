#include "pycompat/pandas_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::ElementsAre;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

Column Col(Dtype dtype, std::vector<Cell> cells) { return Column{"c", dtype, std::move(cells)}; }

TEST(CellsEqualTest, NumbersCompareByValueAcrossTypes) {
  EXPECT_TRUE(CellsEqual(Cell{true}, Cell{int64_t{1}}));
  EXPECT_TRUE(CellsEqual(Cell{int64_t{1}}, Cell{1.0}));
  EXPECT_TRUE(CellsEqual(Cell{false}, Cell{0.0}));
  EXPECT_FALSE(CellsEqual(Cell{int64_t{2}}, Cell{true}));
  // int64 meeting float64 is compared as float64, as numpy promotes.
  EXPECT_TRUE(CellsEqual(Cell{int64_t{(1LL << 53) + 1}}, Cell{9007199254740992.0}));
  EXPECT_FALSE(CellsEqual(Cell{int64_t{(1LL << 53) + 1}}, Cell{int64_t{1LL << 53}}));
}

TEST(CellsEqualTest, StringsOnlyEqualStrings) {
  EXPECT_TRUE(CellsEqual(Cell{std::string("a")}, Cell{std::string("a")}));
  EXPECT_FALSE(CellsEqual(Cell{std::string("1")}, Cell{int64_t{1}}));
  EXPECT_FALSE(CellsEqual(Cell{std::string("True")}, Cell{true}));
}

TEST(CellsEqualTest, MissingEqualsNothing) {
  EXPECT_FALSE(CellsEqual(Cell{}, Cell{}));
  EXPECT_FALSE(CellsEqual(Cell{kNaN}, Cell{kNaN}));
  EXPECT_FALSE(CellsEqual(Cell{}, Cell{std::string("")}));
}

// The expected permutations below are Debian numpy 1.24's
// `np.array(values, dtype=object).argsort(kind="quicksort")` (and pandas
// 1.5.3's `sort_values` index), whose object sort is numpy 2.x's too.

TEST(NumpyObjectArgsortTest, RangesOfSixteenAreInsertionSortedSoStable) {
  std::vector<int> values;
  for (int i = 0; i < 16; ++i) values.push_back(i % 2);
  const std::vector<size_t> order =
      NumpyObjectArgsort(values.size(), [&](size_t x, size_t y) { return values[x] < values[y]; });
  EXPECT_THAT(order, ElementsAre(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15));
}

TEST(NumpyObjectArgsortTest, EqualItemsComeOutInNumpysOrder) {
  std::vector<std::string> values;
  for (int i = 0; i < 20; ++i) values.push_back(std::to_string(i % 3));
  const std::vector<size_t> order =
      NumpyObjectArgsort(values.size(), [&](size_t x, size_t y) { return values[x] < values[y]; });
  EXPECT_THAT(order,
              ElementsAre(0, 15, 12, 18, 6, 9, 3, 4, 7, 10, 13, 1, 16, 19, 8, 11, 2, 14, 17, 5));
}

TEST(NumpyObjectArgsortTest, EmptyAndSingle) {
  EXPECT_TRUE(NumpyObjectArgsort(0, [](size_t, size_t) { return false; }).empty());
  EXPECT_THAT(NumpyObjectArgsort(1, [](size_t, size_t) { return false; }), ElementsAre(0));
}

TEST(SortValuesOrderTest, RepeatedStringIdsFollowNumpyNotInputOrder) {
  std::vector<Cell> cells;
  for (int i = 0; i < 18; ++i) cells.push_back(std::string(i % 2 ? "b" : "a"));
  cells.push_back(Cell{});
  cells.push_back(std::string("a"));
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(Col(Dtype::kObject, cells));
  ASSERT_TRUE(order.ok()) << order.status();
  EXPECT_THAT(*order,
              ElementsAre(0, 16, 14, 12, 10, 8, 19, 4, 2, 6, 7, 5, 17, 11, 3, 13, 15, 1, 9, 18));
}

TEST(SortValuesOrderTest, SortingSortedRepeatedIdsStillPermutesThem) {
  std::vector<Cell> cells;
  for (int i = 0; i < 20; ++i) cells.push_back(std::string(i < 7 ? "0" : i < 14 ? "1" : "2"));
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(Col(Dtype::kObject, cells));
  ASSERT_TRUE(order.ok()) << order.status();
  EXPECT_THAT(*order,
              ElementsAre(0, 1, 2, 3, 4, 5, 6, 13, 12, 11, 9, 8, 7, 10, 18, 14, 15, 16, 17, 19));
}

TEST(SortValuesOrderTest, ObjectNumbersCompareExactlyAsPython) {
  // 2**53 + 1 > 2.0**53 == 2**53 in Python, though float64 cannot tell them apart.
  Column c = Col(Dtype::kObject, {int64_t{(1LL << 53) + 1}, 9007199254740992.0, int64_t{1LL << 53},
                                  Cell{}, -0.5, false, int64_t{-1}, 0.5, true, 1.0});
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(c);
  ASSERT_TRUE(order.ok()) << order.status();
  // -1 < -0.5 < False < 0.5 < True == 1.0 < 2**53 == 2.0**53 < 2**53 + 1; NaN last.
  EXPECT_THAT(*order, ElementsAre(6, 4, 5, 7, 8, 9, 1, 2, 0, 3));
}

TEST(SortValuesOrderTest, NumericDtypesKeepTiesInInputOrder) {
  std::vector<Cell> cells(20, Cell{2.0});
  cells[7] = Cell{1.0};
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(Col(Dtype::kFloat64, cells));
  ASSERT_TRUE(order.ok());
  EXPECT_THAT(*order,
              ElementsAre(7, 0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19));
}

TEST(SortValuesOrderTest, StringsByCodePointWithMissingLast) {
  Column c = Col(Dtype::kObject, {std::string("b"), Cell{}, std::string("B"), std::string("é"),
                                  std::string("a"), std::string("z")});
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(c);
  ASSERT_TRUE(order.ok()) << order.status();
  // "B" (0x42) < "a" < "b" < "z" < "é" (0xC3 0xA9); NaN last.
  EXPECT_THAT(*order, ElementsAre(2, 4, 0, 5, 3, 1));
}

TEST(SortValuesOrderTest, NumbersWithNaNLastAndStableTies) {
  Column c = Col(Dtype::kFloat64, {3.0, kNaN, -1.0, 3.0, 0.5});
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(c);
  ASSERT_TRUE(order.ok());
  EXPECT_THAT(*order, ElementsAre(2, 4, 0, 3, 1));
}

TEST(SortValuesOrderTest, LargeIntsSortExactly) {
  Column c = Col(Dtype::kInt64, {int64_t{(1LL << 53) + 1}, int64_t{1LL << 53}});
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(c);
  ASSERT_TRUE(order.ok());
  EXPECT_THAT(*order, ElementsAre(1, 0));
}

TEST(SortValuesOrderTest, StringsMixedWithNumbersOrBoolsCannotBeSorted) {
  EXPECT_FALSE(SortValuesOrder(Col(Dtype::kObject, {std::string("a"), int64_t{1}})).ok());
  absl::StatusOr<std::vector<size_t>> mixed =
      SortValuesOrder(Col(Dtype::kObject, {std::string("a"), true, Cell{}}));
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.status().message().find("'bool' and 'str'"), std::string::npos);
  // Bools with missing values sort fine.
  absl::StatusOr<std::vector<size_t>> bools =
      SortValuesOrder(Col(Dtype::kObject, {true, Cell{}, false}));
  ASSERT_TRUE(bools.ok());
  EXPECT_THAT(*bools, ElementsAre(2, 0, 1));
}

TEST(SortValuesOrderTest, EmptyColumn) {
  absl::StatusOr<std::vector<size_t>> order = SortValuesOrder(Col(Dtype::kObject, {}));
  ASSERT_TRUE(order.ok());
  EXPECT_TRUE(order->empty());
}

TEST(TakeCellsTest, Permutes) {
  Column c = Col(Dtype::kInt64, {int64_t{10}, int64_t{20}, int64_t{30}});
  const std::vector<size_t> order = {2, 0, 1};
  Column taken = TakeCells(c, order);
  EXPECT_EQ(taken.name, "c");
  EXPECT_EQ(taken.dtype, Dtype::kInt64);
  EXPECT_THAT(taken.cells, ElementsAre(Cell{int64_t{30}}, Cell{int64_t{10}}, Cell{int64_t{20}}));
}

TEST(SymmetricDifferenceSizeTest, CountsIdsOnOneSideOnly) {
  Column a = Col(Dtype::kObject, {std::string("x"), std::string("y"), std::string("y")});
  Column b = Col(Dtype::kObject, {std::string("y"), std::string("z"), std::string("w")});
  EXPECT_EQ(SymmetricDifferenceSize(a, b), 3u);  // {x} ^ {z, w}
  Column ints = Col(Dtype::kInt64, {int64_t{1}, int64_t{2}});
  Column floats = Col(Dtype::kFloat64, {1.0, 2.5});
  EXPECT_EQ(SymmetricDifferenceSize(ints, floats), 2u);  // 1 == 1.0; {2} ^ {2.5}
}

// The typed columns' own paths (ints, text with missing values, equal
// columns) against the cells' keys, on random ids with repeats.
TEST(SymmetricDifferenceSizeTest, TypedPathsAgreeWithCells) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = rng() % 40, m = trial % 7 == 0 ? n : rng() % 40;
    std::vector<int64_t> ints_a(n), ints_b(m);
    for (int64_t& v : ints_a) v = static_cast<int64_t>(rng() % 30) - 5;
    for (int64_t& v : ints_b) v = static_cast<int64_t>(rng() % 30) - 5;
    if (trial % 7 == 0) ints_b = ints_a;  // the same column
    TypedColumn ta = TypedColumn::Ints("id", ints_a), tb = TypedColumn::Ints("id", ints_b);
    EXPECT_EQ(SymmetricDifferenceSize(ta, tb), SymmetricDifferenceSize(ta.ToColumn(), tb.ToColumn()));

    static const std::vector<std::string> kWords = {"", "a", "b", "ab", "id1", "id10", "x"};
    std::vector<std::string_view> text_a(n), text_b(m);
    for (std::string_view& v : text_a) {
      const size_t k = rng() % (kWords.size() + 1);
      v = k == kWords.size() ? std::string_view() : std::string_view(kWords[k]);  // missing
    }
    for (std::string_view& v : text_b) {
      const size_t k = rng() % (kWords.size() + 1);
      v = k == kWords.size() ? std::string_view() : std::string_view(kWords[k]);
    }
    if (trial % 7 == 0) text_b = text_a;
    TypedColumn xa = TypedColumn::Text("id", text_a), xb = TypedColumn::Text("id", text_b);
    EXPECT_EQ(SymmetricDifferenceSize(xa, xb), SymmetricDifferenceSize(xa.ToColumn(), xb.ToColumn()))
        << "trial " << trial;
  }
  // A missing value against the empty string: NaN is not "".
  TypedColumn missing = TypedColumn::Text("id", std::vector<std::string_view>{std::string_view()});
  TypedColumn empty = TypedColumn::Text("id", std::vector<std::string_view>{std::string_view("")});
  EXPECT_EQ(SymmetricDifferenceSize(missing, empty), 2u);
}

// The radix-sorted numeric orders against std::stable_sort by value, over
// and under the size where the radix sort starts, with many ties, negative
// values, -0.0 against 0.0, wide and narrow ranges, NaN (last) or none,
// values already in order (given back as they are) or all but the last,
// numbered ids in some order (a permutation of a range, or a range with gaps
// and repeats), typed and as cells.
TEST(SortValuesOrderTest, NumericOrdersAreStableSortsByValue) {
  std::mt19937_64 rng(9);
  for (size_t n : {size_t{10}, size_t{5000}, size_t{70000}}) {
    for (int shape = 0; shape < 9; ++shape) {
      std::vector<int64_t> ints(n);
      std::vector<double> doubles(n);
      for (size_t i = 0; i < n; ++i) {
        switch (shape) {
          case 0: ints[i] = static_cast<int64_t>(rng() % 50) - 25; break;  // ties
          case 1: ints[i] = static_cast<int64_t>(rng()); break;            // full range
          case 2: ints[i] = static_cast<int64_t>(rng() % 1000000) * 1000003; break;
          case 3: ints[i] = std::numeric_limits<int64_t>::min() + static_cast<int64_t>(rng() % 3); break;
          default: ints[i] = static_cast<int64_t>(rng() % 1000) - 500;
        }
        const uint64_t r = rng() % 10;
        doubles[i] = r == 0 ? -0.0 : r == 1 ? 0.0 : r == 2 && shape < 4 ? std::nan("") : r == 3 ? -1e300
                     : shape == 0 ? static_cast<double>(rng() % 7) - 3
                                  : std::ldexp(static_cast<double>(rng() >> 11), -50) - 4096;
      }
      if (shape == 7) {  // ids 4,000,000 + 0 ... n - 1 in some order
        std::iota(ints.begin(), ints.end(), int64_t{4000000});
        std::shuffle(ints.begin(), ints.end(), rng);
      } else if (shape == 8) {  // from -n / 2 on, some missing, some twice
        for (int64_t& v : ints) v = static_cast<int64_t>(rng() % (n + n / 2)) - static_cast<int64_t>(n / 2);
      }
      if (shape == 5 || shape == 6) {  // in order (ties, -0.0 beside 0.0), or all but the last row
        std::sort(ints.begin(), ints.end());
        std::sort(doubles.begin(), doubles.end());
        if (shape == 6) {
          ints.back() = ints.front() - 1;
          doubles.back() = -2e300;
        }
      }
      std::vector<size_t> expected_ints(n);
      std::iota(expected_ints.begin(), expected_ints.end(), 0);
      std::stable_sort(expected_ints.begin(), expected_ints.end(),
                       [&](size_t x, size_t y) { return ints[x] < ints[y]; });
      std::vector<size_t> present, missing;
      for (size_t i = 0; i < n; ++i) (std::isnan(doubles[i]) ? missing : present).push_back(i);
      std::stable_sort(present.begin(), present.end(),
                       [&](size_t x, size_t y) { return doubles[x] < doubles[y]; });
      present.insert(present.end(), missing.begin(), missing.end());

      TypedColumn typed_ints = TypedColumn::Ints("v", ints);
      TypedColumn typed_doubles = TypedColumn::Doubles("v", doubles);
      EXPECT_EQ(*SortValuesOrder(typed_ints), expected_ints) << n << " " << shape;
      EXPECT_EQ(*SortValuesOrder(typed_ints.ToColumn()), expected_ints) << n << " " << shape;
      EXPECT_EQ(*SortValuesOrder(typed_doubles), present) << n << " " << shape;
      EXPECT_EQ(*SortValuesOrder(typed_doubles.ToColumn()), present) << n << " " << shape;
    }
  }
}

TEST(NumericValueTest, Conversions) {
  EXPECT_EQ(NumericValue(Cell{true}), 1.0);
  EXPECT_EQ(NumericValue(Cell{int64_t{-3}}), -3.0);
  EXPECT_TRUE(std::isnan(*NumericValue(Cell{})));
  EXPECT_FALSE(NumericValue(Cell{std::string("1")}).has_value());
}

}  // namespace
}  // namespace mlebench

namespace mlebench {
namespace {

// The radix paths (packed keys with the row index, or 16-byte items when
// the varying bits are too many) against a comparison sort, on the id shapes
// Kaggle sets use and on short, prefix-sharing, non-ASCII and tied keys.
TEST(DistinctTextArgsortTest, RadixPathsAgreeWithAComparisonSort) {
  std::mt19937_64 rng(11);
  for (int shape = 0; shape < 8; ++shape) {
    // 70,000: the two-thread passes (from 65,536 texts; and from 65,536 tied
    // rows, which the timestamps have).
    for (size_t n : {size_t{100}, size_t{5000}, size_t{30000}, size_t{70000}}) {
      std::set<std::string> distinct;
      char buf[64];
      while (distinct.size() < n) {
        switch (shape) {
          case 0:  // numbered
            std::snprintf(buf, sizeof(buf), "id%07llu", static_cast<unsigned long long>(rng() % 10000000));
            break;
          case 1:  // hex hashes
            std::snprintf(buf, sizeof(buf), "%016llx.jpg", static_cast<unsigned long long>(rng()));
            break;
          case 2: {  // short, some empty or prefixes of others
            const std::string head = std::string("abcd").substr(rng() % 2, rng() % 4);
            distinct.insert(rng() % 2 == 0 ? head : head + std::to_string(rng() % (n / 4 + 1)));
            continue;
          }
          case 3:  // bytes above 0x7F sort after ASCII
            std::snprintf(buf, sizeof(buf), "%c%c%llu", static_cast<char>(0xC3),
                          static_cast<char>(0x80 + rng() % 64), static_cast<unsigned long long>(rng() % 100000));
            if (rng() % 3 == 0) buf[0] = 'z';
            break;
          case 4:  // a long shared prefix, then ties on 8 bytes
            std::snprintf(buf, sizeof(buf), "patient_00000_%08llu_%llu",
                          static_cast<unsigned long long>(rng() % 50),
                          static_cast<unsigned long long>(rng() % 1000000));
            break;
          case 6:  // timestamps: runs that tie on 8, 16 and more bytes
            std::snprintf(buf, sizeof(buf), "20%02llu-0%llu-1%llu %02llu:%02llu:%02llu.%07llu",
                          static_cast<unsigned long long>(9 + rng() % 2),
                          static_cast<unsigned long long>(1 + rng() % 2),
                          static_cast<unsigned long long>(rng() % 3),
                          static_cast<unsigned long long>(rng() % 3),
                          static_cast<unsigned long long>(rng() % 4),
                          static_cast<unsigned long long>(rng() % 60),
                          static_cast<unsigned long long>(rng() % 10));
            break;
          case 7: {  // ties deep into NUL bytes: "a\0" and "a" alike in a zero-padded key
            std::string t(1 + rng() % 3, 'a');
            t.append(rng() % 30, '\0');
            if (rng() % 2 == 0) t.push_back(static_cast<char>(rng() % 3));
            t.append(std::to_string(rng() % (n / 8 + 1)));
            if (rng() % 2 == 0) t.append(rng() % 20, '\0');
            distinct.insert(t);
            continue;
          }
          default:  // random lengths and bytes
            for (size_t k = 0, len = rng() % 12; k <= len; ++k) {
              buf[k] = static_cast<char>(1 + rng() % 255);
              buf[k + 1] = '\0';
            }
        }
        distinct.insert(buf);
      }
      std::vector<std::string> storage(distinct.begin(), distinct.end());
      std::shuffle(storage.begin(), storage.end(), rng);
      std::vector<std::string_view> text(storage.begin(), storage.end());
      std::vector<size_t> expected(n);
      std::iota(expected.begin(), expected.end(), size_t{0});
      std::sort(expected.begin(), expected.end(),
                [&](size_t a, size_t b) { return text[a] < text[b]; });
      ASSERT_EQ(DistinctTextArgsort(text), expected) << "shape " << shape << ", " << n << " texts";
      text.push_back(text[n / 2]);  // a repeat: no distinct order
      EXPECT_TRUE(DistinctTextArgsort(text).empty()) << "shape " << shape << ", " << n << " texts";
    }
  }
}

TEST(DistinctTextArgsortTest, SortsDistinctTextsByBytesAndGivesUpOnTies) {
  // Shared 8-byte prefixes, a prefix of another text, bytes above 0x7f
  // (UTF-8: code point order) and an embedded NUL.
  const std::vector<std::string_view> text = {"abcdefghZ", "abcdefgh", "\xc3\xa9t\xc3\xa9",
                                              "abcdefghA", "",         std::string_view("a\0b", 3),
                                              "a",         "zz"};
  const std::vector<size_t> order = DistinctTextArgsort(text);
  ASSERT_EQ(order.size(), text.size());
  for (size_t k = 1; k < order.size(); ++k) EXPECT_LT(text[order[k - 1]], text[order[k]]);
  EXPECT_EQ(order.front(), 4u);  // ""
  EXPECT_TRUE(DistinctTextArgsort(std::vector<std::string_view>{"b", "a", "b"}).empty());
  EXPECT_TRUE(DistinctTextArgsort(std::vector<std::string_view>{}).empty());
}

TEST(DistinctTextArgsortTest, KeysThatDifferInAll64Bits) {
  // Every bit of the 8-byte keys varies: the packing keeps the key whole
  // (it once shifted a 64-bit word by 64, undefined; --config=ubsan found it).
  const std::string zeros(8, '\0');
  const std::vector<std::string_view> text = {"\xff\xff\xff\xff\xff\xff\xff\xff", zeros, "\x80"};
  EXPECT_EQ(DistinctTextArgsort(text), (std::vector<size_t>{1, 2, 0}));
}

TEST(SameValuesNoneMissingTest, SameStorageValuesAndRowsWithoutMissing) {
  const std::vector<int64_t> ints = {3, 1, 2};
  EXPECT_TRUE(SameValuesNoneMissing(TypedColumn::Ints("a", ints), TypedColumn::Ints("b", ints)));
  EXPECT_FALSE(SameValuesNoneMissing(TypedColumn::Ints("a", ints),
                                     TypedColumn::Ints("b", std::vector<int64_t>{3, 2, 1})));
  EXPECT_FALSE(SameValuesNoneMissing(TypedColumn::Ints("a", ints),
                                     TypedColumn::Ints("b", std::vector<int64_t>{3, 1})));
  // Equal numbers in other storage: not this function's (sorting int64 and
  // float64 may differ in ties).
  EXPECT_FALSE(SameValuesNoneMissing(TypedColumn::Ints("a", ints),
                                     TypedColumn::Doubles("b", std::vector<double>{3, 1, 2})));
  const std::vector<double> doubles = {0.5, -0.0, 2};
  EXPECT_TRUE(
      SameValuesNoneMissing(TypedColumn::Doubles("a", doubles), TypedColumn::Doubles("b", doubles)));
  // -0.0 and 0.0 are equal, but not the same bits.
  EXPECT_FALSE(SameValuesNoneMissing(TypedColumn::Doubles("a", doubles),
                                     TypedColumn::Doubles("b", std::vector<double>{0.5, 0.0, 2})));
  const std::vector<double> with_nan = {0.5, std::nan(""), 2};
  EXPECT_FALSE(
      SameValuesNoneMissing(TypedColumn::Doubles("a", with_nan), TypedColumn::Doubles("b", with_nan)));
  const std::vector<std::string_view> text = {"b", "a", ""};
  EXPECT_TRUE(SameValuesNoneMissing(TypedColumn::Text("a", text), TypedColumn::Text("b", text)));
  const std::vector<std::string_view> with_missing = {"b", std::string_view(), "a"};
  EXPECT_FALSE(SameValuesNoneMissing(TypedColumn::Text("a", with_missing),
                                     TypedColumn::Text("b", with_missing)));
  Column cells{"id", Dtype::kInt64, {Cell(int64_t{1})}};
  EXPECT_FALSE(SameValuesNoneMissing(TypedColumn::CellsView(cells), TypedColumn::CellsView(cells)));
}

// Long text columns are compared in two halves at once: a difference or a
// missing value in either half, or at the cut, is found.
TEST(SameValuesNoneMissingTest, LongTextColumns) {
  constexpr size_t kRows = 100001;
  std::vector<std::string> storage;
  for (size_t i = 0; i < kRows; ++i) storage.push_back("id" + std::to_string(i));
  const std::vector<std::string_view> text(storage.begin(), storage.end());
  EXPECT_TRUE(SameValuesNoneMissing(TypedColumn::Text("a", text), TypedColumn::Text("b", text)));
  for (size_t row : {size_t{0}, kRows / 2 - 1, kRows / 2, kRows - 1}) {
    std::vector<std::string_view> other = text;
    other[row] = "x";
    EXPECT_FALSE(SameValuesNoneMissing(TypedColumn::Text("a", text), TypedColumn::Text("b", other)))
        << row;
    other[row] = std::string_view();
    EXPECT_FALSE(SameValuesNoneMissing(TypedColumn::Text("a", other), TypedColumn::Text("b", other)))
        << row;
  }
}

}  // namespace
}  // namespace mlebench
