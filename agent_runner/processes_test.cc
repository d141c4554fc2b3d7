#include "agent_runner/processes.h"

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace mlebench {
namespace {

// This process's threads: itself first, and a thread it starts, by its id.
TEST(ThreadsOf, ListsTheProcessFirstAndItsOtherThreads) {
  std::atomic<pid_t> other{0};
  std::atomic<bool> done{false};
  std::thread thread([&] {
    other = static_cast<pid_t>(syscall(SYS_gettid));
    while (!done) std::this_thread::yield();
  });
  while (other == 0) std::this_thread::yield();
  const std::vector<pid_t> threads = ThreadsOf(getpid());
  done = true;
  thread.join();
  ASSERT_GE(threads.size(), 2u);
  EXPECT_EQ(threads.front(), getpid());
  EXPECT_NE(std::find(threads.begin(), threads.end(), other.load()), threads.end());
}

TEST(ThreadsOf, NoneForAProcessThatIsGone) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(ThreadsOf(child).empty());
}

}  // namespace
}  // namespace mlebench
