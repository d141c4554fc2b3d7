// Fuzzes archive extraction (zip_archive.h, seven_zip.h, tar_archive.h) as
// the preparers call it, on the fuzzer's bytes as an archive file: listing
// (ListZip, List7z, TarTopLevelNames) and extraction (ExtractZip, Extract7z,
// ExtractTar) into a fresh directory whose two symlinks lead outside it.
// Whatever the bytes, nothing may land outside the destination, and nothing
// but regular files and directories inside it (fuzz_support's
// CheckNothingEscaped). Which format: ARCHIVE_FUZZER_FORMAT, compiled in.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string_view>

#include "base/testing/fuzz_support.h"
#include "formats/seven_zip.h"
#include "formats/tar_archive.h"
#include "formats/zip_archive.h"

// libarchive and libzip are Debian's, not instrumented, and size some
// allocations from an archive's header fields: a crafted 7z asked libarchive
// for a 58-petabyte buffer. glibc's malloc returns NULL for such a size, which
// the library checks; ASan would abort the process instead
// ("allocation-size-too-big") and hide what the library does next. So here,
// as in production, an impossible allocation fails and the code under test
// must cope (crafted_7z_huge_allocation in the corpus).
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  using namespace mlebench;
  const std::string_view data(reinterpret_cast<const char*>(bytes), size);
  const std::filesystem::path archive = fuzz::ScratchDir() / "input.archive";
  fuzz::WriteFileOrDie(archive, data);
  const std::filesystem::path dest = fuzz::FreshExtractionDir();
  // Bounds far below the defaults, so that a bomb is refused quickly (the
  // preparers' own bounds are a matter of configuration; this is about
  // crashes, escapes and the bounds being held at all).
  constexpr int64_t kMaxBytes = 64 << 20;
#if ARCHIVE_FUZZER_FORMAT == 1
  (void)ListZip(archive);
  ExtractZipOptions options;
  options.max_total_bytes = kMaxBytes;
  options.max_entries = 1000;
  (void)ExtractZip(archive, dest, options);
#elif ARCHIVE_FUZZER_FORMAT == 2
  (void)List7z(archive);
  Extract7zOptions options;
  options.max_total_bytes = kMaxBytes;
  options.max_entries = 1000;
  (void)Extract7z(archive, dest, options);
#elif ARCHIVE_FUZZER_FORMAT == 3
  (void)TarTopLevelNames(archive);
  (void)kMaxBytes;
  (void)ExtractTar(archive, dest);
#else
#error "ARCHIVE_FUZZER_FORMAT: 1 (zip), 2 (7z) or 3 (tar)"
#endif
  fuzz::CheckNothingEscaped();
  return 0;
}
