#include "formats/seven_zip.h"

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

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

// 1980-01-01 00:00:00 UTC, the timestamp our zip archives use too.
constexpr time_t kFixedMtime = 315532800;
constexpr size_t kBufferSize = 1 << 16;

struct ArchiveReadFree {
  void operator()(archive* a) const { archive_read_free(a); }
};
using ReadHandle = std::unique_ptr<archive, ArchiveReadFree>;

struct ArchiveWriteFree {
  void operator()(archive* a) const { archive_write_free(a); }
};
using WriteHandle = std::unique_ptr<archive, ArchiveWriteFree>;

struct EntryFree {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};
using EntryHandle = std::unique_ptr<archive_entry, EntryFree>;

std::string ErrorOf(archive* a) {
  const char* message = archive_error_string(a);
  return message == nullptr ? std::string("unknown libarchive error") : std::string(message);
}

// Checks a name read from an archive: relative, no ".." component.
absl::Status CheckReadName(absl::string_view name) {
  return archive_internal::CheckEntryName("7z", name, "");
}

// Checks a name to write: stricter, so that what we write is unambiguous.
absl::Status CheckWriteName(absl::string_view name) {
  RETURN_IF_ERROR(CheckReadName(name));
  for (absl::string_view component : absl::StrSplit(name, '/')) {
    if (component.empty() || component == ".") {
      return absl::InvalidArgumentError(
          absl::StrCat("7z entry name '", name, "' has an empty or '.' component"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<ReadHandle> OpenForReading(const fs::path& path) {
  RETURN_IF_ERROR(archive_internal::CheckArchiveFile("7z", path));
  ReadHandle a(archive_read_new());
  if (a == nullptr) return absl::ResourceExhaustedError("cannot allocate a libarchive reader");
  // Only 7z: a tar or zip renamed to .7z is an error, as it is for py7zr.
  archive_read_support_format_7zip(a.get());
  if (archive_read_open_filename(a.get(), path.c_str(), kBufferSize) != ARCHIVE_OK) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read 7z archive '", path.string(), "': ", ErrorOf(a.get())));
  }
  return a;
}

// Calls `visit(entry)` for every header of `path`; `visit` may read the
// entry's data; what it leaves unread is skipped.
template <typename Visit>
absl::Status ForEachEntry(const fs::path& path, Visit visit) {
  ASSIGN_OR_RETURN(ReadHandle a, OpenForReading(path));
  while (true) {
    archive_entry* entry = nullptr;
    const int r = archive_read_next_header(a.get(), &entry);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      return absl::InvalidArgumentError(
          absl::StrCat("corrupt 7z archive '", path.string(), "': ", ErrorOf(a.get())));
    }
    RETURN_IF_ERROR(visit(a.get(), entry));
  }
  return absl::OkStatus();
}

std::string EntryName(archive_entry* entry) {
  const char* name = archive_entry_pathname(entry);
  return name == nullptr ? std::string() : std::string(name);
}

absl::Status WriteEntryData(archive* a, const SevenZipEntry& entry) {
  if (entry.kind == SevenZipEntry::Kind::kBytes) {
    if (!entry.bytes.empty() && archive_write_data(a, entry.bytes.data(), entry.bytes.size()) !=
                                    static_cast<la_ssize_t>(entry.bytes.size())) {
      return absl::InternalError(ErrorOf(a));
    }
    return absl::OkStatus();
  }
  std::ifstream in(entry.file, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read '", entry.file.string(), "'"));
  std::string buffer(kBufferSize, '\0');
  while (in) {
    in.read(buffer.data(), buffer.size());
    const std::streamsize n = in.gcount();
    if (n > 0 && archive_write_data(a, buffer.data(), n) != n) {
      return absl::InternalError(ErrorOf(a));
    }
  }
  if (in.bad()) return absl::InternalError(absl::StrCat("cannot read '", entry.file.string(), "'"));
  return absl::OkStatus();
}

absl::Status WriteArchiveTo(const fs::path& path, const std::vector<SevenZipEntry>& entries) {
  WriteHandle a(archive_write_new());
  if (a == nullptr) return absl::ResourceExhaustedError("cannot allocate a libarchive writer");
  if (archive_write_set_format_7zip(a.get()) != ARCHIVE_OK ||
      archive_write_set_format_option(a.get(), "7zip", "compression", "lzma2") != ARCHIVE_OK ||
      archive_write_open_filename(a.get(), path.c_str()) != ARCHIVE_OK) {
    return absl::InternalError(
        absl::StrCat("cannot create 7z archive '", path.string(), "': ", ErrorOf(a.get())));
  }
  for (const SevenZipEntry& entry : entries) {
    EntryHandle e(archive_entry_new());
    archive_entry_set_pathname(e.get(), entry.name.c_str());
    archive_entry_set_mtime(e.get(), kFixedMtime, 0);
    if (entry.kind == SevenZipEntry::Kind::kDirectory) {
      archive_entry_set_filetype(e.get(), AE_IFDIR);
      archive_entry_set_perm(e.get(), 0755);
      archive_entry_set_size(e.get(), 0);
    } else {
      int64_t size = static_cast<int64_t>(entry.bytes.size());
      if (entry.kind == SevenZipEntry::Kind::kFile) {
        std::error_code ec;
        size = static_cast<int64_t>(fs::file_size(entry.file, ec));
        if (ec) {
          return absl::NotFoundError(absl::StrCat("source '", entry.file.string(),
                                                  "' of 7z entry '", entry.name,
                                                  "' is not readable: ", ec.message()));
        }
      }
      archive_entry_set_filetype(e.get(), AE_IFREG);
      archive_entry_set_perm(e.get(), 0644);
      archive_entry_set_size(e.get(), size);
    }
    if (archive_write_header(a.get(), e.get()) != ARCHIVE_OK) {
      return absl::InternalError(absl::StrCat("cannot add entry '", entry.name, "' to '",
                                              path.string(), "': ", ErrorOf(a.get())));
    }
    if (entry.kind != SevenZipEntry::Kind::kDirectory) {
      if (absl::Status s = WriteEntryData(a.get(), entry); !s.ok()) {
        return absl::InternalError(absl::StrCat("cannot add entry '", entry.name, "' to '",
                                                path.string(), "': ", s.message()));
      }
    }
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK) {
    return absl::InternalError(
        absl::StrCat("cannot write 7z archive '", path.string(), "': ", ErrorOf(a.get())));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status Extract7z(const fs::path& archive_path, const fs::path& dest,
                       const Extract7zOptions& options) {
  // First pass: headers only, so that a rejected archive writes nothing.
  int64_t num_entries = 0;
  int64_t declared_bytes = 0;
  absl::Status checked = ForEachEntry(archive_path, [&](archive*, archive_entry* entry) {
    const std::string name = EntryName(entry);
    if (absl::Status s = CheckReadName(name); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("unsafe archive '", archive_path.string(), "': ", s.message()));
    }
    if (++num_entries > options.max_entries) {
      return absl::ResourceExhaustedError(absl::StrCat("7z archive '", archive_path.string(),
                                                       "' has more than the limit of ",
                                                       options.max_entries, " entries"));
    }
    const mode_t type = archive_entry_filetype(entry);
    if (type == AE_IFLNK || archive_entry_hardlink(entry) != nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("7z entry '", name, "' of '",
                                                     archive_path.string(),
                                                     "' is a link, which is not supported"));
    }
    if (type != AE_IFREG && type != AE_IFDIR) {
      return absl::InvalidArgumentError(absl::StrCat("7z entry '", name, "' of '",
                                                     archive_path.string(),
                                                     "' is neither a file nor a directory"));
    }
    if (archive_entry_is_encrypted(entry)) {
      return absl::InvalidArgumentError(absl::StrCat("7z entry '", name, "' of '",
                                                     archive_path.string(),
                                                     "' is encrypted, which is not supported"));
    }
    if (archive_entry_size_is_set(entry)) {
      const int64_t size = archive_entry_size(entry);
      if (size < 0 || size > options.max_total_bytes - declared_bytes) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "7z archive '", archive_path.string(), "' declares more than the limit of ",
            options.max_total_bytes, " bytes of content"));
      }
      declared_bytes += size;
    }
    return absl::OkStatus();
  });
  if (!checked.ok()) return checked;

  ASSIGN_OR_RETURN(const fs::path root, archive_internal::CreateDestination(dest));
  int64_t total_bytes = 0;
  return ForEachEntry(archive_path, [&](archive* a, archive_entry* entry) -> absl::Status {
    const std::string name = EntryName(entry);
    ASSIGN_OR_RETURN(const std::optional<fs::path> target,
                     archive_internal::PrepareEntryTarget(
                         "7z", name, archive_entry_filetype(entry) == AE_IFDIR, archive_path,
                         dest, root));
    if (!target.has_value()) return absl::OkStatus();
    return archive_internal::ExtractEntryData(
        [&](char* buffer, size_t size) -> int64_t { return archive_read_data(a, buffer, size); },
        [&] { return ErrorOf(a); }, name, archive_path, *target, options.max_total_bytes,
        total_bytes);
  });
}

absl::StatusOr<std::vector<std::string>> List7z(const fs::path& archive_path) {
  std::vector<std::string> names;
  absl::Status s = ForEachEntry(archive_path, [&](archive*, archive_entry* entry) {
    std::string name = EntryName(entry);
    // libarchive reports directories with a trailing "/"; py7zr does not.
    while (name.size() > 1 && name.back() == '/') name.pop_back();
    names.push_back(std::move(name));
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return names;
}

absl::Status Write7z(const fs::path& archive_path, std::vector<SevenZipEntry> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const SevenZipEntry& a, const SevenZipEntry& b) { return a.name < b.name; });
  for (size_t i = 0; i < entries.size(); ++i) {
    absl::Status s = CheckWriteName(entries[i].name);
    if (s.ok() && i > 0 && entries[i].name == entries[i - 1].name) {
      s = absl::InvalidArgumentError(
          absl::StrCat("7z entry '", entries[i].name, "' is given more than once"));
    }
    if (s.ok() && entries[i].kind == SevenZipEntry::Kind::kFile) {
      std::error_code ec;
      if (!fs::is_regular_file(entries[i].file, ec)) {
        s = absl::NotFoundError(absl::StrCat("source '", entries[i].file.string(),
                                             "' of 7z entry '", entries[i].name,
                                             "' is not a readable regular file"));
      }
    }
    if (!s.ok()) {
      return absl::Status(
          s.code(), absl::StrCat("cannot write '", archive_path.string(), "': ", s.message()));
    }
  }
  return archive_internal::WriteArchiveAtomically(
      archive_path, [&](const fs::path& temporary) { return WriteArchiveTo(temporary, entries); });
}

absl::Status SevenZipDirectory(const fs::path& src_dir, const std::string& prefix,
                               const fs::path& archive_path) {
  std::error_code ec;
  if (!fs::is_directory(src_dir, ec)) {
    return absl::NotFoundError(absl::StrCat("'", src_dir.string(), "' is not a directory"));
  }
  std::vector<SevenZipEntry> entries;
  for (fs::recursive_directory_iterator it(src_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    entries.push_back(SevenZipEntry::FromFile(
        prefix + it->path().lexically_relative(src_dir).generic_string(), it->path()));
  }
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot list '", src_dir.string(), "': ", ec.message()));
  }
  return Write7z(archive_path, std::move(entries));
}

}  // namespace mlebench
