#include "base/parallel.h"

#include <cstddef>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

// Each row of [0, n) is visited once, by the half that owns it: both halves
// when parallel (the first n / 2 rows in half 0), one call of half 0
// otherwise.
TEST(ForEachHalf, VisitsEveryRowOnceByItsHalf) {
  for (const size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{7}, size_t{1000}}) {
    for (const bool parallel : {false, true}) {
      std::vector<int> visits(n, 0), half_of(n, -1);
      int calls[2] = {0, 0};
      ForEachHalf(n, parallel, [&](size_t half, size_t begin, size_t end) {
        ++calls[half];
        for (size_t i = begin; i < end; ++i) {
          ++visits[i];
          half_of[i] = static_cast<int>(half);
        }
      });
      EXPECT_EQ(calls[0], 1) << n << " " << parallel;
      EXPECT_EQ(calls[1], parallel ? 1 : 0) << n << " " << parallel;
      for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(visits[i], 1) << i;
        EXPECT_EQ(half_of[i], parallel && i >= n / 2 ? 1 : 0) << i;
      }
    }
  }
}

}  // namespace
}  // namespace mlebench
