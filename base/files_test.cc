#include "base/files.h"

#include <cstdlib>
#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

fs::path TempPath(const std::string& name) {
  return fs::path(std::getenv("TEST_TMPDIR")) / name;
}

TEST(WriteStringToFile, WritesAndReplacesBytesThatReadFileToStringGivesBack) {
  const fs::path path = TempPath("bytes.bin");
  const std::string bytes("a\0b\r\n\xff", 6);
  ASSERT_TRUE(WriteStringToFile(path, "longer content first").ok());
  ASSERT_TRUE(WriteStringToFile(path, bytes).ok());
  absl::StatusOr<std::string> back = ReadFileToString(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, bytes);
}

TEST(WriteStringToFile, MissingDirectoryIsAnErrorNamingThePath) {
  const fs::path path = TempPath("no_such_dir/file.txt");
  const absl::Status status = WriteStringToFile(path, "x");
  EXPECT_EQ(status.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_NE(status.message().find(path.string()), std::string::npos) << status;
}

TEST(ReadFileToString, NotARegularFileIsNotFound) {
  EXPECT_EQ(ReadFileToString(TempPath("absent.txt")).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(ReadFileToString(fs::path(std::getenv("TEST_TMPDIR"))).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(ReadFileToString, MoreThanMaxBytesIsRefused) {
  const fs::path path = TempPath("ten.txt");
  ASSERT_TRUE(WriteStringToFile(path, "0123456789").ok());
  EXPECT_EQ(*ReadFileToString(path, 10), "0123456789");
  const absl::StatusOr<std::string> over = ReadFileToString(path, 9);
  EXPECT_EQ(over.status(),
            absl::InvalidArgumentError("'" + path.string() +
                                       "' has 10 bytes, more than the limit of 9"));
}

}  // namespace
}  // namespace mlebench
