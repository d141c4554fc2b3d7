// Differential test: ParseNpy, SerializeNpy and TakeNpyRows against numpy
// 1.26.4, upstream's pinned version (npy_diff_test.py) on random arrays of many dtypes, shapes and
// layouts: we must read what np.save wrote, write exactly np.save's bytes
// back, select rows as fancy indexing does, and accept or reject mangled
// files as np.load does. The .npy format (header layout, 64-byte alignment,
// the 21-character growth padding) is unchanged in the numpy versions
// upstream uses.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "base/files.h"
#include "base/testing/test_util.h"
#include "formats/npy.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr char kScript[] = "formats/npy_diff_test.py";

TEST(NpyDiffTest, MatchesNumpy) {
  constexpr int kCases = 1500;
  const fs::path dir = testing::NewTempDir("npy_cases");
  const testing::CommandResult run =
      testing::RunCommand({testing::ReferencePython(), kScript, dir.string(), absl::StrCat(kCases), "3"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  int takes = 0, bad_accepted = 0, bad_rejected = 0, failures = 0;
  for (int i = 0; i < kCases && failures < 10; ++i) {
    SCOPED_TRACE(absl::StrCat("case ", i));
    const fs::path stem = dir / absl::StrCat(i);
    const std::string saved = *ReadFileToString(stem.string() + ".npy");
    absl::StatusOr<NpyArray> array = ParseNpy(saved);
    ASSERT_TRUE(array.ok()) << array.status();
    std::vector<std::string> shape;
    for (int64_t d : array->shape) shape.push_back(absl::StrCat(d));
    const std::string expected_shape = *ReadFileToString(stem.string() + ".shape");
    const std::string got_shape =
        absl::StrCat(array->descr, "|", array->fortran_order && array->shape.size() > 1 ? 1 : 0,
                     "|", absl::StrJoin(shape, ","));
    if (got_shape != expected_shape) {
      ++failures;
      ADD_FAILURE() << got_shape << " vs numpy " << expected_shape;
    }
    absl::StatusOr<std::string> written = SerializeNpy(*array);
    ASSERT_TRUE(written.ok()) << written.status();
    if (*written != saved) {
      ++failures;
      ADD_FAILURE() << "SerializeNpy differs from np.save";
    }
    if (fs::exists(stem.string() + ".rows")) {
      ++takes;
      std::vector<int64_t> rows;
      for (absl::string_view word :
           absl::StrSplit(*ReadFileToString(stem.string() + ".rows"), ' ', absl::SkipEmpty())) {
        int64_t row = 0;
        ASSERT_TRUE(absl::SimpleAtoi(word, &row));
        rows.push_back(row);
      }
      absl::StatusOr<NpyArray> taken = TakeNpyRows(*array, rows);
      ASSERT_TRUE(taken.ok()) << taken.status();
      if (*SerializeNpy(*taken) != *ReadFileToString(stem.string() + ".take.npy")) {
        ++failures;
        ADD_FAILURE() << "a[rows] differs from numpy's";
      }
    }
    const bool numpy_accepts = fs::exists(stem.string() + ".bad.ok");
    (numpy_accepts ? bad_accepted : bad_rejected)++;
    absl::StatusOr<NpyArray> bad = ParseNpy(*ReadFileToString(stem.string() + ".bad"));
    if (bad.ok() != numpy_accepts) {
      ++failures;
      ADD_FAILURE() << "np.load " << (numpy_accepts ? "accepts" : "rejects")
                    << " the mangled file, we say " << bad.status();
    }
  }
  EXPECT_EQ(failures, 0);
  // The generator must exercise every path.
  EXPECT_GT(takes, kCases / 3);
  EXPECT_GT(bad_accepted, 20);
  EXPECT_GT(bad_rejected, kCases / 3);
}

}  // namespace
}  // namespace mlebench
