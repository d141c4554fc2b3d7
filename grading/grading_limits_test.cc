#include "grading/grading_limits.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "base/testing/sanitizers.h"
#include "base/testing/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

// Under --config=asan (docs/architecture.md, "Sanitizers") the memory limit
// cannot be tested: AddressSanitizer replaces operator new with its own,
// which on a failed allocation reports "allocator is out of memory" and exits
// 1 without ever calling the std::new_handler that writes the report, and its
// own bookkeeping needs room under RLIMIT_DATA too. The CPU limit is tested.
#if MLEBENCH_UNDER_ASAN
#define SKIP_UNDER_ASAN() \
  GTEST_SKIP() << "AddressSanitizer's operator new never calls the new-handler"
#else
#define SKIP_UNDER_ASAN() static_cast<void>(0)
#endif

using ::mlebench::testing::ReadFileOrEmpty;
using ::mlebench::testing::WriteFileOrFail;
using ::testing::HasSubstr;

TEST(GradingLimitsTest, GrowWithTheAnswersOnly) {
  const GradingLimits small = GradingLimitsFor(1000, 100, 10);
  EXPECT_EQ(small.max_submission_bytes, 32 * 1000 + (1 << 20));
  EXPECT_EQ(small.max_submission_cells, 4 * 100 + (1 << 20));
  EXPECT_EQ(small.max_submission_columns, 4 * 10 + 1024);
  EXPECT_EQ(small.cpu_seconds, 300);
  EXPECT_GE(small.memory_headroom_bytes,
            (int64_t{512} << 20) + 4 * small.max_submission_bytes +
                256 * small.max_submission_cells);
  const GradingLimits large = GradingLimitsFor(int64_t{100} << 20, 10'000'000, 5);
  EXPECT_EQ(large.max_submission_bytes, 32 * (int64_t{100} << 20) + (1 << 20));
  EXPECT_EQ(large.max_submission_cells, 40'000'000 + (1 << 20));
  EXPECT_EQ(large.cpu_seconds, 300 + 1600);
  // Absurd sizes saturate instead of wrapping around to small limits.
  const GradingLimits absurd = GradingLimitsFor(INT64_MAX / 2, INT64_MAX / 2, INT64_MAX / 2);
  EXPECT_EQ(absurd.max_submission_bytes, INT64_MAX);
  EXPECT_EQ(absurd.memory_headroom_bytes, INT64_MAX);
  EXPECT_GT(absurd.cpu_seconds, 0);
}

TEST(GradingLimitsTest, MemoryHeadroomIsTheSameOnEveryMachine) {
  // Nothing of the machine (its cores, `ulimit -s`) enters the limit, which a
  // memory report quotes: the report must be the same bytes everywhere.
  const GradingLimits limits = GradingLimitsFor(1000, 100, 10);
  EXPECT_EQ(limits.memory_headroom_bytes, (int64_t{512} << 20) + (int64_t{64} << 20) +
                                              4 * limits.max_submission_bytes +
                                              256 * limits.max_submission_cells +
                                              4096 * limits.max_submission_columns);
}

TEST(GradingLimitsTest, ReasonsSayWhichLimitAndWhy) {
  const GradingLimits limits = GradingLimitsFor(100, 10, 2);
  EXPECT_EQ(SubmissionBytesOverLimit(5'000'000, 100, limits),
            "submission is too large to grade: 5000000 bytes, more than the 1051776 bytes "
            "allowed for this competition's answers (32 x their 100 bytes + 1 MiB)");
  EXPECT_EQ(SubmissionShapeOverLimit("x.csv: 3 or more rows", 10, 2, limits),
            "submission is too large to grade: x.csv: 3 or more rows (this competition's answers "
            "allow 4 x their 10 cells + 1048576 = 1048616 cells, and 4 x their 2 columns + 1024 = "
            "1032 columns)");
  EXPECT_THAT(GradingMemoryOverLimit(limits), HasSubstr("bytes of memory allowed"));
  EXPECT_THAT(GradingCpuOverLimit(limits), HasSubstr("300 s of CPU time"));
}

// Runs `body` in a child that enforces `limits` with reports "memory" and
// "cpu" into `out`; returns the child's wait status.
template <typename Body>
int RunLimited(const GradingLimits& limits, const std::filesystem::path& out, Body body) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (!EnforceGradingLimits(limits, out.string(), "memory\n", "cpu\n").ok()) _exit(3);
    body();
    _exit(4);  // the limit was never hit
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

TEST(GradingLimitsTest, RunningOutOfMemoryWritesTheMemoryReport) {
  SKIP_UNDER_ASAN();
  const std::filesystem::path out = ::testing::TempDir() + "/memory.json";
  GradingLimits limits = GradingLimitsFor(0, 0, 0);
  limits.memory_headroom_bytes = 64 << 20;
  const int status = RunLimited(limits, out, [] {
    std::vector<std::vector<char>> hog;
    for (int i = 0; i < 1024; ++i) hog.emplace_back(size_t{1} << 20, 'x');  // 1 GiB
  });
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(ReadFileOrEmpty(out), "memory\n");
}

TEST(GradingLimitsTest, ThreadsStartedUnderTheLimitsHaveTheStackTheLimitCounts) {
  const std::filesystem::path out = ::testing::TempDir() + "/stack.json";
  const pid_t pid = fork();
  if (pid == 0) {
    // As on a machine with `ulimit -s 65536`, where glibc would give every
    // thread 64 MiB.
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, size_t{64} << 20);
    if (pthread_setattr_default_np(&attributes) != 0) _exit(5);
    if (!EnforceGradingLimits(GradingLimitsFor(0, 0, 0), out.string(), "memory\n", "cpu\n")
             .ok()) {
      _exit(3);
    }
    size_t stack = 0;
    if (pthread_getattr_default_np(&attributes) != 0 ||
        pthread_attr_getstacksize(&attributes, &stack) != 0) {
      _exit(6);
    }
    _exit(stack == size_t{8} << 20 ? 0 : 4);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0) << "4: the threads' stack is not 8 MiB";
}

TEST(GradingLimitsTest, RunningOutOfCpuTimeWritesTheCpuReport) {
  const std::filesystem::path out = ::testing::TempDir() + "/cpu.json";
  GradingLimits limits = GradingLimitsFor(0, 0, 0);
  limits.cpu_seconds = 1;
  const int status = RunLimited(limits, out, [] {
    volatile uint64_t spin = 0;
    for (uint64_t i = 0; i < (uint64_t{1} << 40); ++i) spin = spin + i;  // far beyond 1 s
  });
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(ReadFileOrEmpty(out), "cpu\n");
}

TEST(GradingLimitsTest, OnADescriptorTheReportIsAppendedWithTheExitStatus) {
  SKIP_UNDER_ASAN();
  // The public validator reports on its standard output, which may be a
  // file the caller appends to: what is there stays.
  const std::filesystem::path out = ::testing::TempDir() + "/descriptor.txt";
  WriteFileOrFail(out, "before\n");
  GradingLimits limits = GradingLimitsFor(0, 0, 0);
  limits.memory_headroom_bytes = 64 << 20;
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(out.c_str(), O_WRONLY | O_APPEND);
    if (fd < 0 || !EnforceGradingLimitsOnDescriptor(limits, fd, 7, "memory\n", "cpu\n").ok()) {
      _exit(3);
    }
    std::vector<std::vector<char>> hog;
    for (int i = 0; i < 1024; ++i) hog.emplace_back(size_t{1} << 20, 'x');  // 1 GiB
    _exit(4);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 7);
  EXPECT_EQ(ReadFileOrEmpty(out), "before\nmemory\n");
}

}  // namespace
}  // namespace mlebench
