#include "agent_runner/egress_proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/types.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent_runner/testing/http_origin.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::HttpOrigin;
using ::mlebench::testing::LoopbackServer;
using ::testing::HasSubstr;

TEST(ParseAllowedHostTest, NamesPortsAndWildcards) {
  EXPECT_EQ(ParseAllowedHost("api.openai.com")->ToString(), "api.openai.com:443");
  EXPECT_EQ(ParseAllowedHost(" API.OpenAI.com:8443 ")->ToString(), "api.openai.com:8443");
  EXPECT_EQ(ParseAllowedHost("127.0.0.1:8000")->ToString(), "127.0.0.1:8000");
  EXPECT_EQ(ParseAllowedHost("*.example.com")->ToString(), "*.example.com:443");
  EXPECT_EQ(ParseAllowedHost("localhost:80")->ToString(), "localhost:80");
}

TEST(ParseAllowedHostTest, RefusesWhatSquidWouldReadOtherwise) {
  for (const char* bad :
       {"", ":443", "host:", "host:0", "host:65536", "host:+80", "host:8o", "[::1]:80", "::1",
        "a..b", ".example.com", "exa mple.com", "example.com\nhttp_access allow all",
        "host/path", "user@host", "*.com", "*", "2130706433", "127.1", "300.1.1.1",
        "1.2.3.4.5", "*.*.example.com", "a_b.example.com", "*.0.0.1", "*.168.1.1:80"}) {
    EXPECT_FALSE(ParseAllowedHost(bad).ok()) << "'" << bad << "'";
  }
  EXPECT_FALSE(ParseAllowedHost(std::string(254, 'a')).ok());
  EXPECT_THAT(ParseAllowedHost("http://127.0.0.1:8000").status().message(),
              HasSubstr("no scheme, path or user"));
}

TEST(ParseAllowedHostsTest, CommaListWithoutDuplicates) {
  auto hosts = ParseAllowedHosts("a.example.com, b.example.com:80,,A.example.com:443");
  ASSERT_TRUE(hosts.ok()) << hosts.status();
  ASSERT_EQ(hosts->size(), 2u);
  EXPECT_EQ((*hosts)[0].ToString(), "a.example.com:443");
  EXPECT_EQ((*hosts)[1].ToString(), "b.example.com:80");
  EXPECT_TRUE(ParseAllowedHosts("")->empty());
  EXPECT_FALSE(ParseAllowedHosts("ok.example.com,bad host").ok());
}

TEST(SquidConfigTest, AllowsEachPairAndDeniesEverythingElseLast) {
  const std::string config = SquidConfig({{"api.example.com", 443}, {"*.example.org", 8080}}, 4321,
                                         "/tmp/p", std::string("proxy"));
  EXPECT_THAT(config, HasSubstr("http_port 127.0.0.1:4321\n"));
  EXPECT_THAT(config, HasSubstr("acl allowed_host_0 dstdomain -n api.example.com\n"));
  EXPECT_THAT(config, HasSubstr("acl allowed_port_0 port 443\n"));
  EXPECT_THAT(config, HasSubstr("acl allowed_host_1 dstdomain -n .example.org\n"));
  EXPECT_THAT(config, HasSubstr("http_access allow allowed_host_0 allowed_port_0\n"));
  // A wildcard never leads to a loopback, private or link-local address.
  EXPECT_THAT(config,
              HasSubstr("http_access allow allowed_host_1 allowed_port_1 !mlebench_private\n"));
  EXPECT_THAT(config, HasSubstr("acl mlebench_private dst 0.0.0.0/8 10.0.0.0/8 "));
  EXPECT_THAT(config, HasSubstr("cache deny all\n"));
  EXPECT_THAT(config, HasSubstr("cache_effective_user proxy\n"));
  EXPECT_TRUE(absl::EndsWith(config, "http_access deny all\n"));
  EXPECT_THAT(config, HasSubstr("http_access deny !mlebench_web !mlebench_connect\n"));
  EXPECT_TRUE(absl::EndsWith(SquidConfig({}, 1, "/tmp/p", std::nullopt),
                             "fc00::/7 fe80::/10\nhttp_access deny all\n"));
}

TEST(SquidConfigTest, WithAParentEveryRequestGoesThroughIt) {
  const std::string config = SquidConfig({{"api.example.com", 443}, {"*.example.org", 8080}}, 4321,
                                         "/tmp/p", std::nullopt, 5555);
  EXPECT_THAT(config, HasSubstr("cache_peer 127.0.0.1 parent 5555 0 no-query no-digest "
                                "no-netdb-exchange default name=mlebench_parent\n"));
  EXPECT_THAT(config, HasSubstr("never_direct allow all\n"));
  // The parent decides where a wildcard leads: no name is resolved here.
  EXPECT_THAT(config, HasSubstr("http_access allow allowed_host_1 allowed_port_1\n"));
  EXPECT_TRUE(absl::EndsWith(config, "http_access deny all\n"));
  const std::string direct = SquidConfig({}, 4321, "/tmp/p", std::nullopt);
  EXPECT_THAT(direct, ::testing::Not(HasSubstr("cache_peer")));
  EXPECT_THAT(direct, ::testing::Not(HasSubstr("never_direct")));
}

TEST(ParseProxyAccessLogTest, RefusalsAndFailuresUpstream) {
  const ProxyLog log = ParseProxyAccessLog(
      "TCP_MISS 200 GET 127.0.0.1 8000 132 345 -\n"
      // The parent refused them.
      "TCP_MISS 403 GET b.example.com 80 144 3550 ERR_ACCESS_DENIED%200\n"
      "TCP_TUNNEL 403 CONNECT b.example.com 443 126 0 -\n"
      // The host's own 403, and a tunnel the parent could not make.
      "TCP_MISS 403 GET c.example.com 80 144 200 -\n"
      "TCP_TUNNEL 503 CONNECT d.example.com 443 126 0 ERR_CONNECT_FAIL%20111\n"
      // Refused here.
      "TCP_DENIED 403 CONNECT e.example.com 443 114 3423 ERR_ACCESS_DENIED%200\n",
      10);
  EXPECT_EQ(log.total, 6);
  EXPECT_EQ(log.refused, 1);
  EXPECT_EQ(log.refused_upstream, 2);
  EXPECT_EQ(log.failed, 3);
  ASSERT_EQ(log.connections.size(), 6u);
  EXPECT_FALSE(log.connections[0].refused_upstream);
  EXPECT_TRUE(log.connections[1].allowed);
  EXPECT_TRUE(log.connections[1].refused_upstream);
  EXPECT_TRUE(log.connections[2].refused_upstream);
  EXPECT_FALSE(log.connections[3].refused_upstream);
  EXPECT_FALSE(log.connections[4].refused_upstream);
  EXPECT_FALSE(log.connections[5].allowed);
  EXPECT_FALSE(log.connections[5].refused_upstream);
}

TEST(ParseProxyAccessLogTest, AllowedRefusedAndOddLines) {
  const ProxyLog log = ParseProxyAccessLog(
      "TCP_TUNNEL 200 CONNECT api.example.com 443 190 5570\n"
      "NONE_NONE 0 - - - 0 0\n"  // a connection that sent nothing
      "TCP_DENIED 403 CONNECT 10.0.0.1 443 114 3385\n"
      "TCP_MISS 200 GET 127.0.0.1 8000 129 600\n"
      "NONE_NONE 400 - - - 20 3000\n"  // a malformed request
      "garbage line\n",
      10);
  EXPECT_EQ(log.total, 5);
  EXPECT_EQ(log.refused, 3);
  ASSERT_EQ(log.connections.size(), 5u);
  EXPECT_EQ(log.connections[0].host, "api.example.com");
  EXPECT_EQ(log.connections[0].port, 443);
  EXPECT_TRUE(log.connections[0].allowed);
  EXPECT_EQ(log.connections[0].bytes_sent, 190);
  EXPECT_EQ(log.connections[0].bytes_received, 5570);
  EXPECT_FALSE(log.connections[1].allowed);
  EXPECT_EQ(log.connections[1].status, 403);
  EXPECT_EQ(log.connections[2].method, "GET");
  EXPECT_FALSE(log.connections[3].allowed);
  EXPECT_EQ(log.connections[4].host, "-");
  EXPECT_FALSE(log.truncated);
  const ProxyLog capped = ParseProxyAccessLog("TCP_MISS 200 GET a 80 1 1\nTCP_MISS 200 GET b 80 1 1\n", 1);
  EXPECT_EQ(capped.total, 2);
  EXPECT_EQ(capped.connections.size(), 1u);
  EXPECT_TRUE(capped.truncated);
}

// Sends `request` through the proxy's Unix socket (as the sandbox's
// forwarder does) and returns everything the proxy answers. After a
// successful CONNECT, sends `tunnelled` through the tunnel.
std::string ThroughProxy(const fs::path& socket_path, const std::string& request,
                         const std::string& tunnelled = "") {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof(address.sun_path), "%s", socket_path.c_str());
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return "connect failed";
  }
  std::string answer;
  auto send_and_read = [&](const std::string& text, bool until_headers) {
    ssize_t ignored = write(fd, text.data(), text.size());
    (void)ignored;
    char buffer[4096];
    for (;;) {
      struct pollfd p = {fd, POLLIN, 0};
      if (poll(&p, 1, 5000) <= 0) break;
      const ssize_t n = read(fd, buffer, sizeof(buffer));
      if (n <= 0) break;
      answer.append(buffer, static_cast<size_t>(n));
      if (until_headers && absl::StrContains(answer, "\r\n\r\n")) break;
    }
  };
  const bool tunnel = absl::StartsWith(request, "CONNECT");
  send_and_read(request, tunnel);
  if (tunnel && absl::StartsWith(answer, "HTTP/1.1 200")) send_and_read(tunnelled, false);
  close(fd);
  return answer;
}

TEST(EgressProxyTest, LetsTheNamedHostThroughAndRefusesAndLogsTheRest) {
  HttpOrigin allowed("allowed origin");
  HttpOrigin other("other port");
  absl::StatusOr<EgressProxy> proxy =
      EgressProxy::Start({{"127.0.0.1", allowed.port()}, {"api.example.com", 443}});
  ASSERT_TRUE(proxy.ok()) << proxy.status();
  const fs::path socket = proxy->socket_dir() / kProxySocketName;
  struct stat st;
  ASSERT_EQ(lstat(socket.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0666u);
  // Only the socket is in the directory the sandbox sees.
  EXPECT_EQ(std::distance(fs::directory_iterator(proxy->socket_dir()), fs::directory_iterator()), 1);
  ASSERT_EQ(stat(proxy->dir().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);

  const std::string target = absl::StrCat("127.0.0.1:", allowed.port());
  EXPECT_THAT(ThroughProxy(socket, absl::StrCat("GET http://", target, "/v1/models HTTP/1.1\r\nHost: ",
                                                target, "\r\nConnection: close\r\n\r\n")),
              HasSubstr("allowed origin"));
  EXPECT_THAT(ThroughProxy(socket, absl::StrCat("CONNECT ", target, " HTTP/1.1\r\nHost: ", target,
                                                "\r\n\r\n"),
                           absl::StrCat("GET / HTTP/1.1\r\nHost: ", target, "\r\n\r\n")),
              HasSubstr("allowed origin"));
  const int reached = allowed.requests();
  EXPECT_EQ(reached, 2);
  // The host's other ports, its loopback by another name, private ranges,
  // link-local, unnamed hosts and the proxy itself: refused.
  const std::vector<std::string> refused = {
      absl::StrCat("GET http://127.0.0.1:", other.port(), "/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
      absl::StrCat("CONNECT 127.0.0.1:", other.port(), " HTTP/1.1\r\n\r\n"),
      absl::StrCat("CONNECT localhost:", allowed.port(), " HTTP/1.1\r\n\r\n"),
      absl::StrCat("CONNECT 127.0.0.2:", allowed.port(), " HTTP/1.1\r\n\r\n"),
      "CONNECT 10.0.0.1:443 HTTP/1.1\r\n\r\n",
      "CONNECT 192.168.1.1:443 HTTP/1.1\r\n\r\n",
      "CONNECT 169.254.169.254:80 HTTP/1.1\r\n\r\n",
      "GET http://169.254.169.254/latest/meta-data/ HTTP/1.1\r\nHost: 169.254.169.254\r\nConnection: close\r\n\r\n",
      "CONNECT example.com:443 HTTP/1.1\r\n\r\n",
      "CONNECT api.example.com:80 HTTP/1.1\r\n\r\n",
      "CONNECT evil.api.example.com:443 HTTP/1.1\r\n\r\n",
      absl::StrCat("GET http://127.0.0.1:", proxy->port(),
                   "/squid-internal-mgr/menu HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
  };
  for (const std::string& request : refused) {
    EXPECT_THAT(ThroughProxy(socket, request), HasSubstr(" 403 ")) << request;
  }
  EXPECT_EQ(other.requests(), 0);
  EXPECT_EQ(allowed.requests(), reached);

  absl::StatusOr<ProxyLog> log = proxy->Stop();
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->total, 2 + static_cast<int64_t>(refused.size()));
  EXPECT_EQ(log->refused, static_cast<int64_t>(refused.size()));
  ASSERT_GE(log->connections.size(), 2u);
  EXPECT_EQ(log->connections[0].method, "GET");
  EXPECT_EQ(log->connections[0].host, "127.0.0.1");
  EXPECT_EQ(log->connections[0].port, allowed.port());
  EXPECT_TRUE(log->connections[0].allowed);
  EXPECT_GT(log->connections[0].bytes_received, 0);
  EXPECT_EQ(log->connections[1].method, "CONNECT");
  EXPECT_TRUE(log->connections[1].allowed);
  EXPECT_GT(log->connections[1].bytes_sent, 0);
  EXPECT_GT(log->connections[1].bytes_received, 0);
  for (size_t i = 2; i < log->connections.size(); ++i) {
    EXPECT_FALSE(log->connections[i].allowed) << log->connections[i].host;
    EXPECT_EQ(log->connections[i].status, 403);
  }
}

// A listener on a free loopback port that counts the connections it gets;
// with `data_port`, an FTP server whose passive replies (PASV and EPSV) name
// `data_port` on 127.0.0.1, as a hostile one would.
class FakeServer {
 public:
  explicit FakeServer(int data_port = 0)
      : data_port_(data_port), server_([this](int client) {
          if (data_port_ > 0) {
            Ftp(client);
          } else {
            LoopbackServer::Say(client, "PRIVATE-SERVICE\r\n");
          }
        }) {}
  int port() const { return server_.port(); }
  int connections() const { return server_.connections(); }

 private:
  void Ftp(int fd) {
    const auto say = [fd](const std::string& text) { LoopbackServer::Say(fd, text); };
    say("220 hello\r\n");
    std::string pending;
    char buffer[1024];
    while (!server_.stopping()) {
      struct pollfd p = {fd, POLLIN, 0};
      if (poll(&p, 1, 3000) <= 0) return;
      const ssize_t n = read(fd, buffer, sizeof(buffer));
      if (n <= 0) return;
      pending.append(buffer, static_cast<size_t>(n));
      for (size_t end; (end = pending.find("\r\n")) != std::string::npos;) {
        const std::string verb = pending.substr(0, std::min(pending.find(' '), end));
        pending.erase(0, end + 2);
        if (verb == "USER") say("331 password\r\n");
        else if (verb == "PASS") say("230 in\r\n");
        else if (verb == "EPSV") say(absl::StrCat("229 passive (|||", data_port_, "|)\r\n"));
        else if (verb == "PASV") {
          say(absl::StrCat("227 passive (127,0,0,1,", data_port_ >> 8, ",", data_port_ & 255,
                           ")\r\n"));
        } else if (verb == "RETR" || verb == "STOR" || verb == "LIST" || verb == "NLST") {
          say("150 go\r\n");
        } else if (verb == "SIZE" || verb == "MDTM") say("550 no\r\n");
        else if (verb == "QUIT") return;
        else say("200 ok\r\n");
      }
    }
  }

  int data_port_ = 0;
  LoopbackServer server_;  // last: its thread uses data_port_
};

// An allowed host that answers like an FTP server must not lead Squid to
// another port of its address (the data connection of ftp:// URLs), nor
// may Squid's other gateways (whois, gopher, urn) be used.
TEST(EgressProxyTest, OnlyHttpAndConnectReachTheAllowedHost) {
  FakeServer hidden;
  FakeServer ftp(hidden.port());
  absl::StatusOr<EgressProxy> proxy = EgressProxy::Start({{"127.0.0.1", ftp.port()}});
  ASSERT_TRUE(proxy.ok()) << proxy.status();
  const fs::path socket = proxy->socket_dir() / kProxySocketName;
  const std::string target = absl::StrCat("127.0.0.1:", ftp.port());
  for (const std::string& request : {
           absl::StrCat("GET ftp://", target, "/file HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
           absl::StrCat("PUT ftp://", target, "/file HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n"
                        "Connection: close\r\n\r\nBODY"),
           absl::StrCat("GET whois://", target, "/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
           absl::StrCat("GET gopher://", target, "/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
       }) {
    const std::string answer = ThroughProxy(socket, request);
    // 501: a gateway Squid lacks (gopher).
    EXPECT_THAT(answer, ::testing::AnyOf(HasSubstr(" 403 "), HasSubstr(" 501 "))) << request;
    EXPECT_THAT(answer, ::testing::Not(HasSubstr("PRIVATE-SERVICE"))) << request;
  }
  EXPECT_EQ(ftp.connections(), 0);
  EXPECT_EQ(hidden.connections(), 0);
  // Replies name neither the host nor Squid's port.
  const std::string answer = ThroughProxy(socket, "CONNECT example.com:443 HTTP/1.1\r\n\r\n");
  EXPECT_THAT(answer, HasSubstr(" 403 "));
  EXPECT_THAT(answer, ::testing::Not(HasSubstr(absl::StrCat(":", proxy->port()))));
  EXPECT_THAT(answer, ::testing::Not(HasSubstr("X-Cache")));
}

// Connections to the socket are processes of the host's (socat's children):
// at most max_open_connections at a time, however many the agent opens.
TEST(EgressProxyTest, OpenConnectionsAreBounded) {
  absl::StatusOr<EgressProxy> proxy = EgressProxy::Start({}, {.max_open_connections = 8});
  ASSERT_TRUE(proxy.ok()) << proxy.status();
  const fs::path socket = proxy->socket_dir() / kProxySocketName;
  std::vector<int> fds;
  for (int i = 0; i < 40; ++i) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_un address = {};
    address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof(address.sun_path), "%s", socket.c_str());
    connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));  // may queue or fail
    fds.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  // The bridge's children: processes whose parent is the bridge.
  const pid_t bridge = proxy->pids().back();
  int children = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const size_t close_paren = line.rfind(')');
    if (close_paren == std::string::npos) continue;
    std::istringstream rest(line.substr(close_paren + 2));
    char state;
    pid_t parent = 0;
    rest >> state >> parent;
    if (parent == bridge) ++children;
  }
  EXPECT_GT(children, 0);
  EXPECT_LE(children, 8);
  for (int fd : fds) close(fd);
}

// A fresh directory under /tmp that the proxy's user can read (the test's
// own directory may be root's alone); empty when it cannot be made.
fs::path ReadableTempDir(const std::string& prefix) {
  std::string dir = absl::StrCat("/tmp/", prefix, "-XXXXXX");
  if (mkdtemp(dir.data()) == nullptr) return {};
  chmod(dir.c_str(), 0755);
  return dir;
}

// DIR/hosts, readable by the proxy's user, naming inside.example.test as
// 127.0.0.1 (a private address under a wildcard's domain).
fs::path InsideExampleHostsFile(const fs::path& dir) {
  const fs::path hosts = dir / "hosts";
  std::ofstream(hosts) << "127.0.0.1 inside.example.test\n";
  chmod(hosts.c_str(), 0644);
  return hosts;
}

// A name given in full is trusted as given, whatever its address; a name
// under a wildcard never leads to a loopback or private address (its
// domain's DNS decides where it points).
TEST(EgressProxyTest, WildcardsNeverReachPrivateAddresses) {
  HttpOrigin origin("private origin");
  const fs::path dir = ReadableTempDir("mlebench-hosts");
  ASSERT_FALSE(dir.empty());
  const fs::path hosts = InsideExampleHostsFile(dir);
  absl::StatusOr<EgressProxy> proxy = EgressProxy::Start(
      {{"*.example.test", origin.port()}, {"named.example.org", origin.port()}},
      {.hosts_file = hosts});
  ASSERT_TRUE(proxy.ok()) << proxy.status();
  const fs::path socket = proxy->socket_dir() / kProxySocketName;
  EXPECT_THAT(ThroughProxy(socket, absl::StrCat("CONNECT inside.example.test:", origin.port(),
                                                " HTTP/1.1\r\n\r\n")),
              HasSubstr(" 403 "));
  EXPECT_EQ(origin.requests(), 0);
  absl::StatusOr<EgressProxy> named =
      EgressProxy::Start({{"inside.example.test", origin.port()}}, {.hosts_file = hosts});
  ASSERT_TRUE(named.ok()) << named.status();
  EXPECT_THAT(ThroughProxy(named->socket_dir() / kProxySocketName,
                           absl::StrCat("GET http://inside.example.test:", origin.port(),
                                        "/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")),
              HasSubstr("private origin"));
  fs::remove_all(dir);
}

// A run's proxy with a parent (a remote worker's egress gateway): a request
// reaches a host only when both lists allow it; one the run refuses never
// reaches the parent, and the run's proxy connects to nothing but it.
TEST(EgressProxyTest, WithAParentBothListsMustAllowARequest) {
  HttpOrigin both("allowed by both");
  HttpOrigin run_only("allowed by the run only");
  HttpOrigin gateway_only("allowed by the gateway only");
  absl::StatusOr<EgressProxy> gateway = EgressProxy::Start(
      {{"127.0.0.1", both.port()}, {"127.0.0.1", gateway_only.port()}});
  ASSERT_TRUE(gateway.ok()) << gateway.status();
  absl::StatusOr<EgressProxy> proxy = EgressProxy::Start(
      {{"127.0.0.1", both.port()}, {"127.0.0.1", run_only.port()}},
      {.parent_socket = gateway->socket_dir() / kProxySocketName});
  ASSERT_TRUE(proxy.ok()) << proxy.status();
  EXPECT_GT(proxy->parent_port(), 0);
  EXPECT_EQ(proxy->pids().size(), 3u);
  const fs::path socket = proxy->socket_dir() / kProxySocketName;
  // Only the agent's socket is in the directory the sandbox sees.
  EXPECT_EQ(std::distance(fs::directory_iterator(proxy->socket_dir()), fs::directory_iterator()), 1);

  const auto get = [](int port) {
    const std::string target = absl::StrCat("127.0.0.1:", port);
    return absl::StrCat("GET http://", target, "/v1/models HTTP/1.1\r\nHost: ", target,
                        "\r\nConnection: close\r\n\r\n");
  };
  const auto connect = [](int port) {
    return absl::StrCat("CONNECT 127.0.0.1:", port, " HTTP/1.1\r\nHost: 127.0.0.1:", port,
                        "\r\n\r\n");
  };
  const std::string tunnelled = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  EXPECT_THAT(ThroughProxy(socket, get(both.port())), HasSubstr("allowed by both"));
  EXPECT_THAT(ThroughProxy(socket, connect(both.port()), tunnelled), HasSubstr("allowed by both"));
  EXPECT_EQ(both.requests(), 2);
  // The run's list refuses: 403, and the parent never hears of it.
  for (const std::string& request : {get(gateway_only.port()), connect(gateway_only.port())}) {
    EXPECT_THAT(ThroughProxy(socket, request), HasSubstr(" 403 ")) << request;
  }
  // The gateway's list refuses: its 403 reaches the agent; the host was
  // never reached, neither through the gateway nor directly.
  for (const std::string& request : {get(run_only.port()), connect(run_only.port())}) {
    const std::string answer = ThroughProxy(socket, request, tunnelled);
    EXPECT_THAT(answer, HasSubstr(" 403 ")) << request;
    EXPECT_THAT(answer, ::testing::Not(HasSubstr("allowed by the run only"))) << request;
  }
  EXPECT_EQ(gateway_only.requests(), 0);
  EXPECT_EQ(run_only.requests(), 0);

  absl::StatusOr<ProxyLog> log = proxy->Stop();
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->total, 6);
  EXPECT_EQ(log->refused, 2);
  EXPECT_EQ(log->failed, 2);
  EXPECT_EQ(log->refused_upstream, 2);
  ASSERT_EQ(log->connections.size(), 6u);
  for (size_t i : {0, 1}) {
    EXPECT_TRUE(log->connections[i].allowed);
    EXPECT_FALSE(log->connections[i].refused_upstream);
    EXPECT_EQ(log->connections[i].status, 200);
  }
  for (size_t i : {2, 3}) {
    EXPECT_FALSE(log->connections[i].allowed);
    EXPECT_EQ(log->connections[i].port, gateway_only.port());
  }
  for (size_t i : {4, 5}) {
    EXPECT_TRUE(log->connections[i].allowed);
    EXPECT_TRUE(log->connections[i].refused_upstream);
    EXPECT_EQ(log->connections[i].status, 403);
    EXPECT_EQ(log->connections[i].port, run_only.port());
  }
  absl::StatusOr<ProxyLog> gateway_log = gateway->Stop();
  ASSERT_TRUE(gateway_log.ok()) << gateway_log.status();
  // What reached the gateway: the four requests the run allowed, the run's
  // probe of its parent (a connection without a request) not counted.
  EXPECT_EQ(gateway_log->total, 4);
  EXPECT_EQ(gateway_log->refused, 2);
  for (const ProxyConnection& c : gateway_log->connections) {
    EXPECT_NE(c.port, gateway_only.port()) << c.method;
    EXPECT_EQ(c.allowed, c.port == both.port()) << c.method << " " << c.port;
  }
}

// With a parent, the run's proxy resolves no name: a wildcard is the
// parent's to judge (the gateway trusts a name given in full, and keeps a
// wildcard off private addresses).
TEST(EgressProxyTest, WithAParentWildcardsAreJudgedByIt) {
  HttpOrigin origin("private origin");
  const fs::path dir = ReadableTempDir("mlebench-hosts");
  ASSERT_FALSE(dir.empty());
  const fs::path hosts = InsideExampleHostsFile(dir);
  // Names nothing, so that a lookup by the run's proxy would fail.
  const fs::path no_hosts = dir / "no-hosts";
  std::ofstream(no_hosts) << "\n";
  chmod(no_hosts.c_str(), 0644);
  const std::string request = absl::StrCat("GET http://inside.example.test:", origin.port(),
                                           "/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  {
    absl::StatusOr<EgressProxy> named =
        EgressProxy::Start({{"inside.example.test", origin.port()}}, {.hosts_file = hosts});
    ASSERT_TRUE(named.ok()) << named.status();
    absl::StatusOr<EgressProxy> proxy = EgressProxy::Start(
        {{"*.example.test", origin.port()}},
        {.hosts_file = no_hosts, .parent_socket = named->socket_dir() / kProxySocketName});
    ASSERT_TRUE(proxy.ok()) << proxy.status();
    EXPECT_THAT(ThroughProxy(proxy->socket_dir() / kProxySocketName, request),
                HasSubstr("private origin"));
    EXPECT_EQ(origin.requests(), 1);
  }
  {
    absl::StatusOr<EgressProxy> wildcard =
        EgressProxy::Start({{"*.example.test", origin.port()}}, {.hosts_file = hosts});
    ASSERT_TRUE(wildcard.ok()) << wildcard.status();
    absl::StatusOr<EgressProxy> proxy = EgressProxy::Start(
        {{"*.example.test", origin.port()}},
        {.hosts_file = no_hosts, .parent_socket = wildcard->socket_dir() / kProxySocketName});
    ASSERT_TRUE(proxy.ok()) << proxy.status();
    EXPECT_THAT(ThroughProxy(proxy->socket_dir() / kProxySocketName, request), HasSubstr(" 403 "));
    EXPECT_EQ(origin.requests(), 1);
  }
  fs::remove_all(dir);
}

// No parent to reach: an error before the agent starts, never a direct
// connection.
TEST(EgressProxyTest, AParentThatCannotBeReachedIsAnError) {
  const fs::path dir = ReadableTempDir("mlebench-parent");
  ASSERT_FALSE(dir.empty());
  const auto error = [](const fs::path& parent) {
    absl::StatusOr<EgressProxy> proxy = EgressProxy::Start({}, {.parent_socket = parent});
    return proxy.ok() ? std::string("started") : std::string(proxy.status().message());
  };
  const fs::path missing = dir / "missing.sock";
  EXPECT_THAT(error(missing), HasSubstr("is not there"));
  EXPECT_THAT(error(missing), HasSubstr(missing.string()));

  const fs::path file = dir / "file.sock";
  std::ofstream(file) << "not a socket";
  EXPECT_THAT(error(file), HasSubstr("is not a socket"));

  // A socket nobody listens on (a gateway that is gone).
  const fs::path stale = dir / "stale.sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof(address.sun_path), "%s", stale.c_str());
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  close(fd);
  chmod(stale.c_str(), 0666);
  EXPECT_THAT(error(stale), HasSubstr("cannot connect"));
  EXPECT_THAT(error("relative/egress.sock"), HasSubstr("absolute"));
  EXPECT_THAT(error("/tmp/a,fork"), HasSubstr("letters, digits"));
  fs::remove_all(dir);
}

TEST(EgressProxyTest, AMissingSquidIsAnErrorNotAnOpenNetwork) {
  absl::StatusOr<EgressProxy> proxy =
      EgressProxy::Start({}, {.squid = "/nonexistent/squid"});
  ASSERT_FALSE(proxy.ok());
  EXPECT_THAT(proxy.status().message(), HasSubstr("Debian package squid"));
}

TEST(EgressProxyTest, TheDirectoryGoesWithTheProxy) {
  fs::path dir;
  {
    absl::StatusOr<EgressProxy> proxy = EgressProxy::Start({});
    ASSERT_TRUE(proxy.ok()) << proxy.status();
    dir = proxy->dir();
    EXPECT_TRUE(fs::exists(dir));
  }
  EXPECT_FALSE(fs::exists(dir));
}

}  // namespace
}  // namespace mlebench
