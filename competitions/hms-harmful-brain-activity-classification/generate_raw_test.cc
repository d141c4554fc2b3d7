#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/table.h"
#include "base/testing/test_util.h"
#include "formats/parquet.h"
#include "grading/metrics/regression/kl_divergence.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::generate_raw_test {
namespace {

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
const std::vector<std::string> kVotes = {"seizure_vote", "lpd_vote",  "gpd_vote",
                                         "lrda_vote",    "grda_vote", "other_vote"};

class HmsRawTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<std::map<std::string, std::string>> tree =
        testing::DeterministicSyntheticTree(kId);
    ASSERT_TRUE(tree.ok()) << tree.status();
    tree_ = new std::map<std::string, std::string>(*std::move(tree));
    absl::StatusOr<Table> train = ReadCsvString(tree_->at("train.csv"), "train.csv", {});
    ASSERT_TRUE(train.ok()) << train.status();
    train_ = new Table(*std::move(train));
  }
  static const std::map<std::string, std::string>* tree_;
  static const Table* train_;
};
const std::map<std::string, std::string>* HmsRawTest::tree_ = nullptr;
const Table* HmsRawTest::train_ = nullptr;

int64_t Int(const Table& t, const std::string& column, size_t row) {
  return std::get<int64_t>(t.Find(column)->cells[row]);
}

TEST_F(HmsRawTest, KaggleLayoutAndSmall) {
  ASSERT_NE(train_, nullptr);
  const std::vector<std::pair<std::string, Dtype>> expected = {
      {"eeg_id", Dtype::kInt64},          {"eeg_sub_id", Dtype::kInt64},
      {"eeg_label_offset_seconds", Dtype::kFloat64},
      {"spectrogram_id", Dtype::kInt64},  {"spectrogram_sub_id", Dtype::kInt64},
      {"spectrogram_label_offset_seconds", Dtype::kFloat64},
      {"label_id", Dtype::kInt64},        {"patient_id", Dtype::kInt64},
      {"expert_consensus", Dtype::kObject}, {"seizure_vote", Dtype::kInt64},
      {"lpd_vote", Dtype::kInt64},        {"gpd_vote", Dtype::kInt64},
      {"lrda_vote", Dtype::kInt64},       {"grda_vote", Dtype::kInt64},
      {"other_vote", Dtype::kInt64}};
  ASSERT_EQ(train_->num_columns(), expected.size());
  for (size_t c = 0; c < expected.size(); ++c) {
    EXPECT_EQ(train_->columns()[c].name, expected[c].first);
    EXPECT_EQ(train_->columns()[c].dtype, expected[c].second) << expected[c].first;
  }
  EXPECT_GT(train_->num_rows(), 80u);

  size_t total = 0;
  for (const auto& [name, bytes] : *tree_) total += bytes.size();
  EXPECT_LT(total, 3'000'000u);

  // Every id has its file; an EEG lies in one spectrogram; label ids are unique.
  std::map<int64_t, int64_t> spectrogram_of_eeg;
  std::set<int64_t> label_ids;
  for (size_t r = 0; r < train_->num_rows(); ++r) {
    const int64_t eeg = Int(*train_, "eeg_id", r);
    const int64_t spectrogram = Int(*train_, "spectrogram_id", r);
    EXPECT_TRUE(tree_->count(absl::StrCat("train_eegs/", eeg, ".parquet"))) << eeg;
    EXPECT_TRUE(tree_->count(absl::StrCat("train_spectrograms/", spectrogram, ".parquet")));
    auto [it, inserted] = spectrogram_of_eeg.emplace(eeg, spectrogram);
    EXPECT_EQ(it->second, spectrogram);
    EXPECT_TRUE(label_ids.insert(Int(*train_, "label_id", r)).second);
    int64_t votes = 0;
    for (const std::string& v : kVotes) votes += Int(*train_, v, r);
    EXPECT_GT(votes, 0);
  }
  EXPECT_TRUE(tree_->count("example_figures/Seizure.png"));

  const std::string eeg_name = absl::StrCat("train_eegs/", Int(*train_, "eeg_id", 0), ".parquet");
  absl::StatusOr<Table> eeg = ParseParquet(tree_->at(eeg_name));
  ASSERT_TRUE(eeg.ok()) << eeg.status();
  EXPECT_EQ(eeg->num_columns(), 20u);
  EXPECT_EQ(eeg->columns()[0].name, "Fp1");
  EXPECT_EQ(eeg->columns()[19].name, "EKG");
  EXPECT_EQ(eeg->columns()[0].dtype, Dtype::kFloat64);
  const std::string spectrogram_name =
      absl::StrCat("train_spectrograms/", Int(*train_, "spectrogram_id", 0), ".parquet");
  absl::StatusOr<Table> spectrogram = ParseParquet(tree_->at(spectrogram_name));
  ASSERT_TRUE(spectrogram.ok()) << spectrogram.status();
  EXPECT_EQ(spectrogram->num_columns(), 401u);
  EXPECT_EQ(spectrogram->columns()[0].name, "time");
  EXPECT_EQ(spectrogram->columns()[1].name, "LL_0.59");
  EXPECT_EQ(spectrogram->columns()[400].name, "RP_19.92");
}

// The spectrogram frequency band (of six) with the most power, summed over
// regions and time.
int StrongestBand(const Table& spectrogram) {
  std::vector<double> power(6, 0.0);
  for (size_t c = 1; c < spectrogram.num_columns(); ++c) {
    const int band = static_cast<int>(((c - 1) % 100) / (100 / 6));
    if (band >= 6) continue;
    for (const Cell& cell : spectrogram.columns()[c].cells) power[band] += std::get<double>(cell);
  }
  // Power falls with frequency: compare bands against that trend.
  for (int b = 0; b < 6; ++b) power[b] *= (1 + b);
  int best = 0;
  for (int b = 1; b < 6; ++b) {
    if (power[b] > power[best]) best = b;
  }
  return best;
}

TEST_F(HmsRawTest, SpectrogramsPredictVotesBetterThanTheSampleSubmission) {
  ASSERT_NE(train_, nullptr);
  // Model: the mean vote shares of the training rows whose spectrogram has
  // the same strongest band; rows of the first 60% of spectrograms train it.
  std::map<int64_t, int> band_of;
  std::vector<int64_t> order;
  for (size_t r = 0; r < train_->num_rows(); ++r) {
    const int64_t id = Int(*train_, "spectrogram_id", r);
    if (band_of.count(id)) continue;
    absl::StatusOr<Table> spectrogram =
        ParseParquet(tree_->at(absl::StrCat("train_spectrograms/", id, ".parquet")));
    ASSERT_TRUE(spectrogram.ok()) << spectrogram.status();
    band_of[id] = StrongestBand(*spectrogram);
    order.push_back(id);
  }
  const std::set<int64_t> train_ids(order.begin(), order.begin() + order.size() * 6 / 10);
  std::vector<std::vector<double>> share_sum(6, std::vector<double>(6, 1e-3));
  std::vector<std::vector<double>> truth;
  std::vector<int> held_out_bands;
  for (size_t r = 0; r < train_->num_rows(); ++r) {
    std::vector<double> shares;
    double total = 0;
    for (const std::string& v : kVotes) total += Int(*train_, v, r);
    for (const std::string& v : kVotes) shares.push_back(Int(*train_, v, r) / total);
    const int64_t id = Int(*train_, "spectrogram_id", r);
    if (train_ids.count(id)) {
      for (int k = 0; k < 6; ++k) share_sum[band_of[id]][k] += shares[k];
    } else {
      truth.push_back(shares);
      held_out_bands.push_back(band_of[id]);
    }
  }
  ASSERT_GT(truth.size(), 20u);
  std::vector<Column> solution, model, uniform;
  for (int k = 0; k < 6; ++k) {
    solution.push_back(Column{kVotes[k], Dtype::kFloat64, {}});
    model.push_back(Column{kVotes[k], Dtype::kFloat64, {}});
    uniform.push_back(Column{kVotes[k], Dtype::kFloat64, {}});
  }
  for (size_t i = 0; i < truth.size(); ++i) {
    const std::vector<double>& sums = share_sum[held_out_bands[i]];
    double total = 0;
    for (double s : sums) total += s;
    for (int k = 0; k < 6; ++k) {
      solution[k].cells.push_back(truth[i][k]);
      model[k].cells.push_back(sums[k] / total);
      uniform[k].cells.push_back(1.0 / 6);
    }
  }
  const Table solution_table(solution);
  absl::StatusOr<double> model_score = KlDivergenceScore(solution_table, Table(model));
  absl::StatusOr<double> uniform_score = KlDivergenceScore(solution_table, Table(uniform));
  ASSERT_TRUE(model_score.ok()) << model_score.status();
  ASSERT_TRUE(uniform_score.ok()) << uniform_score.status();
  EXPECT_LT(*model_score, 0.6 * *uniform_score) << *model_score << " vs " << *uniform_score;
}

}  // namespace
}  // namespace mlebench::generate_raw_test
