#include "grading/metrics/vision/lyft_box3d_map.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/metrics/vision/geos_api.h"
#include "pycompat/numpy_sum.h"
#include "pycompat/object_float_cast.h"
#include "pycompat/python_list_sort.h"
#include "pycompat/python_str.h"

namespace mlebench {
namespace {

constexpr size_t kTokensPerBox = 9;

// One GEOS context per evaluation (the reentrant API is not shared across
// threads); errors are kept instead of being printed.
class GeosContext {
 public:
  explicit GeosContext(const GeosApi& api) : api_(api), handle_(api.init()) {
    api_.set_error_message_handler(handle_, &GeosContext::OnError, &last_error_);
    api_.set_notice_message_handler(handle_, &GeosContext::OnNotice, nullptr);
  }
  ~GeosContext() { api_.finish(handle_); }
  GeosContext(const GeosContext&) = delete;
  GeosContext& operator=(const GeosContext&) = delete;

  const GeosApi& api() const { return api_; }
  GEOSContextHandle_t handle() const { return handle_; }
  const std::string& last_error() const { return last_error_; }

 private:
  static void OnError(const char* message, void* userdata) {
    *static_cast<std::string*>(userdata) = message == nullptr ? "" : message;
  }
  static void OnNotice(const char*, void*) {}

  const GeosApi& api_;
  GEOSContextHandle_t handle_;
  std::string last_error_;
};

// Owns a GEOS geometry of one context.
class GeosGeometry {
 public:
  GeosGeometry(const GeosContext& geos, GEOSGeometry* geometry)
      : api_(&geos.api()), context_(geos.handle()), geometry_(geometry) {}
  ~GeosGeometry() {
    if (geometry_ != nullptr) api_->destroy(context_, geometry_);
  }
  GeosGeometry(GeosGeometry&& other) noexcept
      : api_(other.api_),
        context_(other.context_),
        geometry_(std::exchange(other.geometry_, nullptr)) {}
  GeosGeometry(const GeosGeometry&) = delete;
  GeosGeometry& operator=(const GeosGeometry&) = delete;
  GeosGeometry& operator=(GeosGeometry&&) = delete;

  const GEOSGeometry* get() const { return geometry_; }

 private:
  const GeosApi* api_;
  GEOSContextHandle_t context_;
  GEOSGeometry* geometry_;
};

// A Box3D that passed upstream's checks: what its IoU needs.
struct GroundBox {
  double min_z = 0, max_z = 0, volume = 0;
  double x_min = 0, x_max = 0, y_min = 0, y_max = 0;  // envelope of the corners
  GeosGeometry polygon;
};

// Box3D.check_orthogonal with np.isclose(dot, 0): |dot| <= 1e-8, false for
// NaN and infinities.
bool Orthogonal(const double a[2], const double b[2], const double c[2]) {
  const double dot = (b[0] - a[0]) * (c[0] - a[0]) + (b[1] - a[1]) * (c[1] - a[1]);
  return std::fabs(dot) <= 1e-8;
}

// Box3D(**box): its checks in upstream's order, then the ground polygon.
absl::StatusOr<GroundBox> BuildBox(const LyftBox& box, bool token_is_text,
                                   const GeosContext& geos) {
  if (!token_is_text) return absl::InvalidArgumentError("Sample_token must be a string!");
  for (double v : {box.center_x, box.center_y, box.center_z}) {
    if (std::isnan(v)) return absl::InvalidArgumentError("Translation may not be NaN!");
  }
  for (double v : {box.width, box.length, box.height}) {
    if (std::isnan(v)) return absl::InvalidArgumentError("Size may not be NaN!");
  }
  for (double v : box.rotation) {
    if (std::isnan(v)) return absl::InvalidArgumentError("Rotation may not be NaN!");
  }
  if (!(box.width > 0 && box.length > 0 && box.height > 0)) {
    return absl::InvalidArgumentError("size must be positive (assert failed)");
  }

  // pyquaternion's rotation_matrix: normalise unless |1 - |q|^2| < 1e-14,
  // then entries [0, 0] and [1, 0] of q_matrix . q_bar_matrix^T, summed in
  // index order as the 4x4 product does.
  std::array<double, 4> q = box.rotation;
  const double sum_of_squares = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (!(std::fabs(1.0 - sum_of_squares) < 1e-14)) {
    const double norm = std::sqrt(sum_of_squares);
    if (norm > 0) {
      for (double& v : q) v = v / norm;
    }
  }
  const double cos_angle = q[1] * q[1] + q[0] * q[0] + (-q[3]) * q[3] + q[2] * (-q[2]);
  const double sin_angle = q[2] * q[1] + q[3] * q[0] + q[0] * q[3] + (-q[1]) * (-q[2]);

  const double half_length = box.length / 2, half_width = box.width / 2;
  const double p0[2] = {box.center_x + half_length * cos_angle + half_width * sin_angle,
                        box.center_y + half_length * sin_angle - half_width * cos_angle};
  const double p1[2] = {box.center_x + half_length * cos_angle - half_width * sin_angle,
                        box.center_y + half_length * sin_angle + half_width * cos_angle};
  const double p2[2] = {box.center_x - half_length * cos_angle - half_width * sin_angle,
                        box.center_y - half_length * sin_angle + half_width * cos_angle};
  const double p3[2] = {box.center_x - half_length * cos_angle + half_width * sin_angle,
                        box.center_y - half_length * sin_angle - half_width * cos_angle};
  if (!Orthogonal(p0, p1, p3) || !Orthogonal(p1, p0, p2) || !Orthogonal(p2, p1, p3) ||
      !Orthogonal(p3, p0, p2)) {
    return absl::InvalidArgumentError(
        "its ground corners fail Box3D's orthogonality check (non-finite or huge values)");
  }

  const GeosApi& api = geos.api();
  GEOSContextHandle_t context = geos.handle();
  GEOSCoordSequence* ring = api.coord_seq_create(context, 5, 2);
  if (ring == nullptr) return absl::InternalError("GEOS cannot allocate a coordinate sequence");
  const double* corners[5] = {p0, p1, p2, p3, p0};
  for (unsigned i = 0; i < 5; ++i) {
    api.coord_seq_set_xy(context, ring, i, corners[i][0], corners[i][1]);
  }
  GEOSGeometry* shell = api.create_linear_ring(context, ring);  // takes `ring`
  GEOSGeometry* polygon =
      shell == nullptr ? nullptr : api.create_polygon(context, shell, nullptr, 0);
  if (polygon == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("shapely cannot build its ground polygon: ", geos.last_error()));
  }
  GroundBox ground{.min_z = box.center_z - box.height / 2,
                   .max_z = box.center_z + box.height / 2,
                   .volume = box.width * box.length * box.height,
                   .x_min = std::min({p0[0], p1[0], p2[0], p3[0]}),
                   .x_max = std::max({p0[0], p1[0], p2[0], p3[0]}),
                   .y_min = std::min({p0[1], p1[1], p2[1], p3[1]}),
                   .y_max = std::max({p0[1], p1[1], p2[1], p3[1]}),
                   .polygon = GeosGeometry(geos, polygon)};
  return ground;
}

// predicted_box.get_iou(answer_box).
absl::StatusOr<double> Iou(const GroundBox& predicted, const GroundBox& answer,
                           const GeosContext& geos) {
  // Python's max(answer, predicted) / min(answer, predicted): the second
  // only when strictly greater / smaller; max(0, d) likewise.
  const double min_z = predicted.min_z > answer.min_z ? predicted.min_z : answer.min_z;
  const double max_z = predicted.max_z < answer.max_z ? predicted.max_z : answer.max_z;
  const double height_difference = max_z - min_z;
  const double height = height_difference > 0 ? height_difference : 0.0;

  double area = 0.0;  // disjoint envelopes: GEOS's intersection is empty
  if (!(predicted.x_max < answer.x_min || answer.x_max < predicted.x_min ||
        predicted.y_max < answer.y_min || answer.y_max < predicted.y_min)) {
    const GeosApi& api = geos.api();
    GEOSContextHandle_t context = geos.handle();
    GeosGeometry intersection(
        geos, api.intersection(context, predicted.polygon.get(), answer.polygon.get()));
    if (intersection.get() == nullptr || api.area(context, intersection.get(), &area) == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("shapely cannot intersect two ground polygons: ", geos.last_error()));
    }
  }
  const double intersection = height * area;
  const double union_volume = predicted.volume + answer.volume - intersection;
  const double iou = intersection / union_volume;
  if (std::isnan(iou)) return iou;  // np.clip keeps NaN
  return std::clamp(iou, 0.0, 1.0);
}

// get_ap: sentinels, precision envelope, sum of recall steps times precision.
double AveragePrecision(const std::vector<double>& recalls, const std::vector<double>& precisions) {
  std::vector<double> r, p;
  r.reserve(recalls.size() + 2);
  p.reserve(precisions.size() + 2);
  r.push_back(0.0);
  p.push_back(0.0);
  r.insert(r.end(), recalls.begin(), recalls.end());
  p.insert(p.end(), precisions.begin(), precisions.end());
  r.push_back(1.0);
  p.push_back(0.0);
  for (size_t i = p.size() - 1; i > 0; --i) {
    // np.maximum propagates NaN (none arises: precisions are finite).
    p[i - 1] = std::isnan(p[i - 1]) || std::isnan(p[i]) ? std::nan("") : std::max(p[i - 1], p[i]);
  }
  std::vector<double> terms;
  for (size_t i = 0; i + 1 < r.size(); ++i) {
    if (r[i + 1] != r[i]) terms.push_back((r[i + 1] - r[i]) * p[i + 1]);
  }
  return NumpySum(terms);
}

// The best answer box of one prediction: np.max and np.argmax of its IoUs.
struct BestOverlap {
  double iou = -INFINITY;
  size_t index = 0;
};

BestOverlap Best(const std::vector<double>& ious) {
  BestOverlap best{ious[0], 0};
  for (size_t j = 1; j < ious.size() && !std::isnan(best.iou); ++j) {
    if (std::isnan(ious[j]) || ious[j] > best.iou) best = {ious[j], j};
  }
  return best;
}

// recall_precision's AP at `threshold` for one class, given each ranked
// prediction's best overlap.
double ClassAveragePrecision(const std::vector<BestOverlap>& ranked, size_t num_truths,
                             double threshold) {
  std::vector<bool> matched(num_truths, false);
  std::vector<double> recalls, precisions;
  recalls.reserve(ranked.size());
  precisions.reserve(ranked.size());
  double true_positives = 0;
  for (size_t k = 0; k < ranked.size(); ++k) {
    if (ranked[k].iou > threshold && !matched[ranked[k].index]) {
      matched[ranked[k].index] = true;
      true_positives += 1;
    }
    recalls.push_back(true_positives / static_cast<double>(num_truths));
    precisions.push_back(true_positives / static_cast<double>(k + 1));
  }
  return AveragePrecision(recalls, precisions);
}

}  // namespace

std::vector<size_t> PredictionRankOrder(const std::vector<double>& scores) {
  return PythonSortedOrder(scores, /*reverse=*/true);
}

absl::StatusOr<std::vector<LyftBox>> ParseLyftPredictionString(std::string_view text) {
  const std::optional<std::u32string> decoded = DecodeUtf8(text);
  if (!decoded.has_value()) return absl::InvalidArgumentError("is not UTF-8 text");
  if (PythonSplit(*decoded).empty()) return std::vector<LyftBox>{};  // strip() == ""

  std::vector<std::string_view> tokens;
  size_t start = 0;
  while (true) {
    const size_t space = text.find(' ', start);
    tokens.push_back(text.substr(start, space == std::string_view::npos ? space : space - start));
    if (space == std::string_view::npos) break;
    start = space + 1;
  }
  if (tokens.size() % kTokensPerBox != 0) {
    return absl::InvalidArgumentError(absl::StrCat("Prediction string must have ", kTokensPerBox,
                                                   " tokens per object, but got ", tokens.size(),
                                                   " tokens"));
  }
  std::vector<LyftBox> boxes;
  boxes.reserve(tokens.size() / kTokensPerBox);
  for (size_t i = 0; i < tokens.size(); i += kTokensPerBox) {
    double values[kTokensPerBox - 1];
    for (size_t k = 0; k + 1 < kTokensPerBox; ++k) {
      const std::optional<double> value = PythonFloatFromString(tokens[i + k]);
      if (!value.has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat("could not convert string to float: '", std::string(tokens[i + k]), "'"));
      }
      values[k] = *value;
    }
    LyftBox box{.score = values[0],
                .center_x = values[1],
                .center_y = values[2],
                .center_z = values[3],
                .width = values[4],
                .length = values[5],
                .height = values[6],
                .name = std::string(tokens[i + 8])};
    // Quaternion(axis=[0, 0, 1], radians=yaw): `radians or ... or 0.0` makes
    // a zero yaw (either sign) 0.0; math.cos/sin reject infinities.
    const double yaw = values[7];
    if (std::isinf(yaw)) {
      return absl::InvalidArgumentError(
          absl::StrCat("yaw '", std::string(tokens[i + 7]), "' is infinite (math domain error)"));
    }
    const double theta = (yaw == 0.0 ? 0.0 : yaw) / 2.0;
    const double sine = std::sin(theta);
    box.rotation = {std::cos(theta), 0.0 * sine, 0.0 * sine, 1.0 * sine};
    boxes.push_back(std::move(box));
  }
  return boxes;
}

absl::StatusOr<std::array<double, 10>> LyftSampleAveragePrecisions(const LyftSample& sample) {
  // get_class_names and group_by_key("name"), in sorted class order.
  std::map<std::string, std::pair<std::vector<size_t>, std::vector<size_t>>> classes;
  for (size_t i = 0; i < sample.truths.size(); ++i) {
    classes[sample.truths[i].name].first.push_back(i);
  }
  for (size_t i = 0; i < sample.predictions.size(); ++i) {
    auto it = classes.find(sample.predictions[i].name);
    if (it != classes.end()) it->second.second.push_back(i);
  }

  ASSIGN_OR_RETURN(const GeosApi* geos_api, Geos());
  GeosContext geos(*geos_api);
  // per_class[t][c]: the AP of class c at threshold t.
  std::array<std::vector<double>, kLyftIouThresholds.size()> per_class;
  for (const auto& [name, members] : classes) {
    const auto& [truth_indices, prediction_indices] = members;
    if (prediction_indices.empty()) {
      for (std::vector<double>& aps : per_class) aps.push_back(0.0);
      continue;
    }
    std::vector<GroundBox> truths;
    for (size_t i : truth_indices) {
      absl::StatusOr<GroundBox> box = BuildBox(sample.truths[i], sample.token_is_text, geos);
      if (!box.ok()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "answer box of class '", name, "': ", std::string(box.status().message())));
      }
      truths.push_back(*std::move(box));
    }
    std::vector<double> scores;
    for (size_t i : prediction_indices) scores.push_back(sample.predictions[i].score);
    std::vector<BestOverlap> ranked;
    for (size_t rank : PredictionRankOrder(scores)) {
      absl::StatusOr<GroundBox> box =
          BuildBox(sample.predictions[prediction_indices[rank]], sample.token_is_text, geos);
      if (!box.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("predicted box of class '", name,
                                                       "': ", std::string(box.status().message())));
      }
      std::vector<double> ious;
      ious.reserve(truths.size());
      for (const GroundBox& truth : truths) {
        ASSIGN_OR_RETURN(double iou, Iou(*box, truth, geos));
        ious.push_back(iou);
      }
      ranked.push_back(Best(ious));
    }
    for (size_t t = 0; t < kLyftIouThresholds.size(); ++t) {
      per_class[t].push_back(
          ClassAveragePrecision(ranked, truth_indices.size(), kLyftIouThresholds[t]));
    }
  }
  std::array<double, 10> result;
  for (size_t t = 0; t < result.size(); ++t) result[t] = NumpyMean(per_class[t]);
  return result;
}

absl::StatusOr<double> LyftMeanAveragePrecision(const std::vector<LyftSample>& samples) {
  std::vector<double> values;
  values.reserve(samples.size() * kLyftIouThresholds.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    absl::StatusOr<std::array<double, 10>> sample_values = LyftSampleAveragePrecisions(samples[i]);
    if (!sample_values.ok()) {
      return absl::Status(sample_values.status().code(),
                          absl::StrCat("sample ", i, ": ", sample_values.status().message()));
    }
    values.insert(values.end(), sample_values->begin(), sample_values->end());
  }
  return NumpyMean(values);
}

}  // namespace mlebench
