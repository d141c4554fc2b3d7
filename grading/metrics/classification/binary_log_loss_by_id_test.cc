#include "grading/metrics/classification/binary_log_loss_by_id.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "base/typed_table.h"
#include "grading/metrics/classification/log_loss.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

// Rows of one side: ids (as ints or, when `text_ids`, as their decimal
// text), with a label or probability each.
struct Rows {
  std::vector<int64_t> ids;
  std::vector<double> values;
};

TypedTable TableOf(const Rows& rows, std::string_view target, bool text_ids,
                   std::vector<std::string>& text_storage) {
  std::vector<TypedColumn> columns;
  if (text_ids) {
    text_storage.clear();
    for (const int64_t id : rows.ids) text_storage.push_back("img_" + std::to_string(id));
    std::vector<std::string_view> views(text_storage.begin(), text_storage.end());
    columns.push_back(TypedColumn::Text("id", std::move(views)));
  } else {
    columns.push_back(TypedColumn::Ints("id", rows.ids));
  }
  columns.push_back(TypedColumn::Doubles(std::string(target), rows.values));
  return TypedTable(std::move(columns), nullptr);
}

// What upstream computes: both sides sorted by id (stably), then
// scikit-learn's log_loss (LogLoss, checked against it in log_loss_test).
double SortedLogLoss(const Rows& submission, const Rows& answers, bool text_ids) {
  const auto sorted_values = [&](const Rows& rows) {
    std::vector<size_t> order(rows.ids.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (text_ids) {
        return "img_" + std::to_string(rows.ids[a]) < "img_" + std::to_string(rows.ids[b]);
      }
      return rows.ids[a] < rows.ids[b];
    });
    std::vector<double> values;
    for (const size_t row : order) values.push_back(rows.values[row]);
    return values;
  };
  return *LogLoss(sorted_values(answers), sorted_values(submission));
}

// n rows in a shuffled id order, labels 0/1, probabilities in [0, 1] with
// exact 0s and 1s (clipped by log_loss) among them.
std::pair<Rows, Rows> RandomRows(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Rows answers, submission;
  answers.ids.resize(n);
  std::iota(answers.ids.begin(), answers.ids.end(), int64_t{1000});
  std::shuffle(answers.ids.begin(), answers.ids.end(), rng);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (size_t i = 0; i < n; ++i) {
    answers.values.push_back(static_cast<double>(rng() % 2));
    const uint64_t kind = rng() % 50;
    submission.values.push_back(kind == 0 ? 0.0 : kind == 1 ? 1.0 : uniform(rng));
  }
  submission.ids = answers.ids;
  return {submission, answers};
}

double Grade(const Rows& submission, const Rows& answers, bool text_ids, bool check_row_count) {
  std::vector<std::string> submission_text, answers_text;
  const absl::StatusOr<double> score = GradeBinaryLogLossById(
      TableOf(submission, "label", text_ids, submission_text),
      TableOf(answers, "label", text_ids, answers_text),
      {.target_column = "label", .check_row_count = check_row_count});
  EXPECT_TRUE(score.ok()) << score.status();
  return score.ok() ? *score : -1.0;
}

// Short and long inputs (the long ones sort on one thread while the other
// computes each row's loss, or sorts the other side), int and text ids:
// bit for bit what sorting both sides and calling log_loss gives.
TEST(GradeBinaryLogLossByIdTest, SameIdsInTheSameOrder) {
  for (const size_t n : {size_t{1000}, size_t{200'000}}) {
    for (const bool text_ids : {false, true}) {
      const auto [submission, answers] = RandomRows(n, n + text_ids);
      EXPECT_EQ(Grade(submission, answers, text_ids, true),
                SortedLogLoss(submission, answers, text_ids))
          << n << " rows, text ids: " << text_ids;
    }
  }
}

TEST(GradeBinaryLogLossByIdTest, SubmissionInAnotherOrder) {
  for (const size_t n : {size_t{1000}, size_t{200'000}}) {
    for (const bool text_ids : {false, true}) {
      auto [submission, answers] = RandomRows(n, 7 * n + text_ids);
      // Reverse the submission's rows: the same pairs, another order.
      std::reverse(submission.ids.begin(), submission.ids.end());
      std::reverse(submission.values.begin(), submission.values.end());
      EXPECT_EQ(Grade(submission, answers, text_ids, true),
                SortedLogLoss(submission, answers, text_ids))
          << n << " rows, text ids: " << text_ids;
    }
  }
}

TEST(GradeBinaryLogLossByIdTest, RepeatedIdsPairInSortedOrder) {
  // The same ids, repeated, in both: upstream pairs the rows of one id in
  // their order after a stable sort, whichever path is taken.
  auto [submission, answers] = RandomRows(100'000, 3);
  for (size_t i = 0; i < answers.ids.size(); i += 3) answers.ids[i] = answers.ids[0];
  submission.ids = answers.ids;
  EXPECT_EQ(Grade(submission, answers, false, true), SortedLogLoss(submission, answers, false));
}

TEST(GradeBinaryLogLossByIdTest, ARepeatedSubmissionRowIsRejectedByLogLoss) {
  // Without the row-count check (statoil-iceberg), a repeated row keeps the
  // set of ids; log_loss then rejects the lengths.
  auto [submission, answers] = RandomRows(100'000, 5);
  submission.ids.push_back(submission.ids[0]);
  submission.values.push_back(0.5);
  std::vector<std::string> unused;
  const absl::StatusOr<double> score = GradeBinaryLogLossById(
      TableOf(submission, "label", false, unused), TableOf(answers, "label", false, unused),
      {.target_column = "label"});
  ASSERT_FALSE(score.ok());
  EXPECT_NE(score.status().message().find("log_loss rejects the submission"), std::string::npos)
      << score.status();
}

}  // namespace
}  // namespace mlebench
