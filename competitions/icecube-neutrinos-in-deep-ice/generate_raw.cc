// Synthetic raw data for icecube-neutrinos-in-deep-ice in Kaggle's layout:
// train_meta.parquet (batch_id, event_id, first/last_pulse_index, azimuth,
// zenith), train/batch_<id>.parquet (pulses: sensor_id int16, time, charge,
// auxiliary, and the event_id index column, as pandas writes them),
// test_meta.parquet, test/batch_661.parquet, sample_submission.parquet and
// sensor_geometry.csv.
//
// Signal: each event is a straight track arriving from the direction
// (azimuth, zenith); pulses come from the sensors nearest to points along the
// track, with times growing along the direction of travel, so fitting a line
// through the pulses' positions against time recovers the direction.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "formats/parquet.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kStrings = 86;
constexpr int kDomsPerString = 60;
constexpr int kTrainBatches = 20;
constexpr int kEventsPerBatch = 12;
constexpr int kTestBatch = 661;

struct Sensor {
  double x, y, z;
};

std::vector<Sensor> Geometry(SyntheticRng& rng) {
  std::vector<Sensor> sensors;
  for (int s = 0; s < kStrings; ++s) {
    // Strings on a jittered 10 x 9 grid about 125 m apart.
    const double x = -560 + 125 * (s % 10) + rng.Uniform(-10, 10);
    const double y = -500 + 125 * (s / 10) + rng.Uniform(-10, 10);
    for (int d = 0; d < kDomsPerString; ++d) {
      sensors.push_back({x, y, 500 - 17 * d + rng.Uniform(-0.5, 0.5)});
    }
  }
  return sensors;
}

struct Event {
  int64_t event_id;
  double azimuth, zenith;
  std::vector<int64_t> sensor, time;
  std::vector<double> charge;
  std::vector<bool> auxiliary;
};

Event MakeEvent(int64_t event_id, const std::vector<Sensor>& sensors, SyntheticRng& rng) {
  Event e;
  e.event_id = event_id;
  e.azimuth = rng.Uniform(0, 2 * std::numbers::pi);
  e.zenith = std::acos(rng.Uniform(-1, 1));
  // The unit vector pointing back to where the particle came from.
  const double dx = std::sin(e.zenith) * std::cos(e.azimuth);
  const double dy = std::sin(e.zenith) * std::sin(e.azimuth);
  const double dz = std::cos(e.zenith);
  const double cx = rng.Uniform(-300, 300), cy = rng.Uniform(-300, 300),
               cz = rng.Uniform(-300, 300);
  const int pulses = static_cast<int>(rng.UniformInt(12, 40));
  std::vector<std::pair<int64_t, size_t>> hits;  // (time, sensor)
  for (int p = 0; p < pulses; ++p) {
    const double s = rng.Uniform(-400, 400);  // metres travelled past the centre
    const double px = cx - dx * s + rng.Normal(0, 15);
    const double py = cy - dy * s + rng.Normal(0, 15);
    const double pz = cz - dz * s + rng.Normal(0, 15);
    size_t nearest = 0;
    double best = 1e300;
    for (size_t i = 0; i < sensors.size(); ++i) {
      const double d2 = (sensors[i].x - px) * (sensors[i].x - px) +
                        (sensors[i].y - py) * (sensors[i].y - py) +
                        (sensors[i].z - pz) * (sensors[i].z - pz);
      if (d2 < best) {
        best = d2;
        nearest = i;
      }
    }
    const int64_t time = 10000 + static_cast<int64_t>(std::llround(s / 0.3 + rng.Normal(0, 20)));
    hits.emplace_back(time, nearest);
  }
  std::sort(hits.begin(), hits.end());
  for (const auto& [time, sensor] : hits) {
    e.time.push_back(time);
    e.sensor.push_back(static_cast<int64_t>(sensor));
    e.charge.push_back(std::round(rng.Uniform(0.2, 3.0) * 40) / 40);
    e.auxiliary.push_back(rng.Bernoulli(0.3));
  }
  return e;
}

// A batch file: pulse columns, then the event_id index column as pandas
// (pyarrow) appends it.
absl::Status WriteBatch(const fs::path& path, const std::vector<Event>& events) {
  Column sensor{"sensor_id", Dtype::kInt64, {}}, time{"time", Dtype::kInt64, {}},
      charge{"charge", Dtype::kFloat64, {}}, auxiliary{"auxiliary", Dtype::kBool, {}},
      event_id{"event_id", Dtype::kInt64, {}};
  for (const Event& e : events) {
    for (size_t i = 0; i < e.time.size(); ++i) {
      sensor.cells.emplace_back(e.sensor[i]);
      time.cells.emplace_back(e.time[i]);
      charge.cells.emplace_back(e.charge[i]);
      auxiliary.cells.emplace_back(static_cast<bool>(e.auxiliary[i]));
      event_id.cells.emplace_back(e.event_id);
    }
  }
  ParquetWriteOptions options;
  options.storage = {{"sensor_id", ParquetStorage::kInt16}};
  return WriteParquetFile(Table({sensor, time, charge, auxiliary, event_id}), path, options);
}

// The metadata rows of a batch: pulse index ranges within its file.
void AppendMeta(int64_t batch_id, const std::vector<Event>& events, bool with_directions,
                std::vector<Column>& meta) {
  int64_t first = 0;
  for (const Event& e : events) {
    const int64_t last = first + static_cast<int64_t>(e.time.size()) - 1;
    meta[0].cells.emplace_back(batch_id);
    meta[1].cells.emplace_back(e.event_id);
    meta[2].cells.emplace_back(first);
    meta[3].cells.emplace_back(last);
    if (with_directions) {
      meta[4].cells.emplace_back(e.azimuth);
      meta[5].cells.emplace_back(e.zenith);
    }
    first = last + 1;
  }
}

std::vector<Column> MetaColumns(bool with_directions) {
  std::vector<Column> meta = {{"batch_id", Dtype::kInt64, {}},
                              {"event_id", Dtype::kInt64, {}},
                              {"first_pulse_index", Dtype::kInt64, {}},
                              {"last_pulse_index", Dtype::kInt64, {}}};
  if (with_directions) {
    meta.push_back({"azimuth", Dtype::kFloat64, {}});
    meta.push_back({"zenith", Dtype::kFloat64, {}});
  }
  return meta;
}

absl::Status Generate(const fs::path& raw, uint64_t seed) {
  SyntheticRng rng(seed);
  const std::vector<Sensor> sensors = Geometry(rng);
  CsvTextBuilder geometry;
  geometry.Row({"sensor_id", "x", "y", "z"});
  for (size_t i = 0; i < sensors.size(); ++i) {
    geometry.Int(static_cast<int64_t>(i))
        .Float(std::round(sensors[i].x * 100) / 100)
        .Float(std::round(sensors[i].y * 100) / 100)
        .Float(std::round(sensors[i].z * 100) / 100)
        .EndRow();
  }
  RETURN_IF_ERROR(WriteStringToFile(raw / "sensor_geometry.csv", geometry.text()));

  fs::create_directories(raw / "train");
  fs::create_directories(raw / "test");
  int64_t next_event_id = 24;
  std::vector<Column> train_meta = MetaColumns(true);
  for (int batch = 1; batch <= kTrainBatches + 1; ++batch) {
    const bool test = batch == kTrainBatches + 1;
    std::vector<Event> events;
    for (int i = 0; i < kEventsPerBatch; ++i) {
      next_event_id += static_cast<int64_t>(rng.UniformInt(1, 40));
      events.push_back(MakeEvent(next_event_id, sensors, rng));
    }
    if (!test) {
      AppendMeta(batch, events, true, train_meta);
      RETURN_IF_ERROR(
          WriteBatch(raw / "train" / absl::StrCat("batch_", batch, ".parquet"), events));
      continue;
    }
    std::vector<Column> test_meta = MetaColumns(false);
    AppendMeta(kTestBatch, events, false, test_meta);
    RETURN_IF_ERROR(
        WriteBatch(raw / "test" / absl::StrCat("batch_", kTestBatch, ".parquet"), events));
    RETURN_IF_ERROR(WriteParquetFile(Table(test_meta), raw / "test_meta.parquet"));
    Column ids = test_meta[1];
    Column azimuth{"azimuth", Dtype::kFloat64, std::vector<Cell>(ids.cells.size(), Cell(1.0))};
    Column zenith{"zenith", Dtype::kFloat64, std::vector<Cell>(ids.cells.size(), Cell(1.0))};
    RETURN_IF_ERROR(
        WriteParquetFile(Table({ids, azimuth, zenith}), raw / "sample_submission.parquet"));
  }
  return WriteParquetFile(Table(train_meta), raw / "train_meta.parquet");
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
