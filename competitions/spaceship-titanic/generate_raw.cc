// Synthetic raw download of spaceship-titanic: train.csv, test.csv and
// sample_submission.csv with Kaggle's columns, value spellings and about 2%
// missing values per feature column. Passengers come in groups ("gggg_pp")
// that share a home planet, usually a surname and often a cabin; whole groups
// go to train or test, as in the real split. Transported depends on
// CryoSleep, luxury spending, HomePlanet, cabin side and destination, with
// noise, so that a simple model reaches about 75-80% accuracy.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
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

constexpr int kNumGroups = 1500;  // about 3000 passengers, two thirds in train
constexpr double kTestGroupFraction = 1.0 / 3.0;
constexpr double kMissingRate = 0.02;

const std::vector<std::string> kPlanets = {"Earth", "Europa", "Mars"};
const std::vector<std::string> kDestinations = {"TRAPPIST-1e", "55 Cancri e", "PSO J318.5-22"};
// Invented name parts.
const std::vector<std::string> kSyllables = {"ka",  "lo",  "mi",  "ren",  "tho", "va", "sel",
                                             "dri", "an",  "bor", "quin", "esh", "ul", "pra",
                                             "zen", "gor", "ly",  "ma",   "nor", "te"};

struct Passenger {
  std::string id;
  int planet;  // index into kPlanets
  bool cryo_sleep;
  char deck;
  int cabin_number;
  char side;
  int destination;
  double age;
  bool vip;
  double spend[5];  // RoomService, FoodCourt, ShoppingMall, Spa, VRDeck
  std::string name;
  bool transported;
};

std::string Capitalized(std::string word) {
  word[0] = static_cast<char>(word[0] - 'a' + 'A');
  return word;
}

std::string InventedWord(SyntheticRng& rng, int min_syllables, int max_syllables) {
  std::string word;
  const int n = static_cast<int>(rng.UniformInt(min_syllables, max_syllables));
  for (int i = 0; i < n; ++i) word += rng.Choice(kSyllables);
  return Capitalized(word);
}

char DeckFor(SyntheticRng& rng, int planet) {
  switch (planet) {
    case 1:  // Europa: upper decks
      return "ABCT"[rng.Categorical({3, 3, 3, 0.05})];
    case 2:  // Mars
      return "DEF"[rng.UniformInt(3)];
    default:  // Earth
      return "EFGG"[rng.UniformInt(4)];
  }
}

double Logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }

void FillSpending(SyntheticRng& rng, Passenger& p) {
  std::fill(std::begin(p.spend), std::end(p.spend), 0.0);
  if (p.cryo_sleep || p.age < 13) return;  // asleep or a child: no bills
  const double scale = p.planet == 1 ? 6.0 : 4.8;
  for (double& amount : p.spend) {
    if (rng.Bernoulli(0.45)) continue;
    amount = std::min(15000.0, std::round(std::exp(rng.Normal(scale, 1.4))));
  }
}

bool DrawTransported(SyntheticRng& rng, const Passenger& p) {
  const double luxury = p.spend[0] + p.spend[3] + p.spend[4];  // RoomService, Spa, VRDeck
  const double shopping = p.spend[1] + p.spend[2];             // FoodCourt, ShoppingMall
  double logit = 0.9 + 1.8 * p.cryo_sleep - 0.45 * std::log1p(luxury) + 0.15 * std::log1p(shopping);
  logit += p.planet == 1 ? 0.7 : (p.planet == 0 ? -0.4 : 0.0);
  logit += p.side == 'S' ? 0.35 : -0.35;
  logit += p.destination == 1 ? 0.4 : 0.0;
  return rng.Bernoulli(Logistic(logit));
}

std::vector<Passenger> MakeGroup(SyntheticRng& rng, int group) {
  const int size = 1 + static_cast<int>(rng.Categorical({55, 20, 10, 6, 4, 3, 1, 1}));
  const int planet = static_cast<int>(rng.Categorical({54, 25, 21}));
  const std::string family = InventedWord(rng, 2, 3);
  const char deck = DeckFor(rng, planet);
  const int cabin_number = static_cast<int>(rng.UniformInt(0, 1890));
  const char side = rng.Bernoulli(0.5) ? 'S' : 'P';
  std::vector<Passenger> members;
  for (int member = 1; member <= size; ++member) {
    Passenger p;
    p.id = absl::StrFormat("%04d_%02d", group, member);
    p.planet = planet;
    p.cryo_sleep = rng.Bernoulli(0.35);
    const bool shares_cabin = rng.Bernoulli(0.6);
    p.deck = shares_cabin ? deck : DeckFor(rng, planet);
    p.cabin_number = shares_cabin ? cabin_number : static_cast<int>(rng.UniformInt(0, 1890));
    p.side = shares_cabin ? side : (rng.Bernoulli(0.5) ? 'S' : 'P');
    p.destination = static_cast<int>(rng.Categorical({68, 21, 11}));
    p.age = std::clamp(std::round(rng.Normal(29, 14)), 0.0, 79.0);
    p.vip = planet != 0 && rng.Bernoulli(0.05);
    FillSpending(rng, p);
    p.name =
        InventedWord(rng, 1, 3) + " " + (rng.Bernoulli(0.8) ? family : InventedWord(rng, 2, 3));
    p.transported = DrawTransported(rng, p);
    members.push_back(std::move(p));
  }
  return members;
}

// Writes one passenger's feature columns, each missing with kMissingRate.
void AddFeatures(SyntheticRng& rng, const Passenger& p, CsvTextBuilder& csv) {
  auto present = [&] { return !rng.Bernoulli(kMissingRate); };
  csv.String(p.id);
  present() ? csv.String(kPlanets[p.planet]) : csv.Missing();
  present() ? csv.Bool(p.cryo_sleep) : csv.Missing();
  present() ? csv.String(absl::StrFormat("%c/%d/%c", p.deck, p.cabin_number, p.side))
            : csv.Missing();
  present() ? csv.String(kDestinations[p.destination]) : csv.Missing();
  present() ? csv.Float(p.age) : csv.Missing();
  present() ? csv.Bool(p.vip) : csv.Missing();
  for (double amount : p.spend) present() ? csv.Float(amount) : csv.Missing();
  present() ? csv.String(p.name) : csv.Missing();
}

absl::Status Generate(const std::filesystem::path& raw_dir, uint64_t seed) {
  SyntheticRng rng(seed);
  const std::vector<std::string_view> header = {
      "PassengerId", "HomePlanet", "CryoSleep",    "Cabin", "Destination", "Age", "VIP",
      "RoomService", "FoodCourt",  "ShoppingMall", "Spa",   "VRDeck",      "Name"};
  CsvTextBuilder train, test, sample;
  for (std::string_view column : header) {
    train.String(column);
    test.String(column);
  }
  train.String("Transported").EndRow();
  test.EndRow();
  sample.Row({"PassengerId", "Transported"});

  for (int group = 1; group <= kNumGroups; ++group) {
    const bool in_test = rng.Bernoulli(kTestGroupFraction);
    for (const Passenger& p : MakeGroup(rng, group)) {
      if (in_test) {
        AddFeatures(rng, p, test);
        test.EndRow();
        sample.String(p.id).Bool(false).EndRow();
      } else {
        AddFeatures(rng, p, train);
        train.Bool(p.transported).EndRow();
      }
    }
  }
  for (const auto& [name, csv] : {std::pair{"train.csv", &train}, std::pair{"test.csv", &test},
                                  std::pair{"sample_submission.csv", &sample}}) {
    RETURN_IF_ERROR(WriteStringToFile(raw_dir / name, csv->text()));
  }
  return absl::OkStatus();
}

MLEBENCH_REGISTER_SYNTHETIC(SyntheticDataset{.id = MLEBENCH_COMPETITION_ID, .generate = &Generate});

}  // namespace
}  // namespace mlebench
