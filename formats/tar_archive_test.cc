#include "formats/tar_archive.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using Names = std::vector<std::string>;

constexpr char kScript[] = "formats/tar_archive_test.py";

TEST(TarArchiveTest, ListsTopLevelNamesOfPythonTars) {
  const fs::path dir = testing::NewTempDir("tars");
  const testing::CommandResult run =
      testing::RunCommand({testing::ReferencePython(), kScript, "write", dir.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(*TarTopLevelNames(dir / "flat.tar.gz"),
            (Names{"Sample00123.zip", "Sample00300.zip", "notes.txt"}));
  EXPECT_EQ(*TarTopLevelNames(dir / "nested.tar"), (Names{"dir", "top.zip"}));
  EXPECT_FALSE(TarTopLevelNames(dir / "unsafe.tar.gz").ok());
}

TEST(TarArchiveTest, ExtractsPythonTarsSafely) {
  const fs::path dir = testing::NewTempDir("extract");
  const testing::CommandResult run =
      testing::RunCommand({testing::ReferencePython(), kScript, "write", dir.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_TRUE(ExtractTar(dir / "nested.tar", dir / "out").ok());
  EXPECT_EQ(testing::ReadTree(dir / "out"),
            (std::map<std::string, std::string>{
                {"dir/Sample00001.zip", "x"}, {"dir/sub/b.zip", "x"}, {"top.zip", ""}}));
  EXPECT_FALSE(ExtractTar(dir / "unsafe.tar.gz", dir / "bad").ok());
  EXPECT_FALSE(fs::exists(dir / "evil.zip"));
  EXPECT_FALSE(ExtractTar(dir / "absent.tar", dir / "bad").ok());
}

// Found by //formats:tar_fuzzer (its seed_2): a symlink already in `dest`
// carried entries outside it, a file through a symlink to a file, a
// directory's files through a symlink to a directory. Now an error, with
// nothing written anywhere.
TEST(TarArchiveTest, SymlinksInTheDestinationDoNotCarryEntriesOutside) {
  const fs::path dir = testing::NewTempDir("symlinks");
  fs::create_directories(dir / "dest");
  fs::create_directories(dir / "outside");
  fs::create_directory_symlink("../outside", dir / "dest" / "escape_dir");
  fs::create_symlink("../outside/file", dir / "dest" / "escape_file");
  ASSERT_TRUE(WriteTar(dir / "file.tar", {{"a", "a"}, {"escape_file", "x"}}, false).ok());
  EXPECT_FALSE(ExtractTar(dir / "file.tar", dir / "dest").ok());
  ASSERT_TRUE(WriteTar(dir / "dir.tar", {{"a", "a"}, {"escape_dir/y", "y"}}, false).ok());
  EXPECT_FALSE(ExtractTar(dir / "dir.tar", dir / "dest").ok());
  EXPECT_TRUE(fs::is_empty(dir / "outside"));
  // Checked before anything is written: not even "a".
  EXPECT_FALSE(fs::exists(dir / "dest" / "a"));
}

TEST(TarArchiveTest, ArchivesOverTheLimitsAreRefusedBeforeAnythingIsWritten) {
  const fs::path dir = testing::NewTempDir("limits");
  // A tar bomb in small: 300 KB of zeros compress to a few hundred bytes.
  ASSERT_TRUE(WriteTarGz(dir / "bomb.tar.gz",
                         {{"a", "small"}, {"zeros", std::string(300000, '\0')}})
                  .ok());
  ASSERT_LT(fs::file_size(dir / "bomb.tar.gz"), 2000u);
  const absl::Status over = ExtractTar(dir / "bomb.tar.gz", dir / "over", {.max_total_bytes = 300000});
  EXPECT_EQ(over.code(), absl::StatusCode::kResourceExhausted) << over;
  EXPECT_TRUE(fs::is_empty(dir / "over"));
  const absl::Status many =
      ExtractTar(dir / "bomb.tar.gz", dir / "many", {.max_entries = 1});
  EXPECT_EQ(many.code(), absl::StatusCode::kResourceExhausted) << many;
  EXPECT_TRUE(fs::is_empty(dir / "many"));
  // Exactly at the limits: extracted.
  ASSERT_TRUE(ExtractTar(dir / "bomb.tar.gz", dir / "fits",
                         {.max_total_bytes = 300005, .max_entries = 2})
                  .ok());
  EXPECT_EQ(fs::file_size(dir / "fits" / "zeros"), 300000u);
}

TEST(TarArchiveTest, WritesPlainTarsFromFiles) {
  const fs::path dir = testing::NewTempDir("plain");
  ASSERT_TRUE(WriteStringToFile(dir / "big.bin", std::string(200000, 'b')).ok());
  ASSERT_TRUE(WriteTar(dir / "a.tar", {{"x/big.bin", "", dir / "big.bin"}, {"y", "why"}},
                       /*gzip=*/false)
                  .ok());
  EXPECT_EQ(ReadFileToString(dir / "a.tar")->substr(257, 5), "ustar");
  ASSERT_TRUE(ExtractTar(dir / "a.tar", dir / "out").ok());
  EXPECT_EQ(
      testing::ReadTree(dir / "out"),
      (std::map<std::string, std::string>{{"x/big.bin", std::string(200000, 'b')}, {"y", "why"}}));
  EXPECT_FALSE(WriteTar(dir / "b.tar", {{"z", "", dir / "absent"}}, false).ok());
}

TEST(TarArchiveTest, BadArchivesAreErrors) {
  const fs::path dir = testing::NewTempDir("bad");
  EXPECT_FALSE(TarTopLevelNames(dir / "absent.tar.gz").ok());
  ASSERT_TRUE(WriteStringToFile(dir / "empty.tar.gz", "").ok());
  EXPECT_FALSE(TarTopLevelNames(dir / "empty.tar.gz").ok());
  ASSERT_TRUE(WriteStringToFile(dir / "junk.tar.gz", std::string(3000, 'j')).ok());
  EXPECT_FALSE(TarTopLevelNames(dir / "junk.tar.gz").ok());
  // A truncated archive.
  ASSERT_TRUE(WriteTarGz(dir / "full.tar.gz", {{"a.zip", std::string(100000, 'a')}}).ok());
  std::string bytes = *ReadFileToString(dir / "full.tar.gz");
  ASSERT_TRUE(WriteStringToFile(dir / "cut.tar.gz", bytes.substr(0, bytes.size() / 2)).ok());
  EXPECT_FALSE(TarTopLevelNames(dir / "cut.tar.gz").ok());
}

TEST(TarArchiveTest, WritesDeterministicArchivesPythonReads) {
  const fs::path dir = testing::NewTempDir("write");
  const std::vector<TarEntry> entries = {{"b.zip", "bee"}, {"a/c.txt", "sea"}, {"empty", ""}};
  ASSERT_TRUE(WriteTarGz(dir / "one.tar.gz", entries).ok());
  ASSERT_TRUE(WriteTarGz(dir / "two.tar.gz", entries).ok());
  EXPECT_EQ(*ReadFileToString(dir / "one.tar.gz"), *ReadFileToString(dir / "two.tar.gz"));
  // No time stamp in the gzip header (bytes 4-7), so no clock in the output.
  EXPECT_EQ(ReadFileToString(dir / "one.tar.gz")->substr(4, 4), std::string(4, '\0'));
  EXPECT_EQ(*TarTopLevelNames(dir / "one.tar.gz"), (Names{"a", "b.zip", "empty"}));
  const testing::CommandResult run =
      testing::RunCommand({testing::ReferencePython(), kScript, "list", (dir / "one.tar.gz").string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output,
            "b.zip 3 0 0 0 0o644 bee\na/c.txt 3 0 0 0 0o644 sea\nempty 0 0 0 0 0o644 \n");
  EXPECT_FALSE(WriteTarGz(dir / "bad.tar.gz", {{"../x", "y"}}).ok());
  EXPECT_FALSE(WriteTarGz(dir / "bad.tar.gz", {{"/x", "y"}}).ok());
  EXPECT_FALSE(WriteTarGz(dir / "bad.tar.gz", {{"", "y"}}).ok());
}

}  // namespace
}  // namespace mlebench
