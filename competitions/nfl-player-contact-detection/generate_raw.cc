// Synthetic raw data for nfl-player-contact-detection, in the Kaggle layout
// that upstream's prepare.py reads:
//   train_labels.csv            contact_id,game_play,datetime,step,
//                               nfl_player_id_1,nfl_player_id_2 (an id or
//                               "G" for the ground),contact
//   train_player_tracking.csv   per player and step: positions and motion
//   train_baseline_helmets.csv  per view, frame and player: helmet boxes
//   train_video_metadata.csv    per view: start, end and snap times
//   train/<game_play>_<All29|Endzone|Sideline>.mp4  placeholder videos
// Two players are in contact exactly when their tracked positions are less
// than 1.2 yards apart, and a player touches the ground when his speed is
// below 0.4 yd/s, so the tracking table predicts the labels.
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
#include "synthetic/mp4_writer.h"
#include "synthetic/synthetic.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr int kPlays = 12;
constexpr int kPlayers = 6;
constexpr int kSteps = 8;
constexpr const char* kViews[] = {"All29", "Endzone", "Sideline"};

std::string Time(int64_t tenths) {
  // 2020-09-11T03:01:48.100Z style, tenths of a second after 03:00:00.
  return absl::StrFormat("2020-09-11T03:%02d:%02d.%d00Z", (tenths / 600) % 60, (tenths / 10) % 60, tenths % 10);
}

absl::Status Generate(const fs::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  std::error_code error;
  fs::create_directories(raw_dir / "train", error);
  if (error) return absl::InternalError(absl::StrCat("mkdir train: ", error.message()));
  std::string labels = "contact_id,game_play,datetime,step,nfl_player_id_1,nfl_player_id_2,contact\n";
  std::string tracking =
      "game_play,game_key,play_id,nfl_player_id,step,team,position,jersey_number,datetime,"
      "x_position,y_position,speed,distance,direction,orientation,acceleration,sa\n";
  std::string helmets = "game_play,game_key,play_id,view,video_frame,nfl_player_id,player_label,left,width,top,height\n";
  std::string metadata = "game_play,game_key,play_id,view,start_time,end_time,snap_time\n";
  for (int play = 0; play < kPlays; ++play) {
    const int game_key = 58100 + 7 * play;
    const int play_id = 100 + static_cast<int>(rng.UniformInt(3000));
    const std::string game_play = absl::StrFormat("%d_%06d", game_key, play_id);
    const int64_t start = static_cast<int64_t>(rng.UniformInt(20000));
    std::vector<int> ids;
    std::vector<double> x, y;
    for (int p = 0; p < kPlayers; ++p) {
      ids.push_back(37000 + static_cast<int>(rng.UniformInt(10000)));
      x.push_back(rng.Uniform(40, 44));
      y.push_back(rng.Uniform(20, 23));
    }
    for (int step = 0; step < kSteps; ++step) {
      const std::string when = Time(start + step);
      std::vector<double> speed(kPlayers);
      for (int p = 0; p < kPlayers; ++p) {
        speed[p] = rng.Bernoulli(0.15) ? rng.Uniform(0, 0.3) : rng.Uniform(0.6, 4);
        const double direction = rng.Uniform(0, 360);
        x[p] += 0.1 * speed[p] * std::cos(direction * M_PI / 180);
        y[p] += 0.1 * speed[p] * std::sin(direction * M_PI / 180);
        absl::StrAppendFormat(&tracking, "%s,%d,%d,%d,%d,%s,%s,%d,%s,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f\n",
                              game_play, game_key, play_id, ids[p], step, p % 2 ? "away" : "home",
                              p % 3 ? "CB" : "WR", 10 + p, when, x[p], y[p], speed[p], 0.1 * speed[p],
                              direction, rng.Uniform(0, 360), rng.Uniform(0, 3), rng.Uniform(-3, 3));
      }
      for (int a = 0; a < kPlayers; ++a) {
        for (int b = a + 1; b < kPlayers; ++b) {
          const int lo = std::min(ids[a], ids[b]), hi = std::max(ids[a], ids[b]);
          const bool contact = std::hypot(x[a] - x[b], y[a] - y[b]) < 1.2;
          absl::StrAppendFormat(&labels, "%s_%d_%d_%d,%s,%s,%d,%d,%d,%d\n", game_play, step, lo, hi, game_play,
                                when, step, lo, hi, contact ? 1 : 0);
        }
        absl::StrAppendFormat(&labels, "%s_%d_%d_G,%s,%s,%d,%d,G,%d\n", game_play, step, ids[a], game_play, when,
                              step, ids[a], speed[a] < 0.4 ? 1 : 0);
      }
    }
    for (const char* view : kViews) {
      absl::StrAppendFormat(&metadata, "%s,%d,%d,%s,%s,%s,%s\n", game_play, game_key, play_id, view,
                            Time(start - 50), Time(start + kSteps + 50), Time(start));
      for (int frame = 1; frame <= 3; ++frame) {
        for (int p = 0; p < kPlayers; ++p) {
          absl::StrAppendFormat(&helmets, "%s,%d,%d,%s,%d,%d,%s%d,%d,%d,%d,%d\n", game_play, game_key, play_id, view,
                                frame, ids[p], p % 2 ? "V" : "H", 10 + p, static_cast<int>(rng.UniformInt(1200)),
                                20 + static_cast<int>(rng.UniformInt(10)), static_cast<int>(rng.UniformInt(700)),
                                20 + static_cast<int>(rng.UniformInt(10)));
        }
      }
      const std::string video = absl::StrCat(game_play, "_", view, ".mp4");
      RETURN_IF_ERROR(WriteStringToFile(raw_dir / "train" / video,
                                        EncodePlaceholderMp4(1000 * (kSteps + 10) / 10, video)));
    }
  }
  for (const auto& [name, text] : {std::pair<const char*, const std::string*>{"train_labels.csv", &labels},
                                   {"train_player_tracking.csv", &tracking},
                                   {"train_baseline_helmets.csv", &helmets},
                                   {"train_video_metadata.csv", &metadata}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, *text));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
