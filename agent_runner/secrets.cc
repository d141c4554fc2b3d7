#include "agent_runner/secrets.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxNameLength = 128;
constexpr off_t kMaxSecretFileBytes = 64 << 10;
// Shorter values are not redacted: they would turn common text into noise,
// and a value that short is no secret.
constexpr size_t kMinRedactedLength = 4;

bool ValidName(absl::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength || absl::ascii_isdigit(name[0])) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return absl::ascii_isalnum(c) || c == '_'; });
}

// Checks that `st` (of `path`) is only the caller's: owned by it, no group
// or other permission bits.
absl::Status CheckPrivate(const fs::path& path, const struct stat& st, bool directory) {
  if (directory ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "secrets: ", path.string(), " is not a ", directory ? "directory" : "regular file",
        " (symlinks are not followed)"));
  }
  if (st.st_uid != geteuid()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "secrets: ", path.string(), " belongs to uid ", st.st_uid, ", not to uid ", geteuid(),
        " who runs the agent; refusing a file another user could have written"));
  }
  if ((st.st_mode & 077) != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "secrets: ", path.string(), " can be read or changed by other users (mode ",
        absl::StrFormat("%04o", st.st_mode & 07777), "); chmod ", directory ? "700" : "600",
        " it"));
  }
  return absl::OkStatus();
}

// The content of a private regular file, or nullopt when it does not exist.
absl::StatusOr<std::optional<std::string>> ReadPrivateFile(const fs::path& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    return absl::FailedPreconditionError(
        absl::StrCat("secrets: cannot open ", path.string(), ": ", std::strerror(errno)));
  }
  struct stat st;
  absl::Status checked = fstat(fd, &st) == 0
                             ? CheckPrivate(path, st, /*directory=*/false)
                             : absl::InternalError(absl::StrCat("secrets: cannot stat ", path.string()));
  if (checked.ok() && st.st_size > kMaxSecretFileBytes) {
    checked = absl::FailedPreconditionError(
        absl::StrCat("secrets: ", path.string(), " is larger than 64 KiB"));
  }
  if (!checked.ok()) {
    close(fd);
    return checked;
  }
  std::string text(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = read(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(fd);
  text.resize(done);
  return text;
}

absl::Status CheckValue(const std::string& name, absl::string_view value, const fs::path& from) {
  if (value.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("secrets: ", name, " is empty in ", from.string()));
  }
  if (value.find('\0') != absl::string_view::npos || value.find('\n') != absl::string_view::npos) {
    return absl::FailedPreconditionError(absl::StrCat(
        "secrets: ", name, " in ", from.string(), " holds a NUL or newline"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ParseSecretNames(absl::string_view list) {
  std::vector<std::string> names;
  for (absl::string_view item : absl::StrSplit(list, ',')) {
    const absl::string_view name = absl::StripAsciiWhitespace(item);
    if (name.empty()) continue;
    if (!ValidName(name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "secret name '", std::string(name).substr(0, 64),
          "' is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*, at most 128)"));
    }
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      names.emplace_back(name);
    }
  }
  return names;
}

std::optional<fs::path> InvocationSecretsDir(uid_t uid, const fs::path& output_base) {
  struct stat st;
  if (stat(output_base.c_str(), &st) != 0) return std::nullopt;
  return fs::path("/dev/shm") / absl::StrCat("mlebench-secrets-", uid) /
         absl::StrCat("ob-", st.st_dev, "-", st.st_ino);
}

absl::StatusOr<std::vector<Secret>> LoadSecrets(const std::vector<std::string>& names,
                                                const fs::path& invocation_dir,
                                                const std::optional<fs::path>& secrets_file) {
  std::vector<Secret> secrets;
  if (names.empty()) return secrets;
  struct stat st;
  const bool have_dir = lstat(invocation_dir.c_str(), &st) == 0;
  if (have_dir) RETURN_IF_ERROR(CheckPrivate(invocation_dir, st, /*directory=*/true));
  std::optional<std::string> file_text;
  if (secrets_file.has_value()) {
    ASSIGN_OR_RETURN(file_text, ReadPrivateFile(*secrets_file));
    if (!file_text.has_value()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "secrets: --//agent_runner:secrets_file names ", secrets_file->string(),
          ", which does not exist"));
    }
  }
  for (const std::string& name : names) {
    if (!ValidName(name)) return absl::InvalidArgumentError(absl::StrCat("bad secret name ", name));
    std::optional<std::string> value;
    if (have_dir) {
      ASSIGN_OR_RETURN(value, ReadPrivateFile(invocation_dir / name));
      if (value.has_value()) RETURN_IF_ERROR(CheckValue(name, *value, invocation_dir / name));
    }
    if (!value.has_value() && file_text.has_value()) {
      for (absl::string_view line : absl::StrSplit(*file_text, '\n')) {
        line = absl::StripTrailingAsciiWhitespace(line);
        if (line.empty() || line[0] == '#') continue;
        const size_t equals = line.find('=');
        if (equals == absl::string_view::npos) continue;
        if (absl::StripAsciiWhitespace(line.substr(0, equals)) != name) continue;
        value = std::string(line.substr(equals + 1));
      }
      if (value.has_value()) RETURN_IF_ERROR(CheckValue(name, *value, *secrets_file));
    }
    if (!value.has_value()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "secret ", name, " (--//agent_runner:secret) has no value: ./bazelw did not hand it "
          "over from its environment (", invocation_dir.string(), ": unset, or the command ran "
          "without ./bazelw) ",
          secrets_file.has_value() ? absl::StrCat("nor in ", secrets_file->string())
                                   : std::string("and no --//agent_runner:secrets_file is set"),
          " (docs/agents.md, \"Secrets\")"));
    }
    secrets.push_back({name, *std::move(value)});
  }
  return secrets;
}

std::string RedactedSecret(const Secret& secret) {
  return absl::StrCat("[secret ", secret.name, "]");
}

SecretRedactor::SecretRedactor(std::vector<Secret> secrets) {
  for (Secret& secret : secrets) {
    if (secret.value.size() < kMinRedactedLength) continue;
    longest_ = std::max(longest_, secret.value.size());
    secrets_.push_back(std::move(secret));
  }
}

std::string SecretRedactor::Feed(absl::string_view text) {
  if (secrets_.empty()) return std::string(text.data(), text.size());
  pending_.append(text.data(), text.size());
  std::string out;
  out.reserve(pending_.size());
  size_t i = 0;
  while (i < pending_.size()) {
    const absl::string_view rest = absl::string_view(pending_).substr(i);
    bool matched = false;
    bool partial = false;
    for (const Secret& secret : secrets_) {
      if (rest[0] != secret.value[0]) continue;
      if (absl::StartsWith(rest, secret.value)) {
        out += RedactedSecret(secret);
        i += secret.value.size();
        matched = true;
        break;
      }
      // The rest may be the start of this secret, completed by the next piece.
      if (rest.size() < secret.value.size() && absl::StartsWith(secret.value, rest)) partial = true;
    }
    if (matched) continue;
    if (partial) break;
    out += rest[0];
    ++i;
  }
  pending_.erase(0, i);
  return out;
}

std::string SecretRedactor::Flush() { return std::exchange(pending_, std::string()); }

std::string SecretRedactor::RedactAll(const std::string& text) const {
  SecretRedactor copy(*this);
  copy.pending_.clear();
  std::string out = copy.Feed(text);
  return out + copy.Flush();
}

bool MentionsSecret(absl::string_view text, const std::vector<Secret>& secrets) {
  std::string decoded;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && absl::ascii_isxdigit(text[i + 1]) &&
        absl::ascii_isxdigit(text[i + 2])) {
      decoded += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      decoded += text[i];
    }
  }
  absl::AsciiStrToLower(&decoded);
  for (const Secret& secret : secrets) {
    if (secret.value.size() < kMinRedactedLength) continue;
    const std::string value = absl::AsciiStrToLower(secret.value);
    if (absl::StrContains(decoded, value)) return true;
    if (decoded.size() >= 16 && absl::StrContains(value, decoded)) return true;
  }
  return false;
}

absl::StatusOr<int> RedactSecretsInTree(const fs::path& dir, const std::vector<Secret>& secrets) {
  const SecretRedactor redactor(secrets);
  if (redactor.empty()) return 0;
  int changed = 0;
  std::error_code ec;
  // Names first, deepest first, so that a renamed directory's entries were
  // renamed before (their paths stay valid). Kept names are of
  // [A-Za-z0-9._+-] (keep_tree.h), and so is "secret-NAME".
  std::vector<fs::path> entries;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
       !ec && it != end; it.increment(ec)) {
    entries.push_back(it->path());
  }
  std::sort(entries.begin(), entries.end(), [](const fs::path& a, const fs::path& b) {
    return std::distance(a.begin(), a.end()) > std::distance(b.begin(), b.end());
  });
  for (const fs::path& entry : entries) {
    std::string name = entry.filename().string();
    for (const Secret& secret : secrets) {
      if (secret.value.size() < kMinRedactedLength) continue;
      name = absl::StrReplaceAll(name, {{secret.value, absl::StrCat("secret-", secret.name)}});
    }
    if (name == entry.filename().string()) continue;
    if (rename(entry.c_str(), (entry.parent_path() / name).c_str()) != 0) {
      return absl::InternalError(absl::StrCat("cannot rename a kept file whose name holds a secret: ",
                                              std::strerror(errno)));
    }
    ++changed;
  }
  ec.clear();
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
  if (ec) return changed;  // nothing kept
  for (; it != end; it.increment(ec)) {
    if (ec) return absl::InternalError(absl::StrCat("cannot walk ", dir.string(), ": ", ec.message()));
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    // The kept files are the runner's own copies: read them plainly.
    const int fd = open(it->path().c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    std::string content;
    char buffer[1 << 16];
    for (;;) {
      const ssize_t n = read(fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      content.append(buffer, static_cast<size_t>(n));
    }
    close(fd);
    std::string redacted = redactor.RedactAll(content);
    if (redacted == content) continue;
    const int out = open(it->path().c_str(), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
    if (out < 0) {
      return absl::InternalError(absl::StrCat("cannot rewrite ", it->path().string()));
    }
    for (size_t done = 0; done < redacted.size();) {
      const ssize_t n = write(out, redacted.data() + done, redacted.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        close(out);
        return absl::InternalError(absl::StrCat("cannot rewrite ", it->path().string()));
      }
      done += static_cast<size_t>(n);
    }
    close(out);
    ++changed;
  }
  return changed;
}

}  // namespace mlebench
