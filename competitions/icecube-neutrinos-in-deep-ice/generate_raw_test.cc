#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "formats/parquet.h"
#include "gmock/gmock.h"
#include "grading/metrics/regression/mean_angular_error.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::StartsWith;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

Table Parquet(const std::string& bytes) {
  absl::StatusOr<Table> t = ParseParquet(bytes);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : Table();
}

std::vector<std::pair<std::string, Dtype>> Schema(const Table& t) {
  std::vector<std::pair<std::string, Dtype>> out;
  for (const Column& c : t.columns()) out.emplace_back(c.name, c.dtype);
  return out;
}

TEST(IcecubeRawTest, KaggleLayoutDeterministicAndSmall) {
  absl::StatusOr<std::map<std::string, std::string>> tree =
      testing::DeterministicSyntheticTree(kId);
  ASSERT_TRUE(tree.ok()) << tree.status();
  size_t total = 0;
  int batches = 0;
  for (const auto& [name, bytes] : *tree) {
    total += bytes.size();
    if (name.rfind("train/batch_", 0) == 0) ++batches;
  }
  EXPECT_EQ(batches, 20);
  EXPECT_LT(total, 3'000'000u);
  EXPECT_TRUE(tree->count("test/batch_661.parquet"));
  EXPECT_TRUE(tree->count("test_meta.parquet"));
  EXPECT_TRUE(tree->count("sample_submission.parquet"));
  EXPECT_THAT(tree->at("sensor_geometry.csv"), StartsWith("sensor_id,x,y,z\n0,"));

  const Table meta = Parquet(tree->at("train_meta.parquet"));
  EXPECT_THAT(Schema(meta), ElementsAre(std::pair{std::string("batch_id"), Dtype::kInt64},
                                        std::pair{std::string("event_id"), Dtype::kInt64},
                                        std::pair{std::string("first_pulse_index"), Dtype::kInt64},
                                        std::pair{std::string("last_pulse_index"), Dtype::kInt64},
                                        std::pair{std::string("azimuth"), Dtype::kFloat64},
                                        std::pair{std::string("zenith"), Dtype::kFloat64}));
  EXPECT_EQ(meta.num_rows(), 240u);
  const Table batch = Parquet(tree->at("train/batch_1.parquet"));
  EXPECT_THAT(batch.ColumnNames(),
              ElementsAre("sensor_id", "time", "charge", "auxiliary", "event_id"));
  EXPECT_EQ(batch.columns()[3].dtype, Dtype::kBool);
  // Each event's pulse range in the batch matches its event_id rows.
  for (size_t r = 0; r < 12; ++r) {
    const int64_t first = std::get<int64_t>(meta.columns()[2].cells[r]);
    const int64_t last = std::get<int64_t>(meta.columns()[3].cells[r]);
    ASSERT_LT(static_cast<size_t>(last), batch.num_rows());
    for (int64_t p = first; p <= last; ++p) {
      EXPECT_EQ(batch.columns()[4].cells[p], meta.columns()[1].cells[r]);
    }
  }
}

// A line fitted through each event's pulse positions against time points
// along the direction of travel; its reverse estimates (azimuth, zenith)
// far better than the sample submission's constant (1, 1).
TEST(IcecubeRawTest, DirectionIsLearnableFromPulses) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, 3);
  ASSERT_TRUE(raw.ok()) << raw.status();
  absl::StatusOr<Table> geometry = ReadCsvFile((*raw / "sensor_geometry.csv").string());
  ASSERT_TRUE(geometry.ok());
  absl::StatusOr<Table> meta = ReadParquetFile(*raw / "train_meta.parquet");
  ASSERT_TRUE(meta.ok());
  std::vector<double> az_true, zen_true, az_fit, zen_fit, ones;
  for (int batch_id = 1; batch_id <= 20; ++batch_id) {
    absl::StatusOr<Table> batch =
        ReadParquetFile(*raw / "train" / ("batch_" + std::to_string(batch_id) + ".parquet"));
    ASSERT_TRUE(batch.ok());
    std::map<int64_t, std::vector<size_t>> pulses;
    for (size_t p = 0; p < batch->num_rows(); ++p) {
      pulses[std::get<int64_t>(batch->columns()[4].cells[p])].push_back(p);
    }
    for (const auto& [event_id, rows] : pulses) {
      double mean[4] = {0, 0, 0, 0};
      std::vector<std::array<double, 4>> points;
      for (size_t p : rows) {
        const int64_t sensor = std::get<int64_t>(batch->columns()[0].cells[p]);
        std::array<double, 4> pt;
        for (int k = 0; k < 3; ++k)
          pt[k] = std::get<double>(geometry->columns()[k + 1].cells[sensor]);
        pt[3] = static_cast<double>(std::get<int64_t>(batch->columns()[1].cells[p]));
        for (int k = 0; k < 4; ++k) mean[k] += pt[k] / rows.size();
        points.push_back(pt);
      }
      double v[3] = {0, 0, 0};
      for (const auto& pt : points) {
        for (int k = 0; k < 3; ++k) v[k] -= (pt[k] - mean[k]) * (pt[3] - mean[3]);
      }
      const double norm = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      double az = std::atan2(v[1], v[0]);
      if (az < 0) az += 2 * std::numbers::pi;
      az_fit.push_back(az);
      zen_fit.push_back(std::acos(std::clamp(v[2] / norm, -1.0, 1.0)));
      ones.push_back(1.0);
      for (size_t r = 0; r < meta->num_rows(); ++r) {
        if (meta->columns()[1].cells[r] == Cell(event_id)) {
          az_true.push_back(std::get<double>(meta->columns()[4].cells[r]));
          zen_true.push_back(std::get<double>(meta->columns()[5].cells[r]));
        }
      }
    }
  }
  ASSERT_EQ(az_true.size(), 240u);
  const double fitted = *MeanAngularError(az_true, zen_true, az_fit, zen_fit);
  const double constant = *MeanAngularError(az_true, zen_true, ones, ones);
  EXPECT_LT(fitted, 0.5) << constant;
  EXPECT_GT(constant, 1.2) << fitted;
}

}  // namespace
}  // namespace mlebench::generate_raw_test
