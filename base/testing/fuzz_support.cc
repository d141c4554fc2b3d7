#include "base/testing/fuzz_support.h"

#include <stdlib.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <variant>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace mlebench::fuzz {

const std::filesystem::path& ScratchDir() {
  static const std::filesystem::path* const dir = [] {
    const char* base = std::getenv("TEST_TMPDIR");
    std::string pattern = absl::StrCat(base != nullptr ? base : "/tmp", "/fuzz_XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr) {
      std::perror("fuzz_support: mkdtemp");
      std::abort();
    }
    return new std::filesystem::path(pattern);
  }();
  return *dir;
}

void WriteFileOrDie(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "fuzz_support: cannot write %s\n", path.c_str());
    std::abort();
  }
}

namespace {

std::filesystem::path ExtractRoot() { return ScratchDir() / "extract"; }

}  // namespace

std::filesystem::path FreshExtractionDir() {
  const std::filesystem::path root = ExtractRoot();
  std::error_code error;
  std::filesystem::remove_all(root, error);
  std::filesystem::create_directories(root / "dest", error);
  std::filesystem::create_directories(root / "outside", error);
  std::filesystem::create_directory_symlink("../outside", root / "dest" / "escape_dir", error);
  std::filesystem::create_symlink("../outside/file", root / "dest" / "escape_file", error);
  Check(!error, "cannot make the extraction directory");
  return root / "dest";
}

void CheckNothingEscaped() {
  const std::filesystem::path root = ExtractRoot();
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(root, error)) {
    const std::string name = entry.path().filename();
    Check(name == "dest" || name == "outside",
          absl::StrCat("extraction wrote ", entry.path().string(), " beside its destination"));
  }
  Check(std::filesystem::is_empty(root / "outside", error),
        "extraction wrote through a symlink to outside its destination");
  for (auto it = std::filesystem::recursive_directory_iterator(root / "dest", error);
       it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    Check(!error, "cannot walk the extraction directory");
    const std::filesystem::path& path = it->path();
    const std::filesystem::file_status status = std::filesystem::symlink_status(path, error);
    if (std::filesystem::is_symlink(status)) {
      const std::string name = path.lexically_relative(root / "dest").string();
      const std::filesystem::path target = std::filesystem::read_symlink(path, error);
      Check((name == "escape_dir" && target == "../outside") ||
                (name == "escape_file" && target == "../outside/file"),
            absl::StrCat("extraction made the symlink ", path.string()));
      it.disable_recursion_pending();
      continue;
    }
    Check(std::filesystem::is_regular_file(status) || std::filesystem::is_directory(status),
          absl::StrCat("extraction made ", path.string(), ", neither a file nor a directory"));
  }
}

namespace {

std::string RenderCell(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "NA";
  if (const auto* b = std::get_if<bool>(&cell)) return *b ? "b:1" : "b:0";
  if (const auto* i = std::get_if<int64_t>(&cell)) return absl::StrCat("i:", *i);
  if (const auto* d = std::get_if<double>(&cell)) {
    // Every NaN alike: its sign and payload are not data (pandas reads any
    // NaN as missing, and the Parquet writer stores the canonical one; the
    // CI run found a negative NaN with a payload that came back canonical).
    // Every other value to the bit, -0.0 included.
    if (std::isnan(*d)) return "f:nan";
    uint64_t bits;
    std::memcpy(&bits, d, sizeof bits);
    return absl::StrCat("f:", bits);
  }
  const std::string& text = std::get<std::string>(cell);
  return absl::StrCat("s:", text.size(), ":", text);
}

}  // namespace

std::string Render(const absl::StatusOr<Table>& table) {
  if (!table.ok()) return table.status().ToString();
  std::string out;
  for (const Column& column : table->columns()) {
    absl::StrAppend(&out, "[", column.name, "|", std::string(DtypeName(column.dtype)), "]");
    for (const Cell& cell : column.cells) absl::StrAppend(&out, RenderCell(cell), ";");
    out += "\n";
  }
  return out;
}

void CheckSame(bool same, std::string_view what, std::string_view first, std::string_view second) {
  if (same) return;
  std::fprintf(stderr, "FUZZ CHECK FAILED: %.*s differ\n--- first\n%.*s\n--- second\n%.*s\n",
               static_cast<int>(what.size()), what.data(),
               static_cast<int>(std::min<size_t>(first.size(), 4000)), first.data(),
               static_cast<int>(std::min<size_t>(second.size(), 4000)), second.data());
  std::abort();
}

void CheckSameError(const absl::Status& from_bytes, const absl::Status& from_file,
                    std::string_view what) {
  const bool same = from_bytes.code() == from_file.code() &&
                    absl::EndsWith(from_file.message(), from_bytes.message());
  CheckSame(same, absl::StrCat(std::string(what), " (errors)"), from_bytes.ToString(),
            from_file.ToString());
}

void Check(bool ok, std::string_view what) {
  if (ok) return;
  std::fprintf(stderr, "FUZZ CHECK FAILED: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

}  // namespace mlebench::fuzz
