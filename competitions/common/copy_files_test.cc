#include "competitions/common/copy_files.h"

#include <filesystem>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::NewTempDir;
using ::mlebench::testing::ReadFileOrFail;
using ::mlebench::testing::ReadTree;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::HasSubstr;

TEST(CopyRegularFileTest, CopiesBytesAndMakesParentFolders) {
  const fs::path dir = NewTempDir("copy_regular");
  WriteFileOrFail(dir / "raw" / "a.csv", "x,y\n1,2\n");
  ASSERT_TRUE(CopyRegularFile(dir / "raw" / "a.csv", dir / "public" / "deep" / "a.csv").ok());
  EXPECT_EQ(ReadFileOrFail(dir / "public" / "deep" / "a.csv"), "x,y\n1,2\n");
}

TEST(CopyRegularFileTest, ReplacesAnExistingDestination) {
  const fs::path dir = NewTempDir("copy_regular_replace");
  WriteFileOrFail(dir / "a", "new");
  WriteFileOrFail(dir / "b", "old and longer");
  ASSERT_TRUE(CopyRegularFile(dir / "a", dir / "b").ok());
  EXPECT_EQ(ReadFileOrFail(dir / "b"), "new");
}

TEST(CopyRegularFileTest, AbsentSourceOrFolderIsNotFoundNamingIt) {
  const fs::path dir = NewTempDir("copy_regular_absent");
  fs::create_directories(dir / "folder");
  for (const fs::path& from : {dir / "absent.csv", dir / "folder"}) {
    const absl::Status status = CopyRegularFile(from, dir / "out");
    EXPECT_TRUE(absl::IsNotFound(status)) << status;
    EXPECT_THAT(status.message(), HasSubstr("raw data has no file " + from.string()));
  }
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(CopyRegularFileTest, UnwritableDestinationIsInternalNamingBoth) {
  const fs::path dir = NewTempDir("copy_regular_unwritable");
  WriteFileOrFail(dir / "a", "bytes");
  WriteFileOrFail(dir / "file", "a file, not a folder");
  const absl::Status status = CopyRegularFile(dir / "a", dir / "file" / "a");
  EXPECT_TRUE(absl::IsInternal(status)) << status;
  EXPECT_THAT(status.message(), HasSubstr("cannot copy " + (dir / "a").string() + " to " +
                                          (dir / "file" / "a").string() + ": "));
}

TEST(CopyNamedFilesTest, CopiesEachNameWithTheSuffix) {
  const fs::path dir = NewTempDir("copy_named");
  WriteFileOrFail(dir / "train" / "1.jpg", "one");
  WriteFileOrFail(dir / "train" / "2.jpg", "two");
  WriteFileOrFail(dir / "train" / "3.jpg", "three");
  WriteFileOrFail(dir / "train" / "1.png", "not asked for");
  WriteFileOrFail(dir / "public" / "train" / "2.jpg", "replaced");
  ASSERT_TRUE(CopyNamedFiles(dir / "train", dir / "public" / "train", {"2", "1"}, ".jpg").ok());
  EXPECT_EQ(ReadTree(dir / "public"),
            (std::map<std::string, std::string>{{"train/1.jpg", "one"}, {"train/2.jpg", "two"}}));
}

TEST(CopyNamedFilesTest, MakesTheDestinationFolderEvenForNoNames) {
  const fs::path dir = NewTempDir("copy_named_empty");
  fs::create_directories(dir / "train");
  ASSERT_TRUE(CopyNamedFiles(dir / "train", dir / "public" / "test", {}).ok());
  EXPECT_TRUE(fs::is_directory(dir / "public" / "test"));
}

TEST(CopyNamedFilesTest, AbsentFileIsNotFoundNamingItInItsFolder) {
  const fs::path dir = NewTempDir("copy_named_absent");
  WriteFileOrFail(dir / "train" / "a.tif", "a");
  fs::create_directories(dir / "train" / "c.tif");  // a folder is no file
  for (const char* missing : {"b", "c"}) {
    const absl::Status status =
        CopyNamedFiles(dir / "train", dir / "public", {"a", missing}, ".tif");
    EXPECT_TRUE(absl::IsNotFound(status)) << status;
    EXPECT_EQ(status.message(), absl::StrCat("raw data has no file train/", missing, ".tif"));
  }
  // The files before the missing one are copied.
  EXPECT_EQ(ReadFileOrFail(dir / "public" / "a.tif"), "a");
}

TEST(CopyNamedFilesTest, UnwritableDestinationIsInternalNamingTheFile) {
  const fs::path dir = NewTempDir("copy_named_unwritable");
  WriteFileOrFail(dir / "train" / "a.tif", "a");
  fs::create_directories(dir / "public" / "a.tif");  // a folder where the copy goes
  const absl::Status status = CopyNamedFiles(dir / "train", dir / "public", {"a"}, ".tif");
  EXPECT_TRUE(absl::IsInternal(status)) << status;
  EXPECT_THAT(status.message(), HasSubstr("cannot copy train/a.tif: "));
}

TEST(CopyFolderTreeTest, CopiesEverythingUnderItMergingIntoTheDestination) {
  const fs::path dir = NewTempDir("copy_tree");
  WriteFileOrFail(dir / "raw" / "case" / "a.dcm", "a");
  WriteFileOrFail(dir / "raw" / "case" / "series" / "b.dcm", "b");
  WriteFileOrFail(dir / "public" / "case" / "a.dcm", "old");
  WriteFileOrFail(dir / "public" / "case" / "kept", "kept");
  ASSERT_TRUE(CopyFolderTree(dir / "raw" / "case", dir / "public" / "case").ok());
  EXPECT_EQ(ReadTree(dir / "public"),
            (std::map<std::string, std::string>{
                {"case/a.dcm", "a"}, {"case/kept", "kept"}, {"case/series/b.dcm", "b"}}));
}

TEST(CopyFolderTreeTest, AbsentSourceOrFileIsNotFoundNamingIt) {
  const fs::path dir = NewTempDir("copy_tree_absent");
  WriteFileOrFail(dir / "file", "a file, not a folder");
  for (const fs::path& from : {dir / "absent", dir / "file"}) {
    const absl::Status status = CopyFolderTree(from, dir / "out");
    EXPECT_TRUE(absl::IsNotFound(status)) << status;
    EXPECT_EQ(status.message(), "raw data has no folder " + from.string());
  }
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(CopyFolderTreeTest, UnwritableDestinationIsInternalNamingBoth) {
  const fs::path dir = NewTempDir("copy_tree_unwritable");
  WriteFileOrFail(dir / "raw" / "a", "a");
  WriteFileOrFail(dir / "out", "a file where the folder goes");
  const absl::Status status = CopyFolderTree(dir / "raw", dir / "out");
  EXPECT_TRUE(absl::IsInternal(status)) << status;
  EXPECT_THAT(status.message(),
              HasSubstr("cannot copy " + (dir / "raw").string() + " to " + (dir / "out").string()));
}

}  // namespace
}  // namespace mlebench
