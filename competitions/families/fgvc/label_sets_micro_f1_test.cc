#include "competitions/families/fgvc/label_sets_micro_f1.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "grading/outcome.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

Table LabelSets(std::vector<std::string> ids, std::vector<std::string> labels) {
  std::vector<Cell> id_cells(ids.begin(), ids.end());
  std::vector<Cell> label_cells(labels.begin(), labels.end());
  return Table({Column{"image", Dtype::kObject, std::move(id_cells)},
                Column{"labels", Dtype::kObject, std::move(label_cells)}});
}

TEST(GradeLabelSetsMicroF1Test, ScoresMicroF1AlignedOnIds) {
  const Table answers = LabelSets({"a", "b"}, {"scab frog_eye", "healthy"});
  EXPECT_DOUBLE_EQ(*GradeLabelSetsMicroF1(LabelSets({"b", "a"}, {"healthy", "frog_eye scab"}),
                                          answers, "image", "labels"),
                   1.0);
  // Two of three true labels found, no false one: 2 * 2 / (2 * 2 + 1).
  EXPECT_DOUBLE_EQ(*GradeLabelSetsMicroF1(LabelSets({"a", "b"}, {"scab", "healthy"}), answers,
                                          "image", "labels"),
                   0.8);
}

TEST(GradeLabelSetsMicroF1Test, UpstreamsChecksWithItsMessages) {
  const Table answers = LabelSets({"a", "b"}, {"scab", "healthy"});
  const Table no_labels({Column{"image", Dtype::kObject, {std::string("a"), std::string("b")}}});
  const Table no_ids({Column{"labels", Dtype::kObject, {std::string("a"), std::string("b")}}});

  absl::Status status = GradeLabelSetsMicroF1(answers, no_labels, "image", "labels").status();
  EXPECT_FALSE(IsInvalidSubmission(status));
  EXPECT_THAT(std::string(status.message()),
              ::testing::EndsWith("Answers DataFrame must have 'image' and 'labels' columns"));

  status = GradeLabelSetsMicroF1(no_ids, answers, "image", "labels").status();
  EXPECT_TRUE(IsInvalidSubmission(status));
  EXPECT_EQ(status.message(), "Submission DataFrame must have an 'image' column.");

  status = GradeLabelSetsMicroF1(no_labels, answers, "image", "labels").status();
  EXPECT_TRUE(IsInvalidSubmission(status));
  EXPECT_EQ(status.message(), "Submission DataFrame must have a 'labels' column.");

  status = GradeLabelSetsMicroF1(LabelSets({"a"}, {"scab"}), answers, "image", "labels").status();
  EXPECT_TRUE(IsInvalidSubmission(status));
  EXPECT_EQ(status.message(),
            "Submission and answers DataFrames must have the same number of rows (expected 2, "
            "got 1).");

  status =
      GradeLabelSetsMicroF1(LabelSets({"a", "c"}, {"scab", "healthy"}), answers, "image", "labels")
          .status();
  EXPECT_TRUE(IsInvalidSubmission(status));
  EXPECT_EQ(status.message(),
            "Submission and answers DataFrames must have matching 'image' columns.");
}

}  // namespace
}  // namespace mlebench
