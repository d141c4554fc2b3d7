// What the parsers' fuzz targets (bazel/fuzz/fuzz.bzl) share: a scratch
// directory, a byte-exact rendering of tables to compare two readers'
// results, and a check that fails the run loudly. Testonly.
#ifndef MLEBENCH_BASE_TESTING_FUZZ_SUPPORT_H_
#define MLEBENCH_BASE_TESTING_FUZZ_SUPPORT_H_

#include <filesystem>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "base/table.h"

namespace mlebench::fuzz {

// A directory of this process's own (under $TEST_TMPDIR, else /tmp), made on
// the first call; the same path for the rest of the run.
const std::filesystem::path& ScratchDir();

// Writes `bytes` to `path`, replacing it; aborts if that fails (the harness,
// not the code under test, is broken then).
void WriteFileOrDie(const std::filesystem::path& path, std::string_view bytes);

// An empty extraction destination for an archive fuzzer, made afresh:
// <scratch>/extract/dest, beside <scratch>/extract/outside (empty), with two
// symlinks in dest that lead outside it: dest/escape_dir -> ../outside and
// dest/escape_file -> ../outside/file. Returns dest.
std::filesystem::path FreshExtractionDir();

// After an extraction into FreshExtractionDir() (successful or not): aborts
// unless nothing was written outside dest (outside/ still empty, nothing
// beside dest and outside) and nothing under dest is other than a regular
// file, a directory, or one of the two symlinks as they were made.
void CheckNothingEscaped();

// Everything a reader's result says: its status, or each column's name, dtype
// and cells (doubles bit for bit, so -0.0 differs from 0.0, except that every
// NaN renders alike: sign and payload are not data).
std::string Render(const absl::StatusOr<Table>& table);

// Aborts unless a reader of bytes and the same reader of a file holding them
// failed alike: the same code, the file's message being the bytes' message
// with something (the file's name) in front. `what` names the two readers.
void CheckSameError(const absl::Status& from_bytes, const absl::Status& from_file,
                    std::string_view what);

// Aborts with both texts (abridged) when `same` is false: `what` names the
// two results that should have agreed. libFuzzer then keeps the input.
void CheckSame(bool same, std::string_view what, std::string_view first, std::string_view second);

// Aborts with `what` when `ok` is false.
void Check(bool ok, std::string_view what);

}  // namespace mlebench::fuzz

#endif  // MLEBENCH_BASE_TESTING_FUZZ_SUPPORT_H_
