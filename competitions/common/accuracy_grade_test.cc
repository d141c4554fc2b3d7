#include "competitions/common/accuracy_grade.h"

#include <string>
#include <vector>

#include "base/table.h"
#include "gmock/gmock.h"
#include "grading/outcome.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

using ::testing::HasSubstr;

Table Labels(std::vector<Cell> ids, std::vector<Cell> labels, Dtype label_dtype) {
  return Table({Column{"image_id", Dtype::kObject, std::move(ids)},
                Column{"label", label_dtype, std::move(labels)}});
}

TEST(GradeAccuracyByIdTest, ScoresTheShareOfMatchingLabelsAlignedOnIds) {
  const Table answers =
      Labels({std::string("a"), std::string("b"), std::string("c"), std::string("d")},
             {int64_t{0}, int64_t{1}, int64_t{2}, int64_t{3}}, Dtype::kInt64);
  // Another row order; "b" and "d" right.
  const Table submission =
      Labels({std::string("d"), std::string("c"), std::string("b"), std::string("a")},
             {int64_t{3}, int64_t{0}, int64_t{1}, int64_t{2}}, Dtype::kInt64);
  const absl::StatusOr<double> score = GradeAccuracyById(
      TypedTable::View(submission), TypedTable::View(answers), "image_id", "label");
  ASSERT_TRUE(score.ok()) << score.status();
  EXPECT_DOUBLE_EQ(*score, 0.5);
}

TEST(GradeAccuracyByIdTest, WhatAccuracyScoreRejectsIsAnInvalidSubmissionNamingTheColumn) {
  const Table answers =
      Labels({std::string("a"), std::string("b")}, {int64_t{0}, int64_t{1}}, Dtype::kInt64);
  const Table fractional =
      Labels({std::string("a"), std::string("b")}, {0.5, 1.0}, Dtype::kFloat64);
  const absl::StatusOr<double> score = GradeAccuracyById(
      TypedTable::View(fractional), TypedTable::View(answers), "image_id", "label");
  EXPECT_TRUE(IsInvalidSubmission(score.status())) << score.status();
  EXPECT_THAT(score.status().message(), HasSubstr("accuracy_score rejects `label`: "));
}

TEST(GradeAccuracyByIdTest, AMissingColumnIsReportedByTheAlignment) {
  const Table answers =
      Labels({std::string("a"), std::string("b")}, {int64_t{0}, int64_t{1}}, Dtype::kInt64);
  const Table no_label({Column{"image_id", Dtype::kObject, {std::string("a"), std::string("b")}}});
  const absl::StatusOr<double> score =
      GradeAccuracyById(TypedTable::View(no_label), TypedTable::View(answers), "image_id", "label");
  EXPECT_TRUE(IsInvalidSubmission(score.status())) << score.status();
}

}  // namespace
}  // namespace mlebench
