// baseline_libm_probe [--unpinned]: for baseline_libm_test. Calls
// UseBaselineLibm (unless --unpinned), then prints on one line whether libm's
// FMA variants are active, GLIBC_TUNABLES as the process has it, and a hash
// of the bits of exp, log, pow, sin, cos, tan, atan and atan2 over 100,000
// arguments each (they differ between glibc's FMA and baseline variants).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/baseline_libm.h"

namespace {

uint64_t Mix(uint64_t hash, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return (hash ^ bits) * 0x100000001b3;  // FNV-1a, a word at a time
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--unpinned") != 0) mlebench::UseBaselineLibm(argv);
  uint64_t hash = 0xcbf29ce484222325;
  for (int i = 1; i <= 100000; ++i) {
    const double x = i * 0.0123456789;
    hash = Mix(hash, std::exp(x / 300.0 - 10.0));
    hash = Mix(hash, std::log(x));
    hash = Mix(hash, std::pow(x, 0.37));
    hash = Mix(hash, std::sin(x));
    hash = Mix(hash, std::cos(x));
    hash = Mix(hash, std::tan(x));
    hash = Mix(hash, std::atan(x - 600.0));
    hash = Mix(hash, std::atan2(x, 617.0));
  }
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::printf("fma_variants=%d GLIBC_TUNABLES=%s hash=%016llx\n",
              mlebench::FmaLibmVariantsActive() ? 1 : 0, tunables == nullptr ? "(unset)" : tunables,
              static_cast<unsigned long long>(hash));
  return 0;
}
