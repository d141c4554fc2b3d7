#include "formats/zip_archive.h"

#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "base/status_macros.h"
#include "formats/internal/archive_files.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// MS-DOS date and time of 1980-01-01 00:00:00, the earliest a zip can hold:
// date = (year - 1980) << 9 | month << 5 | day, time = 0.
constexpr zip_uint16_t kFixedDosDate = (0 << 9) | (1 << 5) | 1;
constexpr zip_uint16_t kFixedDosTime = 0;
constexpr zip_uint32_t kFileMode = S_IFREG | 0644;
constexpr zip_uint32_t kDirectoryMode = S_IFDIR | 0755;
constexpr zip_uint32_t kMsDosDirectoryAttribute = 0x10;
// zlib's default level, which Python's ZIP_DEFLATED uses.
constexpr zip_uint32_t kDeflateLevel = 6;

struct ZipDiscarder {
  void operator()(zip_t* archive) const { zip_discard(archive); }
};
using ZipHandle = std::unique_ptr<zip_t, ZipDiscarder>;

struct ZipFileCloser {
  void operator()(zip_file_t* file) const { zip_fclose(file); }
};
using ZipFileHandle = std::unique_ptr<zip_file_t, ZipFileCloser>;

std::string LibzipErrorString(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string message = zip_error_strerror(&error);
  zip_error_fini(&error);
  return message;
}

// The checks every entry name passes, on writing and on extracting.
absl::Status CheckEntryName(absl::string_view name) {
  return archive_internal::CheckEntryName("zip", name, " (zip-slip)");
}

bool IsDirectoryName(absl::string_view name) { return !name.empty() && name.back() == '/'; }

absl::StatusOr<ZipHandle> OpenForReading(const fs::path& zip) {
  // libzip opens an empty file as an empty archive; Python's zipfile (and we)
  // call it what it is.
  RETURN_IF_ERROR(archive_internal::CheckArchiveFile("zip", zip));
  int error_code = 0;
  // No ZIP_CHECKCONS: like Python's zipfile, accept archives whose local and
  // central headers disagree in ways that do not matter (some zip tools write
  // them); damaged data still fails its CRC or decompression when read.
  zip_t* archive = zip_open(zip.c_str(), ZIP_RDONLY, &error_code);
  if (archive == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read zip archive '", zip.string(),
                                                   "': ", LibzipErrorString(error_code)));
  }
  return ZipHandle(archive);
}

absl::Status ExtractFile(zip_t* archive, zip_uint64_t index, absl::string_view name,
                         const fs::path& zip, const fs::path& target, int64_t max_total_bytes,
                         int64_t& total_bytes) {
  ZipFileHandle file(zip_fopen_index(archive, index, 0));
  if (file == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read entry '", name, "' of '",
                                                   zip.string(), "': ", zip_strerror(archive)));
  }
  return archive_internal::ExtractEntryData(
      [&](char* buffer, size_t size) -> int64_t { return zip_fread(file.get(), buffer, size); },
      [&] { return std::string(zip_file_strerror(file.get())); }, name, zip, target,
      max_total_bytes, total_bytes);
}

absl::Status CheckEntriesToWrite(const std::vector<ZipEntry>& entries) {
  std::set<absl::string_view> names;
  for (const ZipEntry& entry : entries) {
    RETURN_IF_ERROR(CheckEntryName(entry.name));
    if (!names.insert(entry.name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("zip entry '", entry.name, "' is given more than once"));
    }
    if (const auto* file = std::get_if<fs::path>(&entry.content)) {
      if (IsDirectoryName(entry.name)) {
        return absl::InvalidArgumentError(
            absl::StrCat("directory entry '", entry.name, "' cannot have a source file"));
      }
      std::error_code ec;
      if (!fs::is_regular_file(*file, ec)) {
        return absl::NotFoundError(absl::StrCat("source '", file->string(), "' of zip entry '",
                                                entry.name, "' is not a readable regular file"));
      }
    } else if (IsDirectoryName(entry.name) && !std::get<std::string>(entry.content).empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("directory entry '", entry.name, "' cannot have content"));
    }
  }
  return absl::OkStatus();
}

// Adds one entry with its fixed metadata; returns an error message or "".
std::string AddEntry(zip_t* archive, const ZipEntry& entry) {
  zip_int64_t index;
  const bool is_directory = IsDirectoryName(entry.name);
  if (is_directory) {
    index = zip_dir_add(archive, entry.name.c_str(), ZIP_FL_ENC_UTF_8);
    if (index < 0) return zip_strerror(archive);
  } else {
    zip_error_t error;
    zip_error_init(&error);
    zip_source_t* source;
    if (const auto* file = std::get_if<fs::path>(&entry.content)) {
      source = zip_source_file_create(file->c_str(), 0, 0, &error);
    } else {
      const std::string& bytes = std::get<std::string>(entry.content);
      source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
    }
    if (source == nullptr) {
      std::string message = zip_error_strerror(&error);
      zip_error_fini(&error);
      return message;
    }
    zip_error_fini(&error);
    index = zip_file_add(archive, entry.name.c_str(), source, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(source);
      return zip_strerror(archive);
    }
  }
  const zip_uint64_t i = static_cast<zip_uint64_t>(index);
  const zip_uint32_t attributes =
      is_directory ? (kDirectoryMode << 16) | kMsDosDirectoryAttribute : kFileMode << 16;
  if (zip_set_file_compression(archive, i, is_directory ? ZIP_CM_STORE : ZIP_CM_DEFLATE,
                               is_directory ? 0 : kDeflateLevel) != 0 ||
      zip_file_set_dostime(archive, i, kFixedDosTime, kFixedDosDate, 0) != 0 ||
      zip_file_set_external_attributes(archive, i, 0, ZIP_OPSYS_UNIX, attributes) != 0) {
    return zip_strerror(archive);
  }
  return "";
}

absl::Status WriteArchiveTo(const fs::path& path, const std::vector<ZipEntry>& entries) {
  if (entries.empty()) {
    // libzip deletes an archive left without entries; write the 22-byte
    // end-of-central-directory record that is an empty zip (as Python does).
    std::string empty_archive = "PK\x05\x06";
    empty_archive.append(18, '\0');
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(empty_archive.data(), empty_archive.size());
    out.close();
    if (!out) return absl::InternalError(absl::StrCat("cannot write '", path.string(), "'"));
    return absl::OkStatus();
  }
  int error_code = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_EXCL, &error_code);
  if (archive == nullptr) {
    return absl::InternalError(absl::StrCat("cannot create zip archive '", path.string(),
                                            "': ", LibzipErrorString(error_code)));
  }
  for (const ZipEntry& entry : entries) {
    if (std::string message = AddEntry(archive, entry); !message.empty()) {
      zip_discard(archive);
      return absl::InternalError(
          absl::StrCat("cannot add entry '", entry.name, "' to '", path.string(), "': ", message));
    }
  }
  if (zip_close(archive) != 0) {
    std::string message = zip_strerror(archive);
    zip_discard(archive);
    return absl::InternalError(
        absl::StrCat("cannot write zip archive '", path.string(), "': ", message));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ExtractZip(const fs::path& zip, const fs::path& dest,
                        const ExtractZipOptions& options) {
  ASSIGN_OR_RETURN(ZipHandle archive, OpenForReading(zip));
  zip_t* za = archive.get();
  const zip_int64_t num_entries = zip_get_num_entries(za, 0);
  if (num_entries > options.max_entries) {
    return absl::ResourceExhaustedError(
        absl::StrCat("zip archive '", zip.string(), "' has ", num_entries,
                     " entries, more than the limit of ", options.max_entries));
  }

  // Check every entry before writing anything, so that a rejected archive
  // leaves `dest` untouched.
  struct Entry {
    zip_uint64_t index;
    std::string name;
  };
  std::vector<Entry> entries;
  int64_t declared_bytes = 0;
  for (zip_uint64_t i = 0; i < static_cast<zip_uint64_t>(num_entries); ++i) {
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(za, i, 0, &stat) != 0 || !(stat.valid & ZIP_STAT_NAME)) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot read entry ", i, " of '", zip.string(), "': ", zip_strerror(za)));
    }
    std::string name = stat.name;
    if (absl::Status s = CheckEntryName(name); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("unsafe archive '", zip.string(), "': ", s.message()));
    }
    zip_uint8_t opsys = 0;
    zip_uint32_t attributes = 0;
    if (zip_file_get_external_attributes(za, i, 0, &opsys, &attributes) == 0 &&
        opsys == ZIP_OPSYS_UNIX && S_ISLNK(attributes >> 16)) {
      return absl::InvalidArgumentError(absl::StrCat("zip entry '", name, "' of '", zip.string(),
                                                     "' is a symlink, which is not supported"));
    }
    if ((stat.valid & ZIP_STAT_ENCRYPTION_METHOD) && stat.encryption_method != ZIP_EM_NONE) {
      return absl::InvalidArgumentError(absl::StrCat("zip entry '", name, "' of '", zip.string(),
                                                     "' is encrypted, which is not supported"));
    }
    if (stat.valid & ZIP_STAT_SIZE) {
      // Compare before adding so that a declared size near 2^64 cannot wrap.
      if (stat.size > static_cast<zip_uint64_t>(options.max_total_bytes - declared_bytes)) {
        return absl::ResourceExhaustedError(
            absl::StrCat("zip archive '", zip.string(), "' declares more than the limit of ",
                         options.max_total_bytes, " bytes of content"));
      }
      declared_bytes += static_cast<int64_t>(stat.size);
    }
    entries.push_back({i, std::move(name)});
  }

  ASSIGN_OR_RETURN(const fs::path root, archive_internal::CreateDestination(dest));
  int64_t total_bytes = 0;
  for (const Entry& entry : entries) {
    ASSIGN_OR_RETURN(const std::optional<fs::path> target,
                     archive_internal::PrepareEntryTarget(
                         "zip", entry.name, IsDirectoryName(entry.name), zip, dest, root));
    if (!target.has_value()) continue;
    RETURN_IF_ERROR(ExtractFile(za, entry.index, entry.name, zip, *target,
                                options.max_total_bytes, total_bytes));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> ListZip(const fs::path& zip) {
  ASSIGN_OR_RETURN(ZipHandle archive, OpenForReading(zip));
  const zip_int64_t num_entries = zip_get_num_entries(archive.get(), 0);
  std::vector<std::string> names;
  names.reserve(num_entries);
  for (zip_uint64_t i = 0; i < static_cast<zip_uint64_t>(num_entries); ++i) {
    const char* name = zip_get_name(archive.get(), i, 0);
    if (name == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("cannot read entry ", i, " of '", zip.string(),
                                                     "': ", zip_strerror(archive.get())));
    }
    names.emplace_back(name);
  }
  return names;
}

absl::Status WriteZip(const fs::path& zip, const std::vector<ZipEntry>& entries) {
  if (absl::Status s = CheckEntriesToWrite(entries); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write '", zip.string(), "': ", s.message()));
  }
  return archive_internal::WriteArchiveAtomically(
      zip, [&](const fs::path& temporary) { return WriteArchiveTo(temporary, entries); });
}

absl::Status ZipDirectory(const fs::path& src_dir, const fs::path& zip) {
  std::error_code ec;
  if (!fs::is_directory(src_dir, ec)) {
    return absl::NotFoundError(
        absl::StrCat("cannot zip '", src_dir.string(), "': it is not a directory"));
  }
  // An archive written into the directory it zips must not include itself.
  const fs::path zip_canonical = fs::weakly_canonical(zip, ec);
  std::vector<std::pair<std::string, fs::path>> files;
  for (fs::recursive_directory_iterator it(src_dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (!it->is_regular_file(entry_ec)) continue;
    if (fs::weakly_canonical(it->path(), entry_ec) == zip_canonical) continue;
    files.emplace_back(it->path().lexically_relative(src_dir).generic_string(), it->path());
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot list '", src_dir.string(), "': ", ec.message()));
  }
  std::sort(files.begin(), files.end());
  std::vector<ZipEntry> entries;
  entries.reserve(files.size());
  for (auto& [name, file] : files) entries.push_back(ZipEntry::FromFile(name, file));
  return WriteZip(zip, entries);
}

}  // namespace mlebench
