// Preloaded (LD_PRELOAD) into GCC by run_reproducibly.cc: sets this process's
// stack-protector guard, which the kernel draws at random for each process, to
// a constant before the program's own code runs.
//
// Why: GCC copies stale stack words into a precompiled header it writes; six
// of them are the upper half of the guard (measured with GCC 12: the only
// bytes that differ between two .gch files of the same inputs once address
// randomisation is off). With the guard fixed, the file is the same bytes
// every time. The guard protects against stack-smashing exploits; the compiler
// processes this project's own headers, so a known guard costs nothing there.
//
// Built with -fno-stack-protector: this function must not check the guard it
// changes. The frames below it (the dynamic loader calling constructors) have
// no guard check in Debian's glibc 2.36, or the change would abort them.

namespace {

// glibc keeps the guard at %fs:0x28 (x86-64) with its low byte zero, so that a
// string copy cannot reproduce it; this one follows suit.
constexpr unsigned long long kGuard = 0x5a5a5a5a5a5a5a00ULL;

__attribute__((constructor)) void FixStackGuard() {
  __asm__ volatile("movq %0, %%fs:0x28" : : "r"(kGuard) : "memory");
}

}  // namespace
