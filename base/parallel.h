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

// Calls fn(half, begin, end) over [0, n): when `parallel`, for its two
// halves at once (fn(0, 0, n / 2) and fn(1, n / 2, n), through
// RunInParallel); otherwise once, fn(0, 0, n), on the calling thread. For
// loops over independent rows whose result, kept per `half`, does not depend
// on where [0, n) is cut.
template <typename Fn>
void ForEachHalf(size_t n, bool parallel, const Fn& fn) {
  if (!parallel) return fn(size_t{0}, size_t{0}, n);
  RunInParallel(2, [&](size_t half) { fn(half, half == 0 ? 0 : n / 2, half == 0 ? n / 2 : n); });
}

}  // namespace mlebench

#endif  // MLEBENCH_BASE_PARALLEL_H_
