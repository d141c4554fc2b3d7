// The egress gateway of a machine whose agent runs have no network of their
// own (the remote workers of tools/remote/cluster.sh: each slot's network
// namespace has loopback only): an HTTP proxy with the administrator's
// allow-list, reached through a Unix socket that the slots see, and that a
// run with network allowlist sends every request its own allow-list lets
// through to (run_agent --egress_gateway; egress_proxy.h).
//
//   egress_gateway --allowed_hosts HOST[:PORT],... --socket_dir DIR
//                  --access_log FILE [--forbidden_ports 8980-8984,...]
//                  [--state_dir DIR] [--max_log_bytes N]
//                  [--max_open_connections N]
//
// Starts an EgressProxy (Squid and socat, as the proxy user when run as
// root) with --allowed_hosts (the syntax of --//agent_runner:allowed_hosts),
// and publishes its socket as DIR/egress.sock, a symbolic link to the
// socket in the proxy's private directory under --state_dir (default /tmp;
// the proxy user must be able to reach it). DIR is made (mode 0755) when
// missing; nothing else is ever written there. A slot sees the socket
// itself, bound where --//agent_runner:egress_gateway says
// (tools/remote/confined_runner.sh), never the private directory with the
// gateway's configuration and log.
//
// --forbidden_ports: ports (N or N-M, comma-separated) no allow-list entry
// may name, whatever its host: the cluster's own loopback ports, so that
// nothing passing the gateway reaches the storage or the scheduler (a name
// may resolve to loopback, so the host does not matter).
//
// Runs until SIGTERM, SIGINT or SIGHUP, then removes DIR/egress.sock, stops
// the proxy and writes its access log (one line per request; SquidConfig's
// format, egress_proxy.h) to --access_log, with a summary on stderr. When
// the log outgrows --max_log_bytes (default 1 GiB) the gateway stops the
// same way and exits 1: no request goes through unlogged. Refuses to start
// when another gateway answers at DIR/egress.sock.

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "agent_runner/egress_proxy.h"
#include "base/command_line.h"
#include "base/status_macros.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;

constexpr char kSocketName[] = "egress.sock";

volatile sig_atomic_t stop_signal = 0;

void OnStopSignal(int signal) { stop_signal = signal; }

// "8980-8984,9000": the ports named.
absl::StatusOr<std::set<int>> ParsePorts(absl::string_view text) {
  std::set<int> ports;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    item = absl::StripAsciiWhitespace(item);
    const std::vector<absl::string_view> range = absl::StrSplit(item, absl::MaxSplits('-', 1));
    int first = 0;
    int last = 0;
    if (!absl::SimpleAtoi(range[0], &first) ||
        !absl::SimpleAtoi(range.size() == 2 ? range[1] : range[0], &last) || first < 1 ||
        last > 65535 || first > last || last - first > 65535) {
      return absl::InvalidArgumentError(
          absl::StrCat("--forbidden_ports: '", item, "' is not a port (1-65535) or a range N-M"));
    }
    for (int port = first; port <= last; ++port) ports.insert(port);
  }
  return ports;
}

// Whether something accepts connections on the Unix socket at `path`.
bool SocketAnswers(const fs::path& path) {
  struct sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  if (path.string().size() >= sizeof(address.sun_path)) return false;
  std::memcpy(address.sun_path, path.c_str(), path.string().size());
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const bool answers =
      connect(fd, reinterpret_cast<struct sockaddr*>(&address), sizeof(address)) == 0;
  close(fd);
  return answers;
}

absl::Status Run(const std::vector<std::string>& args) {
  ASSIGN_OR_RETURN(CommandLine cl,
                   ParseCommandLine(args, {"allowed_hosts", "socket_dir", "access_log",
                                           "forbidden_ports", "state_dir", "max_log_bytes",
                                           "max_open_connections"}));
  if (!cl.positional.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unexpected argument '", cl.positional.front(), "'"));
  }
  RETURN_IF_ERROR(RequireFlags(cl, {"allowed_hosts", "socket_dir", "access_log"}));
  ASSIGN_OR_RETURN(const std::vector<AllowedHost> allowed,
                   ParseAllowedHosts(cl.Get("allowed_hosts")));
  if (allowed.empty()) {
    return absl::InvalidArgumentError(
        "--allowed_hosts names no host: a gateway that refuses everything is no gateway (stop "
        "it instead)");
  }
  ASSIGN_OR_RETURN(const std::set<int> forbidden, ParsePorts(cl.Get("forbidden_ports")));
  for (const AllowedHost& host : allowed) {
    if (forbidden.contains(host.port)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--allowed_hosts: ", host.ToString(), " names port ", host.port,
          ", which --forbidden_ports reserves (the cluster's own ports, whatever the host: "
          "nothing passing the gateway may reach the cluster)"));
    }
  }
  EgressProxyOptions options;
  options.parent_dir = cl.Get("state_dir", "/tmp");
  options.max_log_file_bytes = int64_t{1} << 30;
  if (cl.Has("max_log_bytes") &&
      (!absl::SimpleAtoi(cl.Get("max_log_bytes"), &options.max_log_file_bytes) ||
       options.max_log_file_bytes < 1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--max_log_bytes must be a positive number, got '", cl.Get("max_log_bytes"), "'"));
  }
  if (cl.Has("max_open_connections") &&
      (!absl::SimpleAtoi(cl.Get("max_open_connections"), &options.max_open_connections) ||
       options.max_open_connections < 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--max_open_connections must be a positive number, got '",
                     cl.Get("max_open_connections"), "'"));
  }
  // The summary on stderr reads the log's first 64 MiB (the log itself is
  // copied whole).
  options.max_log_bytes = std::min(options.max_log_file_bytes, int64_t{64} << 20);
  options.max_connections = 0;
  const fs::path access_log = cl.Get("access_log");

  const fs::path socket_dir = cl.Get("socket_dir");
  if (socket_dir.is_relative()) {
    return absl::InvalidArgumentError("--socket_dir must be an absolute path");
  }
  struct stat st;
  if (lstat(socket_dir.c_str(), &st) != 0) {
    if (mkdir(socket_dir.c_str(), 0755) != 0) {
      return absl::InternalError(
          absl::StrCat("cannot create ", socket_dir.string(), ": ", std::strerror(errno)));
    }
  } else if (!S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("--socket_dir ", socket_dir.string(), " is not a directory"));
  }
  const fs::path published = socket_dir / kSocketName;
  if (SocketAnswers(published)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "another egress gateway answers at ", published.string(), ": stop it first"));
  }

  // Before the proxy starts: a signal now stops the gateway cleanly.
  struct sigaction action = {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGTERM, SIGINT, SIGHUP}) sigaction(signal, &action, nullptr);

  ASSIGN_OR_RETURN(EgressProxy proxy, EgressProxy::Start(allowed, options));
  const fs::path socket = proxy.socket_dir() / kProxySocketName;
  // Replaced in one step: a link left by a gateway that died is overwritten.
  const fs::path staged = socket_dir / absl::StrCat(".", kSocketName, ".", getpid());
  std::error_code ec;
  fs::remove(staged, ec);
  fs::create_symlink(socket, staged, ec);
  if (!ec) fs::rename(staged, published, ec);
  if (ec) {
    fs::remove(staged, ec);
    return absl::InternalError(
        absl::StrCat("cannot publish the socket at ", published.string(), ": ", ec.message()));
  }
  std::vector<std::string> names;
  for (const AllowedHost& host : allowed) names.push_back(host.ToString());
  std::cerr << "egress_gateway: listening at " << published.string() << " (" << socket.string()
            << ") for " << absl::StrJoin(names, ",") << "; live log "
            << (proxy.dir() / "access.log").string() << std::endl;

  bool log_full = false;
  while (stop_signal == 0) {
    if (proxy.LogFull()) {
      log_full = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  // No new connection from now on.
  if (fs::is_symlink(published, ec) && fs::read_symlink(published, ec) == socket) {
    fs::remove(published, ec);
  }
  ASSIGN_OR_RETURN(const ProxyLog log, proxy.Stop());
  const fs::path live = proxy.dir() / "access.log";
  if (fs::exists(live, ec)) {
    fs::copy_file(live, access_log, fs::copy_options::overwrite_existing, ec);
  } else {
    std::ofstream(access_log, std::ios::trunc);
  }
  if (ec) {
    return absl::InternalError(absl::StrCat("cannot write the access log to ",
                                            access_log.string(), ": ", ec.message()));
  }
  std::cerr << "egress_gateway: stopped"
            << (stop_signal != 0 ? absl::StrCat(" (signal ", static_cast<int>(stop_signal), ")")
                                 : std::string())
            << ": " << log.total << " request(s), " << log.refused << " refused, " << log.failed
            << " failed"
            << (proxy.LogBytes() > options.max_log_bytes
                    ? absl::StrCat(" (in the log's first ", options.max_log_bytes, " bytes)")
                    : std::string())
            << "; log in "
            << access_log.string() << std::endl;
  if (log_full) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the access log outgrew --max_log_bytes (", options.max_log_file_bytes,
        " bytes): the gateway stopped rather than let requests through unlogged"));
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace mlebench

int main(int argc, char** argv) {
  return mlebench::RunToolMain(argc, argv, "egress_gateway", mlebench::Run);
}
