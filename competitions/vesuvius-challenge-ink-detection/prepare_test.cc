#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/csv.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "competitions/common/prepare_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "synthetic/png_writer.h"

namespace mlebench::prepare_test {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kId[] = MLEBENCH_COMPETITION_ID;

std::string Png(int width, int height) {
  absl::StatusOr<std::string> png =
      EncodePng(PngImage{width, height, PngColor::kGray, std::vector<uint8_t>(width * height, 7)});
  EXPECT_TRUE(png.ok());
  return png.ok() ? *png : "";
}

// Kaggle's layout: train/<n>/ with ir.png, inklabels.png, inklabels_rle.csv,
// mask.png and surface_volume/<k>.tif (stand-in bytes but a real ir.png).
fs::path MakeRaw(int width = 7, int height = 5, int layers = 3) {
  const fs::path raw = testing::NewTempDir("raw");
  for (int n = 1; n <= 3; ++n) {
    const fs::path dir = raw / "train" / absl::StrCat(n);
    WriteFileOrFail(dir / "ir.png", Png(width + n, height));
    WriteFileOrFail(dir / "inklabels.png", absl::StrCat("ink", n));
    WriteFileOrFail(dir / "mask.png", absl::StrCat("mask", n));
    WriteFileOrFail(dir / "inklabels_rle.csv",
                    absl::StrCat("Id,Predicted\n", n, ",", n, " 3 20 2\n"));
    for (int k = 0; k < layers; ++k) {
      WriteFileOrFail(dir / "surface_volume" / absl::StrCat("0", k, ".tif"),
                      absl::StrCat("tif", n, k));
    }
  }
  return raw;
}

std::string PrepareError(const fs::path& raw) {
  return std::string(testing::RunPreparer(kId, raw).status().message());
}

TEST(VesuviusPrepareTest, HoldsOutFragmentThree) {
  const fs::path raw = MakeRaw();
  absl::StatusOr<testing::PreparedDirs> dirs = testing::RunPreparer(kId, raw);
  ASSERT_TRUE(dirs.ok()) << dirs.status();
  EXPECT_THAT(testing::FileNames(dirs->private_dir),
              ElementsAre("gold_submission.csv", "inklabels_rle.csv"));
  EXPECT_THAT(testing::FileNames(dirs->public_dir / "test"),
              ElementsAre("a/mask.png", "a/surface_volume/00.tif", "a/surface_volume/01.tif",
                          "a/surface_volume/02.tif"));
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "train" / "1"),
            testing::ReadTree(raw / "train" / "1"));
  EXPECT_EQ(testing::ReadTree(dirs->public_dir / "train" / "2"),
            testing::ReadTree(raw / "train" / "2"));
  EXPECT_EQ(testing::ReadTree(dirs->private_dir).at("inklabels_rle.csv"),
            "Id,Predicted,width,height\na,3 3 20 2,10,5\n");
  EXPECT_EQ(testing::ReadTree(dirs->private_dir).at("gold_submission.csv"),
            "Id,Predicted\na,3 3 20 2\n");
  EXPECT_EQ(testing::ReadTree(dirs->public_dir).at("sample_submission.csv"),
            "Id,Predicted\na,1 1 5 1\n");
}

TEST(VesuviusPrepareTest, IsDeterministicAndLeavesRawAlone) {
  const fs::path raw = MakeRaw();
  testing::ExpectDeterministicAndRawUntouched(kId, raw);
}

// Upstream's prepare() restated with pandas and Pillow; every output file must
// match.
constexpr char kReference[] = R"py(
import shutil, sys
from pathlib import Path
import pandas as pd
from PIL import Image

raw, public, private = (Path(p) for p in sys.argv[1:4])
shutil.copytree(raw / "train" / "1", public / "train" / "1")
shutil.copytree(raw / "train" / "2", public / "train" / "2")
ink = pd.read_csv(raw / "train" / "3" / "inklabels_rle.csv")
with Image.open(raw / "train" / "3" / "ir.png") as img:
    width, height = img.size
ink["width"] = width
ink["height"] = height
ink["Id"] = "a"
ink.to_csv(private / "inklabels_rle.csv", index=False)
ink.drop(columns=["width", "height"]).to_csv(private / "gold_submission.csv", index=False)
for f in (raw / "train" / "3").rglob("*"):
    if f.is_file() and f.name not in ["inklabels.png", "inklabels_rle.csv", "ir.png"]:
        dst = public / "test" / "a" / f.relative_to(raw / "train" / "3")
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, dst)
pd.DataFrame({"Id": ["a"], "Predicted": ["1 1 5 1"]}).to_csv(public / "sample_submission.csv", index=False)
)py";

TEST(VesuviusPrepareTest, OutputsMatchPandasByteForByte) {
  for (const auto& [width, layers] : std::vector<std::pair<int, int>>{{7, 3}, {300, 11}}) {
    const fs::path raw = MakeRaw(width, 9, layers);
    absl::StatusOr<testing::PreparedDirs> ours = testing::RunPreparer(kId, raw);
    ASSERT_TRUE(ours.ok()) << ours.status();
    const fs::path reference = testing::NewTempDir("reference");
    fs::create_directories(reference / "public");
    fs::create_directories(reference / "private");
    const testing::CommandResult run = testing::RunPython(
        kReference,
        {raw.string(), (reference / "public").string(), (reference / "private").string()});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(testing::ReadTree(ours->public_dir), testing::ReadTree(reference / "public"));
    EXPECT_EQ(testing::ReadTree(ours->private_dir), testing::ReadTree(reference / "private"));
  }
}

TEST(VesuviusPrepareTest, RunsUpstreamsChecks) {
  fs::path raw = MakeRaw();
  WriteFileOrFail(raw / "train" / "3" / "inklabels_rle.csv", "Id,Predicted\n3,1 1\n4,2 2\n");
  EXPECT_THAT(PrepareError(raw), HasSubstr("Expected a single row"));
  raw = MakeRaw();
  fs::remove(raw / "train" / "3" / "ir.png");
  EXPECT_THAT(PrepareError(raw), HasSubstr("Expected image file"));
  raw = MakeRaw();
  WriteFileOrFail(raw / "train" / "3" / "notes.txt", "x");
  EXPECT_THAT(PrepareError(raw), HasSubstr("Expected file with extension png, csv, or tif"));
  // An empty folder in the test fragment is counted in raw but not copied.
  raw = MakeRaw();
  fs::create_directories(raw / "train" / "3" / "empty");
  EXPECT_THAT(PrepareError(raw), HasSubstr("files in `public/test/a`"));
}

TEST(VesuviusPrepareTest, RejectsBadRawData) {
  EXPECT_FALSE(testing::RunPreparer(kId, testing::NewTempDir("empty_raw")).ok());
  fs::path raw = MakeRaw();
  fs::remove_all(raw / "train" / "2");
  EXPECT_THAT(PrepareError(raw), ::testing::AllOf(HasSubstr("raw data has no folder "),
                                                  ::testing::EndsWith("train/2")));
  raw = MakeRaw();
  WriteFileOrFail(raw / "train" / "3" / "ir.png", "not a png");
  EXPECT_THAT(PrepareError(raw), HasSubstr("not a PNG"));
}

}  // namespace
}  // namespace mlebench::prepare_test
