#include "grading/metrics/classification/log_loss.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kEps = 2.220446049250313e-16;  // numpy.finfo(float64).eps

using Vec = std::vector<double>;

std::string ErrorOf(const absl::StatusOr<double>& r) {
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(r.status().message());
}

TEST(LogLossTest, OneHotRowsPickTheTrueClassProbability) {
  const Vec y = {1, 0, 0,  //
                 0, 1, 0};
  const Vec p = {0.5, 0.25, 0.25,  //
                 0.1, 0.8,  0.1};
  EXPECT_EQ(*LogLoss(MatrixView{y, 2, 3}, MatrixView{p, 2, 3}),
            (-std::log(0.5) + -std::log(0.8)) / 2.0);
}

TEST(LogLossTest, PerfectPredictionsGiveTheClippedFloor) {
  const Vec y = {0, 1, 1, 0};
  // log(1 - eps) = -eps (to double precision), so the loss is eps, not 0.
  EXPECT_EQ(*LogLoss(MatrixView{y, 2, 2}, MatrixView{y, 2, 2}), -std::log(1.0 - kEps));
  EXPECT_GT(*LogLoss(MatrixView{y, 2, 2}, MatrixView{y, 2, 2}), 0.0);
}

TEST(LogLossTest, ZeroProbabilityIsClippedToEps) {
  const Vec y = {1, 0};
  const Vec p = {0.0, 1.0};
  EXPECT_EQ(*LogLoss(MatrixView{y, 1, 2}, MatrixView{p, 1, 2}), -std::log(kEps));
  EXPECT_NEAR(*LogLoss(MatrixView{y, 1, 2}, MatrixView{p, 1, 2}), 36.04365338911715, 1e-12);
  // Out-of-range values clip too, without an error.
  const Vec q = {1.5, -0.5};
  EXPECT_EQ(*LogLoss(MatrixView{y, 1, 2}, MatrixView{q, 1, 2}), -std::log(1.0 - kEps));
}

TEST(LogLossTest, RowsAreNotRenormalised) {
  // sklearn 1.2 divided by the row sum (giving log 3); 1.5 does not.
  const Vec y = {1, 0, 0};
  const Vec p = {0.5, 0.5, 0.5};
  EXPECT_EQ(*LogLoss(MatrixView{y, 1, 3}, MatrixView{p, 1, 3}), -std::log(0.5));
}

TEST(LogLossTest, BinaryOneDimensional) {
  // Labels {0, 1}; y_pred is P(label 1).
  EXPECT_EQ(*LogLoss(Vec{0, 1}, Vec{0.2, 0.7}), (-std::log(1.0 - 0.2) + -std::log(0.7)) / 2.0);
  // Labels {3, 7}: 7 is the positive class.
  EXPECT_EQ(*LogLoss(Vec{7, 3}, Vec{0.9, 0.9}), (-std::log(0.9) + -std::log(1.0 - 0.9)) / 2.0);
}

TEST(LogLossTest, LabelsWithAProbabilityMatrix) {
  // Three labels, sorted: 0, 1, 2 map to columns 0, 1, 2.
  const Vec y = {2, 0, 1};
  const Vec p = {0.1, 0.2, 0.7,  //
                 0.6, 0.3, 0.1,  //
                 0.2, 0.5, 0.3};
  EXPECT_EQ(*LogLoss(MatrixView{y, 3, 1}, MatrixView{p, 3, 3}),
            ((-std::log(0.7) + -std::log(0.6)) + -std::log(0.5)) / 3.0);
}

// Labels map to columns in sorted order whether they are a few classes or
// more than the few gathered in one pass (past 64 the column is sorted).
TEST(LogLossTest, ManyLabelsInAnyOrderMapToSortedColumns) {
  for (const size_t k : {size_t{3}, size_t{64}, size_t{65}, size_t{200}}) {
    Vec y, p;
    double expected_sum = 0;
    for (size_t r = 0; r < 2 * k; ++r) {
      const size_t label = (r * 37 + 11) % k;  // every label, out of order
      y.push_back(static_cast<double>(label) * 10 - 5);
      for (size_t c = 0; c < k; ++c) p.push_back(c == label ? 0.5 : 0.5 / (k - 1));
      expected_sum += -std::log(0.5);
    }
    EXPECT_NEAR(*LogLoss(MatrixView{y, 2 * k, 1}, MatrixView{p, 2 * k, k}),
                expected_sum / (2 * k), 1e-12)
        << k << " labels";
    // The one-label message names the label, on either path.
    const Vec same(k + 70, 3.0);
    EXPECT_NE(ErrorOf(LogLoss(MatrixView{same, same.size(), 1},
                              MatrixView{Vec(same.size() * 2, 0.5), same.size(), 2}))
                  .find("only one label (3)"),
              std::string::npos);
  }
}

TEST(LogLossTest, IndicatorValuesAreUsedAsTheyAre) {
  // {0, 2} is still an indicator matrix to sklearn; xlogy(2, p) = 2 log p.
  const Vec y = {2, 0};
  const Vec p = {0.5, 0.5};
  EXPECT_EQ(*LogLoss(MatrixView{y, 1, 2}, MatrixView{p, 1, 2}), -(2 * std::log(0.5)));
}

TEST(LogLossTest, Errors) {
  const Vec y = {1, 0, 0, 0, 1, 0};
  const Vec p = {0.2, 0.3, 0.5, 0.3, 0.3, 0.4};
  EXPECT_EQ(ErrorOf(LogLoss(Vec{1, 1}, Vec{0.1, 0.2})),
            "y_true contains only one label (1). Please provide the true labels explicitly "
            "through the labels argument.");
  EXPECT_EQ(ErrorOf(LogLoss(MatrixView{y, 2, 3}, MatrixView{Vec{0.1, 0.9, 0.5, 0.5}, 2, 2})),
            "y_true and y_pred contain different number of classes 3, 2. Please provide the true "
            "labels explicitly through the labels argument. Classes found in y_true: [0 1 2]");
  EXPECT_EQ(ErrorOf(LogLoss(MatrixView{y, 2, 3}, MatrixView{Vec{0.1, 0.4, 0.5}, 1, 3})),
            "Found input variables with inconsistent numbers of samples: [1, 2]");
  EXPECT_EQ(ErrorOf(LogLoss(MatrixView{Vec{1, 0, 2, 0, 1, 0}, 2, 3}, MatrixView{p, 2, 3})),
            "Multioutput target data is not supported with label binarization");
  EXPECT_EQ(ErrorOf(LogLoss(MatrixView{Vec{1, 0, 0.5, 0, 1, 0}, 2, 3}, MatrixView{p, 2, 3})),
            "Multioutput target data is not supported with label binarization");
  EXPECT_EQ(ErrorOf(LogLoss(MatrixView{Vec{1, 0, kNaN, 0, 1, 0}, 2, 3}, MatrixView{p, 2, 3})),
            "Input y contains NaN.");
  EXPECT_EQ(
      ErrorOf(LogLoss(MatrixView{y, 2, 3}, MatrixView{Vec{0.2, 0.3, kNaN, 0.3, 0.3, 0.4}, 2, 3})),
      "Input contains NaN.");
  EXPECT_EQ(ErrorOf(LogLoss(MatrixView{Vec{}, 0, 3}, MatrixView{Vec{}, 0, 3})),
            "Found array with 0 sample(s) (shape=(0, 3)) while a minimum of 1 is required.");
  EXPECT_EQ(ErrorOf(LogLoss(Vec{}, Vec{})),
            "Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is required.");
  EXPECT_EQ(ErrorOf(LogLoss(Vec{0, 1, 2}, Vec{0.1, 0.2, 0.3})),
            "y_true and y_pred contain different number of classes 3, 2. Please provide the true "
            "labels explicitly through the labels argument. Classes found in y_true: [0 1 2]");
  EXPECT_NE(ErrorOf(LogLoss(Vec{0.5, 1.5}, Vec{0.1, 0.2})).find("Unknown label type"),
            std::string::npos);
  EXPECT_FALSE(LogLoss(MatrixView{y, 2, 2}, MatrixView{p, 2, 3}).ok());  // size != rows * cols
}

TEST(LogLossTest, AllZeroIndicatorRowsCostNothing) {
  const Vec y = {0, 0, 0, 0};
  const Vec p = {0.1, 0.9, 0.5, 0.5};
  EXPECT_EQ(*LogLoss(MatrixView{y, 2, 2}, MatrixView{p, 2, 2}), 0.0);
}

}  // namespace
}  // namespace mlebench
