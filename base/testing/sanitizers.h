#ifndef MLEBENCH_BASE_TESTING_SANITIZERS_H_
#define MLEBENCH_BASE_TESTING_SANITIZERS_H_

// MLEBENCH_UNDER_ASAN is 1 in a build with AddressSanitizer, GCC's
// (--config=asan) or clang's (the fuzzers and sanitizer_suite's tests), and 0
// otherwise: GCC says so with __SANITIZE_ADDRESS__, clang 14 only through
// __has_feature. For the few test cases that cannot run under it (a memory
// limit: ASan's allocator never calls the new-handler and needs room of its
// own under RLIMIT_DATA).
#if defined(__SANITIZE_ADDRESS__)
#define MLEBENCH_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MLEBENCH_UNDER_ASAN 1
#endif
#endif
#ifndef MLEBENCH_UNDER_ASAN
#define MLEBENCH_UNDER_ASAN 0
#endif

#endif  // MLEBENCH_BASE_TESTING_SANITIZERS_H_
