// Synthetic raw download of new-york-city-taxi-fare-prediction: train.csv
// (key, fare_amount, pickup_datetime, four coordinates, passenger_count),
// test.csv (the same without fare_amount), sample_submission.csv (fare 11.35)
// and GCP-Coupons-Instructions.rtf, which upstream's prepare.py copies.
// Upstream carves its test set of exactly 9914 rows out of train.csv, so
// train.csv has 12,500 rows (the fewest that leave a useful training set),
// not a few thousand.
//
// Rides start and end around Manhattan, the two airports and nearby
// boroughs, between 2009 and mid-2015. The fare follows the meter: a $2.50
// flag drop, a per-km rate that rises in September 2012, a detour factor,
// waiting time, night and weekday-peak surcharges, rounded as the meter
// rounds; rides between JFK and Manhattan pay the flat fare of their time.
// About 1% of rows have zero coordinates (as in Kaggle's data) and a few
// fares are negative, so a model on straight-line distance does well but
// not perfectly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "base/files.h"
#include "synthetic/rng.h"
#include "base/status_macros.h"
#include "synthetic/csv_text.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

constexpr int kNumTrain = 12'500;
constexpr int kNumTest = 1'500;
constexpr double kSampleFare = 11.35;

struct Place {
  double longitude;
  double latitude;
  double spread;  // standard deviation of both coordinates, in degrees
};

// Where rides start and end, with weights.
const std::vector<Place> kManhattan = {
    {-73.985, 40.758, 0.008},  // Midtown
    {-74.008, 40.711, 0.006},  // Financial District
    {-73.958, 40.773, 0.007},  // Upper East Side
    {-73.977, 40.787, 0.007},  // Upper West Side
    {-73.999, 40.733, 0.006},  // the Villages
};
const Place kJfk = {-73.7822, 40.6437, 0.004};
const Place kLaGuardia = {-73.8726, 40.7738, 0.003};
const std::vector<Place> kBoroughs = {
    {-73.950, 40.680, 0.02},  // Brooklyn
    {-73.920, 40.745, 0.02},  // Queens
};

enum class Area { kManhattan, kJfk, kLaGuardia, kBorough };

struct Point {
  double longitude;
  double latitude;
};

Point Draw(SyntheticRng& rng, Area area) {
  const Place* place = nullptr;
  switch (area) {
    case Area::kManhattan:
      place = &kManhattan[rng.Categorical({4, 2, 2, 2, 2})];
      break;
    case Area::kJfk:
      place = &kJfk;
      break;
    case Area::kLaGuardia:
      place = &kLaGuardia;
      break;
    case Area::kBorough:
      place = &rng.Choice(kBoroughs);
      break;
  }
  return {rng.Normal(place->longitude, place->spread), rng.Normal(place->latitude, place->spread)};
}

double HaversineKm(const Point& a, const Point& b) {
  constexpr double kEarthRadiusKm = 6371.0;
  constexpr double kRadians = std::numbers::pi / 180.0;
  const double dlat = (b.latitude - a.latitude) * kRadians;
  const double dlon = (b.longitude - a.longitude) * kRadians;
  const double h = std::sin(dlat / 2) * std::sin(dlat / 2) +
                   std::cos(a.latitude * kRadians) * std::cos(b.latitude * kRadians) *
                       std::sin(dlon / 2) * std::sin(dlon / 2);
  return 2 * kEarthRadiusKm * std::asin(std::sqrt(h));
}

// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's algorithm).
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct Ride {
  int year, month, day, hour, minute, second;
  Point pickup, dropoff;
  int passengers;
  double fare;
};

bool IsLeap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeap(year) ? 29 : kDays[month - 1];
}

double MeterFare(SyntheticRng& rng, const Ride& r, Area from, Area to) {
  const bool new_rates =
      r.year > 2012 || (r.year == 2012 && (r.month > 9 || (r.month == 9 && r.day >= 4)));
  const bool jfk_flat = (from == Area::kJfk && to == Area::kManhattan) ||
                        (from == Area::kManhattan && to == Area::kJfk);
  if (jfk_flat) return (new_rates ? 52.0 : 45.0) + (rng.Bernoulli(0.3) ? 5.33 : 0.0);
  const int weekday =
      static_cast<int>((DaysFromCivil(r.year, r.month, r.day) + 4) % 7);  // 0 Sunday
  const double per_km = new_rates ? 1.55 : 1.24;
  const double detour = std::exp(rng.Normal(0.25, 0.12));
  const bool daytime = r.hour >= 7 && r.hour < 20;
  double fare = 2.5 + per_km * HaversineKm(r.pickup, r.dropoff) * detour;
  fare += -std::log(1.0 - rng.Uniform()) * (daytime ? 2.0 : 0.8);  // waiting in traffic
  if (r.hour >= 20 || r.hour < 6) fare += 0.5;
  if (weekday >= 1 && weekday <= 5 && r.hour >= 16 && r.hour < 20) fare += 1.0;
  // Written as the nearest double to the decimal, as a CSV holds it.
  return new_rates ? std::round(fare * 2) / 2 : std::round(fare * 10) / 10;
}

Ride MakeRide(SyntheticRng& rng) {
  Ride r;
  r.year = static_cast<int>(rng.UniformInt(2009, 2015));
  r.month = static_cast<int>(rng.UniformInt(1, r.year == 2015 ? 6 : 12));
  r.day = static_cast<int>(rng.UniformInt(1, DaysInMonth(r.year, r.month)));
  // Fewest rides before dawn, most in the evening.
  r.hour = static_cast<int>(
      rng.Categorical({5, 4, 3, 2, 1, 1, 2, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 7, 8, 7, 7, 6, 6}));
  r.minute = static_cast<int>(rng.UniformInt(0, 59));
  r.second = static_cast<int>(rng.UniformInt(0, 59));
  const Area from = static_cast<Area>(rng.Categorical({90, 2.5, 2.5, 5}));
  const Area to = from == Area::kManhattan ? static_cast<Area>(rng.Categorical({88, 3, 3, 6}))
                                           : Area::kManhattan;
  r.pickup = Draw(rng, from);
  r.dropoff = Draw(rng, to);
  if (from == Area::kManhattan && to == Area::kManhattan && rng.Bernoulli(0.6)) {
    // Most rides within Manhattan are short hops.
    r.dropoff = {rng.Normal(r.pickup.longitude, 0.012), rng.Normal(r.pickup.latitude, 0.012)};
  }
  r.passengers = static_cast<int>(rng.Categorical({0.35, 69, 14.8, 4.4, 2.1, 7, 2.1}));
  r.fare = MeterFare(rng, r, from, to);
  if (rng.Bernoulli(0.001)) r.fare = -std::round(rng.Uniform(2.5, 10.0) * 10) / 10;  // refunds
  // The meter's GPS fails now and then: the fare stays, the coordinates are 0.
  if (rng.Bernoulli(0.01)) {
    r.pickup = r.dropoff = {0.0, 0.0};
  } else if (rng.Bernoulli(0.003)) {
    r.dropoff = {0.0, 0.0};
  }
  return r;
}

double Coordinate(double degrees) { return std::round(degrees * 1e6) / 1e6; }

// Kaggle's key: the pickup time plus a fractional part that makes it unique.
// Writes the ride's row and returns its key.
std::string AddRide(const Ride& r, int64_t serial, CsvTextBuilder& csv, bool with_fare) {
  const std::string time = absl::StrFormat("%04d-%02d-%02d %02d:%02d:%02d", r.year, r.month, r.day,
                                           r.hour, r.minute, r.second);
  std::string key = absl::StrFormat("%s.%07d", time, serial);
  csv.String(key);
  if (with_fare) csv.Float(r.fare);
  csv.String(time + " UTC");
  csv.Float(Coordinate(r.pickup.longitude)).Float(Coordinate(r.pickup.latitude));
  csv.Float(Coordinate(r.dropoff.longitude)).Float(Coordinate(r.dropoff.latitude));
  csv.Int(r.passengers).EndRow();
  return key;
}

// Our stand-in for Kaggle's coupon instructions (upstream copies the file
// into public/ unread). It names the seed, as every generated file differs
// between seeds.
std::string CouponsRtf(uint64_t seed) {
  return absl::StrFormat(
      "{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Helvetica;}}\n"
      "\\f0\\fs24 Synthetic data set (seed %d): this file stands in for the cloud-credit\n"
      "instructions that came with the competition. There is nothing to redeem.\\par\n"
      "}\n",
      seed);
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  const SyntheticRng root(seed);
  SyntheticRng train_rng = root.Fork(1), test_rng = root.Fork(2);
  CsvTextBuilder train, test, sample;
  train.Row({"key", "fare_amount", "pickup_datetime", "pickup_longitude", "pickup_latitude",
             "dropoff_longitude", "dropoff_latitude", "passenger_count"});
  test.Row({"key", "pickup_datetime", "pickup_longitude", "pickup_latitude", "dropoff_longitude",
            "dropoff_latitude", "passenger_count"});
  sample.Row({"key", "fare_amount"});
  int64_t serial = 0;
  for (int i = 0; i < kNumTrain; ++i) AddRide(MakeRide(train_rng), ++serial, train, true);
  for (int i = 0; i < kNumTest; ++i) {
    sample.String(AddRide(MakeRide(test_rng), ++serial, test, false)).Float(kSampleFare).EndRow();
  }
  for (const auto& [name, text] :
       {std::pair{"train.csv", &train.text()}, std::pair{"test.csv", &test.text()},
        std::pair{"sample_submission.csv", &sample.text()}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, *text));
  }
  return WriteStringToFile(raw_dir / "GCP-Coupons-Instructions.rtf", CouponsRtf(seed));
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID,
                                             .generate = &Generate});

}  // namespace
}  // namespace mlebench
