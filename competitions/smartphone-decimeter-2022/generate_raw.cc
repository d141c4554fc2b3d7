// Synthetic raw data for smartphone-decimeter-2022, in the Kaggle layout that
// upstream's prepare.py reads:
//   train/<YYYY-MM-DD-US-XXX-N>/<phone>/ground_truth.csv  (true positions)
//   train/<drive>/<phone>/device_gnss.csv  (noisy WLS fixes in ECEF metres)
//   metadata/accumulated_delta_range_sigma_multiplier.csv
// Each phone drives a smooth track; device_gnss.csv holds the same epochs'
// positions with a few metres of noise, so converting its ECEF fixes to
// latitude/longitude beats any constant guess by far.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// WGS84 geodetic (degrees, metres) to ECEF metres.
void ToEcef(double lat_deg, double lng_deg, double height, double* x, double* y, double* z) {
  constexpr double a = 6378137.0, e2 = 6.69437999013e-3;
  const double lat = lat_deg * M_PI / 180, lng = lng_deg * M_PI / 180;
  const double n = a / std::sqrt(1 - e2 * std::sin(lat) * std::sin(lat));
  *x = (n + height) * std::cos(lat) * std::cos(lng);
  *y = (n + height) * std::cos(lat) * std::sin(lng);
  *z = (n * (1 - e2) + height) * std::sin(lat);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  const std::vector<std::string> phones = {"GooglePixel4", "XiaomiMi8", "SamsungGalaxyS20Ultra",
                                           "GooglePixel5"};
  const std::vector<std::string> regions = {"MTV", "SJC", "LAX", "SVL"};
  std::error_code error;
  constexpr int kDrives = 14;
  for (int d = 0; d < kDrives; ++d) {
    // Dates are unpadded sometimes, as get_date allows ("2021-4-2-...").
    const int month = 1 + static_cast<int>(rng.UniformInt(12));
    const int day = 1 + static_cast<int>(rng.UniformInt(28));
    const std::string drive = absl::StrFormat(
        "20%d-%s-%s-US-%s-%d", 20 + d % 3, d % 5 == 0 ? absl::StrCat(month) : absl::StrFormat("%02d", month),
        absl::StrFormat("%02d", day), rng.Choice(regions), 1 + d);
    const double lat0 = rng.Uniform(33.5, 38.0), lng0 = rng.Uniform(-122.5, -117.5);
    const double heading = rng.Uniform(0, 2 * M_PI);
    const int64_t start_ms = 1600000000000 + static_cast<int64_t>(rng.UniformInt(50000000)) * 1000;
    const int num_phones = 1 + static_cast<int>(rng.UniformInt(2));
    for (int p = 0; p < num_phones; ++p) {
      const std::string& phone = phones[(d + p) % phones.size()];
      const fs::path dir = raw_dir / "train" / drive / phone;
      fs::create_directories(dir, error);
      if (error) return absl::InternalError(absl::StrCat("mkdir ", dir.string(), ": ", error.message()));
      std::string truth =
          "MessageType,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,"
          "AccuracyMeters,BearingDegrees,UnixTimeMillis\n";
      std::string gnss =
          "MessageType,utcTimeMillis,WlsPositionXEcefMeters,WlsPositionYEcefMeters,"
          "WlsPositionZEcefMeters\n";
      const int epochs = 25 + static_cast<int>(rng.UniformInt(20));
      double lat = lat0, lng = lng0;
      for (int e = 0; e < epochs; ++e) {
        const double speed = 10 + 3 * std::sin(e / 5.0);
        const double bearing = heading + 0.02 * e;
        lat += speed * std::cos(bearing) / 111195.0;
        lng += speed * std::sin(bearing) / (111195.0 * std::cos(lat * M_PI / 180));
        const double alt = 10 + rng.Normal(0, 1);
        const int64_t t = start_ms + 1000 * e;
        absl::StrAppendFormat(&truth, "Fix,GT,%.9f,%.9f,%.2f,%.3f,0.1,%.1f,%d\n", lat, lng, alt, speed,
                              std::fmod(bearing * 180 / M_PI, 360.0), t);
        double x, y, z;
        ToEcef(lat, lng, alt, &x, &y, &z);
        absl::StrAppendFormat(&gnss, "Raw,%d,%.3f,%.3f,%.3f\n", t, x + rng.Normal(0, 3),
                              y + rng.Normal(0, 3), z + rng.Normal(0, 3));
      }
      RETURN_IF_ERROR(WriteStringToFile(dir / "ground_truth.csv", truth));
      RETURN_IF_ERROR(WriteStringToFile(dir / "device_gnss.csv", gnss));
    }
  }
  fs::create_directories(raw_dir / "metadata", error);
  if (error) return absl::InternalError(absl::StrCat("mkdir metadata: ", error.message()));
  return WriteStringToFile(raw_dir / "metadata" / "accumulated_delta_range_sigma_multiplier.csv",
                           "Phone,SigmaMultiplier\nGooglePixel4,1.0\nXiaomiMi8,2.0\n");
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
