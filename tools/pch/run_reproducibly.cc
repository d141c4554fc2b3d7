// run_reproducibly GUARD_LIBRARY OUTPUT COMMAND [ARGS...]
//
// Runs COMMAND (GCC writing a precompiled header to OUTPUT) so that its output
// does not depend on the randomness of its processes: with address-space
// layout randomisation off (personality(ADDR_NO_RANDOMIZE), inherited by
// every process COMMAND starts) and with GUARD_LIBRARY preloaded into each of
// them, which fixes the stack-protector guard (fixed_stack_guard.cc), and
// with $PWD set to /proc/self/cwd. GCC writes heap addresses and stale stack
// words into a .gch; with all three fixed, the same inputs give the same
// bytes from run to run (across output bases, not yet for every header:
// tools/precompiled_header.bzl says which).
//
// Where randomisation cannot be turned off (a seccomp filter such as Docker's
// default profile refuses that personality), COMMAND is not run: OUTPUT is
// written empty, with a warning. GCC ignores an empty .gch and parses the
// header as text, so the build stays correct and reproducible, only slower.
#include <sys/personality.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: run_reproducibly GUARD_LIBRARY OUTPUT COMMAND [ARGS...]\n");
    return 2;
  }
  const char* output = argv[2];
  const int persona = personality(0xffffffff);
  if (persona == -1 || personality(persona | ADDR_NO_RANDOMIZE) == -1) {
    std::fprintf(stderr,
                 "run_reproducibly: cannot turn address randomisation off (%s); writing %s empty, "
                 "so the header is parsed as text (slower, same results)\n",
                 std::strerror(errno), output);
    std::ofstream empty(output, std::ios::binary | std::ios::trunc);
    return empty ? 0 : 1;
  }
  std::error_code error;
  const std::filesystem::path guard = std::filesystem::absolute(argv[1], error);
  if (error) {
    std::fprintf(stderr, "run_reproducibly: %s: %s\n", argv[1], error.message().c_str());
    return 1;
  }
  // GCC asks for the working directory (libiberty's getpwd, which takes $PWD
  // when it names the same directory) and keeps it in heap strings, so a
  // sandbox path of another length moves every later heap address: name it
  // by a path of fixed length instead.
  if (setenv("PWD", "/proc/self/cwd", 1) != 0) {
    std::perror("run_reproducibly: setenv");
    return 1;
  }
  std::string preload = guard.string();
  if (const char* existing = std::getenv("LD_PRELOAD"); existing != nullptr && *existing != '\0') {
    preload += ":";
    preload += existing;
  }
  if (setenv("LD_PRELOAD", preload.c_str(), 1) != 0) {
    std::perror("run_reproducibly: setenv");
    return 1;
  }
  execv(argv[3], argv + 3);
  std::fprintf(stderr, "run_reproducibly: cannot run %s: %s\n", argv[3], std::strerror(errno));
  return 127;
}
