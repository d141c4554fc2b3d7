#ifndef MLEBENCH_BASE_PARALLEL_H_
#define MLEBENCH_BASE_PARALLEL_H_

#include <cstddef>
#include <future>
#include <system_error>
#include <vector>

namespace mlebench {

// Runs fn(0), ..., fn(n - 1) at once: fn(0) on the calling thread, each other
// on a thread of its own, and returns when all have returned. Where no
// thread can be started (a process limit), the calls left run on the calling
// thread, one after the other: the results are the same either way, so `fn`
// must not depend on running concurrently (no waiting on another call).
// `fn` must not throw.
template <typename Fn>
void RunInParallel(size_t n, const Fn& fn) {
  std::vector<std::future<void>> others;
  others.reserve(n);
  std::vector<size_t> here;
  for (size_t k = 1; k < n; ++k) {
    try {
      others.push_back(std::async(std::launch::async, [&fn, k] { fn(k); }));
    } catch (const std::system_error&) {
      here.push_back(k);
    }
  }
  if (n > 0) fn(0);
  for (size_t k : here) fn(k);
  for (std::future<void>& f : others) f.get();
}

}  // namespace mlebench

#endif  // MLEBENCH_BASE_PARALLEL_H_
