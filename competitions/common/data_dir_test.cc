#include "competitions/common/data_dir.h"

#include <filesystem>
#include <iterator>
#include <string>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "formats/zip_archive.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::ReadFileOrFail;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::HasSubstr;

// prepare_main_test_preparer registers "fake-competition": raw/in.txt (and
// raw/meta.parquet) is copied to public/ and private/; raw/fail makes it fail.
constexpr char kId[] = "fake-competition";

TEST(Md5FileTest, MatchesRfc1321Vectors) {
  const fs::path dir = NewTempDir("md5");
  WriteFileOrFail(dir / "empty", "");
  WriteFileOrFail(dir / "abc", "abc");
  EXPECT_EQ(*Md5File(dir / "empty"), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(*Md5File(dir / "abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Md5File(dir / "absent").status().code(), absl::StatusCode::kNotFound);
}

TEST(ParseUpstreamChecksumsTest, ReadsWhatYamlDumpWrites) {
  absl::StatusOr<UpstreamChecksums> c = ParseUpstreamChecksums(
      "private:\n  test.csv: 1cb99c65efecaba968128577722a83ef\n"
      "public:\n  'odd: name.csv': 5414b5da6ebcff454de1c9ed39b73774\n"
      "  train.csv: \"564a1614ecef9d9611cec4efdce4c412\"\n"
      "zip: 67c177886736583aff9b947e121395a9\n");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->zip, "67c177886736583aff9b947e121395a9");
  EXPECT_EQ(c->private_files.at("test.csv"), "1cb99c65efecaba968128577722a83ef");
  EXPECT_EQ(c->public_files.at("odd: name.csv"), "5414b5da6ebcff454de1c9ed39b73774");
  EXPECT_EQ(c->public_files.at("train.csv"), "564a1614ecef9d9611cec4efdce4c412");

  absl::StatusOr<UpstreamChecksums> empty =
      ParseUpstreamChecksums("private:\n  a.csv: 1cb99c65efecaba968128577722a83ef\npublic: {}\n");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(empty->public_files.empty());
  EXPECT_FALSE(empty->zip.has_value());
}

TEST(ParseUpstreamChecksumsTest, RejectsAnythingElse) {
  for (const char* bad : {
           "zip: not-a-digest\n",
           "public:\n  a.csv: 1cb99c65efecaba968128577722a83eF\n",  // uppercase hex
           "other: 1cb99c65efecaba968128577722a83ef\n",
           "  a.csv: 1cb99c65efecaba968128577722a83ef\n",  // entry outside a section
           "public:\n  a.csv: 1cb99c65efecaba968128577722a83ef\n  a.csv: "
           "1cb99c65efecaba968128577722a83ef\n",
           "public: [a, b]\n",
           "public\n",
           "public:\n  'a.csv: 1cb99c65efecaba968128577722a83ef\n",
       }) {
    EXPECT_EQ(ParseUpstreamChecksums(bad).status().code(), absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

TEST(StatManifestTest, ListsFilesSortedWithSizesAndChangesWithThem) {
  const fs::path dir = NewTempDir("manifest");
  WriteFileOrFail(dir / "b.csv", "12345");
  WriteFileOrFail(dir / "a/z.txt", "x");
  fs::create_directories(dir / "empty_dir");
  absl::StatusOr<std::string> m = StatManifest(dir);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(*m, ::testing::MatchesRegex("a/z.txt\t1\t[0-9]+\nb.csv\t5\t[0-9]+\n"));
  EXPECT_EQ(*StatManifest(dir), *m);  // stable

  WriteFileOrFail(dir / "b.csv", "123456");
  EXPECT_NE(*StatManifest(dir), *m);
  EXPECT_EQ(StatManifest(dir / "absent").status().code(), absl::StatusCode::kNotFound);

  fs::create_symlink(dir / "nowhere", dir / "dangling");
  EXPECT_THAT(std::string(StatManifest(dir).status().message()), HasSubstr("dangling"));
}

TEST(IsPreparedTest, FollowsUpstreamsRule) {
  const fs::path root = NewTempDir("is_prepared");
  const CompetitionDataDir dir(root, kId);
  EXPECT_FALSE(IsPrepared(dir, "private/in.txt", "public/in.txt"));
  WriteFileOrFail(dir.public_dir() / "in.txt", "1");
  EXPECT_FALSE(IsPrepared(dir, "private/in.txt", "public/in.txt"));  // private/ missing
  WriteFileOrFail(dir.private_dir() / "other.txt", "1");
  EXPECT_FALSE(IsPrepared(dir, "private/in.txt", "public/in.txt"));  // no answers
  WriteFileOrFail(dir.private_dir() / "in.txt", "1");
  EXPECT_TRUE(IsPrepared(dir, "private/in.txt", "public/in.txt"));
  EXPECT_FALSE(IsPrepared(dir, "private/in.txt", "public/sample.csv"));
}

TEST(EnsurePreparedDataTest, PreparesFromRawOnceThenTakesPreparedAsIs) {
  const fs::path root = NewTempDir("ensure");
  const CompetitionDataDir dir(root, kId);
  WriteFileOrFail(dir.raw() / "in.txt", "hello\n");

  absl::StatusOr<PreparedData> first =
      EnsurePreparedData(dir, "private/in.txt", "public/in.txt", std::nullopt);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_THAT(first->log, HasSubstr("from"));
  EXPECT_EQ(ReadFileOrFail(dir.public_dir() / "in.txt"), "hello\n");
  EXPECT_FALSE(fs::exists(dir.competition_dir / "prepared.partial"));
  EXPECT_EQ(first->dataset, "kaggle");
  EXPECT_THAT(first->handle, HasSubstr("dataset\tkaggle\nchecksums\tnot given\n"));
  EXPECT_TRUE(CheckHandleIsCurrent(first->handle, dir.prepared()).ok());

  // Taken as is: the same handle, nothing rewritten, even though raw/ changed.
  WriteFileOrFail(dir.raw() / "in.txt", "changed\n");
  absl::StatusOr<PreparedData> second =
      EnsurePreparedData(dir, "private/in.txt", "public/in.txt", std::nullopt);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_THAT(second->log, HasSubstr("as is"));
  EXPECT_EQ(second->handle, first->handle);
  EXPECT_EQ(ReadFileOrFail(dir.public_dir() / "in.txt"), "hello\n");
}

TEST(EnsurePreparedDataTest, AcceptsUpstreamLayoutWithoutMarkerAndChecksThem) {
  const fs::path root = NewTempDir("upstream_layout");
  const CompetitionDataDir dir(root, kId);
  // As upstream's own `mlebench prepare` leaves it: no raw/, no marker.
  WriteFileOrFail(dir.public_dir() / "train.csv", "a\n1\n");
  WriteFileOrFail(dir.public_dir() / "sample_submission.csv", "id\n");
  WriteFileOrFail(dir.public_dir() / "images/1.jpg", "not checksummed");
  WriteFileOrFail(dir.private_dir() / "test.csv", "a\n2\n");
  UpstreamChecksums checksums;
  checksums.public_files = {{"train.csv", *Md5File(dir.public_dir() / "train.csv")},
                            {"sample_submission.csv", *Md5File(dir.public_dir() / "sample_submission.csv")}};
  checksums.private_files = {{"test.csv", *Md5File(dir.private_dir() / "test.csv")}};
  checksums.zip = "00000000000000000000000000000000";  // no zip here: not compared
  absl::StatusOr<PreparedData> prepared = EnsurePreparedData(
      dir, "private/test.csv", "public/sample_submission.csv", checksums);
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  EXPECT_THAT(prepared->log, HasSubstr("checksums match"));
  EXPECT_EQ(prepared->dataset, "kaggle");  // no marker: upstream's data is Kaggle's
  EXPECT_THAT(prepared->handle, HasSubstr("checksums\tverified\n"));
  EXPECT_THAT(prepared->handle, HasSubstr("public/images/1.jpg\t"));

  // A changed answers file, a missing one and an extra one are all named.
  WriteFileOrFail(dir.private_dir() / "test.csv", "a\n3\n");
  WriteFileOrFail(dir.public_dir() / "extra.json", "{}");
  fs::remove(dir.public_dir() / "train.csv");
  absl::Status s = VerifyUpstreamChecksums(dir, checksums);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.message()), HasSubstr("private/test.csv has md5"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("public/train.csv is missing"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("public/extra.json is not in checksums.yaml"));
  EXPECT_FALSE(
      EnsurePreparedData(dir, "private/test.csv", "public/sample_submission.csv", checksums).ok());
}

// Parquet files are compared by md5 like every other file, also when we
// prepared them: our writer writes fastparquet's bytes where upstream does.
TEST(EnsurePreparedDataTest, ParquetIsComparedByMd5EvenWhenPreparedHere) {
  const fs::path root = NewTempDir("parquet_checksums");
  const CompetitionDataDir dir(root, kId);
  WriteFileOrFail(dir.raw() / "in.txt", "hello\n");
  WriteFileOrFail(dir.raw() / "meta.parquet", "PAR1 our bytes PAR1");
  UpstreamChecksums checksums;
  checksums.public_files = {{"meta.parquet", "0123456789abcdef0123456789abcdef"}};
  checksums.private_files = {{"meta.parquet", "0123456789abcdef0123456789abcdef"}};
  absl::StatusOr<PreparedData> prepared =
      EnsurePreparedData(dir, "private/in.txt", "public/in.txt", checksums);
  ASSERT_FALSE(prepared.ok());
  EXPECT_THAT(std::string(prepared.status().message()),
              HasSubstr("public/meta.parquet has md5 "));
  EXPECT_THAT(std::string(prepared.status().message()),
              HasSubstr("private/meta.parquet has md5 "));

  // With the right md5s the same files pass, and a missing one is an error.
  const std::string md5 = *Md5File(dir.private_dir() / "meta.parquet");
  checksums.public_files = {{"meta.parquet", md5}};
  checksums.private_files = {{"meta.parquet", md5}};
  EXPECT_TRUE(VerifyUpstreamChecksums(dir, checksums).ok());
  fs::remove(dir.public_dir() / "meta.parquet");
  absl::Status missing = VerifyUpstreamChecksums(dir, checksums);
  EXPECT_THAT(std::string(missing.message()), HasSubstr("public/meta.parquet is missing"));
}

TEST(EnsurePreparedDataTest, ExtractsTheKaggleZipWhenRawIsAbsent) {
  const fs::path root = NewTempDir("zip_only");
  const CompetitionDataDir dir(root, kId);
  fs::create_directories(dir.competition_dir);
  ASSERT_TRUE(WriteZip(dir.zip(), {ZipEntry{"in.txt", std::string("zipped\n")}}).ok());
  ASSERT_TRUE(EnsurePreparedData(dir, "private/in.txt", "public/in.txt", std::nullopt).ok());
  EXPECT_EQ(ReadFileOrFail(dir.raw() / "in.txt"), "zipped\n");
  EXPECT_EQ(ReadFileOrFail(dir.private_dir() / "in.txt"), "zipped\n");
}

TEST(EnsurePreparedDataTest, NeverTouchesIncompletePreparedDataAndLosesNothingOnFailure) {
  const fs::path root = NewTempDir("incomplete");
  const CompetitionDataDir dir(root, kId);
  WriteFileOrFail(dir.raw() / "in.txt", "x\n");
  WriteFileOrFail(dir.public_dir() / "mine.txt", "keep me");
  absl::StatusOr<PreparedData> h =
      EnsurePreparedData(dir, "private/in.txt", "public/in.txt", std::nullopt);
  EXPECT_EQ(h.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(h.status().message()), HasSubstr("left untouched"));
  EXPECT_EQ(ReadFileOrFail(dir.public_dir() / "mine.txt"), "keep me");

  // A failing preparer leaves no partial directory behind.
  fs::remove_all(dir.prepared());
  WriteFileOrFail(dir.raw() / "fail", "");
  EXPECT_FALSE(EnsurePreparedData(dir, "private/in.txt", "public/in.txt", std::nullopt).ok());
  EXPECT_FALSE(fs::exists(dir.prepared()));
  EXPECT_FALSE(fs::exists(dir.competition_dir / "prepared.partial"));
}

// Content mode: the data dir's files as an action's inputs, outputs elsewhere,
// nothing written beside the inputs.
TEST(PrepareFromInputsTest, PreparesRawOrTheZipIntoTheGivenDirsAndLeavesTheInputsAlone) {
  const fs::path root = NewTempDir("content_raw");
  WriteFileOrFail(root / "raw/in.txt", "hello\n");
  absl::StatusOr<std::string> dataset =
      PrepareFromInputs(kId, RawInputs{.raw = root / "raw"}, root / "out/public",
                        root / "out/private", std::nullopt);
  ASSERT_TRUE(dataset.ok()) << dataset.status();
  EXPECT_EQ(*dataset, "kaggle");
  EXPECT_EQ(ReadFileOrFail(root / "out/private/in.txt"), "hello\n");
  EXPECT_FALSE(fs::exists(root / "prepared"));
  EXPECT_FALSE(fs::exists(root / "raw/.mlebench-dataset"));

  // Our synthetic marker in raw/ says synthetic.
  WriteFileOrFail(root / "raw" / kSyntheticRawMarker, "");
  EXPECT_EQ(*PrepareFromInputs(kId, RawInputs{.raw = root / "raw"}, root / "out2/public",
                               root / "out2/private", std::nullopt),
            "synthetic");

  // The zip alone: extracted out of the way, its md5 checked with the rest.
  const fs::path zip = root / "only/fake-competition.zip";
  fs::create_directories(zip.parent_path());
  ASSERT_TRUE(WriteZip(zip, {ZipEntry{"in.txt", std::string("zipped\n")}}).ok());
  UpstreamChecksums checksums;
  checksums.zip = *Md5File(zip);
  absl::StatusOr<std::string> from_zip = PrepareFromInputs(
      kId, RawInputs{.zip = zip}, root / "out3/public", root / "out3/private", checksums);
  ASSERT_TRUE(from_zip.ok()) << from_zip.status();
  EXPECT_EQ(ReadFileOrFail(root / "out3/public/in.txt"), "zipped\n");
  // Nothing was extracted beside the zip.
  EXPECT_EQ(std::distance(fs::directory_iterator(zip.parent_path()), fs::directory_iterator()), 1);
  checksums.zip = "0123456789abcdef0123456789abcdef";
  absl::StatusOr<std::string> bad = PrepareFromInputs(
      kId, RawInputs{.zip = zip}, root / "out4/public", root / "out4/private", checksums);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("fake-competition.zip has md5 "));

  EXPECT_EQ(PrepareFromInputs(kId, RawInputs{}, root / "p", root / "q", std::nullopt)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  WriteFileOrFail(root / "raw/fail", "");
  EXPECT_FALSE(PrepareFromInputs(kId, RawInputs{.raw = root / "raw"}, root / "out5/public",
                                 root / "out5/private", std::nullopt)
                   .ok());
}

TEST(CheckPreparedInputsTest, ChecksCompletenessAndChecksumsAndReadsTheMarker) {
  const fs::path prepared = NewTempDir("content_prepared") / "prepared";
  WriteFileOrFail(prepared / "public/sample_submission.csv", "id\n");
  absl::StatusOr<std::string> incomplete = CheckPreparedInputs(
      kId, prepared, "private/test.csv", "public/sample_submission.csv", std::nullopt);
  EXPECT_EQ(incomplete.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(incomplete.status().message()), HasSubstr("is incomplete"));
  EXPECT_THAT(std::string(incomplete.status().message()), HasSubstr("private/test.csv"));

  WriteFileOrFail(prepared / "private/test.csv", "a\n2\n");
  UpstreamChecksums checksums;
  checksums.public_files = {{"sample_submission.csv", *Md5File(prepared / "public/sample_submission.csv")}};
  checksums.private_files = {{"test.csv", *Md5File(prepared / "private/test.csv")}};
  checksums.zip = "00000000000000000000000000000000";  // no zip: not compared
  absl::StatusOr<std::string> ok = CheckPreparedInputs(
      kId, prepared, "private/test.csv", "public/sample_submission.csv", checksums);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(*ok, "kaggle");
  WriteFileOrFail(prepared / kDatasetMarker, "synthetic\n");
  EXPECT_EQ(*CheckPreparedInputs(kId, prepared, "private/test.csv",
                                 "public/sample_submission.csv", checksums),
            "synthetic");

  WriteFileOrFail(prepared / "private/test.csv", "a\n3\n");
  absl::StatusOr<std::string> changed = CheckPreparedInputs(
      kId, prepared, "private/test.csv", "public/sample_submission.csv", checksums);
  EXPECT_EQ(changed.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(changed.status().message()),
              HasSubstr("does not match upstream's checksums.yaml: private/test.csv has md5"));
}

TEST(CheckHandleIsCurrentTest, NamesTheFileThatChanged) {
  const fs::path root = NewTempDir("handle_current");
  const CompetitionDataDir dir(root, kId);
  WriteFileOrFail(dir.raw() / "in.txt", "hello\n");
  absl::StatusOr<PreparedData> prepared =
      EnsurePreparedData(dir, "private/in.txt", "public/in.txt", std::nullopt);
  ASSERT_TRUE(prepared.ok()) << prepared.status();
  ASSERT_TRUE(CheckHandleIsCurrent(prepared->handle, dir.prepared()).ok());

  WriteFileOrFail(dir.private_dir() / "in.txt", "hello, changed\n");
  absl::Status s = CheckHandleIsCurrent(prepared->handle, dir.prepared());
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.message()), HasSubstr("(private/in.txt)"));

  fs::remove_all(dir.prepared());
  EXPECT_EQ(CheckHandleIsCurrent(prepared->handle, dir.prepared()).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(CheckHandleIsCurrent("no handle", dir.prepared()).code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace mlebench
