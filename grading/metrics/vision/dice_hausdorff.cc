#include "grading/metrics/vision/dice_hausdorff.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "grading/metrics/vision/dice.h"
#include "pycompat/numpy_sum.h"

namespace mlebench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The union of several run lists over the same pixels, merged canonically.
PixelRuns UnionOfRuns(const std::vector<const PixelRuns*>& masks) {
  PixelRuns out;
  out.pixel_count = masks.front()->pixel_count;
  std::vector<std::pair<int64_t, int64_t>> all;
  for (const PixelRuns* mask : masks) all.insert(all.end(), mask->runs.begin(), mask->runs.end());
  std::sort(all.begin(), all.end());
  for (const auto& run : all) {
    if (!out.runs.empty() && run.first <= out.runs.back().second) {
      out.runs.back().second = std::max(out.runs.back().second, run.second);
    } else {
      out.runs.push_back(run);
    }
  }
  return out;
}

int64_t CountVoxels(const MaskVolume& volume) {
  int64_t count = 0;
  for (const PixelRuns& slice : volume.slices) count += CountSetPixels(slice);
  return count;
}

bool SameVolume(const MaskVolume& a, const MaskVolume& b) {
  if (a.height != b.height || a.width != b.width || a.slices.size() != b.slices.size()) {
    return false;
  }
  for (size_t s = 0; s < a.slices.size(); ++s) {
    // Merged again so that runs split differently still compare equal.
    if (a.slices[s].runs != b.slices[s].runs &&
        UnionOfRuns({&a.slices[s]}).runs != UnionOfRuns({&b.slices[s]}).runs) {
      return false;
    }
  }
  return true;
}

// A volume's set voxels as (slice, row, column) indices; rows are indexed
// [slice][row] -> sorted columns, for nearest-neighbour search.
struct VoxelIndex {
  std::vector<std::vector<std::vector<int64_t>>> columns;  // [slice][row]
  std::vector<std::array<int64_t, 3>> voxels;
};

VoxelIndex IndexVoxels(const MaskVolume& volume) {
  VoxelIndex index;
  index.columns.assign(volume.slices.size(), std::vector<std::vector<int64_t>>(volume.height));
  for (size_t s = 0; s < volume.slices.size(); ++s) {
    for (const auto& [begin, end] : volume.slices[s].runs) {
      for (int64_t p = begin; p < end; ++p) {
        const int64_t row = p % volume.height, column = p / volume.height;
        index.columns[s][row].push_back(column);
        index.voxels.push_back({static_cast<int64_t>(s), row, column});
      }
    }
  }
  // Runs go down columns, so each row's columns arrive in increasing order.
  return index;
}

// Normalised coordinates i / extent, as numpy's int64 / int64 true division.
std::vector<double> Normalized(int64_t count, int64_t extent) {
  std::vector<double> out(count);
  for (int64_t i = 0; i < count; ++i) out[i] = static_cast<double>(i) / static_cast<double>(extent);
  return out;
}

double Square(double x) { return x * x; }

// scipy's directed_hausdorff(from, to) squared: max over `from` of the min
// over `to` of ((dz^2 + dy^2) + dx^2), in scipy's order of additions. Found
// by an exact nearest-neighbour search instead of scipy's shuffled scan: every
// bound used to prune is a partial sum of the same rounded terms, which can
// only grow as terms are added, so the minimum found is the same double.
// Like scipy, a voxel is dropped as soon as some point is closer than the
// running maximum; the previous voxel's nearest point is tried first, since
// neighbouring voxels have nearby nearest points, and a sparse sample of the
// voxels goes first so the running maximum is near its final value early
// (together these keep far-apart masks fast). Visiting a voxel twice cannot
// change a maximum.
double DirectedSquared(const VoxelIndex& from, const VoxelIndex& to, const std::vector<double>& z,
                       const std::vector<double>& y, const std::vector<double>& x) {
  double cmax = 0.0;
  const int64_t to_slices = static_cast<int64_t>(to.columns.size());
  std::array<int64_t, 3> nearest = to.voxels.front();
  constexpr size_t kSampleStride = 97;
  const size_t sample_count = (from.voxels.size() + kSampleStride - 1) / kSampleStride;
  for (size_t visit = 0; visit < sample_count + from.voxels.size(); ++visit) {
    const size_t i = visit < sample_count ? visit * kSampleStride : visit - sample_count;
    // Named one by one, not as a structured binding: the lambdas below use
    // them, which clang before 16 refuses (the fuzz targets' clang 14).
    const int64_t s = from.voxels[i][0];
    const int64_t h = from.voxels[i][1];
    const int64_t w = from.voxels[i][2];
    std::array<int64_t, 3> best_voxel = nearest;
    double best = (Square(z[s] - z[nearest[0]]) + Square(y[h] - y[nearest[1]])) +
                  Square(x[w] - x[nearest[2]]);
    auto search_slice = [&](int64_t s2) {
      const double dz2 = Square(z[s] - z[s2]);
      if (dz2 >= best) return false;
      const std::vector<std::vector<int64_t>>& rows = to.columns[s2];
      const int64_t row_count = static_cast<int64_t>(rows.size());
      auto search_row = [&](int64_t h2) {
        const double t = dz2 + Square(y[h] - y[h2]);
        if (t >= best) return false;
        const std::vector<int64_t>& ws = rows[h2];
        const auto mid = std::lower_bound(ws.begin(), ws.end(), w);
        for (auto it = mid; it != ws.end(); ++it) {
          const double d = t + Square(x[w] - x[*it]);
          if (d >= best) break;
          best = d;
          best_voxel = {s2, h2, *it};
        }
        for (auto it = mid; it != ws.begin();) {
          --it;
          const double d = t + Square(x[w] - x[*it]);
          if (d >= best) break;
          best = d;
          best_voxel = {s2, h2, *it};
        }
        return true;
      };
      for (int64_t h2 = std::min(h, row_count - 1); h2 >= 0 && best >= cmax; --h2) {
        if (!search_row(h2)) break;
      }
      for (int64_t h2 = h + 1; h2 < row_count && best >= cmax; ++h2) {
        if (!search_row(h2)) break;
      }
      return true;
    };
    for (int64_t s2 = std::min(s, to_slices - 1); s2 >= 0 && best >= cmax; --s2) {
      if (!search_slice(s2)) break;
    }
    for (int64_t s2 = s + 1; s2 < to_slices && best >= cmax; ++s2) {
      if (!search_slice(s2)) break;
    }
    nearest = best_voxel;
    if (best >= cmax) cmax = best;
  }
  return cmax;
}

// np.nanmean of a float64 array: NaNs replaced by 0, np.sum, divided by the
// count of non-NaN values (NaN when there are none).
double NanMean(std::vector<double> values) {
  int64_t count = 0;
  for (double& v : values) {
    if (std::isnan(v)) {
      v = 0.0;
    } else {
      ++count;
    }
  }
  if (count == 0) return kNaN;
  return NumpySum(values) / static_cast<double>(count);
}

absl::StatusOr<std::vector<SliceMask>> DecodeAll(const std::vector<std::string>& rles,
                                                 const std::vector<int64_t>& heights,
                                                 const std::vector<int64_t>& widths, size_t count,
                                                 const char* side) {
  std::vector<SliceMask> masks;
  masks.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    absl::StatusOr<PixelRuns> runs = DecodeRle(rles[i], heights[i] * widths[i]);
    if (!runs.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(side, " row ", i + 1, ": bad RLE '", rles[i],
                                                     "': ", std::string(runs.status().message())));
    }
    masks.push_back(SliceMask{heights[i], widths[i], *std::move(runs)});
  }
  return masks;
}

}  // namespace

absl::StatusOr<std::vector<MaskVolume>> GroupMasksByDay(const std::vector<SliceMask>& masks,
                                                        const std::vector<std::string>& ids) {
  const size_t count = std::min(masks.size(), ids.size());
  std::vector<size_t> order(count);
  for (size_t i = 0; i < count; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return ids[a] < ids[b]; });

  std::vector<MaskVolume> volumes;
  std::map<std::string, size_t> volume_of_day;
  for (size_t i = 0; i < count;) {
    // The sorted run of masks sharing this id is one slice.
    size_t j = i;
    std::vector<const PixelRuns*> same_slice;
    const SliceMask& first = masks[order[i]];
    for (; j < count && ids[order[j]] == ids[order[i]]; ++j) {
      const SliceMask& mask = masks[order[j]];
      if (mask.height != first.height || mask.width != first.width) {
        return absl::InvalidArgumentError(absl::StrCat(
            "masks of id '", ids[order[i]], "' have different shapes (", first.height, "x",
            first.width, " and ", mask.height, "x", mask.width, ")"));
      }
      same_slice.push_back(&mask.runs);
    }
    const std::string& id = ids[order[i]];
    const std::string day = id.substr(0, id.find("_slice_"));
    auto [it, inserted] = volume_of_day.emplace(day, volumes.size());
    if (inserted) volumes.push_back(MaskVolume{first.height, first.width, {}});
    MaskVolume& volume = volumes[it->second];
    if (volume.height != first.height || volume.width != first.width) {
      return absl::InvalidArgumentError(
          absl::StrCat("slices of case-day '", day, "' have different shapes (", volume.height,
                       "x", volume.width, " and ", first.height, "x", first.width, ")"));
    }
    volume.slices.push_back(UnionOfRuns(same_slice));
    i = j;
  }
  return volumes;
}

double NormalizedHausdorffDistance(const MaskVolume& predicted, const MaskVolume& truth) {
  const int64_t predicted_count = CountVoxels(predicted);
  const int64_t true_count = CountVoxels(truth);
  if (predicted_count == 0 && true_count == 0) return kNaN;
  if (SameVolume(predicted, truth)) return 0.0;
  if (predicted_count == 0 || true_count == 0) return 1.0;
  if (predicted_count > 10 * true_count) return 1.0;

  const VoxelIndex true_index = IndexVoxels(truth);
  const VoxelIndex predicted_index = IndexVoxels(predicted);
  // Both point sets are divided by the true mask's shape.
  const int64_t true_slices = static_cast<int64_t>(truth.slices.size());
  const std::vector<double> z = Normalized(
      std::max<int64_t>(true_slices, static_cast<int64_t>(predicted.slices.size())), true_slices);
  const std::vector<double> y =
      Normalized(std::max(truth.height, predicted.height), truth.height);
  const std::vector<double> x = Normalized(std::max(truth.width, predicted.width), truth.width);
  const double squared = std::max(DirectedSquared(true_index, predicted_index, z, y, x),
                                  DirectedSquared(predicted_index, true_index, z, y, x));
  return std::sqrt(squared) / std::sqrt(3.0);
}

absl::StatusOr<double> DiceHausdorffScore(const std::vector<std::string>& submission_ids,
                                          const std::vector<std::string>& submission_rles,
                                          const std::vector<std::string>& answer_ids,
                                          const std::vector<std::string>& answer_rles,
                                          const std::vector<int64_t>& answer_heights,
                                          const std::vector<int64_t>& answer_widths) {
  if (submission_ids.size() != submission_rles.size()) {
    return absl::InvalidArgumentError("submission ids and RLEs differ in length");
  }
  const size_t answer_count = answer_ids.size();
  if (answer_rles.size() != answer_count || answer_heights.size() != answer_count ||
      answer_widths.size() != answer_count) {
    return absl::InvalidArgumentError("answers: columns differ in length");
  }
  for (size_t i = 0; i < answer_count; ++i) {
    if (answer_heights[i] < 0 || answer_widths[i] < 0) {
      return absl::InvalidArgumentError(absl::StrCat("answers row ", i + 1, ": negative size"));
    }
  }
  const size_t paired = std::min(submission_rles.size(), answer_count);
  ASSIGN_OR_RETURN(std::vector<SliceMask> submission_masks,
                   DecodeAll(submission_rles, answer_heights, answer_widths, paired, "submission"));
  ASSIGN_OR_RETURN(std::vector<SliceMask> answer_masks,
                   DecodeAll(answer_rles, answer_heights, answer_widths, answer_count, "answers"));

  absl::StatusOr<std::vector<MaskVolume>> submission_days =
      GroupMasksByDay(submission_masks, submission_ids);
  if (!submission_days.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("submission: ", std::string(submission_days.status().message())));
  }
  absl::StatusOr<std::vector<MaskVolume>> answer_days = GroupMasksByDay(answer_masks, answer_ids);
  if (!answer_days.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("answers: ", std::string(answer_days.status().message())));
  }

  std::vector<double> dices;
  dices.reserve(paired);
  for (size_t i = 0; i < paired; ++i) {
    // Row i of both sides has answer row i's shape, so this cannot fail.
    dices.push_back(*DiceCoefficient((submission_masks)[i].runs, (answer_masks)[i].runs, kNaN));
  }
  std::vector<double> distances;
  const size_t day_pairs = std::min(submission_days->size(), answer_days->size());
  for (size_t i = 0; i < day_pairs; ++i) {
    distances.push_back(NormalizedHausdorffDistance((*submission_days)[i], (*answer_days)[i]));
  }
  return 0.4 * NanMean(std::move(dices)) + 0.6 * (1.0 - NanMean(std::move(distances)));
}

}  // namespace mlebench
