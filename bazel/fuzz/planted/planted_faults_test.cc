// A test that passes, unless MLEBENCH_PLANTED_FAULT asks it to commit one:
// "heap" reads one element past a heap array, "overflow" overflows a signed
// int. Neither changes what the test prints without a sanitizer; under
// sanitizer_suite (clang's ASan and UBSan) each must fail it.
// sanitizer_suite_catches_test runs the suite both ways.

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

int main() {
  const char* fault = std::getenv("MLEBENCH_PLANTED_FAULT");
  const std::string_view which = fault == nullptr ? "" : fault;
  // volatile: the compiler may not fold the fault away.
  volatile int index = 4;
  volatile int big = INT_MAX;
  long sum = 0;
  if (which == "heap") {
    auto values = std::make_unique<int[]>(4);
    sum += values[index];
  } else if (which == "overflow") {
    int value = big;
    value += index;
    sum += value;
  }
  std::printf("planted fault: %s (%ld)\n", which.empty() ? "none" : fault, sum);
  return 0;
}
