#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "formats/parquet.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/synthetic_test_util.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;
constexpr char kReference[] = "competitions/icecube-neutrinos-in-deep-ice/prepare_reference.py";

fs::path Raw(uint64_t seed) {
  absl::StatusOr<fs::path> raw = testing::GenerateSynthetic(kId, seed);
  EXPECT_TRUE(raw.ok()) << raw.status();
  return *raw;
}

std::string Lines(const std::vector<std::string>& names, const std::string& prefix) {
  std::string out;
  for (const std::string& n : names) out += n.substr(prefix.size()) + "\n";
  return out;
}

TEST(IcecubePrepareTest, FilesColumnsAndSplit) {
  const fs::path raw = Raw(0);
  const std::map<std::string, std::string> raw_before = testing::ReadTree(raw);
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_EQ(testing::ReadTree(raw), raw_before);  // raw untouched
  EXPECT_THAT(testing::FileNames(dirs->private_dir), ElementsAre("test.csv"));
  const std::vector<std::string> public_files = testing::FileNames(dirs->public_dir);
  int train_batches = 0, test_batches = 0;
  for (const std::string& f : public_files) {
    train_batches += f.rfind("train/batch_", 0) == 0;
    test_batches += f.rfind("test/batch_", 0) == 0;
  }
  EXPECT_EQ(train_batches, 18);  // 20 batches, test_size 0.1
  EXPECT_EQ(test_batches, 2);
  EXPECT_EQ(public_files.size(), 24u);  // + the two metas, sample submission, geometry

  absl::StatusOr<Table> train = ReadParquetFile(dirs->public_dir / "train_meta.parquet");
  absl::StatusOr<Table> test_meta = ReadParquetFile(dirs->public_dir / "test_meta.parquet");
  ASSERT_TRUE(train.ok() && test_meta.ok());
  EXPECT_THAT(train->ColumnNames(), ElementsAre("batch_id", "event_id", "first_pulse_index",
                                                "last_pulse_index", "azimuth", "zenith"));
  EXPECT_THAT(test_meta->ColumnNames(),
              ElementsAre("batch_id", "event_id", "first_pulse_index", "last_pulse_index"));
  EXPECT_EQ(train->num_rows(), 18u * 12);
  EXPECT_EQ(test_meta->num_rows(), 2u * 12);
  Table answers = testing::ReadCsvOrFail(dirs->private_dir / "test.csv");
  Table sample = testing::ReadCsvOrFail(dirs->public_dir / "sample_submission.csv");
  EXPECT_THAT(answers.ColumnNames(), ElementsAre("event_id", "azimuth", "zenith"));
  EXPECT_THAT(sample.ColumnNames(), ElementsAre("event_id", "azimuth", "zenith"));
  EXPECT_EQ(sample.columns()[0].cells, answers.columns()[0].cells);
  EXPECT_EQ(sample.columns()[1].cells[0], Cell(int64_t{1}));
  // Train and test events are disjoint, and test batch files hold test events.
  for (const Cell& id : answers.columns()[0].cells) {
    for (const Cell& train_id : train->columns()[1].cells) ASSERT_NE(id, train_id);
  }
  EXPECT_EQ(*ReadFileToString(dirs->public_dir / "sensor_geometry.csv"),
            raw_before.at("sensor_geometry.csv"));
}

TEST(IcecubePrepareTest, DeterministicOutputs) {
  const fs::path raw = Raw(1);
  absl::StatusOr<testing::PreparedDirs> a = testing::RunPreparer(kId, raw);
  absl::StatusOr<testing::PreparedDirs> b = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(testing::ReadTree(a->public_dir), testing::ReadTree(b->public_dir));
  EXPECT_EQ(testing::ReadTree(a->private_dir), testing::ReadTree(b->private_dir));
}

// Against upstream's prepare.py restated on pandas 2.2.2, scikit-learn 1.5.1,
// pyarrow and fastparquet (see the script): every output byte for byte (the
// Parquet files too: we write them in fastparquet's layout; the script also
// checks that pandas reads the same DataFrames from them), and the same batch
// files copied. (Byte-identical Parquet holds on any CPU here: the synthetic
// azimuth and zenith hold no -0.0, the one value whose statistics can differ
// with numpy's kernels; see ParquetLayout::kFastparquet.)
TEST(IcecubePrepareTest, MatchesUpstreamsStepsOnPandas) {
  for (uint64_t seed : {2, 5}) {
    const fs::path raw = Raw(seed);
    absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(dirs.ok()) << dirs.status();
    const fs::path ref = testing::NewTempDir("icecube_ref");
    testing::CommandResult r = testing::RunPython(
        *ReadFileToString(kReference),
        {raw.string(), dirs->public_dir.string(), dirs->private_dir.string(), ref.string()});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_THAT(r.output, HasSubstr("frame-equal train_meta.parquet"));
    EXPECT_THAT(r.output, HasSubstr("frame-equal test_meta.parquet"));
    EXPECT_THAT(r.output, HasSubstr("bytes train_meta.parquet identical"));
    EXPECT_THAT(r.output, HasSubstr("bytes test_meta.parquet identical"));
    EXPECT_EQ(*ReadFileToString(dirs->public_dir / "train_meta.parquet"),
              *ReadFileToString(ref / "public" / "train_meta.parquet"));
    EXPECT_EQ(*ReadFileToString(dirs->public_dir / "test_meta.parquet"),
              *ReadFileToString(ref / "public" / "test_meta.parquet"));
    EXPECT_EQ(*ReadFileToString(dirs->public_dir / "sample_submission.csv"),
              *ReadFileToString(ref / "public" / "sample_submission.csv"));
    EXPECT_EQ(*ReadFileToString(dirs->private_dir / "test.csv"),
              *ReadFileToString(ref / "private" / "test.csv"));
    EXPECT_EQ(Lines(testing::FileNames(dirs->public_dir / "train"), ""),
              *ReadFileToString(ref / "train_batches.txt"));
    EXPECT_EQ(Lines(testing::FileNames(dirs->public_dir / "test"), ""),
              *ReadFileToString(ref / "test_batches.txt"));
  }
}

TEST(IcecubePrepareTest, BadRawInputIsAnError) {
  // No train_meta.parquet.
  const fs::path empty = testing::NewTempDir("icecube_empty");
  EXPECT_FALSE(testing::RunPreparer(kId, empty).ok());
  // A damaged train_meta.parquet.
  const fs::path damaged = Raw(0);
  ASSERT_TRUE(WriteStringToFile(damaged / "train_meta.parquet", "PAR1 not really PAR1").ok());
  absl::StatusOr<testing::PreparedDirs> r = testing::RunPreparer(kId, damaged);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("train_meta.parquet"));
  // A batch file whose name has no integer id.
  const fs::path odd_name = Raw(0);
  ASSERT_TRUE(WriteStringToFile(odd_name / "train" / "batch_x.parquet", "").ok());
  r = testing::RunPreparer(kId, odd_name);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("batch_x"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("invalid literal for int()"));
  // A batch file missing: upstream's "Not all train batches copied" (or test).
  const fs::path missing = Raw(0);
  for (int b = 1; b <= 20; ++b)
    fs::remove(missing / "train" / ("batch_" + std::to_string(b) + ".parquet"));
  r = testing::RunPreparer(kId, missing);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("batches copied"));
}

// Batch ids come from Python's int() of the name's last "_" field: a name int()
// reads as an id that is no batch, or as an integer beyond int64, is skipped;
// a second name for a batch is copied too and then fails upstream's count check.
TEST(IcecubePrepareTest, BatchFileNamesAsPythonIntReadsThem) {
  const fs::path skipped = Raw(0);
  ASSERT_TRUE(WriteStringToFile(skipped / "train" / "batch_+9_999.parquet", "").ok());
  ASSERT_TRUE(WriteStringToFile(skipped / "train" / "batch_99999999999999999999.parquet", "").ok());
  absl::StatusOr<testing::PreparedDirs> r = testing::RunPreparer(kId, skipped);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(fs::exists(r->public_dir / "train" / "batch_+9_999.parquet"));
  EXPECT_FALSE(fs::exists(r->public_dir / "test" / "batch_+9_999.parquet"));

  const fs::path twice = Raw(0);
  ASSERT_TRUE(WriteStringToFile(twice / "train" / "batch_ 1_0_1.parquet", "").ok());
  r = testing::RunPreparer(kId, twice);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("batches copied"));
}

}  // namespace
}  // namespace mlebench::prepare_test
