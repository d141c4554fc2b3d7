#include "formats/tar_archive.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "formats/internal/archive_files.h"

namespace mlebench {
namespace {

struct ArchiveReadCloser {
  void operator()(archive* a) const { archive_read_free(a); }
};
struct ArchiveWriteCloser {
  void operator()(archive* a) const { archive_write_free(a); }
};

std::string ArchiveError(archive* a) {
  const char* message = archive_error_string(a);
  return message == nullptr ? "unknown libarchive error" : message;
}

// Splits "a/b/c" into its non-empty components; false for an absolute name
// or one with a ".." component.
bool SafeComponents(const std::string& name, std::vector<std::string>& parts) {
  parts.clear();
  if (name.empty() || name[0] == '/') return false;
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find('/', start);
    if (end == std::string::npos) end = name.size();
    std::string part = name.substr(start, end - start);
    if (part == "..") return false;
    if (!part.empty() && part != ".") parts.push_back(std::move(part));
    start = end + 1;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> TarTopLevelNames(
    const std::filesystem::path& archive_path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(archive_path, error)) {
    return absl::NotFoundError(absl::StrCat("no archive ", archive_path.string()));
  }
  std::unique_ptr<archive, ArchiveReadCloser> reader(archive_read_new());
  archive_read_support_filter_all(reader.get());
  archive_read_support_format_tar(reader.get());
  archive_read_support_format_gnutar(reader.get());
  if (archive_read_open_filename(reader.get(), archive_path.c_str(), 1 << 16) != ARCHIVE_OK) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot read tar archive ", archive_path.string(), ": ", ArchiveError(reader.get())));
  }
  std::set<std::string> names;
  std::vector<std::string> parts;
  archive_entry* entry = nullptr;
  int rc;
  while ((rc = archive_read_next_header(reader.get(), &entry)) == ARCHIVE_OK) {
    const char* raw_name = archive_entry_pathname(entry);
    const std::string name = raw_name == nullptr ? "" : raw_name;
    if (!SafeComponents(name, parts)) {
      return absl::InvalidArgumentError(
          absl::StrCat(archive_path.string(), ": unsafe entry name '", name, "'"));
    }
    if (!parts.empty()) names.insert(parts.front());
    if (archive_read_data_skip(reader.get()) != ARCHIVE_OK) {
      return absl::InvalidArgumentError(absl::StrCat("corrupt tar archive ", archive_path.string(),
                                                     ": ", ArchiveError(reader.get())));
    }
  }
  if (rc != ARCHIVE_EOF) {
    return absl::InvalidArgumentError(absl::StrCat("corrupt tar archive ", archive_path.string(),
                                                   ": ", ArchiveError(reader.get())));
  }
  return std::vector<std::string>(names.begin(), names.end());
}

absl::Status ExtractTar(const std::filesystem::path& archive_path,
                        const std::filesystem::path& dest, const ExtractTarOptions& options) {
  std::error_code dest_error;
  std::filesystem::create_directories(dest, dest_error);
  const std::filesystem::path root = std::filesystem::canonical(dest, dest_error);
  if (dest_error) {
    return absl::PermissionDeniedError(absl::StrCat("cannot create destination directory '",
                                                    dest.string(), "': ",
                                                    dest_error.message()));
  }
  // First pass: every entry must be a safe file or directory, and must not
  // be carried outside `dest` by a symlink already there (entries cannot
  // make symlinks, so what this pass sees is what the second one meets).
  for (int pass = 0; pass < 2; ++pass) {
    std::unique_ptr<archive, ArchiveReadCloser> reader(archive_read_new());
    archive_read_support_filter_all(reader.get());
    archive_read_support_format_tar(reader.get());
    archive_read_support_format_gnutar(reader.get());
    if (archive_read_open_filename(reader.get(), archive_path.c_str(), 1 << 16) != ARCHIVE_OK) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot read tar archive ", archive_path.string(), ": ", ArchiveError(reader.get())));
    }
    std::vector<std::string> parts;
    archive_entry* entry = nullptr;
    int rc;
    int64_t entries = 0;
    int64_t declared_bytes = 0;
    int64_t written_bytes = 0;
    while ((rc = archive_read_next_header(reader.get(), &entry)) == ARCHIVE_OK) {
      if (++entries > options.max_entries) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "tar archive ", archive_path.string(), " has more than ", options.max_entries,
            " entries"));
      }
      const char* raw_name = archive_entry_pathname(entry);
      const std::string name = raw_name == nullptr ? "" : raw_name;
      const mode_t type = archive_entry_filetype(entry);
      if (!SafeComponents(name, parts) || (type != AE_IFREG && type != AE_IFDIR) ||
          archive_entry_hardlink(entry) != nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat(archive_path.string(), ": unsafe or unsupported entry '", name, "'"));
      }
      std::filesystem::path target = root;
      for (const std::string& part : parts) target /= part;
      std::error_code error;
      const std::filesystem::path directory = type == AE_IFDIR ? target : target.parent_path();
      std::error_code absent;  // symlink_status sets it where `target` does not exist
      const bool through_symlink =
          type != AE_IFDIR &&
          std::filesystem::is_symlink(std::filesystem::symlink_status(target, absent));
      if (!archive_internal::IsInside(directory, root) || through_symlink) {
        return absl::InvalidArgumentError(absl::StrCat("tar entry '", name, "' of '",
                                                       archive_path.string(),
                                                       "' would be written outside '",
                                                       dest.string(), "' through a symlink"));
      }
      const int64_t declared = std::max<int64_t>(archive_entry_size(entry), 0);
      if (type == AE_IFREG && declared > options.max_total_bytes - declared_bytes) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "extracting '", archive_path.string(), "' exceeds the limit of ",
            options.max_total_bytes, " bytes (at entry '", name, "')"));
      }
      if (type == AE_IFREG) declared_bytes += declared;
      if (pass == 1 && type == AE_IFDIR) {
        std::filesystem::create_directories(target, error);
      } else if (pass == 1) {
        std::filesystem::create_directories(target.parent_path(), error);
        if (error) return absl::InternalError(absl::StrCat("cannot create ", target.string()));
        // Sequential reads: libarchive fills a sparse entry's holes with zeros.
        RETURN_IF_ERROR(archive_internal::ExtractEntryData(
            [&](char* buffer, size_t size) -> int64_t {
              return archive_read_data(reader.get(), buffer, size);
            },
            [&] { return ArchiveError(reader.get()); }, name, archive_path, target,
            options.max_total_bytes, written_bytes));
        continue;
      }
      if (error) return absl::InternalError(absl::StrCat("cannot create ", target.string()));
      if (archive_read_data_skip(reader.get()) != ARCHIVE_OK) {
        return absl::InvalidArgumentError(absl::StrCat(
            "corrupt tar archive ", archive_path.string(), ": ", ArchiveError(reader.get())));
      }
    }
    if (rc != ARCHIVE_EOF) {
      return absl::InvalidArgumentError(absl::StrCat("corrupt tar archive ", archive_path.string(),
                                                     ": ", ArchiveError(reader.get())));
    }
  }
  return absl::OkStatus();
}

absl::Status WriteTar(const std::filesystem::path& archive_path,
                      const std::vector<TarEntry>& entries, bool gzip) {
  std::vector<std::string> parts;
  for (const TarEntry& entry : entries) {
    if (!SafeComponents(entry.name, parts) || parts.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("bad tar entry name '", entry.name, "'"));
    }
  }
  std::unique_ptr<archive, ArchiveWriteCloser> writer(archive_write_new());
  bool ok = archive_write_set_format_pax_restricted(writer.get()) == ARCHIVE_OK;
  if (ok && gzip) {
    ok = archive_write_add_filter_gzip(writer.get()) == ARCHIVE_OK &&
         // libarchive stores the current time in the gzip header unless told not to.
         archive_write_set_filter_option(writer.get(), "gzip", "timestamp", nullptr) == ARCHIVE_OK;
  }
  if (!ok || archive_write_open_filename(writer.get(), archive_path.c_str()) != ARCHIVE_OK) {
    return absl::InternalError(
        absl::StrCat("cannot write ", archive_path.string(), ": ", ArchiveError(writer.get())));
  }
  std::vector<char> buffer(1 << 16);
  for (const TarEntry& entry : entries) {
    std::error_code error;
    const int64_t size = entry.file.empty()
                             ? static_cast<int64_t>(entry.bytes.size())
                             : static_cast<int64_t>(std::filesystem::file_size(entry.file, error));
    if (error) return absl::NotFoundError(absl::StrCat("cannot read ", entry.file.string()));
    std::unique_ptr<archive_entry, void (*)(archive_entry*)> header(archive_entry_new(),
                                                                    &archive_entry_free);
    archive_entry_set_pathname(header.get(), entry.name.c_str());
    archive_entry_set_filetype(header.get(), AE_IFREG);
    archive_entry_set_perm(header.get(), 0644);
    archive_entry_set_size(header.get(), static_cast<la_int64_t>(size));
    archive_entry_set_mtime(header.get(), 0, 0);
    archive_entry_set_uid(header.get(), 0);
    archive_entry_set_gid(header.get(), 0);
    const std::string failure =
        absl::StrCat("cannot write ", entry.name, " to ", archive_path.string(), ": ");
    if (archive_write_header(writer.get(), header.get()) != ARCHIVE_OK) {
      return absl::InternalError(absl::StrCat(failure, ArchiveError(writer.get())));
    }
    if (entry.file.empty()) {
      if (!entry.bytes.empty() &&
          archive_write_data(writer.get(), entry.bytes.data(), entry.bytes.size()) !=
              static_cast<la_ssize_t>(entry.bytes.size())) {
        return absl::InternalError(absl::StrCat(failure, ArchiveError(writer.get())));
      }
      continue;
    }
    std::ifstream in(entry.file, std::ios::binary);
    int64_t written = 0;
    while (in && written < size) {
      in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      const std::streamsize got = in.gcount();
      if (got <= 0) break;
      if (archive_write_data(writer.get(), buffer.data(), static_cast<size_t>(got)) != got) {
        return absl::InternalError(absl::StrCat(failure, ArchiveError(writer.get())));
      }
      written += got;
    }
    if (written != size) {
      return absl::InternalError(absl::StrCat(failure, "short read of ", entry.file.string()));
    }
  }
  if (archive_write_close(writer.get()) != ARCHIVE_OK) {
    return absl::InternalError(
        absl::StrCat("cannot finish ", archive_path.string(), ": ", ArchiveError(writer.get())));
  }
  return absl::OkStatus();
}

}  // namespace mlebench
