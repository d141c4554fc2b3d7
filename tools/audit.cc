#include "tools/audit.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/display_text.h"
#include "base/files.h"
#include "base/json_text.h"
#include "base/python_float.h"
#include "base/status_macros.h"
#include "base/utf8.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"

extern char** environ;

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using google::protobuf::Struct;
using google::protobuf::Value;

constexpr int64_t kMaxRecordBytes = int64_t{1} << 20;
constexpr int64_t kMaxDolosOutputBytes = int64_t{512} << 20;

std::string ErrnoText(int error) {
  return std::error_code(error, std::generic_category()).message();
}

std::string Bytes(int64_t n) {
  if (n >= (int64_t{1} << 20) && n % (int64_t{1} << 20) == 0) return absl::StrCat(n >> 20, " MiB");
  if (n >= 1024 && n % 1024 == 0) return absl::StrCat(n >> 10, " KiB");
  return absl::StrCat(n, " bytes");
}

// Why a file could not be read, or its bytes.
struct ReadOutcome {
  std::string bytes;
  std::string skip_reason;  // empty when read
};

// Reads the regular file `path` (never a FIFO or device: opened O_NONBLOCK
// and checked with fstat; not through a symlink unless `follow_symlinks`),
// when it has at most `max_bytes` bytes; with `prefix`, its first
// `max_bytes` bytes whatever its size.
ReadOutcome ReadBounded(const fs::path& path, int64_t max_bytes, bool follow_symlinks = false,
                        bool prefix = false) {
  ReadOutcome out;
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY |
                                        (follow_symlinks ? 0 : O_NOFOLLOW));
  if (fd < 0) {
    out.skip_reason = errno == ELOOP ? "a symbolic link (not followed)"
                                     : absl::StrCat("cannot open it: ", ErrnoText(errno));
    return out;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    out.skip_reason = "not a regular file";
    return out;
  }
  if (st.st_size > max_bytes && !prefix) {
    close(fd);
    out.skip_reason = absl::StrCat(st.st_size, " bytes, over the limit of ", Bytes(max_bytes));
    return out;
  }
  out.bytes.resize(static_cast<size_t>(std::min<int64_t>(st.st_size, max_bytes)) +
                   (prefix ? 0 : 1));
  size_t got = 0;
  while (got < out.bytes.size()) {
    const ssize_t n = read(fd, out.bytes.data() + got, out.bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      out.skip_reason = absl::StrCat("cannot read it: ", ErrnoText(errno));
      break;
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  close(fd);
  if (out.skip_reason.empty() && static_cast<int64_t>(got) > max_bytes) {
    out.skip_reason = absl::StrCat("it grew past the limit of ", Bytes(max_bytes), " while read");
  }
  out.bytes.resize(out.skip_reason.empty() ? got : 0);
  return out;
}

// A name (or '/'-joined relative path) that the outputs can carry as it is:
// UTF-8 without control characters.
bool IsPrintableName(std::string_view name) {
  if (!IsValidUtf8(name)) return false;
  return std::none_of(name.begin(), name.end(), [](char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  });
}

// The names in a directory, sorted bytewise; nullopt when it cannot be read.
std::optional<std::vector<std::string>> SortedNames(const fs::path& dir) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return std::nullopt;
  std::vector<std::string> names;
  while (struct dirent* e = readdir(d)) {
    std::string_view name = e->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

// Walks `root`: a directory's entries in bytewise name order, its files
// before its subdirectories, never following a symlink unless
// `follow_symlinks` (then loops end at limits.max_depth). Calls
// visit(relative, path, size) for each regular file and skip(relative,
// reason) for what is left out. Bounded by limits.max_depth and
// limits.max_tree_entries.
template <typename Visit, typename Skip>
void WalkTree(const fs::path& root, const AuditLimits& limits, bool follow_symlinks, Visit visit,
              Skip skip) {
  int64_t entries = 0;
  bool stopped = false;
  struct Frame {
    fs::path dir;
    std::string relative;
    int depth;
  };
  std::vector<Frame> stack = {{root, "", 0}};
  while (!stack.empty() && !stopped) {
    Frame frame = std::move(stack.back());
    stack.pop_back();
    std::optional<std::vector<std::string>> names = SortedNames(frame.dir);
    if (!names.has_value()) {
      if (!frame.relative.empty()) skip(frame.relative, "a directory that cannot be read");
      continue;
    }
    std::vector<Frame> subdirs;
    for (const std::string& name : *names) {
      const std::string relative = frame.relative.empty() ? name : frame.relative + "/" + name;
      if (++entries > limits.max_tree_entries) {
        skip(relative, absl::StrCat("and everything after it: more than ", limits.max_tree_entries,
                                    " entries"));
        stopped = true;
        break;
      }
      const fs::path path = frame.dir / name;
      struct stat st;
      if ((follow_symlinks ? stat(path.c_str(), &st) : lstat(path.c_str(), &st)) != 0) {
        skip(relative, absl::StrCat(follow_symlinks ? "cannot follow it: " : "cannot look at it: ",
                                    ErrnoText(errno)));
      } else if (S_ISLNK(st.st_mode)) {
        skip(relative, "a symbolic link (not followed)");
      } else if (!IsPrintableName(name)) {
        skip(relative, "its name is not printable UTF-8");
      } else if (S_ISDIR(st.st_mode)) {
        if (frame.depth + 1 > limits.max_depth) {
          skip(relative, absl::StrCat("a directory deeper than ", limits.max_depth, " levels"));
        } else {
          subdirs.push_back({path, relative, frame.depth + 1});
        }
      } else if (!S_ISREG(st.st_mode)) {
        skip(relative, "not a regular file");
      } else {
        visit(relative, path, static_cast<int64_t>(st.st_size));
      }
    }
    // Depth first, in name order: the last pushed is walked first.
    for (auto it = subdirs.rbegin(); it != subdirs.rend(); ++it) stack.push_back(std::move(*it));
  }
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string SafeNamePart(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    out.push_back(ok ? c : '_');
  }
  if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');
  return out;
}

// A run record's fields, or why it is not one.
absl::StatusOr<AuditRun> ReadRunRecord(const fs::path& dir) {
  ReadOutcome read = ReadBounded(dir / "run_record.json", kMaxRecordBytes);
  if (!read.skip_reason.empty()) return absl::InvalidArgumentError(read.skip_reason);
  Struct record;
  if (!IsValidUtf8(read.bytes) ||
      !google::protobuf::util::JsonStringToMessage(read.bytes, &record).ok()) {
    return absl::InvalidArgumentError("not a JSON object");
  }
  const auto& fields = record.fields();
  auto text = [&](const char* key) -> std::optional<std::string> {
    auto it = fields.find(key);
    if (it == fields.end() || it->second.kind_case() != Value::kStringValue) return std::nullopt;
    return it->second.string_value();
  };
  AuditRun run;
  std::optional<std::string> competition = text("competition_id");
  auto seed = fields.find("seed");
  if (!competition.has_value() || competition->empty() || seed == fields.end() ||
      seed->second.kind_case() != Value::kNumberValue ||
      seed->second.number_value() !=
          static_cast<double>(static_cast<int64_t>(seed->second.number_value()))) {
    return absl::InvalidArgumentError("no competition_id and integer seed");
  }
  run.competition_id = *competition;
  run.seed = static_cast<int64_t>(seed->second.number_value());
  run.agent_label = text("agent_label").value_or(text("agent").value_or(""));
  run.agent_digest = text("agent_digest").value_or("");
  run.dir = dir;
  return run;
}

bool IsRegularFile(const fs::path& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void AppendJsonKey(std::string& out, std::string_view key) {
  if (out.size() > 1) out += ", ";
  out += JsonString(key);
  out += ": ";
}

std::string JsonPath(const fs::path& path) { return JsonString(path.string()); }

// ---- Dolos ----

struct DolosPair {
  int64_t submitted = 0;
  int64_t reference = 0;
  double similarity = 0;
  int64_t longest_fragment = 0;
  int64_t overlap = 0;
  int64_t submitted_covered = 0;
  int64_t reference_covered = 0;
  int64_t submitted_kgrams = 0;
  int64_t reference_kgrams = 0;
};

struct DolosResult {
  std::string dolos_lib;
  std::vector<DolosPair> pairs;
  // Files Dolos left out: the side ("submitted" or "references") and the file.
  std::vector<std::pair<std::string, SkippedFile>> skipped;
};

std::string Tail(const std::string& text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  return "..." + text.substr(text.size() - max_bytes);
}

// Runs `argv` with stdin from `in`, stdout to `out` and stderr to `err`, in a
// process group of its own, killing the group after `timeout_s`.
absl::StatusOr<int> RunWithTimeout(const std::vector<std::string>& argv, const fs::path& in,
                                   const fs::path& out, const fs::path& err, double timeout_s) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, in.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // Node sees Debian's tools only, and none of the caller's variables (a
  // NODE_OPTIONS or NODE_PATH would change what it loads).
  std::string path_var = "PATH=/usr/bin:/bin";
  std::string lang_var = "LANG=C.UTF-8";
  std::vector<char*> env = {path_var.data(), lang_var.data(), nullptr};
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0].c_str(), &actions, &attr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    return absl::InternalError(absl::StrCat("cannot start ", argv[0], ": ", ErrnoText(rc)));
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      return absl::InternalError(absl::StrCat("waitpid: ", ErrnoText(errno)));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return absl::DeadlineExceededError(
          absl::StrCat("Dolos took more than ", timeout_s, " s (killed)"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

int64_t IntField(const Struct& s, const char* key) {
  auto it = s.fields().find(key);
  return it == s.fields().end() ? 0 : static_cast<int64_t>(it->second.number_value());
}

absl::StatusOr<DolosResult> RunDolos(const DolosSetup& dolos, const std::vector<PythonFile>& refs,
                                     const std::vector<PythonFile>& submitted,
                                     const fs::path& work) {
  std::string request = "{\"references\": [";
  for (size_t i = 0; i < refs.size(); ++i) {
    absl::StrAppend(&request, i ? ", " : "", "{\"text\": ", JsonString(refs[i].text), "}");
  }
  request += "], \"submitted\": [";
  for (size_t i = 0; i < submitted.size(); ++i) {
    absl::StrAppend(&request, i ? ", " : "", "{\"text\": ", JsonString(submitted[i].text), "}");
  }
  request += "]}\n";
  const fs::path in = work / "request.json", out = work / "result.json", err = work / "stderr.txt";
  RETURN_IF_ERROR(WriteStringToFile(in, request));
  ASSIGN_OR_RETURN(int rc, RunWithTimeout({dolos.node.string(), "--max-old-space-size=4096",
                                           dolos.script.string(), dolos.node_modules.string()},
                                          in, out, err, dolos.timeout_s));
  ReadOutcome stderr_text = ReadBounded(err, int64_t{1} << 20);
  if (rc != 0) {
    return absl::InternalError(
        absl::StrCat("Dolos exited with status ", rc, ": ", Tail(stderr_text.bytes, 2000)));
  }
  ReadOutcome result = ReadBounded(out, kMaxDolosOutputBytes);
  if (!result.skip_reason.empty()) {
    return absl::InternalError(absl::StrCat("Dolos's output: ", result.skip_reason));
  }
  Struct parsed;
  if (!google::protobuf::util::JsonStringToMessage(result.bytes, &parsed).ok()) {
    return absl::InternalError(
        absl::StrCat("Dolos's output is not JSON: ", Tail(result.bytes, 500)));
  }
  DolosResult r;
  const auto& fields = parsed.fields();
  if (auto it = fields.find("dolos_lib"); it != fields.end())
    r.dolos_lib = it->second.string_value();
  if (auto it = fields.find("pairs"); it != fields.end()) {
    for (const Value& v : it->second.list_value().values()) {
      const Struct& p = v.struct_value();
      DolosPair pair;
      pair.submitted = IntField(p, "submitted");
      pair.reference = IntField(p, "reference");
      pair.similarity =
          p.fields().count("similarity") ? p.fields().at("similarity").number_value() : 0;
      pair.longest_fragment = IntField(p, "longest_fragment");
      pair.overlap = IntField(p, "overlap");
      pair.submitted_covered = IntField(p, "submitted_covered");
      pair.reference_covered = IntField(p, "reference_covered");
      pair.submitted_kgrams = IntField(p, "submitted_kgrams");
      pair.reference_kgrams = IntField(p, "reference_kgrams");
      if (pair.submitted < 0 || pair.submitted >= static_cast<int64_t>(submitted.size()) ||
          pair.reference < 0 || pair.reference >= static_cast<int64_t>(refs.size())) {
        return absl::InternalError("Dolos's output names a file it was not given");
      }
      r.pairs.push_back(pair);
    }
  }
  if (auto it = fields.find("skipped"); it != fields.end()) {
    for (const Value& v : it->second.list_value().values()) {
      const Struct& s = v.struct_value();
      const std::string side = s.fields().count("side") ? s.fields().at("side").string_value() : "";
      const int64_t index = IntField(s, "index");
      const auto& list = side == "submitted" ? submitted : refs;
      if (index < 0 || index >= static_cast<int64_t>(list.size())) continue;
      r.skipped.push_back(
          {side,
           {list[index].relative,
            s.fields().count("reason") ? s.fields().at("reason").string_value() : ""}});
    }
  }
  return r;
}

// ---- The log bundle ----

std::string Utf8OrReplaced(std::string_view bytes) {
  if (IsValidUtf8(bytes)) return std::string(bytes);
  std::string out;
  out.reserve(bytes.size());
  size_t pos = 0;
  while (pos < bytes.size()) {
    const size_t n = Utf8SequenceLength(bytes, pos);
    if (n == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD
      ++pos;
    } else {
      out.append(bytes.substr(pos, n));
      pos += n;
    }
  }
  return out;
}

// agent.log and the files of artifacts/logs/, as one text for the detector.
std::string LogBundle(const AuditRun& run, const AuditLimits& limits) {
  std::string out;
  int64_t budget = limits.max_log_bytes;
  auto add = [&](const std::string& title, const fs::path& path, int64_t size) {
    absl::StrAppend(&out, "===== ", title, " =====\n");
    if (budget <= 0) {
      absl::StrAppend(&out, "(left out: ", size, " bytes, past the ", Bytes(limits.max_log_bytes),
                      " this file may hold)\n");
      return;
    }
    // Its beginning, when it does not fit whole.
    ReadOutcome read = ReadBounded(path, budget, /*follow_symlinks=*/false, /*prefix=*/true);
    if (!read.skip_reason.empty()) {
      absl::StrAppend(&out, "(left out: ", read.skip_reason, ")\n");
    } else if (read.bytes.find('\0') != std::string::npos) {
      absl::StrAppend(&out, "(left out: binary, ", size, " bytes)\n");
    } else {
      budget -= static_cast<int64_t>(read.bytes.size());
      out += Utf8OrReplaced(read.bytes);
      if (!read.bytes.empty() && read.bytes.back() != '\n') out += "\n";
      if (size > static_cast<int64_t>(read.bytes.size())) {
        absl::StrAppend(&out, "(cut here: ", size - static_cast<int64_t>(read.bytes.size()),
                        " more bytes, past the ", Bytes(limits.max_log_bytes),
                        " this file may hold)\n");
      }
    }
  };
  const fs::path agent_log = run.dir / "agent.log";
  struct stat st;
  if (lstat(agent_log.c_str(), &st) == 0) {
    add("agent.log (what the agent printed)", agent_log, S_ISREG(st.st_mode) ? st.st_size : 0);
  }
  WalkTree(
      run.dir / "artifacts" / "logs", limits, /*follow_symlinks=*/false,
      [&](const std::string& relative, const fs::path& path, int64_t size) {
        add("logs/" + relative, path, size);
      },
      [&](const std::string& relative, const std::string& reason) {
        absl::StrAppend(&out, "===== logs/", EscapeForConsole(relative),
                        " =====\n(left out: ", reason, ")\n");
      });
  return out;
}

// ---- Outputs ----

struct RunOutcome {
  PythonFiles code;
  int64_t references = 0;
  int64_t pairs = 0;
  std::optional<std::tuple<double, std::string, std::string>> best;  // similarity, files
  std::vector<SkippedFile> dolos_skipped;
  std::string error;
  fs::path similarity_file;
  fs::path log_file;
  fs::path code_dir;
};

struct ReferenceSet {
  fs::path dir;
  PythonFiles files;
};

std::string SkippedJson(const std::vector<SkippedFile>& skipped) {
  std::string out = "[";
  for (size_t i = 0; i < skipped.size(); ++i) {
    absl::StrAppend(&out, i ? ", " : "", "{\"file\": ", JsonString(skipped[i].relative),
                    ", \"reason\": ", JsonString(skipped[i].reason), "}");
  }
  return out + "]";
}

absl::Status MakeDirs(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return absl::InternalError(absl::StrCat("cannot create ", dir.string(), ": ", ec.message()));
  return absl::OkStatus();
}

// A label as Bazel writes it in full: "//a/b" is "//a/b:b", "@r//a" is
// "@r//a:a" (run records hold the full form).
std::string CanonicalLabel(const std::string& label) {
  if (label.empty() || label.find(':') != std::string::npos) return label;
  const size_t slash = label.rfind('/');
  if (slash == std::string::npos || slash + 1 >= label.size()) return label;
  return absl::StrCat(label, ":", label.substr(slash + 1));
}

}  // namespace

absl::StatusOr<FindRunsResult> FindRuns(const std::vector<fs::path>& roots,
                                        const std::string& agent_label, bool include_sample_runs,
                                        const AuditLimits& limits) {
  FindRunsResult result;
  std::set<fs::path> run_dirs;
  int64_t entries = 0;
  for (const fs::path& root : roots) {
    std::error_code ec;
    fs::path start = fs::canonical(root, ec);  // the root itself may be a link (bazel-bin)
    if (ec) return absl::NotFoundError(absl::StrCat("no such run or directory: ", root.string()));
    if (EndsWith(start.filename().string(), "run_record.json") && IsRegularFile(start)) {
      run_dirs.insert(start.parent_path());
      continue;
    }
    std::vector<std::pair<fs::path, int>> stack = {{start, 0}};
    while (!stack.empty()) {
      auto [dir, depth] = stack.back();
      stack.pop_back();
      // A run's own subdirectories that the agent wrote are never searched
      // (a run record planted there is not a run); others are: an older
      // layout kept <id>_run/run_record.json beside today's run-<i>/.
      const bool is_run = IsRegularFile(dir / "run_record.json");
      if (is_run) run_dirs.insert(dir);
      std::optional<std::vector<std::string>> names = SortedNames(dir);
      if (!names.has_value()) continue;
      for (const std::string& name : *names) {
        if (is_run && (name == "artifacts" || name == "submission" || name == "workspace")) {
          continue;
        }
        if (++entries > limits.max_run_search_entries) {
          return absl::ResourceExhaustedError(absl::StrCat(
              "more than ", limits.max_run_search_entries, " entries under ", root.string(),
              ": name the run directories (or a competition's <id>_run/) instead"));
        }
        const fs::path path = dir / name;
        struct stat st;
        if (lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        if (EndsWith(name, ".runfiles") || depth + 1 > 64) continue;
        stack.push_back({path, depth + 1});
      }
    }
  }
  for (const fs::path& dir : run_dirs) {
    if (!include_sample_runs && EndsWith(dir.parent_path().filename().string(), "_sample_run")) {
      ++result.sample_runs_left_out;
      continue;
    }
    absl::StatusOr<AuditRun> run = ReadRunRecord(dir);
    if (!run.ok()) {
      result.warnings.push_back(absl::StrCat(EscapeForConsole(dir.string()), "/run_record.json: ",
                                             run.status().message(), "; not audited"));
      continue;
    }
    if (!agent_label.empty() && CanonicalLabel(run->agent_label) != CanonicalLabel(agent_label)) {
      result.other_agents.insert(run->agent_label);
      continue;
    }
    result.runs.push_back(*std::move(run));
  }
  std::sort(result.runs.begin(), result.runs.end(), [](const AuditRun& a, const AuditRun& b) {
    return std::tie(a.competition_id, a.agent_label, a.agent_digest, a.seed, a.dir) <
           std::tie(b.competition_id, b.agent_label, b.agent_digest, b.seed, b.dir);
  });
  std::map<std::string, int> used;
  for (AuditRun& run : result.runs) {
    const std::string base = absl::StrCat(
        SafeNamePart(run.competition_id), ".seed-", run.seed, ".",
        run.agent_digest.empty() ? "no-digest" : SafeNamePart(run.agent_digest.substr(0, 12)));
    const int n = ++used[base];
    run.name = n == 1 ? base : absl::StrCat(base, "-", n);
  }
  return result;
}

PythonFiles CollectPythonFiles(const fs::path& dir, int64_t max_files, int64_t max_total_bytes,
                               const AuditLimits& limits, bool follow_symlinks) {
  PythonFiles result;
  int64_t total = 0;
  WalkTree(
      dir, limits, follow_symlinks,
      [&](const std::string& relative, const fs::path& path, int64_t size) {
        if (!EndsWith(relative, ".py")) {
          ++result.other_files;
          return;
        }
        auto skip = [&](std::string reason) {
          result.skipped.push_back({EscapeForConsole(relative), std::move(reason)});
        };
        if (size > limits.max_python_file_bytes) {
          return skip(absl::StrCat(size, " bytes, over the limit of ",
                                   Bytes(limits.max_python_file_bytes), " a file"));
        }
        if (static_cast<int64_t>(result.files.size()) >= max_files) {
          return skip(absl::StrCat("past the limit of ", max_files, " Python files"));
        }
        if (total + size > max_total_bytes) {
          return skip(absl::StrCat("past the limit of ", Bytes(max_total_bytes),
                                   " of Python files in all"));
        }
        ReadOutcome read = ReadBounded(path, limits.max_python_file_bytes, follow_symlinks);
        if (!read.skip_reason.empty()) return skip(read.skip_reason);
        if (read.bytes.find('\0') != std::string::npos) return skip("binary (a NUL byte)");
        if (!IsValidUtf8(read.bytes)) return skip("not UTF-8 text");
        total += static_cast<int64_t>(read.bytes.size());
        result.files.push_back({relative, path, std::move(read.bytes)});
      },
      [&](const std::string& relative, const std::string& reason) {
        result.skipped.push_back({EscapeForConsole(relative), reason});
      });
  std::sort(result.files.begin(), result.files.end(),
            [](const PythonFile& a, const PythonFile& b) { return a.relative < b.relative; });
  std::sort(result.skipped.begin(), result.skipped.end(),
            [](const SkippedFile& a, const SkippedFile& b) { return a.relative < b.relative; });
  return result;
}

absl::StatusOr<AuditResult> RunAudit(const AuditOptions& options, std::ostream& log) {
  const bool similarity =
      options.references.has_value() || options.references_by_competition.has_value();
  if (options.references.has_value() && options.references_by_competition.has_value()) {
    return absl::InvalidArgumentError(
        "--references and --references-by-competition exclude each other");
  }
  if (similarity && !options.dolos.has_value()) {
    return absl::FailedPreconditionError("references were given but Dolos is not available");
  }
  ASSIGN_OR_RETURN(bool empty_out, IsAbsentOrEmptyDirectory(options.output_dir));
  if (!empty_out) {
    return absl::AlreadyExistsError(absl::StrCat(
        options.output_dir.string(), " is not empty: give a new --output-dir (or remove it)"));
  }
  ASSIGN_OR_RETURN(FindRunsResult found, FindRuns(options.runs, options.agent_label,
                                                  options.include_sample_runs, options.limits));
  for (const std::string& w : found.warnings) log << "audit: warning: " << w << "\n";
  if (found.sample_runs_left_out > 0) {
    log << "audit: left out " << found.sample_runs_left_out
        << " run(s) of the sample submission (the dummy agent; --include-sample-runs keeps them)\n";
  }
  if (found.runs.empty()) {
    return absl::NotFoundError(absl::StrCat(
        "no agent runs (directories holding run_record.json) under ",
        absl::StrJoin(options.runs, ", ",
                      [](std::string* out, const fs::path& p) { out->append(p.string()); }),
        options.agent_label.empty()
            ? ""
            : absl::StrCat(" of agent ", options.agent_label,
                           found.other_agents.empty()
                               ? std::string()
                               : absl::StrCat(" (runs of other agents: ",
                                              absl::StrJoin(found.other_agents, ", "), ")"))));
  }

  // References, read before anything is written.
  std::map<std::string, ReferenceSet> references;  // by competition ("" for --references)
  auto read_references = [&](const fs::path& dir) -> absl::StatusOr<ReferenceSet> {
    std::error_code ec;
    fs::path canonical = fs::canonical(dir, ec);
    ReferenceSet set;
    set.dir = ec ? dir : canonical;
    if (!ec && !fs::is_directory(canonical, ec)) {
      return absl::InvalidArgumentError(absl::StrCat(dir.string(), " is not a directory"));
    }
    if (!ec) {
      set.files = CollectPythonFiles(canonical, options.limits.max_reference_files,
                                     options.limits.max_reference_bytes, options.limits,
                                     /*follow_symlinks=*/true);
    }
    return set;
  };
  if (options.references.has_value()) {
    std::error_code ec;
    if (!fs::is_directory(*options.references, ec)) {
      return absl::NotFoundError(
          absl::StrCat("--references ", options.references->string(), " is not a directory"));
    }
    ASSIGN_OR_RETURN(references[""], read_references(*options.references));
  } else if (options.references_by_competition.has_value()) {
    std::error_code ec;
    if (!fs::is_directory(*options.references_by_competition, ec)) {
      return absl::NotFoundError(absl::StrCat("--references-by-competition ",
                                              options.references_by_competition->string(),
                                              " is not a directory"));
    }
    for (const AuditRun& run : found.runs) {
      if (references.count(run.competition_id)) continue;
      // An id that is not a plain name (a record written by hand) has none.
      if (SafeNamePart(run.competition_id) != run.competition_id) {
        references[run.competition_id].dir = *options.references_by_competition;
        continue;
      }
      ASSIGN_OR_RETURN(references[run.competition_id],
                       read_references(*options.references_by_competition / run.competition_id));
    }
  }

  RETURN_IF_ERROR(MakeDirs(options.output_dir));
  std::error_code ec;
  const fs::path out = fs::canonical(options.output_dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot resolve ", options.output_dir.string()));
  const fs::path work = out / ".work";
  RETURN_IF_ERROR(MakeDirs(work));
  if (similarity) RETURN_IF_ERROR(MakeDirs(out / "similarity"));

  AuditResult result;
  std::string dolos_lib;
  std::string violation_jsonl;
  std::vector<RunOutcome> outcomes;
  for (const AuditRun& run : found.runs) {
    RunOutcome o;
    const fs::path run_out = out / "runs" / run.name;
    o.code_dir = run_out / "code";
    RETURN_IF_ERROR(MakeDirs(o.code_dir));
    // The log bundle and the code copies.
    o.log_file = run_out / "log.txt";
    RETURN_IF_ERROR(WriteStringToFile(o.log_file, LogBundle(run, options.limits)));
    o.code = CollectPythonFiles(run.dir / "artifacts" / "code", options.limits.max_run_python_files,
                                options.limits.max_run_python_bytes, options.limits);
    for (const PythonFile& f : o.code.files) {
      const fs::path copy = o.code_dir / f.relative;
      RETURN_IF_ERROR(MakeDirs(copy.parent_path()));
      RETURN_IF_ERROR(WriteStringToFile(copy, f.text));
    }
    const fs::path submission = run.dir / "submission" / "submission.csv";
    // The detector's input line.
    std::string line = "{";
    AppendJsonKey(line, "competition_id");
    line += JsonString(run.competition_id);
    AppendJsonKey(line, "submission_path");
    line += IsRegularFile(submission) ? JsonPath(submission) : "null";
    AppendJsonKey(line, "logs_path");
    line += JsonPath(o.log_file);
    AppendJsonKey(line, "code_path");
    line += o.code.files.empty() ? "null" : JsonPath(o.code_dir);
    AppendJsonKey(line, "seed");
    absl::StrAppend(&line, run.seed);
    AppendJsonKey(line, "agent_label");
    line += JsonString(run.agent_label);
    AppendJsonKey(line, "agent_digest");
    line += JsonString(run.agent_digest);
    AppendJsonKey(line, "run");
    line += JsonString(run.name);
    AppendJsonKey(line, "run_dir");
    line += JsonPath(run.dir);
    violation_jsonl += line + "}\n";

    if (similarity) {
      const ReferenceSet& refs =
          references[options.references.has_value() ? "" : run.competition_id];
      o.references = static_cast<int64_t>(refs.files.files.size());
      o.similarity_file = out / "similarity" / (run.name + ".jsonl");
      std::string jsonl;
      if (!o.code.files.empty() && !refs.files.files.empty()) {
        absl::StatusOr<DolosResult> dolos =
            RunDolos(*options.dolos, refs.files.files, o.code.files, work);
        if (!dolos.ok()) {
          o.error = std::string(dolos.status().message());
          ++result.similarity_failures;
        } else {
          dolos_lib = dolos->dolos_lib;
          for (auto& [side, file] : dolos->skipped) {
            if (side == "submitted") o.dolos_skipped.push_back(file);
          }
          struct Line {
            double similarity;
            std::string submitted, reference, text;
          };
          std::vector<Line> lines;
          for (const DolosPair& p : dolos->pairs) {
            Line l{p.similarity, (o.code_dir / o.code.files[p.submitted].relative).string(),
                   refs.files.files[p.reference].path.string(), ""};
            l.text = "{";
            AppendJsonKey(l.text, "run");
            l.text += JsonString(run.name);
            AppendJsonKey(l.text, "competition_id");
            l.text += JsonString(run.competition_id);
            AppendJsonKey(l.text, "seed");
            absl::StrAppend(&l.text, run.seed);
            AppendJsonKey(l.text, "agent_label");
            l.text += JsonString(run.agent_label);
            AppendJsonKey(l.text, "submitted_file");
            l.text += JsonString(l.submitted);
            AppendJsonKey(l.text, "reference_file");
            l.text += JsonString(l.reference);
            AppendJsonKey(l.text, "similarity");
            l.text += FormatPythonFloat(p.similarity);
            absl::StrAppend(&l.text, ", \"longest_fragment\": ", p.longest_fragment,
                            ", \"overlap\": ", p.overlap,
                            ", \"submitted_covered\": ", p.submitted_covered,
                            ", \"reference_covered\": ", p.reference_covered,
                            ", \"submitted_kgrams\": ", p.submitted_kgrams,
                            ", \"reference_kgrams\": ", p.reference_kgrams, "}\n");
            lines.push_back(std::move(l));
          }
          std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
            if (a.similarity != b.similarity) return a.similarity > b.similarity;
            return std::tie(a.submitted, a.reference) < std::tie(b.submitted, b.reference);
          });
          for (const Line& l : lines) jsonl += l.text;
          o.pairs = static_cast<int64_t>(lines.size());
          if (!lines.empty())
            o.best = {lines[0].similarity, lines[0].submitted, lines[0].reference};
        }
      }
      if (o.error.empty()) RETURN_IF_ERROR(WriteStringToFile(o.similarity_file, jsonl));
    }

    // One line of progress.
    std::string progress =
        absl::StrCat("audit: ", run.name, ": ", o.code.files.size(), " Python file(s)");
    if (!o.code.skipped.empty())
      absl::StrAppend(&progress, ", ", o.code.skipped.size(), " skipped");
    if (similarity) {
      if (!o.error.empty()) {
        absl::StrAppend(&progress, "; similarity FAILED: ", EscapeForConsole(o.error, 300));
      } else if (o.best.has_value()) {
        absl::StrAppend(&progress, "; highest similarity ", FormatPythonFloat(std::get<0>(*o.best)),
                        " (", EscapeForConsole(fs::path(std::get<1>(*o.best)).filename().string()),
                        " ~ ", EscapeForConsole(fs::path(std::get<2>(*o.best)).filename().string()),
                        ")");
      } else {
        absl::StrAppend(&progress, "; no code shared with ", o.references, " reference file(s)");
      }
    }
    log << progress << "\n";
    outcomes.push_back(std::move(o));
  }
  RETURN_IF_ERROR(WriteStringToFile(out / "rule_violation_input.jsonl", violation_jsonl));

  // The summary.
  std::string summary = "{\n \"dolos_lib\": ";
  summary += dolos_lib.empty() ? "null" : JsonString(dolos_lib);
  summary += ",\n \"references\": [";
  bool first = true;
  for (const auto& [competition, set] : references) {
    absl::StrAppend(&summary, first ? "\n  " : ",\n  ",
                    "{\"competition_id\": ", competition.empty() ? "null" : JsonString(competition),
                    ", \"dir\": ", JsonPath(set.dir), ", \"files\": ", set.files.files.size(),
                    ", \"other_files\": ", set.files.other_files,
                    ", \"skipped\": ", SkippedJson(set.files.skipped), "}");
    first = false;
  }
  absl::StrAppend(&summary, first ? "" : "\n ",
                  "],\n \"sample_runs_left_out\": ", found.sample_runs_left_out, ",\n \"runs\": [");
  for (size_t i = 0; i < found.runs.size(); ++i) {
    const AuditRun& run = found.runs[i];
    const RunOutcome& o = outcomes[i];
    std::vector<SkippedFile> skipped = o.code.skipped;
    skipped.insert(skipped.end(), o.dolos_skipped.begin(), o.dolos_skipped.end());
    absl::StrAppend(&summary, i ? ",\n  " : "\n  ", "{\"run\": ", JsonString(run.name),
                    ", \"run_dir\": ", JsonPath(run.dir),
                    ", \"competition_id\": ", JsonString(run.competition_id),
                    ", \"seed\": ", run.seed, ", \"agent_label\": ", JsonString(run.agent_label),
                    ", \"agent_digest\": ", JsonString(run.agent_digest),
                    ", \"python_files\": ", o.code.files.size() - o.dolos_skipped.size(),
                    ", \"other_files\": ", o.code.other_files,
                    ", \"skipped\": ", SkippedJson(skipped));
    if (similarity) {
      absl::StrAppend(&summary, ", \"references\": ", o.references, ", \"pairs\": ", o.pairs,
                      ", \"best\": ");
      if (o.best.has_value()) {
        absl::StrAppend(&summary, "{\"similarity\": ", FormatPythonFloat(std::get<0>(*o.best)),
                        ", \"submitted_file\": ", JsonString(std::get<1>(*o.best)),
                        ", \"reference_file\": ", JsonString(std::get<2>(*o.best)), "}");
      } else {
        summary += "null";
      }
      absl::StrAppend(&summary, ", \"similarity_file\": ",
                      o.error.empty() ? JsonPath(o.similarity_file) : "null",
                      ", \"error\": ", o.error.empty() ? "null" : JsonString(o.error));
    }
    summary += "}";
  }
  summary += found.runs.empty() ? "]\n}\n" : "\n ]\n}\n";
  RETURN_IF_ERROR(WriteStringToFile(out / "audit_summary.json", summary));
  fs::remove_all(work, ec);
  result.runs = static_cast<int64_t>(found.runs.size());
  log << "audit: " << result.runs << " run(s); wrote "
      << (out / "rule_violation_input.jsonl").string()
      << (similarity ? absl::StrCat(", ", (out / "similarity").string(), "/") : "") << " and "
      << (out / "audit_summary.json").string() << "\n";
  return result;
}

}  // namespace mlebench
