#ifndef MLEBENCH_AGENT_RUNNER_EGRESS_PROXY_H_
#define MLEBENCH_AGENT_RUNNER_EGRESS_PROXY_H_

// The agent's only way out under network=allowlist: an HTTP proxy (Debian's
// Squid) that lets through requests to the named hosts and ports only and
// logs every request, reached from the sandbox through a Unix socket (one
// socat on each side; the sandbox has no network device but loopback).
//
//   agent --TCP--> 127.0.0.1:3128 in the sandbox (socat, started by
//   sandbox_entry) --Unix socket--> socat on the host --TCP--> Squid on a
//   host loopback port --> the named host
//
// The Unix socket is the one thing the sandbox's network namespace shares
// with the host: whatever an agent sends through it meets Squid's access
// rules, and nothing else on the host (its loopback, its other ports, the
// private networks it reaches, a remote cache) is reachable.
//
// With a parent (EgressProxyOptions::parent_socket: a remote worker, whose
// own network namespace has loopback only), Squid connects to nothing but
// that parent, an upstream HTTP proxy reached through its Unix socket:
//
//   ... --> Squid (the run's allow-list, the run's log) --TCP--> socat on the
//   host's loopback --Unix socket--> the parent (the worker's egress gateway,
//   tools/remote/egress_gateway_main.cc: the administrator's allow-list and
//   log) --> the named host
//
// A request reaches a host only when both allow it; one the run's list
// refuses never reaches the parent.

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "agent_runner/proxy_forwarder.h"

namespace mlebench {


// One destination the agent may reach: a host name (lower case), a
// "*.domain" wildcard (the domain and all its subdomains, never at a
// loopback, private or link-local address) or an IPv4 address, and one port.
// A name or address given in full is trusted as given: a name whose DNS
// answer is a private address reaches it.
struct AllowedHost {
  std::string host;
  int port = 443;

  // "host:port", the canonical form (what the run record lists).
  std::string ToString() const;
  bool operator==(const AllowedHost&) const = default;
};

// Parses "host" (port 443: HTTPS) or "host:port". Host names are letters,
// digits, '-' and '.' (at most 253 characters, no empty label), matched case
// insensitively; "*." in front allows every subdomain. IPv6 literals and
// anything else are refused with the reason.
absl::StatusOr<AllowedHost> ParseAllowedHost(absl::string_view text);

// Parses a comma-separated list (what --//agent_runner:allowed_hosts gives),
// ignoring empty items; duplicates are removed, the order kept.
absl::StatusOr<std::vector<AllowedHost>> ParseAllowedHosts(absl::string_view text);

// One request the agent made through the proxy.
struct ProxyConnection {
  std::string method;  // CONNECT (HTTPS), GET, POST, ...; "-" when unparseable
  std::string host;    // as the agent named it (Squid's normalised form)
  int port = 0;
  bool allowed = false;  // false: refused by the allow-list (HTTP 403), or malformed
  // Allowed here, but refused by a proxy further up (the parent: a remote
  // worker's egress gateway): a CONNECT answered 403, or a 403 that carries
  // Squid's ERR_ACCESS_DENIED.
  bool refused_upstream = false;
  int status = 0;        // the HTTP status the agent got (0: none)
  int64_t bytes_sent = 0;      // from the agent, headers included
  int64_t bytes_received = 0;  // to the agent, headers included
};

// What the proxy saw in one run.
struct ProxyLog {
  std::vector<ProxyConnection> connections;  // the first ones, in order
  int64_t total = 0;    // requests seen, including those not in `connections`
  int64_t refused = 0;  // of `total`
  // Of `total`: allowed, but answered with a 5xx status - the host could not
  // be reached (a mistyped port or name: Squid's 502/503/500) or failed -, a
  // CONNECT answered with another status than 2xx (the tunnel was never
  // made), or refused upstream.
  int64_t failed = 0;
  int64_t refused_upstream = 0;  // of `failed`: ProxyConnection::refused_upstream
  bool truncated = false;  // more requests than kept, or the log was cut
};

// Squid's configuration: listen on 127.0.0.1:`port`, allow exactly the
// `allowed` host:port pairs (CONNECT and plain HTTP), refuse everything else,
// keep nothing in a cache, write pid and logs under `dir`. `effective_user`
// is the user Squid becomes when started as root. The access log
// (dir/access.log) has one line per request: Squid's result code, the
// status the client got, method, host, port, bytes from and to the client,
// and the response's X-Squid-Error header, URL-encoded ("-": none).
//
// Without `parent_port`, Squid connects to the hosts itself, and a name
// under a wildcard never leads to a loopback, private, shared or link-local
// address (it resolves the name; a name or address given in full is trusted
// as given). With `parent_port`, every request it allows (CONNECT and plain
// HTTP alike) goes to the parent proxy on 127.0.0.1:`parent_port`, never
// directly (there is no fallback), and the parent's own rules decide where
// it may connect: this Squid resolves no name and makes no private-address
// check of its own (on a remote worker it could not: no DNS). Requests it
// refuses never reach the parent.
std::string SquidConfig(const std::vector<AllowedHost>& allowed, int port,
                        const std::filesystem::path& dir,
                        const std::optional<std::string>& effective_user,
                        std::optional<int> parent_port = std::nullopt);

// Parses the access log that SquidConfig's format writes (lines without the
// last field, as earlier versions wrote them, too), keeping at most
// `max_connections` entries; lines Squid writes for connections that never
// sent a request (method "-" and no host: a client that connected and left,
// such as a child proxy's probe of its parent) are not requests and are
// skipped.
ProxyLog ParseProxyAccessLog(absl::string_view text, size_t max_connections);

struct EgressProxyOptions {
  std::filesystem::path squid = "/usr/sbin/squid";
  std::filesystem::path socat = "/usr/bin/socat";
  // When the runner is root: the user the proxy's processes run as (never
  // root). Debian's squid package creates it.
  std::string service_user = "proxy";
  size_t max_connections = 1000;
  // Connections open at once through the host side of the socket bridge
  // (one socat process each); more wait until one closes.
  int max_open_connections = 256;
  int64_t max_log_bytes = int64_t{16} << 20;
  // Where the proxy's private directory (configuration, logs, the socket) is
  // made. The service user must be able to reach it, so not under a
  // directory only root may enter.
  std::filesystem::path parent_dir = "/tmp";
  // The most the access log may grow to on the host's disk during a run
  // (Squid itself has no bound); LogBytes tells the runner, which stops the
  // agent beyond it.
  int64_t max_log_file_bytes = int64_t{256} << 20;
  // Where Squid reads host names before asking DNS (tests name their own).
  std::filesystem::path hosts_file = "/etc/hosts";
  // Set: the Unix socket of an upstream HTTP proxy (the worker's egress
  // gateway) that every allowed request goes through (SquidConfig's
  // parent_port), reached by a second socat bridge from a host loopback port.
  // It must be a socket the service user can connect to when Start is
  // called, else Start fails: never a direct connection instead.
  std::filesystem::path parent_socket;
};

// A running proxy for one run, with a private directory (mode 0700, the
// service user's) for its configuration, logs and socket; the destructor
// stops it if Stop was not called and removes the directory.
class EgressProxy {
 public:
  // Starts Squid on a free host loopback port and the host side of the
  // socket bridge (with a parent_socket, first the bridge to the parent).
  // Fails closed: an error when any of them cannot start or answer within a
  // few seconds (e.g. squid or socat is not installed, or the parent's
  // socket is missing or refuses connections).
  static absl::StatusOr<EgressProxy> Start(const std::vector<AllowedHost>& allowed,
                                           const EgressProxyOptions& options = {});

  EgressProxy(EgressProxy&& other) noexcept;
  EgressProxy& operator=(EgressProxy&& other) = delete;
  EgressProxy(const EgressProxy&) = delete;
  ~EgressProxy();

  // The directory holding only the Unix socket, to be bound (read-only) at
  // kSandboxProxySocketDir.
  std::filesystem::path socket_dir() const { return dir_ / "socket"; }
  std::filesystem::path dir() const { return dir_; }
  // Squid's port on the host's loopback.
  int port() const { return port_; }
  // With a parent_socket: the host loopback port of the bridge to it (0:
  // none).
  int parent_port() const { return parent_port_; }
  // The proxy's processes (a runner that kills all its children must spare
  // them until Stop).
  std::vector<pid_t> pids() const;

  // The access log's size now (0 when there is none yet).
  int64_t LogBytes() const;
  // Whether the access log has outgrown max_log_file_bytes.
  bool LogFull() const { return LogBytes() > options_.max_log_file_bytes; }

  // Ends its processes (Squid logs the requests still open) and reads the
  // access log.
  absl::StatusOr<ProxyLog> Stop();

 private:
  explicit EgressProxy(EgressProxyOptions options) : options_(std::move(options)) {}
  void Kill();

  std::filesystem::path dir_;
  EgressProxyOptions options_;
  int port_ = 0;
  int parent_port_ = 0;
  pid_t squid_ = -1;
  pid_t socat_ = -1;
  pid_t parent_bridge_ = -1;  // socat from parent_port_ to the parent's socket
};


}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_EGRESS_PROXY_H_
