#ifndef MLEBENCH_AGENT_RUNNER_SECRETS_H_
#define MLEBENCH_AGENT_RUNNER_SECRETS_H_

// Secrets (API keys) an agent gets at run time as environment variables,
// named by --//agent_runner:secret. Only their names enter an action's key
// and command line; the values are read by the runner when the agent starts,
// from places outside Bazel's view, and never written anywhere by the
// runner. See docs/agents.md, "Secrets".

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mlebench {

struct Secret {
  std::string name;
  std::string value;
};

// Names from a comma-separated list: each [A-Za-z_][A-Za-z0-9_]*, at most
// 128 characters; duplicates removed, order kept.
absl::StatusOr<std::vector<std::string>> ParseSecretNames(absl::string_view list);

// Where ./bazelw leaves the values of the secrets a command names, from its
// own environment, for the runners of the output base `output_base`: one
// file per name in /dev/shm/mlebench-secrets-<uid>/ob-<device>-<inode of
// the output base> (tools/secrets/with_secrets.sh), a directory only `uid`
// may enter, on a tmpfs. nullopt when `output_base` cannot be looked at.
std::optional<std::filesystem::path> InvocationSecretsDir(uid_t uid,
                                                          const std::filesystem::path& output_base);

// The value of each of `names`: from `invocation_dir`/NAME when that exists,
// otherwise from `secrets_file` (lines NAME=VALUE; '#' starts a comment
// line). Fails closed: an error names the first secret found in neither, and
// a directory or file that another user could read or replace (not owned by
// the caller, group or other permission bits, a symlink, not a regular
// file, larger than 64 KiB) is an error, never skipped. A value must be
// non-empty and hold no NUL or newline.
absl::StatusOr<std::vector<Secret>> LoadSecrets(const std::vector<std::string>& names,
                                                const std::filesystem::path& invocation_dir,
                                                const std::optional<std::filesystem::path>& secrets_file);

// What stands in for a secret's value wherever the runner redacts it.
std::string RedactedSecret(const Secret& secret);

// Replaces, in text that passes through it in pieces (the agent's log),
// every occurrence of a secret's value by RedactedSecret, also across the
// pieces' borders: Feed returns what is safe to write now and holds back
// fewer bytes than the longest value; Flush returns the rest.
class SecretRedactor {
 public:
  explicit SecretRedactor(std::vector<Secret> secrets);
  std::string Feed(absl::string_view text);
  std::string Flush();
  bool empty() const { return secrets_.empty(); }
  // All of `text` at once, whatever was fed before.
  std::string RedactAll(const std::string& text) const;

 private:
  std::vector<Secret> secrets_;
  size_t longest_ = 0;
  std::string pending_;
};

// Whether `text`, a field of the proxy's access log the agent chose (a host
// name, a method), carries a secret's value: Squid lowercases host names,
// %-escapes odd characters and the record cuts fields short, so the value
// is looked for case-insensitively after %-decoding, and a field of 16 or
// more characters that is part of a value counts too.
bool MentionsSecret(absl::string_view text, const std::vector<Secret>& secrets);

// Redacts the secrets in every regular file under `dir` (the kept code and
// logs), rewriting only files that hold one, and in the names of its files
// and directories (the value becomes "secret-NAME"); symlinks are not
// followed. Returns how many files and names changed.
absl::StatusOr<int> RedactSecretsInTree(const std::filesystem::path& dir,
                                        const std::vector<Secret>& secrets);

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_SECRETS_H_
