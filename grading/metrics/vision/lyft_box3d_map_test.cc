#include "grading/metrics/vision/lyft_box3d_map.h"

#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

// A box "score x y z width length height yaw name" as parse_row reads it.
LyftBox Box(const std::string& text) {
  absl::StatusOr<std::vector<LyftBox>> boxes = ParseLyftPredictionString(text);
  EXPECT_TRUE(boxes.ok()) << boxes.status();
  EXPECT_EQ(boxes->size(), 1u);
  return boxes->front();
}

double Score(const std::vector<LyftBox>& truths, const std::vector<LyftBox>& predictions) {
  absl::StatusOr<double> score = LyftMeanAveragePrecision({LyftSample{truths, predictions}});
  EXPECT_TRUE(score.ok()) << score.status();
  return score.ok() ? *score : -1;
}

absl::Status Error(const std::vector<LyftBox>& truths, const std::vector<LyftBox>& predictions) {
  return LyftMeanAveragePrecision({LyftSample{truths, predictions}}).status();
}

const double kPi = std::acos(-1.0);

TEST(ParseLyftPredictionStringTest, ReadsBoxesAndQuaternion) {
  absl::StatusOr<std::vector<LyftBox>> boxes =
      ParseLyftPredictionString("0.5 1 2 3 4 5 6 1.5 car 1e0 -1 -2 -3 0.1 0.2 0.3 0 bus");
  ASSERT_TRUE(boxes.ok()) << boxes.status();
  ASSERT_EQ(boxes->size(), 2u);
  const LyftBox& car = (*boxes)[0];
  EXPECT_EQ(car.score, 0.5);
  EXPECT_EQ(car.center_x, 1);
  EXPECT_EQ(car.center_y, 2);
  EXPECT_EQ(car.center_z, 3);
  EXPECT_EQ(car.width, 4);
  EXPECT_EQ(car.length, 5);
  EXPECT_EQ(car.height, 6);
  EXPECT_EQ(car.name, "car");
  EXPECT_EQ(car.rotation[0], std::cos(0.75));
  EXPECT_EQ(car.rotation[1], 0.0);
  EXPECT_EQ(car.rotation[2], 0.0);
  EXPECT_EQ(car.rotation[3], std::sin(0.75));
  EXPECT_EQ((*boxes)[1].name, "bus");
  EXPECT_EQ((*boxes)[1].score, 1.0);
  // A zero yaw of either sign is `radians or 0.0`: the identity, +0.0.
  const LyftBox negative_zero = Box("1 0 0 0 1 1 1 -0.0 car");
  EXPECT_EQ(negative_zero.rotation[0], 1.0);
  EXPECT_FALSE(std::signbit(negative_zero.rotation[3]));
}

TEST(ParseLyftPredictionStringTest, BlankTextHasNoBoxes) {
  for (const std::string text : {"", " ", "  \t\n", "\xc2\xa0", "\xe3\x80\x80 "}) {
    absl::StatusOr<std::vector<LyftBox>> boxes = ParseLyftPredictionString(text);
    ASSERT_TRUE(boxes.ok()) << boxes.status();
    EXPECT_TRUE(boxes->empty());
  }
}

TEST(ParseLyftPredictionStringTest, SplitsOnSingleSpaces) {
  // Doubled or leading spaces make empty tokens: a wrong count, or "" for float().
  EXPECT_FALSE(ParseLyftPredictionString("1 0 0 0 1 1 1 0  car").ok());
  EXPECT_FALSE(ParseLyftPredictionString(" 1 0 0 0 1 1 1 0 car").ok());
  EXPECT_FALSE(ParseLyftPredictionString("1 0 0 0 1 1 1 0 car 1 0 0 0 1 1 1 0").ok());
  EXPECT_FALSE(ParseLyftPredictionString("1 0  0 1 1 1 0 car").ok());
  // A tab is not a separator: "0\t0" is one token float() rejects.
  EXPECT_FALSE(ParseLyftPredictionString("1 0\t0 0 1 1 1 0 car x").ok());
  // An empty name is a name (trailing space); float() strips whitespace.
  EXPECT_EQ(Box("1 0 0 0 1 1 1 0 ").name, "");
  EXPECT_EQ(Box("1 \t0\n 0 0 1 1 1 0 car").center_x, 0.0);
  EXPECT_EQ(Box("1 1_0 0 0 1 1 1 0 car").center_x, 10.0);
  absl::StatusOr<std::vector<LyftBox>> bad = ParseLyftPredictionString("x 0 0 0 1 1 1 0 car");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("could not convert string to float: 'x'"),
            std::string::npos);
  EXPECT_FALSE(ParseLyftPredictionString("1 0 0 0 1 1 1 0 \xff").ok());  // not UTF-8
}

TEST(ParseLyftPredictionStringTest, InfiniteYawIsRejectedNaNIsNot) {
  EXPECT_FALSE(ParseLyftPredictionString("1 0 0 0 1 1 1 inf car").ok());
  EXPECT_FALSE(ParseLyftPredictionString("1 0 0 0 1 1 1 -Infinity car").ok());
  const LyftBox nan_yaw = Box("1 0 0 0 1 1 1 nan car");
  EXPECT_TRUE(std::isnan(nan_yaw.rotation[0]));
  EXPECT_TRUE(std::isnan(nan_yaw.rotation[3]));
  // Other infinities and NaNs parse; Box3D decides later.
  EXPECT_TRUE(ParseLyftPredictionString("nan inf 0 nan 1 -1 0 0 car").ok());
}

TEST(LyftMeanAveragePrecisionTest, IdenticalBoxesScoreOne) {
  const std::vector<LyftBox> truths = {Box("1 10 20 1 2 4 1.5 0.3 car"),
                                       Box("1 30 20 1 2 4 1.5 -2 car"),
                                       Box("1 10 40 1 1 1 1 1 pedestrian")};
  EXPECT_EQ(Score(truths, truths), 1.0);
}

TEST(LyftMeanAveragePrecisionTest, RotatedSquareOverlapsByOneOverSqrtTwo) {
  // A 2x2 square and the same square turned by 45 degrees: intersection
  // 8*sqrt(2) - 8, IoU 1/sqrt(2) = 0.7071: a match at 0.5 .. 0.7 only.
  const LyftBox truth = Box("1 0 0 0 2 2 1 0 car");
  LyftBox turned = Box("1 0 0 0 2 2 1 0.7853981633974483 car");
  EXPECT_NEAR(Score({truth}, {turned}), 0.5, 1e-15);
  // Turning by a right angle maps the square onto itself.
  EXPECT_NEAR(Score({truth}, {Box("1 0 0 0 2 2 1 " + std::to_string(kPi / 2) + " car")}), 1.0,
              1e-15);
}

TEST(LyftMeanAveragePrecisionTest, ThresholdIsStrict) {
  // Same ground square, heights 2 and 1 on the same floor: IoU 1 / 2 exactly,
  // which is not above 0.5.
  EXPECT_EQ(Score({Box("1 0 0 1 1 1 2 0 car")}, {Box("1 0 0 0.5 1 1 1 0 car")}), 0.0);
  // Slightly more height overlap makes the 0.5 threshold a match: AP 1 of 10.
  EXPECT_NEAR(Score({Box("1 0 0 1 1 1 2 0 car")}, {Box("1 0 0 0.51 1 1 1.02 0 car")}), 0.1, 1e-15);
}

TEST(LyftMeanAveragePrecisionTest, DuplicatesAreFalsePositivesWithoutFallback) {
  const LyftBox a = Box("1 0 0 0 2 2 1 0 car");
  const LyftBox b = Box("1 20 0 0 2 2 1 0 car");
  // Ranked: a (TP), a again (FP), b (TP): recalls .5 .5 1, precisions 1 .5
  // 2/3; AP = .5 * 1 + .5 * 2/3 = 5/6 at every threshold.
  LyftBox first = a, duplicate = a, other = b;
  first.score = 0.9;
  duplicate.score = 0.8;
  other.score = 0.7;
  EXPECT_NEAR(Score({a, b}, {other, duplicate, first}), 5.0 / 6.0, 1e-15);

  // The second answer box overlaps the duplicate by 1/sqrt(2), but the
  // duplicate's best box is the matched first one: FP, AP .5 everywhere.
  const LyftBox turned = Box("1 0 0 0 2 2 1 0.7853981633974483 car");
  EXPECT_NEAR(Score({a, turned}, {first, duplicate}), 0.5, 1e-15);
}

TEST(LyftMeanAveragePrecisionTest, TiesKeepTheirOrder) {
  // Equal scores: the first listed prediction is ranked first. A miss then a
  // hit gives AP .5; a hit then a miss gives 1.
  LyftBox hit = Box("0.5 0 0 0 2 2 1 0 car");
  LyftBox miss = Box("0.5 50 0 0 2 2 1 0 car");
  EXPECT_NEAR(Score({hit}, {miss, hit}), 0.5, 1e-15);
  EXPECT_NEAR(Score({hit}, {hit, miss}), 1.0, 1e-15);
}

TEST(LyftMeanAveragePrecisionTest, ClassesOnlyInOneRow) {
  const LyftBox car = Box("1 0 0 0 2 4 1.5 0 car");
  const LyftBox bus = Box("1 10 0 0 3 10 3 0 bus");
  // bus is in the answers only: AP 0; truck is in the prediction only and
  // never evaluated, so even an invalid truck box does not matter.
  EXPECT_EQ(Score({car, bus}, {car, Box("1 0 0 0 -1 nan 1 nan truck")}), 0.5);
  EXPECT_EQ(Score({car, Box("1 0 0 0 -1 nan 1 nan truck")}, {car}), 0.5);
  EXPECT_EQ(Score({car}, {}), 0.0);
}

TEST(LyftMeanAveragePrecisionTest, EvaluatedBoxesAreValidated) {
  const LyftBox car = Box("1 0 0 0 2 4 1.5 0 car");
  for (const std::string bad :
       {"1 nan 0 0 2 4 1.5 0 car", "1 0 0 nan 2 4 1.5 0 car", "1 0 0 0 nan 4 1.5 0 car",
        "1 0 0 0 2 4 1.5 nan car", "1 0 0 0 0 4 1.5 0 car", "1 0 0 0 2 -4 1.5 0 car",
        "1 0 0 0 2 4 -0.0 0 car", "1 inf 0 0 2 4 1.5 0 car", "1 0 -inf 0 2 4 1.5 0 car",
        "1 0 0 0 inf 4 1.5 0 car", "1 1e300 0 0 2 4 1.5 0.1 car",
        "1 0 0 0 1e200 1e200 1 0.1 car"}) {
    SCOPED_TRACE(bad);
    const absl::Status prediction_error = Error({car}, {Box(bad)});
    EXPECT_EQ(prediction_error.code(), absl::StatusCode::kInvalidArgument) << prediction_error;
    const absl::Status answer_error = Error({Box(bad)}, {car});
    EXPECT_EQ(answer_error.code(), absl::StatusCode::kFailedPrecondition) << answer_error;
    // Not evaluated (the class is on one side only): no error.
    LyftBox other_class = Box(bad);
    other_class.name = "truck";
    EXPECT_EQ(Score({car}, {car, other_class}), 1.0);
  }
  // Box3D does not check the score, z extents only after the corners: an
  // infinite z centre or height passes and overlaps nothing in height.
  EXPECT_EQ(Score({car}, {Box("nan 0 0 0 2 4 1.5 0 car")}), 1.0);
  EXPECT_EQ(Score({car}, {Box("1 0 0 inf 2 4 1.5 0 car")}), 0.0);
  EXPECT_EQ(Score({car}, {Box("1 0 0 0 2 4 inf 0 car")}), 0.0);
  // A large but exact layout passes the orthogonality check.
  EXPECT_EQ(Score({Box("1 1e6 2e6 0 2 4 1.5 0 car")}, {Box("1 1e6 2e6 0 2 4 1.5 0 car")}), 1.0);
}

TEST(LyftMeanAveragePrecisionTest, NonTextTokenFailsOnlyWhereBoxesAreBuilt) {
  const LyftBox car = Box("1 0 0 0 2 4 1.5 0 car");
  LyftSample sample{{car}, {car}, /*token_is_text=*/false};
  EXPECT_FALSE(LyftMeanAveragePrecision({sample}).ok());
  sample.predictions[0].name = "bus";
  absl::StatusOr<double> score = LyftMeanAveragePrecision({sample});
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_EQ(*score, 0.0);
}

TEST(LyftMeanAveragePrecisionTest, EmptyAnswerRowMakesNaN) {
  const LyftBox car = Box("1 0 0 0 2 4 1.5 0 car");
  absl::StatusOr<double> score =
      LyftMeanAveragePrecision({LyftSample{{car}, {car}}, LyftSample{{}, {car}}});
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_TRUE(std::isnan(*score));
  score = LyftMeanAveragePrecision({});
  ASSERT_TRUE(score.ok());
  EXPECT_TRUE(std::isnan(*score));
}

TEST(LyftMeanAveragePrecisionTest, AveragesSamplesAndThresholds) {
  const LyftBox truth = Box("1 0 0 0 2 2 1 0 car");
  const LyftBox turned = Box("1 0 0 0 2 2 1 0.7853981633974483 car");
  absl::StatusOr<std::array<double, 10>> per_threshold =
      LyftSampleAveragePrecisions(LyftSample{{truth}, {turned}});
  ASSERT_TRUE(per_threshold.ok());
  for (size_t t = 0; t < 10; ++t) EXPECT_EQ((*per_threshold)[t], t < 5 ? 1.0 : 0.0) << t;
  absl::StatusOr<double> score = LyftMeanAveragePrecision(
      {LyftSample{{truth}, {truth}}, LyftSample{{truth}, {turned}}, LyftSample{{truth}, {}}});
  ASSERT_TRUE(score.ok());
  EXPECT_NEAR(*score, 0.5, 1e-15);
}

TEST(PredictionRankOrderTest, StableDescending) {
  EXPECT_EQ(PredictionRankOrder({0.1, 0.5, 0.1, 0.9, 0.5}), (std::vector<size_t>{3, 1, 4, 0, 2}));
  EXPECT_TRUE(PredictionRankOrder({}).empty());
}

}  // namespace
}  // namespace mlebench
