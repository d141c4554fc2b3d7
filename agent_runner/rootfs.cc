#include "agent_runner/rootfs.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

// One entry as the manifest describes it, less the file's digest.
struct Entry {
  std::string path;
  char type = '?';
  uint32_t mode = 0;
  int64_t size = 0;
  std::string target;  // symlinks only

  std::string Describe() const {
    switch (type) {
      case 'd':
        return absl::StrFormat("a directory of mode %04o", mode);
      case 'f':
        return absl::StrFormat("a file of mode %04o and %d bytes", mode, size);
      case 'l':
        return absl::StrCat("a symlink to '", target, "'");
      default:
        return "something else";
    }
  }
  bool operator==(const Entry& other) const {
    return path == other.path && type == other.type && size == other.size &&
           target == other.target && (type == 'l' || mode == other.mode);
  }
};

absl::Status Changed(absl::string_view why) {
  return absl::FailedPreconditionError(
      absl::StrCat(why,
                   ": the root file system changed since its manifest was made (refetch its "
                   "repository: ./bazelw sync --only=<its name>)"));
}

absl::StatusOr<std::vector<Entry>> ParseManifest(absl::string_view text) {
  std::vector<Entry> entries;
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    ++line_number;
    if (line_number == 1 && !line.empty() && line[0] == '#') continue;
    const std::vector<absl::string_view> fields = absl::StrSplit(line, '\t');
    Entry entry;
    const auto malformed = [&](absl::string_view why) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the root file system's manifest is malformed at line ", line_number, ": ", why));
    };
    if (fields.size() != 5) return malformed("not 5 tab-separated fields");
    if (fields[0].size() != 1 || std::strchr("dfl", fields[0][0]) == nullptr) {
      return malformed("the type is not d, f or l");
    }
    entry.type = fields[0][0];
    if (fields[1].size() != 4 ||
        fields[1].find_first_not_of("01234567") != absl::string_view::npos) {
      return malformed("the mode is not 4 octal digits");
    }
    entry.mode = static_cast<uint32_t>(std::stoul(std::string(fields[1]), nullptr, 8));
    if (!absl::SimpleAtoi(fields[2], &entry.size) || entry.size < 0) {
      return malformed("the size is not a number");
    }
    if (entry.type == 'l') entry.target = std::string(fields[3]);
    if (fields[4].empty() || fields[4][0] == '/') return malformed("the path is not relative");
    entry.path = std::string(fields[4]);
    if (!entries.empty() && !(entries.back().path < entry.path)) {
      return malformed("the paths are not sorted, or repeat");
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

// Every entry of the bound trees, nothing followed.
absl::StatusOr<RootfsSummary> Walk(const fs::path& rootfs, int64_t max_entries,
                                   std::vector<Entry>& entries) {
  RootfsSummary summary;
  std::vector<std::string> pending;
  for (const char* name : kRootfsSystemEntries) pending.push_back(name);
  while (!pending.empty()) {
    std::string relative = std::move(pending.back());
    pending.pop_back();
    const std::string path = (rootfs / relative).string();
    struct stat st;
    if (lstat(path.c_str(), &st) != 0) {
      if (errno == ENOENT && relative.find('/') == std::string::npos) continue;  // not there
      return absl::FailedPreconditionError(
          absl::StrCat("cannot read ", path, ": ", std::strerror(errno)));
    }
    if (++summary.entries > max_entries) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "the root file system ", rootfs.string(), " holds more than ", max_entries, " entries"));
    }
    Entry entry{.path = relative, .mode = static_cast<uint32_t>(st.st_mode & 07777)};
    if (S_ISDIR(st.st_mode)) {
      entry.type = 'd';
      DIR* listing = opendir(path.c_str());
      if (listing == nullptr) {
        return absl::FailedPreconditionError(
            absl::StrCat("cannot list ", path, ": ", std::strerror(errno)));
      }
      while (const struct dirent* child = readdir(listing)) {
        const absl::string_view name = child->d_name;
        if (name == "." || name == "..") continue;
        pending.push_back(absl::StrCat(relative, "/", name));
      }
      closedir(listing);
    } else if (S_ISREG(st.st_mode)) {
      entry.type = 'f';
      entry.size = st.st_size;
      if ((st.st_mode & (S_ISUID | S_ISGID)) != 0) summary.setid_files.push_back(relative);
    } else if (S_ISLNK(st.st_mode)) {
      entry.type = 'l';
      std::string target(static_cast<size_t>(st.st_size) + 1, '\0');
      const ssize_t length = readlink(path.c_str(), target.data(), target.size());
      if (length < 0 || static_cast<size_t>(length) >= target.size()) {
        return absl::FailedPreconditionError(absl::StrCat("cannot read the symlink ", path));
      }
      target.resize(static_cast<size_t>(length));
      entry.target = std::move(target);
    } else {
      return absl::FailedPreconditionError(absl::StrCat(
          path, " is a socket, FIFO or device node, which a root file system must not hold"));
    }
    entries.push_back(std::move(entry));
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.path < b.path; });
  std::sort(summary.setid_files.begin(), summary.setid_files.end());
  return summary;
}

}  // namespace

absl::StatusOr<RootfsSummary> CheckRootfs(const fs::path& rootfs,
                                          const std::optional<std::string>& manifest,
                                          int64_t max_entries) {
  std::vector<Entry> found;
  absl::StatusOr<RootfsSummary> summary = Walk(rootfs, max_entries, found);
  if (!summary.ok() || !manifest.has_value()) return summary;
  absl::StatusOr<std::vector<Entry>> expected = ParseManifest(*manifest);
  if (!expected.ok()) return expected.status();
  size_t i = 0;
  size_t j = 0;
  while (i < found.size() || j < expected->size()) {
    if (j == expected->size() || (i < found.size() && found[i].path < (*expected)[j].path)) {
      return Changed(absl::StrCat(found[i].path, " is not in the manifest"));
    }
    if (i == found.size() || (*expected)[j].path < found[i].path) {
      return Changed(absl::StrCat((*expected)[j].path, " is in the manifest but missing"));
    }
    if (!(found[i] == (*expected)[j])) {
      return Changed(absl::StrCat(found[i].path, " is ", found[i].Describe(),
                                  ", the manifest says ", (*expected)[j].Describe()));
    }
    ++i;
    ++j;
  }
  return summary;
}

}  // namespace mlebench
