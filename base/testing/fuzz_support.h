// What the parsers' fuzz targets (tools/fuzz/fuzz.bzl) share: a scratch
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

// Everything a reader's result says: its status, or each column's name, dtype
// and cells (doubles bit for bit, so NaN equals NaN and -0.0 differs from
// 0.0).
std::string Render(const absl::StatusOr<Table>& table);

// Aborts with both texts (abridged) when `same` is false: `what` names the
// two results that should have agreed. libFuzzer then keeps the input.
void CheckSame(bool same, std::string_view what, std::string_view first, std::string_view second);

// Aborts with `what` when `ok` is false.
void Check(bool ok, std::string_view what);

}  // namespace mlebench::fuzz

#endif  // MLEBENCH_BASE_TESTING_FUZZ_SUPPORT_H_
