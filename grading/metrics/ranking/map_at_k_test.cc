#include "grading/metrics/ranking/map_at_k.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/table.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using Labels = std::vector<std::string>;

double Ap(std::set<std::string> actual, Labels predicted, int k = 5) {
  return AveragePrecisionAtK(actual, predicted, k);
}

TEST(AveragePrecisionAtKTest, HitPositions) {
  EXPECT_EQ(Ap({"a"}, {"a", "b", "c", "d", "e"}), 1.0);
  EXPECT_EQ(Ap({"a"}, {"b", "a", "c", "d", "e"}), 0.5);
  EXPECT_EQ(Ap({"a"}, {"b", "c", "d", "e", "a"}), 0.2);
  EXPECT_EQ(Ap({"a"}, {"b", "c", "d", "e", "f", "a"}), 0.0);  // past k
  EXPECT_EQ(Ap({"a"}, {"b"}), 0.0);
  // Two true labels, hits at 1 and 3: (1/1 + 2/3) / 2.
  EXPECT_DOUBLE_EQ(Ap({"a", "b"}, {"a", "x", "b"}), (1.0 + 2.0 / 3.0) / 2.0);
  // More true labels than k: divided by k.
  EXPECT_EQ(Ap({"a", "b", "c"}, {"a", "b"}, 2), 1.0);
}

TEST(AveragePrecisionAtKTest, RepeatsCountOnceButTakePositions) {
  EXPECT_EQ(Ap({"a"}, {"a", "a", "a", "a", "a"}), 1.0);
  // The repeat of x pushes a to position 3.
  EXPECT_DOUBLE_EQ(Ap({"a"}, {"x", "x", "a"}), 1.0 / 3.0);
  // A repeated hit is not a second hit: (1/1) / 2.
  EXPECT_EQ(Ap({"a", "b"}, {"a", "a"}), 0.5);
}

TEST(AveragePrecisionAtKTest, ShortAndEmptyLists) {
  EXPECT_EQ(Ap({"a"}, {}), 0.0);
  EXPECT_EQ(Ap({}, {"a"}), 0.0);
  EXPECT_EQ(Ap({""}, {""}), 1.0);  // an empty label is a label
}

TEST(MeanAveragePrecisionAtKTest, MeanOverRows) {
  absl::StatusOr<double> map =
      MeanAveragePrecisionAtK({{"a"}, {"b"}, {"c"}, {"d"}}, {{"a"}, {"x", "b"}, {"x"}, {"d"}}, 5);
  ASSERT_TRUE(map.ok());
  EXPECT_EQ(*map, (1.0 + 0.5 + 0.0 + 1.0) / 4.0);
}

TEST(MeanAveragePrecisionAtKTest, PairsRowsAsZip) {
  // The shorter list decides; no pairs is NaN (np.mean of nothing).
  EXPECT_EQ(*MeanAveragePrecisionAtK({{"a"}, {"b"}}, {{"a"}}, 5), 1.0);
  EXPECT_EQ(*MeanAveragePrecisionAtK({{"a"}}, {{"a"}, {"b"}}, 5), 1.0);
  EXPECT_TRUE(std::isnan(*MeanAveragePrecisionAtK({}, {}, 5)));
  EXPECT_TRUE(std::isnan(*MeanAveragePrecisionAtK({{"a"}}, {}, 5)));
}

TEST(MeanAveragePrecisionAtKTest, KMustBePositive) {
  EXPECT_FALSE(MeanAveragePrecisionAtK({{"a"}}, {{"a"}}, 0).ok());
  EXPECT_FALSE(MeanAveragePrecisionAtK({{"a"}}, {{"a"}}, -1).ok());
}

TEST(SplitOnSpaceTest, LikePythonSplitOnOneSpace) {
  EXPECT_EQ(SplitOnSpace("a b c"), (Labels{"a", "b", "c"}));
  EXPECT_EQ(SplitOnSpace("a  b"), (Labels{"a", "", "b"}));
  EXPECT_EQ(SplitOnSpace(" a "), (Labels{"", "a", ""}));
  EXPECT_EQ(SplitOnSpace(""), (Labels{""}));
  EXPECT_EQ(SplitOnSpace("a\tb"), (Labels{"a\tb"}));  // only spaces split
}

TEST(LabelListsTest, CellsAsPandasStr) {
  Column ints{.name = "hotel_id", .dtype = Dtype::kInt64, .cells = {int64_t{7}, int64_t{12}}};
  EXPECT_EQ(LabelLists(ints), (std::vector<Labels>{{"7"}, {"12"}}));
  Column floats{.name = "hotel_id", .dtype = Dtype::kFloat64, .cells = {7.0, Cell{}}};
  EXPECT_EQ(LabelLists(floats), (std::vector<Labels>{{"7.0"}, {"nan"}}));
  Column text{.name = "Id", .dtype = Dtype::kObject, .cells = {std::string("a b a"), true}};
  EXPECT_EQ(LabelLists(text), (std::vector<Labels>{{"a", "b", "a"}, {"True"}}));
  EXPECT_EQ(LabelSets(text), (std::vector<std::set<std::string>>{{"a", "b"}, {"True"}}));
}

Column Texts(std::vector<Cell> cells) {
  return Column{.name = "id", .dtype = Dtype::kObject, .cells = std::move(cells)};
}

TEST(SameIdSetsTest, ComparesDistinctValues) {
  EXPECT_TRUE(SameIdSets(Texts({"a", "b"}), Texts({"b", "a"})));
  EXPECT_TRUE(SameIdSets(Texts({"a", "a", "b"}), Texts({"b", "a"})));  // sets, not lengths
  EXPECT_FALSE(SameIdSets(Texts({"a", "c"}), Texts({"b", "a"})));
  EXPECT_FALSE(SameIdSets(Texts({"a", Cell{}}), Texts({"b", "a"})));
}

TEST(MapAtKAlignedOnIdsTest, PairsRowsById) {
  const Column answer_ids = Texts({"b", "a"});
  const Column answer_labels = Texts({"x", "y z"});
  absl::StatusOr<double> map = MapAtKAlignedOnIds(Texts({"a", "b"}), Texts({"z y", "q x"}),
                                                  answer_ids, answer_labels, 5);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(*map, (1.0 + 0.5) / 2.0);
  // Preconditions: matching ids and lengths; unique answer ids.
  EXPECT_FALSE(
      MapAtKAlignedOnIds(Texts({"a", "c"}), Texts({"x", "x"}), answer_ids, answer_labels, 5).ok());
  EXPECT_EQ(MapAtKAlignedOnIds(Texts({"a", "a"}), Texts({"x", "x"}), Texts({"a", "a"}),
                               Texts({"x", "x"}), 5)
                .status()
                .code(),
            absl::StatusCode::kFailedPrecondition);
}

// Large enough for the rows to be split over two threads: the same score,
// bit for bit, as MeanAveragePrecisionAtK on the rows paired by hand, with the
// submission in the answers' order and shuffled.
TEST(MapAtKAlignedOnIdsTest, ManyRowsMatchTheRowByRowMean) {
  const size_t n = 100000;
  std::mt19937_64 rng(3);
  std::vector<std::string> ids(n), truths(n), guesses(n);
  for (size_t i = 0; i < n; ++i) {
    ids[i] = absl::StrCat("img", (i * 7919) % n);
    truths[i] = absl::StrCat("w", rng() % 50);
    guesses[i] = absl::StrCat("w", rng() % 50, " w", rng() % 50, " ", truths[i], " w", rng() % 50);
  }
  // Upstream's pairing: both sorted by id (ids are distinct).
  std::vector<size_t> by_id(n);
  std::iota(by_id.begin(), by_id.end(), 0);
  std::sort(by_id.begin(), by_id.end(), [&](size_t a, size_t b) { return ids[a] < ids[b]; });
  std::vector<std::set<std::string>> actual;
  std::vector<std::vector<std::string>> predicted;
  for (size_t row : by_id) {
    actual.push_back({truths[row]});
    predicted.push_back(SplitOnSpace(guesses[row]));
  }
  const double expected = *MeanAveragePrecisionAtK(actual, predicted, 5);

  std::vector<Cell> id_cells, truth_cells, guess_cells;
  for (size_t i = 0; i < n; ++i) {
    id_cells.push_back(ids[i]);
    truth_cells.push_back(truths[i]);
    guess_cells.push_back(guesses[i]);
  }
  const Column answer_ids{"Image", Dtype::kObject, id_cells};
  const Column answer_labels{"Id", Dtype::kObject, truth_cells};
  absl::StatusOr<double> same_order = MapAtKAlignedOnIds(
      answer_ids, Column{"Id", Dtype::kObject, guess_cells}, answer_ids, answer_labels, 5);
  ASSERT_TRUE(same_order.ok()) << same_order.status();
  EXPECT_EQ(*same_order, expected);

  std::vector<size_t> shuffled(n);
  std::iota(shuffled.begin(), shuffled.end(), 0);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  std::vector<Cell> shuffled_ids, shuffled_guesses;
  for (size_t row : shuffled) {
    shuffled_ids.push_back(ids[row]);
    shuffled_guesses.push_back(guesses[row]);
  }
  absl::StatusOr<double> reordered =
      MapAtKAlignedOnIds(Column{"Image", Dtype::kObject, shuffled_ids},
                         Column{"Id", Dtype::kObject, shuffled_guesses}, answer_ids, answer_labels, 5);
  ASSERT_TRUE(reordered.ok()) << reordered.status();
  EXPECT_EQ(*reordered, expected);
}

}  // namespace
}  // namespace mlebench
