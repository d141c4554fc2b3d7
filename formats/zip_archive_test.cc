#include "formats/zip_archive.h"

#include <sys/stat.h>
#include <zip.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::ReadFileOrFail;
using ::mlebench::testing::ReadTree;
using ::mlebench::testing::RunPython;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// Writes an archive with libzip directly, bypassing WriteZip's checks, to
// build the hostile archives that ExtractZip must refuse. `unix_modes` gives
// an entry's st_mode (for symlinks).
void WriteRawZip(const fs::path& zip, const std::vector<std::pair<std::string, std::string>>& files,
                 const std::map<std::string, uint32_t>& unix_modes = {}) {
  int error = 0;
  zip_t* archive = zip_open(zip.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  ASSERT_NE(archive, nullptr);
  for (const auto& [name, bytes] : files) {
    zip_source_t* source = zip_source_buffer(archive, bytes.data(), bytes.size(), 0);
    ASSERT_NE(source, nullptr);
    // ZIP_FL_ENC_RAW keeps the name exactly as given.
    const zip_int64_t index = zip_file_add(archive, name.c_str(), source, ZIP_FL_ENC_RAW);
    ASSERT_GE(index, 0) << name << ": " << zip_strerror(archive);
    if (auto it = unix_modes.find(name); it != unix_modes.end()) {
      ASSERT_EQ(
          zip_file_set_external_attributes(archive, index, 0, ZIP_OPSYS_UNIX, it->second << 16), 0);
    }
  }
  ASSERT_EQ(zip_close(archive), 0) << zip_strerror(archive);
}

// A deterministic pseudo-random byte string (poorly compressible).
std::string NoiseBytes(size_t n, uint64_t seed) {
  std::string bytes(n, '\0');
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    bytes[i] = static_cast<char>(seed >> 56);
  }
  return bytes;
}

// Python's zipfile view of an archive: "name\tlength\tsha256" per entry in
// archive order, after testzip() found every CRC correct.
constexpr char kPythonListScript[] = R"py(
import hashlib, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    assert bad is None, f"bad CRC in {bad}"
    for info in z.infolist():
        data = z.read(info)
        assert info.compress_type in (zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED)
        if not info.is_dir():
            assert info.compress_type == zipfile.ZIP_DEFLATED, info.filename
        assert info.date_time == (1980, 1, 1, 0, 0, 0), info.date_time
        print(f"{info.filename}\t{len(data)}\t{hashlib.sha256(data).hexdigest()}")
)py";

std::string Sha256Lines(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string script = R"py(
import hashlib, sys
data = open(sys.argv[1], "rb").read()
)py";
  // Lists name/content pairs via a length-prefixed file to keep binary intact.
  std::string blob;
  for (const auto& [name, bytes] : entries) {
    absl::StrAppend(&blob, name.size(), ":", name, bytes.size(), ":", bytes);
  }
  const fs::path blob_path = NewTempDir("blob") / "entries.bin";
  EXPECT_TRUE(WriteStringToFile(blob_path, blob).ok());
  script += R"py(
i = 0
while i < len(data):
    j = data.index(b":", i); n = int(data[i:j]); name = data[j + 1:j + 1 + n]; i = j + 1 + n
    j = data.index(b":", i); n = int(data[i:j]); body = data[j + 1:j + 1 + n]; i = j + 1 + n
    print(f"{name.decode()}\t{len(body)}\t{hashlib.sha256(body).hexdigest()}")
)py";
  testing::CommandResult result = RunPython(script, {blob_path.string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return result.output;
}

TEST(WriteZipTest, RoundTripsBytesFilesAndNestedDirectories) {
  const fs::path dir = NewTempDir("round_trip");
  const std::string big = NoiseBytes(200'000, 7);
  ASSERT_TRUE(WriteStringToFile(dir / "source.bin", big).ok());
  const std::vector<ZipEntry> entries = {
      ZipEntry::FromBytes("z_first.csv", "a,b\n1,2\n"),
      ZipEntry::Directory("train/"),
      ZipEntry::FromFile("train/deep/er/big.bin", dir / "source.bin"),
      ZipEntry::FromBytes("empty.txt", ""),
      ZipEntry::FromBytes("train/x.jpg", std::string("\xff\xd8\x00\x01", 4)),
  };
  const fs::path zip = dir / "out.zip";
  ASSERT_TRUE(WriteZip(zip, entries).ok());

  absl::StatusOr<std::vector<std::string>> names = ListZip(zip);
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_THAT(*names, ElementsAre("z_first.csv", "train/", "train/deep/er/big.bin", "empty.txt",
                                  "train/x.jpg"));

  const fs::path dest = dir / "extracted" / "here";  // created by ExtractZip
  ASSERT_TRUE(ExtractZip(zip, dest).ok());
  EXPECT_EQ(ReadTree(dest), (std::map<std::string, std::string>{
                                {"z_first.csv", "a,b\n1,2\n"},
                                {"train/deep/er/big.bin", big},
                                {"empty.txt", ""},
                                {"train/x.jpg", std::string("\xff\xd8\x00\x01", 4)},
                            }));
  EXPECT_TRUE(fs::is_directory(dest / "train"));
}

TEST(WriteZipTest, PythonZipfileReadsOurArchive) {
  const fs::path dir = NewTempDir("python_reads");
  std::vector<std::pair<std::string, std::string>> expected;
  std::vector<ZipEntry> entries;
  for (int i = 0; i < 40; ++i) {
    // Names with nesting and non-ASCII characters; contents from empty to
    // poorly and highly compressible.
    std::string name =
        absl::StrCat("d", i % 3, "/sub", i % 5, "/f", i, i % 7 == 0 ? "_é" : "", ".bin");
    std::string bytes = i % 2 == 0 ? NoiseBytes(i * 997, i) : std::string(i * 5000, 'a' + i % 26);
    expected.emplace_back(name, bytes);
    entries.push_back(ZipEntry::FromBytes(name, bytes));
  }
  const fs::path zip = dir / "archive.zip";
  ASSERT_TRUE(WriteZip(zip, entries).ok());
  testing::CommandResult result = RunPython(kPythonListScript, {zip.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, Sha256Lines(expected));
}

TEST(ExtractZipTest, ExtractsWhatPythonZipfileWrites) {
  const fs::path dir = NewTempDir("python_writes");
  const fs::path zip = dir / "python.zip";
  testing::CommandResult result = RunPython(R"py(
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("train/", "")
    z.writestr("train/a.txt", "alpha\n" * 1000)
    z.writestr("train/b/c.bin", bytes(range(256)) * 3)
    z.writestr("top.csv", "id,x\n1,2\n")
    z.writestr("stored.txt", "kept as is", compress_type=zipfile.ZIP_STORED)
)py",
                                            {zip.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  absl::StatusOr<std::vector<std::string>> names = ListZip(zip);
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_THAT(*names,
              ElementsAre("train/", "train/a.txt", "train/b/c.bin", "top.csv", "stored.txt"));
  const fs::path dest = dir / "out";
  ASSERT_TRUE(ExtractZip(zip, dest).ok());
  std::string all_bytes;
  for (int r = 0; r < 3; ++r) {
    for (int b = 0; b < 256; ++b) all_bytes += static_cast<char>(b);
  }
  std::string alpha;
  for (int i = 0; i < 1000; ++i) alpha += "alpha\n";
  EXPECT_EQ(ReadTree(dest), (std::map<std::string, std::string>{
                                {"train/a.txt", alpha},
                                {"train/b/c.bin", all_bytes},
                                {"top.csv", "id,x\n1,2\n"},
                                {"stored.txt", "kept as is"},
                            }));
}

TEST(WriteZipTest, OutputIsByteIdenticalAcrossRunsAndFileTimes) {
  const fs::path dir = NewTempDir("deterministic");
  ASSERT_TRUE(WriteStringToFile(dir / "data.bin", NoiseBytes(5000, 3)).ok());
  const std::vector<ZipEntry> entries = {
      ZipEntry::FromFile("data.bin", dir / "data.bin"),
      ZipEntry::FromBytes("notes.txt", "hello\n"),
  };
  ASSERT_TRUE(WriteZip(dir / "one.zip", entries).ok());
  // A different modification time and a different archive path must not
  // change a byte.
  fs::last_write_time(dir / "data.bin",
                      fs::last_write_time(dir / "data.bin") - std::chrono::hours(50));
  fs::create_directories(dir / "elsewhere");
  ASSERT_TRUE(WriteZip(dir / "elsewhere" / "two.zip", entries).ok());
  const std::string one = ReadFileOrFail(dir / "one.zip");
  EXPECT_EQ(one, ReadFileOrFail(dir / "elsewhere" / "two.zip"));
  EXPECT_EQ(one.find(dir.string()), std::string::npos) << "archive holds an absolute path";
  // No temporary files are left behind.
  EXPECT_THAT(ReadTree(dir), ::testing::SizeIs(3));
}

TEST(WriteZipTest, ReplacesAnExistingFile) {
  const fs::path dir = NewTempDir("replace");
  const fs::path zip = dir / "a.zip";
  ASSERT_TRUE(WriteStringToFile(zip, "not a zip at all").ok());
  ASSERT_TRUE(WriteZip(zip, {ZipEntry::FromBytes("x", "1")}).ok());
  absl::StatusOr<std::vector<std::string>> names = ListZip(zip);
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_THAT(*names, ElementsAre("x"));
}

TEST(WriteZipTest, EmptyArchiveIsValidForUsAndPython) {
  const fs::path dir = NewTempDir("empty");
  const fs::path zip = dir / "empty.zip";
  ASSERT_TRUE(WriteZip(zip, {}).ok());
  EXPECT_EQ(fs::file_size(zip), 22u);
  absl::StatusOr<std::vector<std::string>> names = ListZip(zip);
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_THAT(*names, IsEmpty());
  ASSERT_TRUE(ExtractZip(zip, dir / "out").ok());
  EXPECT_THAT(ReadTree(dir / "out"), IsEmpty());
  testing::CommandResult result = RunPython(kPythonListScript, {zip.string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, "");
}

TEST(WriteZipTest, RejectsBadEntries) {
  const fs::path dir = NewTempDir("bad_entries");
  const fs::path zip = dir / "a.zip";
  struct Case {
    std::vector<ZipEntry> entries;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{ZipEntry::FromBytes("", "x")}, "empty name"},
      {{ZipEntry::FromBytes("/etc/passwd", "x")}, "absolute"},
      {{ZipEntry::FromBytes("a/../../b", "x")}, "zip-slip"},
      {{ZipEntry::FromBytes("a", "1"), ZipEntry::FromBytes("a", "2")}, "more than once"},
      {{ZipEntry::FromFile("a", dir / "missing.bin")}, "missing.bin"},
      {{ZipEntry::FromBytes("d/", "content")}, "cannot have content"},
  };
  for (const Case& c : cases) {
    absl::Status status = WriteZip(zip, c.entries);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.message << ": " << status;
    EXPECT_THAT(status.message(), HasSubstr(c.message));
  }
  EXPECT_FALSE(fs::exists(zip));
  absl::Status no_dir = WriteZip(dir / "no" / "such" / "dir.zip", {ZipEntry::FromBytes("a", "")});
  EXPECT_EQ(no_dir.code(), absl::StatusCode::kNotFound) << no_dir;
  EXPECT_THAT(ReadTree(dir), IsEmpty());
}

TEST(ExtractZipTest, RefusesZipSlipEntriesAndExtractsNothing) {
  const fs::path dir = NewTempDir("zip_slip");
  struct Case {
    std::string name;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"../evil.txt", "zip-slip"},
      {"good/../../evil.txt", "zip-slip"},
      {"/tmp/evil.txt", "absolute"},
  };
  for (const Case& c : cases) {
    const fs::path zip = dir / "slip.zip";
    // The hostile entry comes last: nothing at all may be extracted.
    WriteRawZip(zip, {{"fine.txt", "ok"}, {c.name, "gotcha"}});
    const fs::path dest = dir / "inner" / "dest";
    absl::Status status = ExtractZip(zip, dest);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.name << ": " << status;
    EXPECT_THAT(status.message(), HasSubstr(c.message));
    EXPECT_THAT(status.message(), HasSubstr(c.name));
    EXPECT_FALSE(fs::exists(dest / "fine.txt"));
    EXPECT_FALSE(fs::exists(dir / "inner" / "evil.txt"));
    EXPECT_FALSE(fs::exists(dir / "evil.txt"));
  }
}

TEST(ExtractZipTest, RefusesSymlinkEntries) {
  const fs::path dir = NewTempDir("symlink_entry");
  const fs::path zip = dir / "link.zip";
  WriteRawZip(zip, {{"link", "/etc/passwd"}}, {{"link", S_IFLNK | 0777}});
  absl::Status status = ExtractZip(zip, dir / "out");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(status.message(), HasSubstr("symlink"));
  EXPECT_FALSE(fs::exists(dir / "out" / "link"));
}

TEST(ExtractZipTest, RefusesWritingThroughASymlinkInDest) {
  const fs::path dir = NewTempDir("symlink_dest");
  fs::create_directories(dir / "dest");
  fs::create_directories(dir / "outside");
  fs::create_directory_symlink(dir / "outside", dir / "dest" / "sub");
  const fs::path zip = dir / "a.zip";
  for (const std::string name : {"sub/x.txt", "sub/new/deeper/x.txt"}) {
    ASSERT_TRUE(WriteZip(zip, {ZipEntry::FromBytes(name, "x")}).ok());
    absl::Status status = ExtractZip(zip, dir / "dest");
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
    EXPECT_THAT(status.message(), HasSubstr("outside"));
  }
  // Nothing, not even a directory, was created through the link.
  EXPECT_THAT(ReadTree(dir / "outside"), IsEmpty());
  EXPECT_TRUE(fs::is_empty(dir / "outside"));
  // A symlink standing where a file would go is not written through either.
  fs::create_symlink(dir / "outside" / "target.txt", dir / "dest" / "file.txt");
  ASSERT_TRUE(WriteZip(zip, {ZipEntry::FromBytes("file.txt", "x")}).ok());
  EXPECT_EQ(ExtractZip(zip, dir / "dest").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(fs::exists(dir / "outside" / "target.txt"));
}

TEST(ExtractZipTest, CorruptMissingAndEmptyFilesAreErrorsNamingTheFile) {
  const fs::path dir = NewTempDir("corrupt");
  const fs::path garbage = dir / "garbage.zip";
  ASSERT_TRUE(WriteStringToFile(garbage, NoiseBytes(3000, 11)).ok());
  const fs::path empty = dir / "empty_file.zip";
  ASSERT_TRUE(WriteStringToFile(empty, "").ok());
  // A valid archive cut short: its central directory is gone.
  const fs::path truncated = dir / "truncated.zip";
  ASSERT_TRUE(
      WriteZip(dir / "whole.zip", {ZipEntry::FromBytes("a.bin", NoiseBytes(4000, 1))}).ok());
  const std::string whole = ReadFileOrFail(dir / "whole.zip");
  ASSERT_TRUE(WriteStringToFile(truncated, whole.substr(0, whole.size() / 2)).ok());

  for (const fs::path& zip : {garbage, empty, truncated}) {
    absl::Status status = ExtractZip(zip, dir / "out");
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
    EXPECT_THAT(status.message(), HasSubstr(zip.string()));
    EXPECT_FALSE(ListZip(zip).ok()) << zip;
  }
  absl::Status missing = ExtractZip(dir / "missing.zip", dir / "out");
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound) << missing;
  EXPECT_THAT(missing.message(), HasSubstr("missing.zip"));
  absl::Status directory = ExtractZip(dir, dir / "out");
  EXPECT_EQ(directory.code(), absl::StatusCode::kInvalidArgument) << directory;
}

TEST(ExtractZipTest, CorruptCompressedDataIsAnError) {
  const fs::path dir = NewTempDir("corrupt_data");
  const fs::path zip = dir / "a.zip";
  ASSERT_TRUE(WriteZip(zip, {ZipEntry::FromBytes("data.txt",
                                                 std::string(100'000, 'q') + NoiseBytes(2000, 5))})
                  .ok());
  std::string bytes = ReadFileOrFail(zip);
  // Flip bytes in the middle of the compressed data (after the 30-byte local
  // header and the 8-byte name), leaving the directory intact.
  for (size_t i = 200; i < 240; ++i) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  ASSERT_TRUE(WriteStringToFile(zip, bytes).ok());
  absl::Status status = ExtractZip(zip, dir / "out");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(status.message(), HasSubstr("data.txt"));
}

TEST(ExtractZipTest, ZipBombHitsTheSizeLimit) {
  const fs::path dir = NewTempDir("bomb");
  const fs::path zip = dir / "bomb.zip";
  // 20 MB of zeros compress to about 20 kB.
  ASSERT_TRUE(WriteZip(zip, {ZipEntry::FromBytes("a.bin", std::string(10'000'000, '\0')),
                             ZipEntry::FromBytes("b.bin", std::string(10'000'000, '\0'))})
                  .ok());
  EXPECT_LT(fs::file_size(zip), 100'000u);
  absl::Status status = ExtractZip(zip, dir / "out", {.max_total_bytes = 15'000'000});
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  EXPECT_THAT(status.message(), HasSubstr("15000000"));
  EXPECT_FALSE(fs::exists(dir / "out" / "a.bin"));

  absl::Status too_many = ExtractZip(zip, dir / "out", {.max_entries = 1});
  EXPECT_EQ(too_many.code(), absl::StatusCode::kResourceExhausted) << too_many;

  EXPECT_TRUE(ExtractZip(zip, dir / "out", {.max_total_bytes = 20'000'000}).ok());
}

TEST(ZipDirectoryTest, AddsFilesInSortedOrderWithRelativeNames) {
  const fs::path dir = NewTempDir("zip_directory");
  const fs::path src = dir / "src";
  fs::create_directories(src / "b" / "c");
  fs::create_directories(src / "empty_dir");
  ASSERT_TRUE(WriteStringToFile(src / "z.txt", "z").ok());
  ASSERT_TRUE(WriteStringToFile(src / "b" / "c" / "deep.txt", "deep").ok());
  ASSERT_TRUE(WriteStringToFile(src / "b" / "a.txt", "a").ok());
  ASSERT_TRUE(WriteStringToFile(src / "B.txt", "upper").ok());
  const fs::path zip = dir / "out.zip";
  ASSERT_TRUE(ZipDirectory(src, zip).ok());
  absl::StatusOr<std::vector<std::string>> names = ListZip(zip);
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_THAT(*names, ElementsAre("B.txt", "b/a.txt", "b/c/deep.txt", "z.txt"));

  testing::CommandResult result = RunPython(kPythonListScript, {zip.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output,
            Sha256Lines(
                {{"B.txt", "upper"}, {"b/a.txt", "a"}, {"b/c/deep.txt", "deep"}, {"z.txt", "z"}}));

  // Zipping into the directory itself leaves the archive out of itself, and
  // the result does not depend on where the directory lives.
  ASSERT_TRUE(ZipDirectory(src, src / "self.zip").ok());
  ASSERT_TRUE(ZipDirectory(src, src / "self.zip").ok());
  EXPECT_EQ(ReadFileOrFail(src / "self.zip"), ReadFileOrFail(zip));

  EXPECT_EQ(ZipDirectory(dir / "missing", zip).code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace mlebench
