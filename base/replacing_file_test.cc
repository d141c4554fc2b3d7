#include "base/replacing_file.h"

#include <filesystem>
#include <string>

#include "base/files.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

TEST(ReplacingFileTest, CommitReplacesTheFileWithAllThatWasAppended) {
  const fs::path dir = testing::NewTempDir("replacing_file");
  const std::string path = (dir / "out.csv").string();
  ASSERT_TRUE(WriteStringToFile(path, "old").ok());
  absl::StatusOr<ReplacingFile> file = ReplacingFile::Create(path);
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_TRUE(file->Append("a,b\n").ok());
  ASSERT_TRUE(file->Append("").ok());
  ASSERT_TRUE(file->Append("1,2\n").ok());
  // Until Commit, readers see the old file.
  EXPECT_EQ(*ReadFileToString(path), "old");
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_EQ(*ReadFileToString(path), "a,b\n1,2\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  // Committed: nothing more.
  EXPECT_EQ(file->Append("x").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(file->Commit().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(file->CheckOpen().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(ReplacingFileTest, AbandonedLeavesTheTargetAsItWasAndNoTemporaryFile) {
  const fs::path dir = testing::NewTempDir("replacing_file");
  const std::string path = (dir / "out.csv").string();
  ASSERT_TRUE(WriteStringToFile(path, "old").ok());
  {
    absl::StatusOr<ReplacingFile> file = ReplacingFile::Create(path);
    ASSERT_TRUE(file.ok());
    ReplacingFile moved = std::move(*file);  // the moved-from one owns nothing
    ASSERT_TRUE(moved.Append("new").ok());
    EXPECT_TRUE(moved.CheckOpen().ok());
  }
  EXPECT_EQ(*ReadFileToString(path), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(ReplacingFileTest, ErrorsNameThePlace) {
  const fs::path dir = testing::NewTempDir("replacing_file");
  absl::StatusOr<ReplacingFile> absent = ReplacingFile::Create((dir / "no" / "x.csv").string());
  ASSERT_FALSE(absent.ok());
  EXPECT_NE(absent.status().message().find("cannot create a file beside"), std::string::npos);
  // A directory where the file should go: the rename fails, nothing is left.
  fs::create_directory(dir / "taken");
  fs::create_directory(dir / "taken" / "inside");
  absl::StatusOr<ReplacingFile> file = ReplacingFile::Create((dir / "taken").string());
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(file->Append("x").ok());
  const absl::Status commit = file->Commit();
  EXPECT_NE(commit.message().find("cannot replace"), std::string::npos) << commit;
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace mlebench
