// Synthetic raw download of 3d-object-detection-for-autonomous-vehicles, in
// Kaggle's layout (the Lyft Level 5 / nuScenes schema):
//   train.csv                 Id (a sample token), PredictionString
//                             ("center_x center_y center_z width length height
//                             yaw class_name" per box, world coordinates);
//   train_data/*.json         the 13 tables: attribute, calibrated_sensor,
//                             category (Lyft's 9 classes), ego_pose, instance,
//                             log, map, sample, sample_annotation,
//                             sample_data, scene, sensor, visibility;
//   train_images/*.jpeg       two 32x32 camera frames per sample;
//   train_lidar/*.bin         one LIDAR_TOP sweep per sample, float32 x, y, z,
//                             intensity, ring per point (sensor frame);
//   train_maps/map_raster_palo_alto.png;
//   test_data/ (the same tables less instance and sample_annotation),
//   test_images/, test_lidar/, test_maps/, sample_submission.csv
//   (Id, empty PredictionString).
// Tokens are 64 hex digits; each log has exactly one scene under the same
// token (upstream's prepare.py matches samples' scene tokens to log tokens).
//
// Signal: every lidar sweep holds points on the faces of the annotated boxes
// plus a flat ground, so clustering the above-ground points (after the
// calibrated-sensor and ego-pose transforms) recovers the boxes, and their
// size tells the class.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "base/python_float.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "pycompat/python_json.h"
#include "synthetic/csv_text.h"
#include "synthetic/jpeg_writer.h"
#include "synthetic/png_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kTrainLogs = 12;
constexpr int kTestLogs = 2;
constexpr int kSamplesPerLog = 4;
constexpr double kSampleSeconds = 0.2;
constexpr int kImageSize = 32;
constexpr double kPi = 3.14159265358979323846;

struct ClassSpec {
  const char* name;
  const char* description;
  std::array<double, 3> size;  // width, length, height
  double weight;               // how common
  double speed;                // metres per second when moving
};

// Lyft's nine classes with typical sizes.
const std::array<ClassSpec, 9> kClasses = {{
    {"car", "Car", {1.93, 4.76, 1.72}, 10, 6},
    {"pedestrian", "Pedestrian", {0.77, 0.81, 1.78}, 3, 1.2},
    {"animal", "Animal", {0.36, 0.73, 0.51}, 0.3, 1},
    {"other_vehicle", "Other vehicle", {2.79, 8.20, 3.23}, 1, 4},
    {"bus", "Bus", {2.96, 12.34, 3.44}, 0.6, 5},
    {"motorcycle", "Motorcycle", {0.96, 2.35, 1.59}, 0.5, 6},
    {"truck", "Truck", {2.84, 10.24, 3.44}, 0.6, 5},
    {"emergency_vehicle", "Emergency vehicle", {2.45, 6.52, 2.39}, 0.3, 6},
    {"bicycle", "Bicycle", {0.63, 1.76, 1.44}, 1, 3},
}};

const std::array<const char*, 6> kAttributes = {"object_action_driving_straight_forward",
                                                "object_action_parked",
                                                "object_action_stopped",
                                                "object_action_walking",
                                                "object_action_standing",
                                                "object_action_lane_change_left"};

struct SensorSpec {
  const char* channel;
  const char* modality;
  const char* file_tag;  // in file names: host-a004_<tag>_<ns>.<ext>
};
const std::array<SensorSpec, 3> kSensors = {{
    {"CAM_FRONT", "camera", "cam0"},
    {"CAM_BACK", "camera", "cam3"},
    {"LIDAR_TOP", "lidar", "lidar0"},
}};

JsonValue Floats(std::initializer_list<double> values) {
  JsonValue array = JsonValue::Array();
  for (double v : values) array.items.push_back(JsonValue::Float(v));
  return array;
}

JsonValue YawQuaternion(double yaw) {
  return Floats({std::cos(yaw / 2), 0.0, 0.0, std::sin(yaw / 2)});
}

// Rounded to `digits` decimals, as Lyft's sizes (3) are.
double Round(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::round(value * scale) / scale;
}

// The tables shared by Kaggle's train and test folders.
struct SharedTables {
  std::vector<std::string> category_tokens;
  std::vector<std::string> attribute_tokens;
  std::vector<std::string> sensor_tokens;
  JsonValue category = JsonValue::Array();
  JsonValue attribute = JsonValue::Array();
  JsonValue sensor = JsonValue::Array();
  JsonValue visibility = JsonValue::Array();
  std::string map_token;
};

SharedTables MakeSharedTables(SyntheticRng& rng) {
  SharedTables t;
  for (const ClassSpec& c : kClasses) {
    t.category_tokens.push_back(rng.Hex(64));
    JsonValue record = JsonValue::Object();
    record.Set("description", JsonValue::String(c.description));
    record.Set("token", JsonValue::String(t.category_tokens.back()));
    record.Set("name", JsonValue::String(c.name));
    t.category.items.push_back(std::move(record));
  }
  for (const char* name : kAttributes) {
    t.attribute_tokens.push_back(rng.Hex(64));
    JsonValue record = JsonValue::Object();
    record.Set("description", JsonValue::String(""));
    record.Set("token", JsonValue::String(t.attribute_tokens.back()));
    record.Set("name", JsonValue::String(name));
    t.attribute.items.push_back(std::move(record));
  }
  for (const SensorSpec& s : kSensors) {
    t.sensor_tokens.push_back(rng.Hex(64));
    JsonValue record = JsonValue::Object();
    record.Set("modality", JsonValue::String(s.modality));
    record.Set("channel", JsonValue::String(s.channel));
    record.Set("token", JsonValue::String(t.sensor_tokens.back()));
    t.sensor.items.push_back(std::move(record));
  }
  const char* levels[] = {"v0-40", "v40-60", "v60-80", "v80-100"};
  for (int i = 0; i < 4; ++i) {
    JsonValue record = JsonValue::Object();
    record.Set("level", JsonValue::String(levels[i]));
    record.Set("description", JsonValue::String(absl::StrCat(
                                  "visibility of whole object is between ", levels[i] + 1, "%")));
    record.Set("token", JsonValue::String(absl::StrCat(i + 1)));
    t.visibility.items.push_back(std::move(record));
  }
  t.map_token = rng.Hex(32);
  return t;
}

// One annotated object of a log, moving straight at constant speed.
struct Instance {
  std::string token;
  size_t class_index;
  std::array<double, 3> size;
  double x, y, yaw, speed;
  std::string attribute_token;
  std::vector<std::string> annotation_tokens;
};

struct Box {
  double x, y, z, width, length, height, yaw;
  size_t class_index;
};

// Points on the side and top faces of `box`, in world coordinates.
void AddBoxPoints(SyntheticRng& rng, const Box& box, std::vector<std::array<double, 3>>& points) {
  const double w = box.width, l = box.length, h = box.height;
  const double area = 2 * (w + l) * h + w * l;
  const int count = static_cast<int>(std::clamp(area * 6.0, 25.0, 220.0));
  const double c = std::cos(box.yaw), s = std::sin(box.yaw);
  for (int i = 0; i < count; ++i) {
    double u = rng.Uniform(-l / 2, l / 2), v = rng.Uniform(-w / 2, w / 2), z = rng.Uniform(0, h);
    const double face = rng.Uniform(0, area);
    if (face < 2 * l * h) {
      v = face < l * h ? -w / 2 : w / 2;
    } else if (face < 2 * (w + l) * h) {
      u = face < (2 * l + w) * h ? -l / 2 : l / 2;
    } else {
      z = h;
    }
    u += rng.Normal(0, 0.02);
    v += rng.Normal(0, 0.02);
    z += rng.Normal(0, 0.02);
    points.push_back({box.x + c * u - s * v, box.y + s * u + c * v, box.z - h / 2 + z});
  }
}

struct Split {
  JsonValue log = JsonValue::Array();
  JsonValue scene = JsonValue::Array();
  JsonValue sample = JsonValue::Array();
  JsonValue sample_data = JsonValue::Array();
  JsonValue ego_pose = JsonValue::Array();
  JsonValue calibrated_sensor = JsonValue::Array();
  JsonValue sample_annotation = JsonValue::Array();
  JsonValue instance = JsonValue::Array();
  JsonValue log_tokens = JsonValue::Array();
  std::vector<std::pair<std::string, std::string>> rows;  // Id, PredictionString
};

struct Vehicle {
  std::string host;                                   // "host-a004"
  std::vector<std::string> calibrated_sensor_tokens;  // one per kSensors entry
  std::array<double, 3> lidar_translation;
  double lidar_yaw;
};

// Appends the log record of a new log of `vehicle`; returns its token.
std::string AppendLog(SyntheticRng& rng, const Vehicle& vehicle, Split& split) {
  const std::string log_token = rng.Hex(64);
  split.log_tokens.items.push_back(JsonValue::String(log_token));
  JsonValue log = JsonValue::Object();
  log.Set("date_captured", JsonValue::String(absl::StrFormat(
                               "2019-%02d-%02d", rng.UniformInt(1, 12), rng.UniformInt(1, 28))));
  log.Set("location", JsonValue::String("Palo Alto"));
  log.Set("token", JsonValue::String(log_token));
  log.Set("vehicle", JsonValue::String(vehicle.host.substr(5)));
  log.Set("logfile", JsonValue::String(""));
  split.log.items.push_back(std::move(log));
  return log_token;
}

// The ego vehicle of one log: it drives straight across a flat patch of the
// map.
struct EgoDrive {
  double ground, x, y, yaw, speed;
  int64_t start_us;

  double XAt(double t) const { return x + speed * t * std::cos(yaw); }
  double YAt(double t) const { return y + speed * t * std::sin(yaw); }
};

EgoDrive DrawEgoDrive(SyntheticRng& rng) {
  EgoDrive ego;
  ego.ground = rng.Uniform(-20, -16);
  ego.x = rng.Uniform(500, 3000);
  ego.y = rng.Uniform(500, 2500);
  ego.yaw = rng.Uniform(-kPi, kPi);
  ego.speed = rng.Uniform(0, 8);
  ego.start_us = 1231000000000000 + static_cast<int64_t>(rng.UniformInt(0, 999999999)) * 1000;
  return ego;
}

// 2 to 5 objects around the ego, kept (over the whole log) well apart and off
// the ego's path.
std::vector<Instance> PlaceInstances(SyntheticRng& rng, const SharedTables& shared,
                                     const EgoDrive& ego) {
  std::vector<Instance> instances;
  const int num_instances = static_cast<int>(rng.UniformInt(2, 5));
  std::vector<double> weights;
  for (const ClassSpec& c : kClasses) weights.push_back(c.weight);
  for (int tries = 0; static_cast<int>(instances.size()) < num_instances && tries < 200; ++tries) {
    const size_t k = rng.Categorical(weights);
    Instance inst;
    inst.class_index = k;
    for (int d = 0; d < 3; ++d) {
      inst.size[d] = Round(kClasses[k].size[d] * rng.Uniform(0.85, 1.15), 3);
    }
    const double distance = rng.Uniform(6, 35), bearing = rng.Uniform(-kPi, kPi);
    inst.x = ego.x + distance * std::cos(bearing);
    inst.y = ego.y + distance * std::sin(bearing);
    inst.yaw = rng.Uniform(-kPi, kPi);
    inst.speed = rng.Bernoulli(0.4) ? 0.0 : kClasses[k].speed * rng.Uniform(0.5, 1.2);
    bool clear = true;
    const double reach = inst.size[1] / 2 + inst.speed * kSampleSeconds * kSamplesPerLog;
    for (const Instance& other : instances) {
      const double gap = std::hypot(inst.x - other.x, inst.y - other.y);
      const double other_reach = other.size[1] / 2 + other.speed * kSampleSeconds * kSamplesPerLog;
      clear = clear && gap > reach + other_reach + 2.0;
    }
    clear = clear && std::hypot(inst.x - ego.x, inst.y - ego.y) > reach + 4.0;
    if (!clear) continue;
    inst.token = rng.Hex(64);
    inst.attribute_token = shared.attribute_tokens[rng.UniformInt(shared.attribute_tokens.size())];
    for (int i = 0; i < kSamplesPerLog; ++i) inst.annotation_tokens.push_back(rng.Hex(64));
    instances.push_back(std::move(inst));
  }
  return instances;
}

// The tokens of one log's samples and of each sensor's data per sample.
struct LogTokens {
  std::string log;
  std::vector<std::string> samples;
  std::vector<std::vector<std::string>> data;  // [sensor][sample]
};

void AppendScene(const Vehicle& vehicle, const EgoDrive& ego, const LogTokens& tokens,
                 Split& split) {
  const int64_t end_us =
      ego.start_us + static_cast<int64_t>((kSamplesPerLog - 1) * kSampleSeconds * 1e6);
  JsonValue scene = JsonValue::Object();
  scene.Set("description", JsonValue::String(""));
  scene.Set("token", JsonValue::String(tokens.log));  // Lyft: one scene per log, same token
  scene.Set("name", JsonValue::String(absl::StrCat(vehicle.host, "-lidar0-", ego.start_us * 1000,
                                                   "-", end_us * 1000)));
  scene.Set("first_sample_token", JsonValue::String(tokens.samples.front()));
  scene.Set("nbr_samples", JsonValue::Int(kSamplesPerLog));
  scene.Set("last_sample_token", JsonValue::String(tokens.samples.back()));
  scene.Set("log_token", JsonValue::String(tokens.log));
  split.scene.items.push_back(std::move(scene));
}

void AppendSample(const LogTokens& tokens, int i, int64_t time_us, Split& split) {
  const std::vector<std::string>& samples = tokens.samples;
  JsonValue sample = JsonValue::Object();
  sample.Set("next", JsonValue::String(i + 1 < kSamplesPerLog ? samples[i + 1] : ""));
  sample.Set("prev", JsonValue::String(i > 0 ? samples[i - 1] : ""));
  sample.Set("token", JsonValue::String(samples[i]));
  sample.Set("timestamp", JsonValue::Float(static_cast<double>(time_us) + 0.5));
  sample.Set("scene_token", JsonValue::String(tokens.log));
  split.sample.items.push_back(std::move(sample));
}

// The boxes of sample `i` (at `t` seconds): their annotations and the
// sample's answer row. Returns the boxes.
std::vector<Box> AppendAnnotations(SyntheticRng& rng, const std::vector<Instance>& instances,
                                   const EgoDrive& ego, const LogTokens& tokens, int i, double t,
                                   Split& split) {
  std::vector<Box> boxes;
  std::string prediction;
  for (const Instance& inst : instances) {
    Box box{inst.x + inst.speed * t * std::cos(inst.yaw),
            inst.y + inst.speed * t * std::sin(inst.yaw),
            ego.ground + inst.size[2] / 2,
            inst.size[0],
            inst.size[1],
            inst.size[2],
            inst.yaw,
            inst.class_index};
    boxes.push_back(box);
    absl::StrAppend(&prediction, prediction.empty() ? "" : " ", FormatPythonFloat(box.x), " ",
                    FormatPythonFloat(box.y), " ", FormatPythonFloat(box.z), " ",
                    FormatPythonFloat(box.width), " ", FormatPythonFloat(box.length), " ",
                    FormatPythonFloat(box.height), " ", FormatPythonFloat(box.yaw), " ",
                    kClasses[box.class_index].name);
    JsonValue a = JsonValue::Object();
    a.Set("token", JsonValue::String(inst.annotation_tokens[i]));
    a.Set("num_lidar_pts", JsonValue::Int(-1));
    a.Set("size", Floats({box.width, box.length, box.height}));
    a.Set("sample_token", JsonValue::String(tokens.samples[i]));
    a.Set("rotation", YawQuaternion(box.yaw));
    a.Set("prev", JsonValue::String(i > 0 ? inst.annotation_tokens[i - 1] : ""));
    a.Set("translation", Floats({box.x, box.y, box.z}));
    a.Set("num_radar_pts", JsonValue::Int(0));
    a.Set("attribute_tokens", JsonValue::Array({JsonValue::String(inst.attribute_token)}));
    a.Set("next", JsonValue::String(i + 1 < kSamplesPerLog ? inst.annotation_tokens[i + 1] : ""));
    a.Set("instance_token", JsonValue::String(inst.token));
    a.Set("visibility_token", JsonValue::String(absl::StrCat(rng.UniformInt(1, 4))));
    split.sample_annotation.items.push_back(std::move(a));
  }
  split.rows.emplace_back(tokens.samples[i], prediction);
  return boxes;
}

// A lidar sweep at ego position (ex, ey) with heading `pose_yaw`: points on
// `boxes` and on the ground, world -> ego (pose) -> sensor (calibration), as
// float32 rows of x, y, z, intensity, ring.
absl::Status WriteLidarSweep(SyntheticRng& rng, const std::vector<Box>& boxes,
                             const Vehicle& vehicle, double ex, double ey, double ground,
                             double pose_yaw, const fs::path& path) {
  std::vector<std::array<double, 3>> world;
  for (const Box& box : boxes) AddBoxPoints(rng, box, world);
  for (int g = 0; g < 350; ++g) {
    const double r = 45 * std::sqrt(rng.Uniform()), a = rng.Uniform(-kPi, kPi);
    world.push_back({ex + r * std::cos(a), ey + r * std::sin(a), ground + rng.Normal(0, 0.03)});
  }
  std::string bytes;
  const double pc = std::cos(pose_yaw), ps = std::sin(pose_yaw);
  const double cc = std::cos(vehicle.lidar_yaw), cs = std::sin(vehicle.lidar_yaw);
  for (const auto& p : world) {
    const double dx = p[0] - ex, dy = p[1] - ey, dz = p[2] - ground;
    const double ox = pc * dx + ps * dy - vehicle.lidar_translation[0];
    const double oy = -ps * dx + pc * dy - vehicle.lidar_translation[1];
    const double oz = dz - vehicle.lidar_translation[2];
    const float row[5] = {static_cast<float>(cc * ox + cs * oy),
                          static_cast<float>(-cs * ox + cc * oy), static_cast<float>(oz),
                          static_cast<float>(std::round(rng.Uniform(0, 100))),
                          static_cast<float>(rng.UniformInt(0, 63))};
    bytes.append(reinterpret_cast<const char*>(row), sizeof(row));
  }
  return WriteStringToFile(path, bytes);
}

// A camera frame: a noisy flat shade, brighter sky in the upper half.
absl::Status WriteCameraImage(SyntheticRng& rng, const fs::path& path) {
  RgbImage image{kImageSize, kImageSize, {}};
  const double shade = rng.Uniform(60, 200);
  for (int y = 0; y < kImageSize; ++y) {
    for (int x = 0; x < kImageSize; ++x) {
      const double sky = y < kImageSize / 2 ? 40 : 0;
      for (int c = 0; c < 3; ++c) {
        const double v = shade + sky + 3 * c + rng.Normal(0, 6);
        image.pixels.push_back(static_cast<uint8_t>(std::clamp(std::round(v), 0.0, 255.0)));
      }
    }
  }
  ASSIGN_OR_RETURN(std::string jpeg, EncodeJpeg(image, 85));
  return WriteStringToFile(path, jpeg);
}

// Sensor `s`'s datum of sample `i`: its ego pose, its sample_data record and
// its file (a lidar sweep under `lidar`, an image under `images`).
absl::Status AppendSensorDatum(SyntheticRng& rng, const Vehicle& vehicle, const EgoDrive& ego,
                               const LogTokens& tokens, const std::vector<Box>& boxes, size_t s,
                               int i, int64_t time_us, double ex, double ey,
                               const fs::path& images, const fs::path& lidar, Split& split) {
  const bool is_lidar = std::strcmp(kSensors[s].modality, "lidar") == 0;
  // Sensors fire a few milliseconds apart around the sample time.
  const int64_t sensor_us = time_us + static_cast<int64_t>(s) * 3000 - 3000;
  const std::string name = absl::StrCat(vehicle.host, "_", kSensors[s].file_tag, "_",
                                        sensor_us * 1000 + 6, is_lidar ? ".bin" : ".jpeg");
  const std::string ego_token = rng.Hex(64);
  const double pose_yaw = ego.yaw + rng.Normal(0, 0.002);
  JsonValue pose = JsonValue::Object();
  pose.Set("rotation", YawQuaternion(pose_yaw));
  pose.Set("translation", Floats({ex, ey, ego.ground}));
  pose.Set("token", JsonValue::String(ego_token));
  pose.Set("timestamp", JsonValue::Int(sensor_us));
  split.ego_pose.items.push_back(std::move(pose));

  const std::vector<std::string>& data = tokens.data[s];
  JsonValue datum = JsonValue::Object();
  datum.Set("width", is_lidar ? JsonValue::Null() : JsonValue::Int(kImageSize));
  datum.Set("height", is_lidar ? JsonValue::Null() : JsonValue::Int(kImageSize));
  datum.Set("calibrated_sensor_token", JsonValue::String(vehicle.calibrated_sensor_tokens[s]));
  datum.Set("token", JsonValue::String(data[i]));
  datum.Set("sample_token", JsonValue::String(tokens.samples[i]));
  datum.Set("is_key_frame", JsonValue::Bool(true));
  datum.Set("prev", JsonValue::String(i > 0 ? data[i - 1] : ""));
  datum.Set("fileformat", JsonValue::String(is_lidar ? "bin" : "jpeg"));
  datum.Set("timestamp", JsonValue::Float(static_cast<double>(sensor_us) + 0.25));
  datum.Set("next", JsonValue::String(i + 1 < kSamplesPerLog ? data[i + 1] : ""));
  datum.Set("ego_pose_token", JsonValue::String(ego_token));
  datum.Set("filename", JsonValue::String(absl::StrCat(is_lidar ? "lidar/" : "images/", name)));
  split.sample_data.items.push_back(std::move(datum));

  if (is_lidar) {
    return WriteLidarSweep(rng, boxes, vehicle, ex, ey, ego.ground, pose_yaw, lidar / name);
  }
  return WriteCameraImage(rng, images / name);
}

void AppendInstances(const SharedTables& shared, const std::vector<Instance>& instances,
                     Split& split) {
  for (const Instance& inst : instances) {
    JsonValue record = JsonValue::Object();
    record.Set("token", JsonValue::String(inst.token));
    record.Set("nbr_annotations", JsonValue::Int(kSamplesPerLog));
    record.Set("category_token", JsonValue::String(shared.category_tokens[inst.class_index]));
    record.Set("first_annotation_token", JsonValue::String(inst.annotation_tokens.front()));
    record.Set("last_annotation_token", JsonValue::String(inst.annotation_tokens.back()));
    split.instance.items.push_back(std::move(record));
  }
}

// Generates `num_logs` logs of `vehicles` into `split`, writing the sensor
// files under `images` and `lidar`.
absl::Status MakeSplit(SyntheticRng& rng, const SharedTables& shared, int num_logs,
                       const std::vector<Vehicle>& vehicles, const fs::path& images,
                       const fs::path& lidar, Split& split) {
  for (int log_index = 0; log_index < num_logs; ++log_index) {
    const Vehicle& vehicle = vehicles[log_index % vehicles.size()];
    LogTokens tokens;
    tokens.log = AppendLog(rng, vehicle, split);
    const EgoDrive ego = DrawEgoDrive(rng);
    const std::vector<Instance> instances = PlaceInstances(rng, shared, ego);
    for (int i = 0; i < kSamplesPerLog; ++i) tokens.samples.push_back(rng.Hex(64));
    tokens.data.resize(kSensors.size());
    for (auto& data : tokens.data) {
      for (int i = 0; i < kSamplesPerLog; ++i) data.push_back(rng.Hex(64));
    }
    AppendScene(vehicle, ego, tokens, split);

    for (int i = 0; i < kSamplesPerLog; ++i) {
      const double t = i * kSampleSeconds;
      const int64_t time_us = ego.start_us + static_cast<int64_t>(std::llround(t * 1e6));
      AppendSample(tokens, i, time_us, split);
      const double ex = ego.XAt(t), ey = ego.YAt(t);
      const std::vector<Box> boxes = AppendAnnotations(rng, instances, ego, tokens, i, t, split);
      for (size_t s = 0; s < kSensors.size(); ++s) {
        RETURN_IF_ERROR(AppendSensorDatum(rng, vehicle, ego, tokens, boxes, s, i, time_us, ex, ey,
                                          images, lidar, split));
      }
    }
    AppendInstances(shared, instances, split);
  }
  return absl::OkStatus();
}

// The vehicles of a split and their calibrated sensors (Lyft calibrates
// each sensor per vehicle; several logs share a vehicle).
std::vector<Vehicle> MakeVehicles(SyntheticRng& rng, const SharedTables& shared,
                                  const std::vector<int>& numbers, JsonValue& calibrated) {
  std::vector<Vehicle> vehicles;
  for (int number : numbers) {
    Vehicle v;
    v.host = absl::StrFormat("host-a%03d", number);
    v.lidar_translation = {rng.Uniform(-0.05, 0.05), rng.Uniform(-0.05, 0.05),
                           rng.Uniform(1.8, 1.9)};
    v.lidar_yaw = rng.Uniform(-0.05, 0.05);
    for (size_t s = 0; s < kSensors.size(); ++s) {
      v.calibrated_sensor_tokens.push_back(rng.Hex(64));
      const bool is_lidar = std::strcmp(kSensors[s].modality, "lidar") == 0;
      JsonValue record = JsonValue::Object();
      record.Set("sensor_token", JsonValue::String(shared.sensor_tokens[s]));
      if (is_lidar) {
        record.Set("rotation", YawQuaternion(v.lidar_yaw));
      } else {
        // Camera axes: z forward (ahead or behind), x right, y down.
        record.Set("rotation",
                   s == 0 ? Floats({0.5, -0.5, 0.5, -0.5}) : Floats({0.5, 0.5, -0.5, -0.5}));
      }
      JsonValue intrinsic = JsonValue::Array();
      if (!is_lidar) {
        intrinsic.items.push_back(Floats({40.0, 0.0, 16.0}));
        intrinsic.items.push_back(Floats({0.0, 40.0, 16.0}));
        intrinsic.items.push_back(Floats({0.0, 0.0, 1.0}));
      }
      record.Set("camera_intrinsic", std::move(intrinsic));
      record.Set("translation", is_lidar ? Floats({v.lidar_translation[0], v.lidar_translation[1],
                                                   v.lidar_translation[2]})
                                         : Floats({s == 0 ? 1.5 : -1.0, 0.0, 1.6}));
      record.Set("token", JsonValue::String(v.calibrated_sensor_tokens.back()));
      calibrated.items.push_back(std::move(record));
    }
    vehicles.push_back(std::move(v));
  }
  return vehicles;
}

absl::Status WriteJson(const fs::path& path, const JsonValue& value) {
  ASSIGN_OR_RETURN(std::string text, DumpJson(value));
  return WriteStringToFile(path, text);
}

absl::Status WriteTables(const fs::path& dir, const SharedTables& shared, const Split& split,
                         bool with_annotations) {
  JsonValue map = JsonValue::Object();
  map.Set("log_tokens", split.log_tokens);
  map.Set("category", JsonValue::String("semantic_prior"));
  map.Set("filename", JsonValue::String("maps/map_raster_palo_alto.png"));
  map.Set("token", JsonValue::String(shared.map_token));
  std::vector<std::pair<const char*, const JsonValue*>> tables = {
      {"attribute.json", &shared.attribute},
      {"calibrated_sensor.json", &split.calibrated_sensor},
      {"category.json", &shared.category},
      {"ego_pose.json", &split.ego_pose},
      {"log.json", &split.log},
      {"sample.json", &split.sample},
      {"sample_data.json", &split.sample_data},
      {"scene.json", &split.scene},
      {"sensor.json", &shared.sensor},
      {"visibility.json", &shared.visibility},
  };
  if (with_annotations) {
    tables.emplace_back("instance.json", &split.instance);
    tables.emplace_back("sample_annotation.json", &split.sample_annotation);
  }
  for (const auto& [name, table] : tables) {
    RETURN_IF_ERROR(WriteJson(dir / name, *table));
  }
  return WriteJson(dir / "map.json", JsonValue::Array({map}));
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  for (const char* dir : {"train_data", "train_images", "train_lidar", "train_maps", "test_data",
                          "test_images", "test_lidar", "test_maps"}) {
    std::error_code error;
    fs::create_directories(raw_dir / dir, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", dir));
  }
  const SharedTables shared = MakeSharedTables(rng);

  Split train, test;
  const std::vector<Vehicle> train_vehicles =
      MakeVehicles(rng, shared, {4, 7, 11, 15}, train.calibrated_sensor);
  const std::vector<Vehicle> test_vehicles =
      MakeVehicles(rng, shared, {6, 12}, test.calibrated_sensor);
  RETURN_IF_ERROR(MakeSplit(rng, shared, kTrainLogs, train_vehicles, raw_dir / "train_images",
                            raw_dir / "train_lidar", train));
  RETURN_IF_ERROR(MakeSplit(rng, shared, kTestLogs, test_vehicles, raw_dir / "test_images",
                            raw_dir / "test_lidar", test));
  RETURN_IF_ERROR(WriteTables(raw_dir / "train_data", shared, train, true));
  RETURN_IF_ERROR(WriteTables(raw_dir / "test_data", shared, test, false));

  // The map raster: roads on a light background.
  PngImage map{kImageSize, kImageSize, PngColor::kRgb, {}};
  for (int y = 0; y < kImageSize; ++y) {
    for (int x = 0; x < kImageSize; ++x) {
      const bool road = x % 11 < 3 || y % 13 < 3;
      for (int c = 0; c < 3; ++c) map.pixels.push_back(road ? 90 : 230 - 10 * c);
    }
  }
  ASSIGN_OR_RETURN(std::string png, EncodePng(map));
  for (const char* dir : {"train_maps", "test_maps"}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / dir / "map_raster_palo_alto.png", png));
  }

  CsvTextBuilder csv;
  csv.Row({"Id", "PredictionString"});
  for (const auto& [id, prediction] : train.rows) csv.String(id).String(prediction).EndRow();
  RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train.csv", csv.text()));
  CsvTextBuilder sample;
  sample.Row({"Id", "PredictionString"});
  for (const auto& [id, prediction] : test.rows) sample.String(id).Missing().EndRow();
  return WriteStringToFile(raw_dir / "sample_submission.csv", sample.text());
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{
    .id = MLEBENCH_COMPETITION_ID,
    .generate = &Generate,
});

}  // namespace
}  // namespace mlebench
