#include "formats/seven_zip.h"

#include <archive.h>
#include <archive_entry.h>

#include <filesystem>
#include <string>
#include <vector>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::ReadFileOrFail;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

// A raw entry for WriteRaw7z: bypasses Write7z's checks to build hostile
// archives.
struct RawEntry {
  std::string name;
  mode_t type = AE_IFREG;
  std::string content;  // the link target for AE_IFLNK
};

void WriteRaw7z(const fs::path& path, const std::vector<RawEntry>& entries) {
  archive* a = archive_write_new();
  ASSERT_EQ(archive_write_set_format_7zip(a), ARCHIVE_OK);
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK);
  for (const RawEntry& raw : entries) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, raw.name.c_str());
    archive_entry_set_filetype(e, raw.type);
    archive_entry_set_perm(e, 0644);
    if (raw.type == AE_IFLNK) {
      archive_entry_set_symlink(e, raw.content.c_str());
    } else {
      archive_entry_set_size(e, raw.content.size());
    }
    ASSERT_EQ(archive_write_header(a, e), ARCHIVE_OK) << archive_error_string(a);
    if (raw.type == AE_IFREG && !raw.content.empty()) {
      archive_write_data(a, raw.content.data(), raw.content.size());
    }
    archive_entry_free(e);
  }
  ASSERT_EQ(archive_write_close(a), ARCHIVE_OK);
  archive_write_free(a);
}

TEST(SevenZipTest, RoundTripSortsEntriesAndKeepsBytes) {
  const fs::path dir = testing::NewTempDir("seven_zip_round_trip");
  ASSERT_TRUE(WriteStringToFile(dir / "source.bin", std::string("\0\x01\xff data", 8)).ok());
  std::string big(300000, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>((i * 7919) % 251);
  const fs::path archive = dir / "out.7z";
  ASSERT_TRUE(Write7z(archive, {SevenZipEntry::FromBytes("train/b.txt", "bee\n"),
                                SevenZipEntry::FromFile("train/a.bin", dir / "source.bin"),
                                SevenZipEntry::FromBytes("big.bin", big),
                                SevenZipEntry::FromBytes("empty.txt", ""),
                                SevenZipEntry::Directory("train")})
                  .ok());
  absl::StatusOr<std::vector<std::string>> names = List7z(archive);
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_THAT(*names, ElementsAre("big.bin", "train/a.bin", "train/b.txt", "empty.txt", "train"));

  const fs::path out = dir / "extracted";
  ASSERT_TRUE(Extract7z(archive, out).ok());
  EXPECT_THAT(testing::ReadTree(out),
              ElementsAre(Pair("big.bin", big), Pair("empty.txt", ""),
                          Pair("train/a.bin", std::string("\0\x01\xff data", 8)),
                          Pair("train/b.txt", "bee\n")));
}

TEST(SevenZipTest, SameEntriesGiveIdenticalBytesWhateverTheOrder) {
  const fs::path dir = testing::NewTempDir("seven_zip_deterministic");
  ASSERT_TRUE(Write7z(dir / "one.7z", {SevenZipEntry::FromBytes("x/1", "one"),
                                       SevenZipEntry::FromBytes("x/2", "two")})
                  .ok());
  ASSERT_TRUE(Write7z(dir / "two.7z", {SevenZipEntry::FromBytes("x/2", "two"),
                                       SevenZipEntry::FromBytes("x/1", "one")})
                  .ok());
  EXPECT_EQ(ReadFileOrFail(dir / "one.7z"), ReadFileOrFail(dir / "two.7z"));
  EXPECT_EQ(ReadFileOrFail(dir / "one.7z").substr(0, 6), std::string("7z\xbc\xaf\x27\x1c", 6));
  ASSERT_TRUE(Write7z(dir / "three.7z", {SevenZipEntry::FromBytes("x/1", "one"),
                                         SevenZipEntry::FromBytes("x/2", "TWO")})
                  .ok());
  EXPECT_NE(ReadFileOrFail(dir / "one.7z"), ReadFileOrFail(dir / "three.7z"));
}

TEST(SevenZipTest, EmptyArchiveRoundTrips) {
  const fs::path dir = testing::NewTempDir("seven_zip_empty_archive");
  ASSERT_TRUE(Write7z(dir / "empty.7z", {}).ok());
  absl::StatusOr<std::vector<std::string>> names = List7z(dir / "empty.7z");
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_TRUE(names->empty());
  ASSERT_TRUE(Extract7z(dir / "empty.7z", dir / "out").ok());
  EXPECT_TRUE(fs::is_directory(dir / "out"));
}

TEST(SevenZipTest, DirectoryArchiveUsesPrefixAndRelativeNames) {
  const fs::path dir = testing::NewTempDir("seven_zip_directory");
  fs::create_directories(dir / "src/sub");
  ASSERT_TRUE(WriteStringToFile(dir / "src/b.jpg", "b").ok());
  ASSERT_TRUE(WriteStringToFile(dir / "src/sub/a.jpg", "a").ok());
  ASSERT_TRUE(SevenZipDirectory(dir / "src", "train/", dir / "train.7z").ok());
  absl::StatusOr<std::vector<std::string>> names = List7z(dir / "train.7z");
  ASSERT_TRUE(names.ok());
  EXPECT_THAT(*names, ElementsAre("train/b.jpg", "train/sub/a.jpg"));
  EXPECT_EQ(SevenZipDirectory(dir / "absent", "", dir / "x.7z").code(),
            absl::StatusCode::kNotFound);
}

TEST(SevenZipTest, WriteRejectsBadNamesAndSources) {
  const fs::path dir = testing::NewTempDir("seven_zip_bad_names");
  for (const char* name : {"", "/abs", "a/../b", "..", "a//b", "./a", "a/"}) {
    absl::Status s = Write7z(dir / "bad.7z", {SevenZipEntry::FromBytes(name, "x")});
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << name << ": " << s;
  }
  EXPECT_THAT(Write7z(dir / "dup.7z",
                      {SevenZipEntry::FromBytes("a", "1"), SevenZipEntry::FromBytes("a", "2")})
                  .message(),
              HasSubstr("more than once"));
  EXPECT_EQ(Write7z(dir / "missing.7z", {SevenZipEntry::FromFile("a", dir / "nope")}).code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(Write7z(dir / "no_dir/x.7z", {}).code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(fs::exists(dir / "bad.7z"));
  EXPECT_EQ(testing::ReadTree(dir).size(), 0u) << "no temporary file is left behind";
}

TEST(SevenZipTest, ExtractRejectsMissingEmptyAndNon7zFiles) {
  const fs::path dir = testing::NewTempDir("seven_zip_not_archives");
  EXPECT_EQ(Extract7z(dir / "absent.7z", dir / "out").code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(WriteStringToFile(dir / "empty.7z", "").ok());
  EXPECT_THAT(Extract7z(dir / "empty.7z", dir / "out").message(), HasSubstr("empty"));
  ASSERT_TRUE(WriteStringToFile(dir / "text.7z", "id,label\n1,2\n").ok());
  absl::Status s = Extract7z(dir / "text.7z", dir / "out");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("text.7z"));
  EXPECT_FALSE(List7z(dir / "text.7z").ok());
  EXPECT_EQ(Extract7z(dir, dir / "out").code(), absl::StatusCode::kInvalidArgument);
}

TEST(SevenZipTest, ExtractRejectsCorruptAndTruncatedArchives) {
  const fs::path dir = testing::NewTempDir("seven_zip_corrupt");
  std::string content(20000, '\0');
  for (size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>((i * i) % 253);
  ASSERT_TRUE(Write7z(dir / "good.7z", {SevenZipEntry::FromBytes("a.bin", content)}).ok());
  const std::string good = ReadFileOrFail(dir / "good.7z");
  ASSERT_GT(good.size(), 100u);

  const std::string truncated = good.substr(0, good.size() / 2);
  ASSERT_TRUE(WriteStringToFile(dir / "truncated.7z", truncated).ok());
  EXPECT_FALSE(Extract7z(dir / "truncated.7z", dir / "out1").ok());

  // Damage the packed data (just after the 32-byte signature header): the
  // decoder or the CRC check must notice.
  std::string damaged = good;
  for (size_t i = 40; i < 60; ++i) damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
  ASSERT_TRUE(WriteStringToFile(dir / "damaged.7z", damaged).ok());
  absl::Status s = Extract7z(dir / "damaged.7z", dir / "out2");
  EXPECT_FALSE(s.ok());
  if (s.ok()) {
    EXPECT_NE(ReadFileOrFail(dir / "out2/a.bin"), content) << "damage went unnoticed";
  }

  // Damage the end header.
  std::string bad_header = good;
  for (size_t i = bad_header.size() - 20; i < bad_header.size(); ++i) {
    bad_header[i] = static_cast<char>(bad_header[i] ^ 0xff);
  }
  ASSERT_TRUE(WriteStringToFile(dir / "bad_header.7z", bad_header).ok());
  EXPECT_FALSE(Extract7z(dir / "bad_header.7z", dir / "out3").ok());
}

TEST(SevenZipTest, ExtractRejectsEscapingNamesBeforeWritingAnything) {
  const fs::path dir = testing::NewTempDir("seven_zip_slip");
  WriteRaw7z(dir / "dotdot.7z", {{"ok.txt", AE_IFREG, "fine"}, {"a/../../evil", AE_IFREG, "x"}});
  absl::Status s = Extract7z(dir / "dotdot.7z", dir / "out");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr(".."));
  EXPECT_FALSE(fs::exists(dir / "out/ok.txt"));
  EXPECT_FALSE(fs::exists(dir / "evil"));

  // An absolute name inside this test's own directory: whether it exists
  // afterwards says what the extraction did, whatever the host's /tmp holds.
  const fs::path absolute = dir / "absolute_target";
  ASSERT_FALSE(fs::exists(absolute));
  WriteRaw7z(dir / "absolute.7z", {{absolute.string(), AE_IFREG, "x"}});
  EXPECT_THAT(Extract7z(dir / "absolute.7z", dir / "out").message(), HasSubstr("absolute"));
  EXPECT_FALSE(fs::exists(absolute));
}

TEST(SevenZipTest, ExtractRejectsSymlinkEntries) {
  const fs::path dir = testing::NewTempDir("seven_zip_symlink_entry");
  WriteRaw7z(dir / "link.7z", {{"link", AE_IFLNK, "/etc"}, {"link/passwd", AE_IFREG, "x"}});
  absl::Status s = Extract7z(dir / "link.7z", dir / "out");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("link"));
  EXPECT_FALSE(fs::exists(fs::symlink_status(dir / "out/link")));
}

TEST(SevenZipTest, ExtractDoesNotFollowSymlinksOutOfTheDestination) {
  const fs::path dir = testing::NewTempDir("seven_zip_symlink_dest");
  fs::create_directories(dir / "out");
  fs::create_directories(dir / "elsewhere");
  fs::create_directory_symlink(dir / "elsewhere", dir / "out/sub");
  ASSERT_TRUE(Write7z(dir / "a.7z", {SevenZipEntry::FromBytes("sub/x.txt", "x")}).ok());
  absl::Status s = Extract7z(dir / "a.7z", dir / "out");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_FALSE(fs::exists(dir / "elsewhere/x.txt"));
}

TEST(SevenZipTest, ExtractEnforcesSizeAndEntryLimits) {
  const fs::path dir = testing::NewTempDir("seven_zip_limits");
  ASSERT_TRUE(Write7z(dir / "a.7z", {SevenZipEntry::FromBytes("a", std::string(1000, 'a')),
                                     SevenZipEntry::FromBytes("b", "b")})
                  .ok());
  Extract7zOptions small_size;
  small_size.max_total_bytes = 999;
  EXPECT_EQ(Extract7z(dir / "a.7z", dir / "out", small_size).code(),
            absl::StatusCode::kResourceExhausted);
  Extract7zOptions few_entries;
  few_entries.max_entries = 1;
  EXPECT_EQ(Extract7z(dir / "a.7z", dir / "out", few_entries).code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(SevenZipTest, ExtractOverwritesExistingFiles) {
  const fs::path dir = testing::NewTempDir("seven_zip_overwrite");
  fs::create_directories(dir / "out");
  ASSERT_TRUE(WriteStringToFile(dir / "out/a.txt", "old content").ok());
  ASSERT_TRUE(Write7z(dir / "a.7z", {SevenZipEntry::FromBytes("a.txt", "new")}).ok());
  ASSERT_TRUE(Extract7z(dir / "a.7z", dir / "out").ok());
  EXPECT_EQ(ReadFileOrFail(dir / "out/a.txt"), "new");
}

}  // namespace
}  // namespace mlebench
