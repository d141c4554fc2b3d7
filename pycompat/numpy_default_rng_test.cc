#include "pycompat/numpy_default_rng.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/testing/test_util.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

TEST(NumpyDefaultRngTest, KnownValuesOfSeedZero) {
  // np.random.default_rng(0).random() x 3.
  NumpyDefaultRng rng(0);
  EXPECT_EQ(rng.Random(), 0.6369616873214543);
  EXPECT_EQ(rng.Random(), 0.2697867137638703);
  EXPECT_EQ(rng.Random(), 0.04097352393619469);
}

// Debian's numpy: 500 raw outputs, then 500 random()s, for seeds of one and
// of two entropy words.
TEST(NumpyDefaultRngTest, MatchesNumpy) {
  for (uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{42}, uint64_t{4294967295},
                        uint64_t{4294967296}, uint64_t{123456789012345}}) {
    const testing::CommandResult numpy = testing::RunPython(
        "import sys, numpy as np\n"
        "g = np.random.default_rng(int(sys.argv[1]))\n"
        "print(' '.join(str(int(v)) for v in g.bit_generator.random_raw(500)))\n"
        "print(' '.join(repr(g.random()) for _ in range(500)))\n",
        {absl::StrCat(seed)});
    ASSERT_EQ(numpy.exit_code, 0) << numpy.output;
    const std::vector<std::string> lines = absl::StrSplit(numpy.output, '\n');
    ASSERT_GE(lines.size(), 2u);
    const std::vector<std::string> raw = absl::StrSplit(lines[0], ' ');
    const std::vector<std::string> uniform = absl::StrSplit(lines[1], ' ');
    NumpyDefaultRng rng(seed);
    for (const std::string& value : raw) {
      ASSERT_EQ(absl::StrCat(rng.NextUint64()), value) << "seed " << seed;
    }
    for (const std::string& value : uniform) {
      ASSERT_EQ(rng.Random(), std::stod(value)) << "seed " << seed;
    }
  }
}

// Values printed by numpy 1.24: np.random.default_rng(seed).uniform(1, 100, 3)
// and default_rng(0).random(3) (= uniform(0, 1)); compared bit for bit.
TEST(NumpyDefaultRng, UniformMatchesNumpyDrawForDraw) {
  struct Case {
    uint32_t seed;
    std::vector<double> expected;
  };
  const Case cases[] = {
      {0, {64.05920704482398, 27.70888466262316, 5.056378869683274}},
      {1, {51.67034084532541, 95.0959059362676, 15.27180165924374}},
      {42, {77.62164880704037, 44.448965535453176, 86.00119407122686}},
      {4294967295u, {25.942413236454655, 22.687513832398807, 29.44118732308185}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(NumpyDefaultRng(c.seed).Uniform(1.0, 100.0, 3), c.expected) << c.seed;
  }
  EXPECT_EQ(NumpyDefaultRng(0).Uniform(0.0, 1.0, 3),
            (std::vector<double>{0.6369616873214543, 0.2697867137638703, 0.04097352393619469}));
}

}  // namespace
}  // namespace mlebench
