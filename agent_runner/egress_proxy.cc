#include "agent_runner/egress_proxy.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "base/files.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr auto kStartTimeout = std::chrono::seconds(10);
constexpr auto kStopTimeout = std::chrono::seconds(5);
constexpr int kPortAttempts = 5;
constexpr size_t kMaxHostLength = 253;

absl::Status Errno(absl::string_view what, const fs::path& path, int error) {
  return absl::InternalError(absl::StrCat(what, " ", path.string(), ": ", std::strerror(error)));
}

bool IsIpv4(absl::string_view host, bool& valid) {
  const std::vector<absl::string_view> parts = absl::StrSplit(host, '.');
  valid = false;
  for (absl::string_view part : parts) {
    if (part.empty() || !std::all_of(part.begin(), part.end(), absl::ascii_isdigit)) return false;
  }
  if (parts.size() != 4) return true;  // digits and dots only, but not a.b.c.d
  for (absl::string_view part : parts) {
    int value = 0;
    if (part.size() > 3 || !absl::SimpleAtoi(part, &value) || value > 255) return true;
  }
  valid = true;
  return true;
}

absl::Status CheckHostName(absl::string_view host, absl::string_view text) {
  if (host.empty() || host.size() > kMaxHostLength) {
    return absl::InvalidArgumentError(
        absl::StrCat("allowed host '", text, "': a host name has 1 to 253 characters"));
  }
  for (absl::string_view label : absl::StrSplit(host, '.')) {
    if (label.empty() || label.size() > 63) {
      return absl::InvalidArgumentError(
          absl::StrCat("allowed host '", text, "': empty or overlong label"));
    }
    for (char c : label) {
      if (!absl::ascii_isalnum(c) && c != '-') {
        return absl::InvalidArgumentError(absl::StrCat(
            "allowed host '", text,
            "': host names have letters, digits, '-' and '.' only (IPv6 literals are not "
            "supported)"));
      }
    }
  }
  return absl::OkStatus();
}

// A free TCP port on 127.0.0.1 at the moment of asking (Squid cannot be told
// to pick one itself); a port taken meanwhile makes Squid fail, and Start
// tries another.
absl::StatusOr<int> FreeLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return Errno("cannot create", "a socket", errno);
  struct sockaddr_in address = {};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  if (bind(fd, reinterpret_cast<struct sockaddr*>(&address), sizeof(address)) != 0 ||
      getsockname(fd, reinterpret_cast<struct sockaddr*>(&address), &length) != 0) {
    const int error = errno;
    close(fd);
    return Errno("cannot bind", "a loopback port", error);
  }
  close(fd);
  return ntohs(address.sin_port);
}

struct ServiceUser {
  uid_t uid;
  gid_t gid;
};

absl::StatusOr<std::optional<ServiceUser>> LookUpServiceUser(const std::string& name) {
  if (geteuid() != 0) return std::nullopt;
  struct passwd entry;
  struct passwd* found = nullptr;
  std::vector<char> buffer(16384);
  if (getpwnam_r(name.c_str(), &entry, buffer.data(), buffer.size(), &found) != 0 ||
      found == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "network allowlist: the proxy's user '", name,
        "' does not exist (Debian's squid package creates it; the proxy never runs as root)"));
  }
  if (found->pw_uid == 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("network allowlist: the proxy's user '", name, "' is root"));
  }
  return ServiceUser{found->pw_uid, found->pw_gid};
}

// Starts `argv` in a process group of its own, stdin /dev/null, stdout and
// stderr appended to `output`, as `user` when set, killed when the runner
// dies.
absl::StatusOr<pid_t> Spawn(const std::vector<std::string>& argv, const fs::path& output,
                            const std::optional<ServiceUser>& user) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const int out = open(output.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (out < 0) return Errno("cannot open", output, errno);
  if (user.has_value() && fchown(out, user->uid, user->gid) != 0) {
    const int error = errno;
    close(out);
    return Errno("cannot hand over", output, error);
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    const int error = errno;
    close(out);
    return Errno("cannot fork for", argv[0], error);
  }
  if (pid == 0) {
    setpgid(0, 0);
    const int null = open("/dev/null", O_RDONLY);
    if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
        dup2(out, STDERR_FILENO) < 0) {
      _exit(126);
    }
    syscall(SYS_close_range, 3, ~0U, 0);
    if (user.has_value() && (setgroups(0, nullptr) != 0 || setresgid(user->gid, user->gid, user->gid) != 0 ||
                             setresuid(user->uid, user->uid, user->uid) != 0)) {
      _exit(126);
    }
    // After the change of user, which clears it.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(126);
    execv(args[0], args.data());
    _exit(127);
  }
  close(out);
  return pid;
}

// Whether a Unix stream socket bound at `path` listens (/proc/net/unix:
// flags __SO_ACCEPTCON, 00010000).
bool UnixSocketListens(const fs::path& path) {
  absl::StatusOr<std::string> table = ReadFileToString("/proc/net/unix");
  if (!table.ok()) return false;
  for (absl::string_view line : absl::StrSplit(*table, '\n', absl::SkipEmpty())) {
    const std::vector<absl::string_view> fields = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (fields.size() >= 8 && fields[7] == path.string() && fields[3] == "00010000") return true;
  }
  return false;
}

// Whether a TCP socket listens on 127.0.0.1:`port` in this network
// namespace (/proc/net/tcp: state 0A, LISTEN).
bool LoopbackPortListens(int port) {
  absl::StatusOr<std::string> table = ReadFileToString("/proc/net/tcp");
  if (!table.ok()) return false;
  const std::string local = absl::StrCat("0100007F:", absl::AsciiStrToUpper(absl::StrFormat("%04x", port)));
  for (absl::string_view line : absl::StrSplit(*table, '\n', absl::SkipEmpty())) {
    const std::vector<absl::string_view> fields = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (fields.size() >= 4 && fields[1] == local && fields[3] == "0A") return true;
  }
  return false;
}

// Whether `user` (the caller itself when unset) can connect to the Unix
// stream socket at `path`: 0, or the errno of the failure. Tried in a child
// process that takes on the user, as the bridge to the parent will.
int ConnectsAs(const fs::path& path, const std::optional<ServiceUser>& user) {
  struct sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  if (path.string().size() >= sizeof(address.sun_path)) return ENAMETOOLONG;
  std::memcpy(address.sun_path, path.c_str(), path.string().size());
  const pid_t pid = fork();
  if (pid < 0) return errno;
  if (pid == 0) {
    if (user.has_value() && (setgroups(0, nullptr) != 0 ||
                             setresgid(user->gid, user->gid, user->gid) != 0 ||
                             setresuid(user->uid, user->uid, user->uid) != 0)) {
      _exit(EPERM);
    }
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) _exit(errno & 0xff);
    if (connect(fd, reinterpret_cast<struct sockaddr*>(&address), sizeof(address)) != 0) {
      _exit(errno & 0xff);
    }
    close(fd);
    _exit(0);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status)) return ECHILD;
  return WEXITSTATUS(status);
}

// The parent proxy's socket: there, a socket, and one `user` may connect to.
absl::Status CheckParentSocket(const fs::path& socket, const std::optional<ServiceUser>& user,
                               const std::string& user_name) {
  struct stat st;
  if (socket.is_relative()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "network allowlist: the egress gateway's socket must be an absolute path, got '",
        socket.string(), "'"));
  }
  // socat reads ',' ':' '!' and quotes in an address as its own syntax.
  const std::string text = socket.string();
  if (!std::all_of(text.begin(), text.end(), [](char c) {
        return absl::ascii_isalnum(c) || c == '/' || c == '.' || c == '_' || c == '-' || c == '+' ||
               c == '@';
      })) {
    return absl::InvalidArgumentError(absl::StrCat(
        "network allowlist: the egress gateway's socket path may have letters, digits and "
        "/._-+@ only, got '", text, "'"));
  }
  if (stat(socket.c_str(), &st) != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "network allowlist: the egress gateway's socket ", socket.string(), " is not there (",
        std::strerror(errno),
        "): no egress gateway runs for this machine (on a cluster of tools/remote/cluster.sh, "
        "start it with MLEBENCH_EGRESS_HOSTS set; docs/remote.md). The run has no network "
        "rather than a direct one"));
  }
  if (!S_ISSOCK(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "network allowlist: the egress gateway's socket ", socket.string(), " is not a socket"));
  }
  if (const int error = ConnectsAs(socket, user); error != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "network allowlist: cannot connect to the egress gateway's socket ", socket.string(),
        user.has_value() ? absl::StrCat(" as ", user_name) : std::string(), ": ",
        std::strerror(error),
        error == ECONNREFUSED ? " (the gateway is not running)" : ""));
  }
  return absl::OkStatus();
}

// Whether `pid` has ended (reaping it).
bool Ended(pid_t pid) {
  int status = 0;
  return waitpid(pid, &status, WNOHANG) == pid;
}

void StopProcess(pid_t& pid) {
  if (pid <= 0) return;
  kill(pid, SIGTERM);
  const Clock::time_point deadline = Clock::now() + kStopTimeout;
  while (!Ended(pid)) {
    if (Clock::now() >= deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pid = -1;
}

std::string Tail(const fs::path& path, size_t bytes) {
  absl::StatusOr<std::string> text = ReadFileToString(path);
  if (!text.ok()) return "";
  std::string tail(absl::StripAsciiWhitespace(
      text->size() > bytes ? absl::string_view(*text).substr(text->size() - bytes) : *text));
  for (char& c : tail) {
    if (c == '\n') c = ' ';
    if (!absl::ascii_isprint(c)) c = '?';
  }
  return tail;
}

// At most `max_bytes` of `path` (the agent decides how long the log gets).
absl::StatusOr<std::string> ReadPrefix(const fs::path& path, int64_t max_bytes, bool& cut) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  cut = false;
  if (fd < 0) {
    if (errno == ENOENT) return std::string();
    return Errno("cannot open", path, errno);
  }
  std::string text;
  char buffer[1 << 16];
  while (static_cast<int64_t>(text.size()) < max_bytes) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      return Errno("cannot read", path, error);
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  if (static_cast<int64_t>(text.size()) >= max_bytes) {
    cut = true;
    text.resize(static_cast<size_t>(max_bytes));
    const size_t last_line = text.rfind('\n');
    text.resize(last_line == std::string::npos ? 0 : last_line + 1);
  }
  close(fd);
  return text;
}

// Starts socat from a free host loopback port to the parent's socket, as
// `user`; its pid and port.
struct Bridge {
  pid_t pid;
  int port;
};
absl::StatusOr<Bridge> StartParentBridge(const EgressProxyOptions& options, const fs::path& dir,
                                         const std::optional<ServiceUser>& user) {
  std::string why;
  for (int attempt = 0; attempt < kPortAttempts; ++attempt) {
    ASSIGN_OR_RETURN(const int port, FreeLoopbackPort());
    // max-children: Squid's connections to the parent, bounded as the
    // agent's side of the bridge is.
    ASSIGN_OR_RETURN(
        const pid_t bridge,
        Spawn({options.socat.string(),
               absl::StrCat("TCP4-LISTEN:", port, ",bind=127.0.0.1,reuseaddr,fork,max-children=",
                            options.max_open_connections),
               absl::StrCat("UNIX-CONNECT:", options.parent_socket.string())},
              dir / "parent-socat.out", user));
    const Clock::time_point deadline = Clock::now() + kStartTimeout;
    for (;;) {
      if (LoopbackPortListens(port)) {
        return Bridge{bridge, port};
      }
      if (Ended(bridge)) {
        why = Tail(dir / "parent-socat.out", 600);
        break;  // perhaps the port was taken meanwhile: another one
      }
      if (Clock::now() >= deadline) {
        kill(bridge, SIGKILL);
        waitpid(bridge, nullptr, 0);
        return absl::DeadlineExceededError(
            "network allowlist: the bridge to the egress gateway did not start listening");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "network allowlist: the bridge to the egress gateway could not start: ", why));
}

}  // namespace

std::string AllowedHost::ToString() const { return absl::StrCat(host, ":", port); }

absl::StatusOr<AllowedHost> ParseAllowedHost(absl::string_view text) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  if (absl::StrContains(trimmed, '/') || absl::StrContains(trimmed, '@')) {
    return absl::InvalidArgumentError(absl::StrCat(
        "allowed host '", trimmed,
        "': name the host and port only (api.openai.com, 127.0.0.1:8000): no scheme, path or "
        "user"));
  }
  if (absl::StrContains(trimmed, '[') || std::count(trimmed.begin(), trimmed.end(), ':') > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("allowed host '", trimmed, "': IPv6 literals are not supported"));
  }
  AllowedHost allowed;
  absl::string_view host = trimmed;
  if (const size_t colon = trimmed.rfind(':'); colon != absl::string_view::npos) {
    host = trimmed.substr(0, colon);
    const absl::string_view port = trimmed.substr(colon + 1);
    if (port.empty() || port.size() > 5 || !std::all_of(port.begin(), port.end(), absl::ascii_isdigit) ||
        !absl::SimpleAtoi(port, &allowed.port) || allowed.port < 1 || allowed.port > 65535) {
      return absl::InvalidArgumentError(
          absl::StrCat("allowed host '", trimmed, "': the port must be 1 to 65535"));
    }
  }
  allowed.host = absl::AsciiStrToLower(host);
  bool valid_ipv4 = false;
  if (IsIpv4(allowed.host, valid_ipv4)) {
    if (!valid_ipv4) {
      return absl::InvalidArgumentError(absl::StrCat(
          "allowed host '", trimmed, "': write an IPv4 address as four numbers 0-255, a.b.c.d"));
    }
    return allowed;
  }
  const absl::string_view name = absl::StripPrefix(allowed.host, "*.");
  RETURN_IF_ERROR(CheckHostName(name, trimmed));
  if (name.size() != allowed.host.size()) {
    // A domain, never the tail of an address ("*.0.0.1" would match
    // 127.0.0.1): at least two labels, the last one not a number.
    const size_t dot = name.rfind('.');
    const absl::string_view top = dot == absl::string_view::npos ? name : name.substr(dot + 1);
    if (dot == absl::string_view::npos ||
        std::all_of(top.begin(), top.end(), absl::ascii_isdigit)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "allowed host '", trimmed, "': a wildcard needs a domain name (*.example.com)"));
    }
  }
  return allowed;
}

absl::StatusOr<std::vector<AllowedHost>> ParseAllowedHosts(absl::string_view text) {
  std::vector<AllowedHost> hosts;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    if (absl::StripAsciiWhitespace(item).empty()) continue;
    ASSIGN_OR_RETURN(AllowedHost host, ParseAllowedHost(item));
    if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
  }
  return hosts;
}

std::string SquidConfig(const std::vector<AllowedHost>& allowed, int port, const fs::path& dir,
                        const std::optional<std::string>& effective_user,
                        std::optional<int> parent_port) {
  std::string config = absl::StrCat(
      "# One run's egress proxy, written by the agent runner (agent_runner/egress_proxy.cc).\n",
      "http_port 127.0.0.1:", port, "\n",
      "pid_filename ", (dir / "squid.pid").string(), "\n",
      "cache_log ", (dir / "cache.log").string(), "\n",
      // The last field: the X-Squid-Error header of the response the
      // client got, URL-encoded (no spaces): how a refusal by a parent
      // proxy shows.
      "logformat mlebench %Ss %>Hs %rm %>rd %>rP %>st %<st %{X-Squid-Error}<h\n",
      "access_log stdio:", (dir / "access.log").string(), " logformat=mlebench\n",
      "coredump_dir ", dir.string(), "\n",
      // No cache (the agent could read another request's response), no
      // neighbours, no pinger, no SNMP; nothing that names the client.
      "cache deny all\n",
      "cache_mem 0 MB\n",
      "netdb_filename none\n",
      "pinger_enable off\n",
      "icp_port 0\n",
      "htcp_port 0\n",
      "snmp_port 0\n",
      "forwarded_for delete\n",
      "via off\n",
      "shutdown_lifetime 0 seconds\n",
      "logfile_rotate 0\n",
      "http_access deny manager\n",
      // Plain HTTP(S) requests and CONNECT only. Squid's other gateways are
      // ways past the port check: its FTP client opens the data connection
      // to whatever port the FTP server's PASV/EPSV reply names (on the
      // allowed host's address), to read from it or write the request's
      // body into it; whois, gopher, urn and cache_object are no use.
      "acl mlebench_web proto HTTP HTTPS\n",
      "acl mlebench_connect method CONNECT\n",
      "http_access deny !mlebench_web !mlebench_connect\n",
      // Nothing about the host in replies: its name, Squid's version and
      // port (X-Cache-Lookup names it).
      "visible_hostname mlebench-egress-proxy\n",
      "httpd_suppress_version_string on\n",
      "reply_header_access X-Cache deny all\n",
      "reply_header_access X-Cache-Lookup deny all\n");
  if (effective_user.has_value()) absl::StrAppend(&config, "cache_effective_user ", *effective_user, "\n");
  if (parent_port.has_value()) {
    // Every request goes to the parent, never directly: no fallback when it
    // cannot be reached. No ICP, cache digests or netdb exchanges with it:
    // requests only.
    absl::StrAppend(&config, "cache_peer 127.0.0.1 parent ", *parent_port,
                    " 0 no-query no-digest no-netdb-exchange default name=mlebench_parent\n",
                    "never_direct allow all\n");
  }
  // Loopback, private, shared, link-local and unspecified addresses: a name
  // under a wildcard resolves wherever its domain's DNS says, so a wildcard
  // never leads there. A name or address given in full is trusted as given.
  absl::StrAppend(&config,
                  "acl mlebench_private dst 0.0.0.0/8 10.0.0.0/8 100.64.0.0/10 127.0.0.0/8 "
                  "169.254.0.0/16 172.16.0.0/12 192.168.0.0/16 ::/128 ::1 fc00::/7 fe80::/10\n");
  for (size_t i = 0; i < allowed.size(); ++i) {
    const AllowedHost& host = allowed[i];
    // -n: compare the name as the agent gave it, never a reverse lookup of
    // an address it gave instead. ".domain" is the domain and its
    // subdomains.
    const std::string domain = absl::StartsWith(host.host, "*.")
                                   ? std::string(host.host.substr(1))
                                   : host.host;
    absl::StrAppend(&config, "acl allowed_host_", i, " dstdomain -n ", domain, "\n",
                    "acl allowed_port_", i, " port ", host.port, "\n",
                    "http_access allow allowed_host_", i, " allowed_port_", i,
                    // With a parent, this Squid connects nowhere else: the
                    // parent's rules decide (and it could not resolve the
                    // name on a remote worker, which has no DNS).
                    absl::StartsWith(host.host, "*.") && !parent_port.has_value()
                        ? " !mlebench_private"
                        : "",
                    "\n");
  }
  absl::StrAppend(&config, "http_access deny all\n");
  return config;
}

ProxyLog ParseProxyAccessLog(absl::string_view text, size_t max_connections) {
  ProxyLog log;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipWhitespace())) {
    const std::vector<absl::string_view> fields =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    ProxyConnection connection;
    connection.method = "-";
    connection.host = "-";
    if (fields.size() == 7 || fields.size() == 8) {
      int status = 0;
      if (!absl::SimpleAtoi(fields[1], &status)) status = 0;
      // A connection that closed before it sent a request.
      if (fields[2] == "-" && fields[3] == "-" && status == 0) continue;
      connection.status = status;
      connection.method = std::string(fields[2].substr(0, 32));
      connection.host = std::string(fields[3].substr(0, kMaxHostLength));
      if (!absl::SimpleAtoi(fields[4], &connection.port)) connection.port = 0;
      if (!absl::SimpleAtoi(fields[5], &connection.bytes_sent)) connection.bytes_sent = 0;
      if (!absl::SimpleAtoi(fields[6], &connection.bytes_received)) connection.bytes_received = 0;
      // Refused: by the allow-list (TCP_DENIED), or as no request at all (a
      // malformed one Squid answered itself, with no host).
      connection.allowed = !absl::StartsWith(fields[0], "TCP_DENIED") &&
                           connection.method != "-" && connection.host != "-";
      // Allowed here, refused further up: a parent proxy's 403 (a CONNECT's
      // answer comes from a proxy, never from the host).
      const absl::string_view error = fields.size() == 8 ? fields[7] : "-";
      connection.refused_upstream =
          connection.allowed && status == 403 &&
          (connection.method == "CONNECT" || absl::StartsWith(error, "ERR_ACCESS_DENIED"));
    }
    const bool tunnel_failed = connection.allowed && connection.method == "CONNECT" &&
                               connection.status != 0 &&
                               (connection.status < 200 || connection.status >= 300);
    ++log.total;
    if (!connection.allowed) ++log.refused;
    if (connection.allowed &&
        (connection.status >= 500 || tunnel_failed || connection.refused_upstream)) {
      ++log.failed;
    }
    if (connection.refused_upstream) ++log.refused_upstream;
    if (log.connections.size() < max_connections) {
      log.connections.push_back(std::move(connection));
    } else {
      log.truncated = true;
    }
  }
  return log;
}

absl::StatusOr<EgressProxy> EgressProxy::Start(const std::vector<AllowedHost>& allowed,
                                               const EgressProxyOptions& options) {
  for (const auto& [tool, package] :
       {std::pair<const fs::path&, const char*>{options.squid, "squid"}, {options.socat, "socat"}}) {
    if (access(tool.c_str(), X_OK) != 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "network allowlist needs ", tool.string(), " (Debian package ", package,
          ", which ./bazelw installs): ", std::strerror(errno)));
    }
  }
  ASSIGN_OR_RETURN(std::optional<ServiceUser> user, LookUpServiceUser(options.service_user));
  EgressProxy proxy(options);
  std::string name = (options.parent_dir / "mlebench-proxy-XXXXXX").string();
  if (mkdtemp(name.data()) == nullptr) return Errno("cannot create", name, errno);
  proxy.dir_ = name;
  const fs::path& dir = proxy.dir_;
  if (mkdir(proxy.socket_dir().c_str(), 0755) != 0) {
    return Errno("cannot create", proxy.socket_dir(), errno);
  }
  for (const fs::path& made : {dir, proxy.socket_dir()}) {
    if (user.has_value() && chown(made.c_str(), user->uid, user->gid) != 0) {
      return Errno("cannot hand over", made, errno);
    }
  }
  if (!options.parent_socket.empty()) {
    RETURN_IF_ERROR(CheckParentSocket(options.parent_socket, user, options.service_user));
    ASSIGN_OR_RETURN(const Bridge bridge, StartParentBridge(options, dir, user));
    proxy.parent_bridge_ = bridge.pid;
    proxy.parent_port_ = bridge.port;
  }
  const fs::path config = dir / "squid.conf";
  const fs::path cache_log = dir / "cache.log";
  std::string why;
  for (int attempt = 0; attempt < kPortAttempts && proxy.squid_ < 0; ++attempt) {
    ASSIGN_OR_RETURN(const int port, FreeLoopbackPort());
    // Already the service user: Squid needs no cache_effective_user.
    RETURN_IF_ERROR(WriteStringToFile(
        config, absl::StrCat(SquidConfig(allowed, port, dir, std::nullopt,
                                         proxy.parent_port_ > 0
                                             ? std::optional<int>(proxy.parent_port_)
                                             : std::nullopt),
                             "hosts_file ",
                             options.hosts_file.string(), "\n")));
    unlink(cache_log.c_str());
    // A service name of its own: Squid names its shared-memory segments
    // (/dev/shm/<name>-cf__*) after it, and two runs' proxies on one host
    // would otherwise share them.
    const std::string service = absl::StrCat("mlebench", getpid(), "p", port);
    ASSIGN_OR_RETURN(pid_t squid,
                     Spawn({options.squid.string(), "-N", "-n", service, "-f", config.string()},
                           dir / "squid.out", user));
    const std::string ready = absl::StrCat("local=127.0.0.1:", port, " ");
    const Clock::time_point deadline = Clock::now() + kStartTimeout;
    for (;;) {
      absl::StatusOr<std::string> log = ReadFileToString(cache_log);
      if (log.ok() && absl::StrContains(*log, "Accepting HTTP Socket connections") &&
          absl::StrContains(*log, ready)) {
        proxy.squid_ = squid;
        proxy.port_ = port;
        break;
      }
      if (Ended(squid)) {
        why = absl::StrCat("squid exited: ", Tail(cache_log, 600), " ", Tail(dir / "squid.out", 300));
        break;  // perhaps the port was taken meanwhile: another one
      }
      if (Clock::now() >= deadline) {
        kill(squid, SIGKILL);
        waitpid(squid, nullptr, 0);
        return absl::DeadlineExceededError(absl::StrCat(
            "network allowlist: squid did not start listening within ",
            std::chrono::duration_cast<std::chrono::seconds>(kStartTimeout).count(), " s: ",
            Tail(cache_log, 600)));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  if (proxy.squid_ < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("network allowlist: squid could not start: ", why));
  }
  const fs::path socket = proxy.socket_dir() / kProxySocketName;
  ASSIGN_OR_RETURN(
      proxy.socat_,
      // max-children: each connection is a process of the host's, outside
      // the agent's cgroup and its process limit; without a bound, an agent
      // that opens connections to the socket directly forks the host out of
      // process ids and memory.
      Spawn({options.socat.string(),
             absl::StrCat("UNIX-LISTEN:", socket.string(), ",fork,mode=666,max-children=",
                          options.max_open_connections),
             absl::StrCat("TCP4:127.0.0.1:", proxy.port_)},
            dir / "socat.out", user));
  const Clock::time_point deadline = Clock::now() + kStartTimeout;
  for (;;) {
    struct stat st;
    // Listening, not merely bound: socat binds, chmods, then listens, and a
    // connection before listen() is refused.
    if (lstat(socket.c_str(), &st) == 0 && S_ISSOCK(st.st_mode) && UnixSocketListens(socket)) break;
    if (Ended(proxy.socat_)) {
      proxy.socat_ = -1;
      return absl::FailedPreconditionError(absl::StrCat(
          "network allowlist: socat could not listen on ", socket.string(), ": ",
          Tail(dir / "socat.out", 600)));
    }
    if (Clock::now() >= deadline) {
      return absl::DeadlineExceededError(
          absl::StrCat("network allowlist: socat did not make ", socket.string()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return proxy;
}

EgressProxy::EgressProxy(EgressProxy&& other) noexcept
    : dir_(std::exchange(other.dir_, fs::path())),
      options_(std::move(other.options_)),
      port_(other.port_),
      parent_port_(other.parent_port_),
      squid_(std::exchange(other.squid_, -1)),
      socat_(std::exchange(other.socat_, -1)),
      parent_bridge_(std::exchange(other.parent_bridge_, -1)) {}

EgressProxy::~EgressProxy() {
  Kill();
  if (!dir_.empty()) {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
}

void EgressProxy::Kill() {
  for (pid_t* pid : {&socat_, &squid_, &parent_bridge_}) {
    if (*pid > 0) {
      kill(*pid, SIGKILL);
      waitpid(*pid, nullptr, 0);
      *pid = -1;
    }
  }
}

int64_t EgressProxy::LogBytes() const {
  struct stat st;
  if (dir_.empty() || stat((dir_ / "access.log").c_str(), &st) != 0) return 0;
  return static_cast<int64_t>(st.st_size);
}

std::vector<pid_t> EgressProxy::pids() const {
  std::vector<pid_t> pids;
  for (pid_t pid : {squid_, parent_bridge_, socat_}) {
    if (pid > 0) pids.push_back(pid);
  }
  return pids;
}

absl::StatusOr<ProxyLog> EgressProxy::Stop() {
  // The bridge first: no new request reaches Squid while it shuts down.
  StopProcess(socat_);
  StopProcess(squid_);
  StopProcess(parent_bridge_);
  bool cut = false;
  ASSIGN_OR_RETURN(std::string text, ReadPrefix(dir_ / "access.log", options_.max_log_bytes, cut));
  ProxyLog log = ParseProxyAccessLog(text, options_.max_connections);
  log.truncated = log.truncated || cut;
  return log;
}

}  // namespace mlebench
