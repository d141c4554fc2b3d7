// How often the public validator (grading/public_validation.h: what an
// agent's validate_submission.sh answers) agrees with the real grader, over
// every competition's hostile corpus (grading/hostile_variants.h), the dummy
// agent's submission and the chosen agent's (the baseline's by default).
//
// Each case goes through both: the validator with the agent-visible sample
// submission, as a file; the grade step's GradeSubmissionAgainst with the
// private answers. The table of counts (both valid, both invalid,
// validator-valid/grader-invalid, validator-invalid/grader-valid) per
// competition is printed and written to
// $TEST_UNDECLARED_OUTPUTS_DIR/public_validation_agreement.tsv with every
// case. The test fails on any disagreement that is not in
// KnownDisagreements() (the cases the sample cannot decide, each with why),
// on a listed one that no longer disagrees (the list and docs/agents.md must
// stay exact), and on a validator that calls the sample itself or the dummy
// agent's submission invalid.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/csv.h"
#include "base/display_text.h"
#include "base/table.h"
#include "base/testing/test_util.h"
#include "grading/grader.h"
#include "grading/hostile_variants.h"
#include "grading/medals.h"
#include "grading/public_validation.h"
#include "grading/grade_submission.h"
#include "grading/report.h"
#include "gtest/gtest.h"
#include "tools/hostile_corpus.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::CompetitionTestFiles;
using ::mlebench::testing::CompetitionTestFilesFor;
using ::mlebench::testing::HostileVariants;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::ReadFileOrEmpty;
using ::mlebench::testing::WriteFileOrFail;

// The submissions that are not hostile variants.
constexpr char kDummyCase[] = "the dummy agent's submission";
constexpr char kAgentCase[] = "the agent's submission";

enum class Direction {
  kValidatorValidGraderInvalid,
  kValidatorInvalidGraderValid,
};

struct KnownDisagreement {
  const char* competition;
  const char* variant;
  Direction direction;
  // Why the sample cannot decide it (docs/agents.md lists the same).
  const char* why;
};

// Why the sample cannot decide a case (docs/agents.md, "Checking a
// submission", lists the same).
constexpr char kParsedValues[] =
    "the grader cannot take the sample as answers (they hold columns the sample lacks), and the "
    "sample checks do not parse what the grader parses (run-length masks, prediction strings, "
    "boxes)";
constexpr char kMissingText[] =
    "a missing value in a text column: this grader refuses it, another (uw-madison's) reads it "
    "as an empty mask; the sample checks allow it";
constexpr char kHugeIntegerAsText[] =
    "pandas keeps 2**70 as text: this grader refuses it, others convert it to a number; the "
    "sample checks take it as a number";
constexpr char kEmptyColumnDtype[] =
    "no rows: pandas gives the empty FVC column no numeric dtype, which this grader requires "
    "although it takes any subset of the rows";
constexpr char kSampleLabelsMissing[] =
    "every label of the sample is missing, so the sample does not say what a label is";
constexpr char kExactColumns[] =
    "this grader wants exactly the sample's columns where others take extra ones";
constexpr char kMoreIdsThanAnswers[] =
    "the sample lists every customer, the answers only those who bought; the grader wants a "
    "superset of the answers' customers";
constexpr char kAnswersColumnTaken[] =
    "the grader also takes the answers' own 'toxicity' column in place of 'prediction', which "
    "the sample does not show";

// Every case where the verdicts differ on the synthetic data, because what
// decides it is not in the sample: the answers' ids or values, or a rule of
// the grader that the sample checks cannot know.
const std::vector<KnownDisagreement>& KnownDisagreements() {
  static const auto* const known = new std::vector<KnownDisagreement>{
      {"3d-object-detection-for-autonomous-vehicles", "values inf",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"3d-object-detection-for-autonomous-vehicles", "values -inf",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"3d-object-detection-for-autonomous-vehicles", "values 1e308",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"3d-object-detection-for-autonomous-vehicles", "values -1",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"3d-object-detection-for-autonomous-vehicles", "values text",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"3d-object-detection-for-autonomous-vehicles", "values 2**70",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"3d-object-detection-for-autonomous-vehicles", "a 100 kB cell in the first row",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"h-and-m-personalized-fashion-recommendations", "the answers file",
       Direction::kValidatorInvalidGraderValid, kMoreIdsThanAnswers},
      {"hubmap-kidney-segmentation", "values inf", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"hubmap-kidney-segmentation", "values -inf", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"hubmap-kidney-segmentation", "values 1e308", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"hubmap-kidney-segmentation", "values -1", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"hubmap-kidney-segmentation", "values text", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"hubmap-kidney-segmentation", "values 2**70", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"hubmap-kidney-segmentation", "a 100 kB cell in the first row",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"jigsaw-unintended-bias-in-toxicity-classification", "the answers file",
       Direction::kValidatorInvalidGraderValid, kAnswersColumnTaken},
      {"jigsaw-unintended-bias-in-toxicity-classification", "values 2**70",
       Direction::kValidatorValidGraderInvalid, kHugeIntegerAsText},
      {"kuzushiji-recognition", "the answers file", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"kuzushiji-recognition", "values text", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"kuzushiji-recognition", "values 2**70", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"kuzushiji-recognition", "a 100 kB cell in the first row",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"osic-pulmonary-fibrosis-progression", "header only",
       Direction::kValidatorValidGraderInvalid, kEmptyColumnDtype},
      {"osic-pulmonary-fibrosis-progression", "no rows", Direction::kValidatorValidGraderInvalid,
       kEmptyColumnDtype},
      {"osic-pulmonary-fibrosis-progression", "values 2**70",
       Direction::kValidatorValidGraderInvalid, kHugeIntegerAsText},
      {"paddy-disease-classification", "values inf", Direction::kValidatorValidGraderInvalid,
       kSampleLabelsMissing},
      {"paddy-disease-classification", "values -inf", Direction::kValidatorValidGraderInvalid,
       kSampleLabelsMissing},
      {"paddy-disease-classification", "values 1e308", Direction::kValidatorValidGraderInvalid,
       kSampleLabelsMissing},
      {"tensorflow2-question-answering", "values inf", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"tensorflow2-question-answering", "values -inf", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"tensorflow2-question-answering", "values 1e308", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"tensorflow2-question-answering", "values -1", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"tensorflow2-question-answering", "values text", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"tensorflow2-question-answering", "values 2**70", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"tensorflow2-question-answering", "a 100 kB cell in the first row",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"uw-madison-gi-tract-image-segmentation", "values text",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"uw-madison-gi-tract-image-segmentation", "values 2**70",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"uw-madison-gi-tract-image-segmentation", "a 100 kB cell in the first row",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"vesuvius-challenge-ink-detection", "the answers file",
       Direction::kValidatorValidGraderInvalid, kExactColumns},
      {"vesuvius-challenge-ink-detection", "values NaN", Direction::kValidatorValidGraderInvalid,
       kMissingText},
      {"vesuvius-challenge-ink-detection", "values text", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"vesuvius-challenge-ink-detection", "values empty text",
       Direction::kValidatorValidGraderInvalid, kMissingText},
      {"vesuvius-challenge-ink-detection", "values 2**70", Direction::kValidatorValidGraderInvalid,
       kParsedValues},
      {"vesuvius-challenge-ink-detection", "a 100 kB cell in the first row",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"vesuvius-challenge-ink-detection", "extra column", Direction::kValidatorValidGraderInvalid,
       kExactColumns},
      {"vinbigdata-chest-xray-abnormalities-detection", "values NaN",
       Direction::kValidatorValidGraderInvalid, kMissingText},
      {"vinbigdata-chest-xray-abnormalities-detection", "values inf",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"vinbigdata-chest-xray-abnormalities-detection", "values -inf",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"vinbigdata-chest-xray-abnormalities-detection", "values 1e308",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"vinbigdata-chest-xray-abnormalities-detection", "values -1",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"vinbigdata-chest-xray-abnormalities-detection", "values text",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"vinbigdata-chest-xray-abnormalities-detection", "values empty text",
       Direction::kValidatorValidGraderInvalid, kMissingText},
      {"vinbigdata-chest-xray-abnormalities-detection", "values 2**70",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
      {"vinbigdata-chest-xray-abnormalities-detection", "a 100 kB cell in the first row",
       Direction::kValidatorValidGraderInvalid, kParsedValues},
  };
  return *known;
}

// The agent-visible sample submission: the table's, where it is public;
// else (upstream keeps a few under private/ and publishes an archive) the
// archive in public/ whose one file is the dummy agent's submission, which
// is what the dummy agent copied.
absl::StatusOr<fs::path> AgentVisibleSample(const CompetitionTestFiles& files,
                                            const std::string& dummy_text) {
  const fs::path relative = files.table_sample.lexically_relative(files.public_dir);
  if (!relative.empty() && *relative.begin() != "..") return files.table_sample;
  std::vector<fs::path> candidates;
  for (const fs::directory_entry& entry : fs::directory_iterator(files.public_dir)) {
    const std::string extension = absl::AsciiStrToLower(entry.path().extension().string());
    if (extension != ".zip" && extension != ".7z") continue;
    absl::StatusOr<std::string> text = ReadSampleSubmission(entry.path().string());
    if (text.ok() && *text == dummy_text) candidates.push_back(entry.path());
  }
  if (candidates.size() != 1) {
    return absl::NotFoundError(absl::StrCat(candidates.size(), " archives in ",
                                            files.public_dir.string(),
                                            " hold the dummy agent's submission, expected one"));
  }
  return candidates[0];
}

struct Counts {
  int both_valid = 0;
  int both_invalid = 0;
  int validator_valid_grader_invalid = 0;
  int validator_invalid_grader_valid = 0;
  int total() const {
    return both_valid + both_invalid + validator_valid_grader_invalid +
           validator_invalid_grader_valid;
  }
  void Add(const Counts& o) {
    both_valid += o.both_valid;
    both_invalid += o.both_invalid;
    validator_valid_grader_invalid += o.validator_valid_grader_invalid;
    validator_invalid_grader_valid += o.validator_invalid_grader_valid;
  }
};

std::string OneLine(std::string_view text) { return EscapeForConsole(text, 300); }

std::vector<std::string> RegisteredIds() {
  std::vector<std::string> ids;
  for (const CompetitionGrader* g : GraderRegistry::All()) ids.push_back(g->id);
  return ids;
}

TEST(PublicValidationAgreementTest, AgreesWithTheGraderWhereTheSampleDecides) {
  std::map<std::tuple<std::string, std::string>, const KnownDisagreement*> known;
  for (const KnownDisagreement& k : KnownDisagreements()) {
    EXPECT_TRUE(known.emplace(std::make_tuple(k.competition, k.variant), &k).second)
        << "listed twice: " << k.competition << ", " << k.variant;
  }
  std::set<std::tuple<std::string, std::string>> seen_known;
  std::map<std::string, Counts> per_competition;
  // The stand-ins for the answers that each grader takes.
  std::map<std::string, std::string> stand_ins;
  std::map<std::string, int> by_basis;
  Counts total, known_counts;
  std::string cases_tsv =
      "competition\tcase\tgrader\tvalidator\tbasis\tgrader_mode\tsample_mode\tgrader_reason\t"
      "validator_reason\n";
  for (const std::string& id : RegisteredIds()) {
    SCOPED_TRACE(id);
    const CompetitionGrader* grader = GraderRegistry::Find(id);
    ASSERT_NE(grader, nullptr);
    absl::StatusOr<CompetitionTestFiles> files = CompetitionTestFilesFor(id);
    ASSERT_TRUE(files.ok()) << files.status();
    const std::string dummy = ReadFileOrEmpty(files->dummy_submission);
    ASSERT_FALSE(dummy.empty()) << files->dummy_submission;
    absl::StatusOr<fs::path> sample_path = AgentVisibleSample(*files, dummy);
    ASSERT_TRUE(sample_path.ok()) << sample_path.status();
    absl::StatusOr<std::string> sample_text = ReadSampleSubmission(sample_path->string());
    ASSERT_TRUE(sample_text.ok()) << sample_text.status();
    absl::StatusOr<PublicValidator> validator = PublicValidator::Create(*grader, *sample_text);
    ASSERT_TRUE(validator.ok()) << validator.status();
    absl::StatusOr<AnswersForGrading> answers =
        ReadAnswersForGrading(*grader, files->answers.string());
    ASSERT_TRUE(answers.ok()) << answers.status();
    absl::StatusOr<Table> sample_table = ReadCsvString(dummy, "sample", grader->submission_csv);
    ASSERT_TRUE(sample_table.ok()) << sample_table.status();

    std::vector<std::pair<std::string, std::string>> cases =
        HostileVariants(dummy, *sample_table, ReadFileOrEmpty(files->answers));
    cases.emplace_back(kDummyCase, dummy);
    const std::string agent = ReadFileOrEmpty(files->agent_submission);
    // The baseline agent submits on every competition; another agent
    // (--//agent_runner:agent) may not, which is no fault of the validator.
    if (agent.empty()) {
      std::cout << id << ": no agent submission at " << files->agent_submission << "\n";
    } else {
      cases.emplace_back(kAgentCase, agent);
    }

    const fs::path scratch = NewTempDir(id);
    const fs::path file = scratch / "submission.csv";
    Counts counts;
    for (const auto& [name, text] : cases) {
      SCOPED_TRACE(name);
      WriteFileOrFail(file, text);
      absl::StatusOr<CompetitionReport> report = GradeSubmissionAgainst(
          *grader, file.string(), *answers, MedalThresholds(), ReportContext());
      ASSERT_TRUE(report.ok()) << report.status();
      const ValidationVerdict verdict = validator->CheckFile(file.string());
      const bool grader_valid = report->valid_submission();
      // Each way of deciding alone, for the table.
      std::string grader_mode = "-", sample_mode = "-";
      {
        CsvReadOptions options = grader->submission_csv;
        options.max_cells = validator->limits().max_submission_cells;
        options.max_columns = validator->limits().max_submission_columns;
        absl::StatusOr<TypedTable> table = ReadTypedCsvString(text, "submission", options);
        if (table.ok()) {
          std::optional<ValidationVerdict> g = validator->GraderVerdict(*table);
          grader_mode = !g.has_value() ? "n/a" : g->valid ? "valid" : "invalid";
          sample_mode = validator->SampleVerdict(*table).valid ? "valid" : "invalid";
        }
      }
      ++by_basis[BasisName(verdict.basis)];
      absl::StrAppend(&cases_tsv, id, "\t", name, "\t", grader_valid ? "valid" : "invalid", "\t",
                      verdict.valid ? "valid" : "invalid", "\t", BasisName(verdict.basis), "\t",
                      grader_mode, "\t", sample_mode, "\t", OneLine(report->invalid_reason()), "\t",
                      OneLine(verdict.reason), "\n");
      if (grader_valid && verdict.valid) {
        ++counts.both_valid;
      } else if (!grader_valid && !verdict.valid) {
        ++counts.both_invalid;
      } else {
        const Direction direction = verdict.valid ? Direction::kValidatorValidGraderInvalid
                                                  : Direction::kValidatorInvalidGraderValid;
        ++(verdict.valid ? counts.validator_valid_grader_invalid
                         : counts.validator_invalid_grader_valid);
        const auto it = known.find(std::make_tuple(id, name));
        if (it != known.end() && it->second->direction == direction) {
          seen_known.insert(it->first);
          ++(verdict.valid ? known_counts.validator_valid_grader_invalid
                           : known_counts.validator_invalid_grader_valid);
        } else {
          ADD_FAILURE() << id << ", " << name << ": the validator says " << VerdictLine(verdict)
                        << " (" << BasisName(verdict.basis) << "), the grader says "
                        << (grader_valid
                                ? "valid"
                                : absl::StrCat("invalid: ", OneLine(report->invalid_reason())))
                        << " [grader mode " << grader_mode << ", sample mode " << sample_mode
                        << "]";
        }
      }
      if (name == kDummyCase) {
        EXPECT_TRUE(verdict.valid)
            << id << ": the sample submission itself: " << VerdictLine(verdict);
      }
    }
    per_competition[id] = counts;
    const std::vector<std::string> taken = validator->StandInsTaken();
    stand_ins[id] = taken.empty() ? "none (sample checks)" : absl::StrJoin(taken, ", ");
    total.Add(counts);
  }
  for (const auto& [key, k] : known) {
    EXPECT_TRUE(seen_known.count(key) > 0)
        << std::get<0>(key) << ", " << std::get<1>(key)
        << ": listed as a known disagreement, but the verdicts agree now (update the list and "
           "docs/agents.md)";
  }

  std::string table =
      "| competition | grader takes | cases | both valid | both invalid | validator valid, "
      "grader invalid | validator invalid, grader valid |\n"
      "| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const auto& [id, c] : per_competition) {
    absl::StrAppend(&table, "| ", id, " | ", stand_ins[id], " | ", c.total(), " | ", c.both_valid,
                    " | ", c.both_invalid, " | ", c.validator_valid_grader_invalid, " | ",
                    c.validator_invalid_grader_valid, " |\n");
  }
  absl::StrAppend(&table, "| all ", per_competition.size(), " | | ", total.total(), " | ",
                  total.both_valid, " | ", total.both_invalid, " | ",
                  total.validator_valid_grader_invalid, " | ", total.validator_invalid_grader_valid,
                  " |\n");
  const int agree = total.both_valid + total.both_invalid;
  const int known_total =
      known_counts.validator_valid_grader_invalid + known_counts.validator_invalid_grader_valid;
  const std::string summary = absl::StrFormat(
      "agreement: %d of %d cases (%.2f%%); %d of %d where the sample decides (the %d known "
      "disagreements excluded); decided by the file %d, the grader %d, the sample checks %d",
      agree, total.total(), 100.0 * agree / std::max(1, total.total()), agree,
      total.total() - known_total, known_total, by_basis["file"], by_basis["grader"],
      by_basis["sample"]);
  std::cout << table << summary << "\n";
  if (const char* out = std::getenv("TEST_UNDECLARED_OUTPUTS_DIR")) {
    std::ofstream(fs::path(out) / "public_validation_agreement.tsv") << cases_tsv;
    std::ofstream(fs::path(out) / "public_validation_agreement.md") << table << summary << "\n";
  }
}

}  // namespace
}  // namespace mlebench
