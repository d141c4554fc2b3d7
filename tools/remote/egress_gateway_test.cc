// The egress gateway binary as cluster.sh starts it, with a run's egress
// proxy (egress_proxy.h) sending its requests through it, as on a worker.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "agent_runner/egress_proxy.h"
#include "agent_runner/testing/http_origin.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace mlebench {
namespace {

namespace fs = std::filesystem;
using ::mlebench::testing::HttpOrigin;
using ::testing::HasSubstr;

constexpr char kGateway[] = "tools/remote/egress_gateway";

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A directory under /tmp that the proxy user can enter (the test's own
// may be root's alone), removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string dir = "/tmp/mlebench-gateway-test-XXXXXX";
    if (mkdtemp(dir.data()) != nullptr) path_ = dir;
    chmod(path_.c_str(), 0755);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Starts the gateway with `args`, its stderr in `err`.
pid_t StartGateway(const std::vector<std::string>& args, const fs::path& err) {
  std::vector<std::string> argv = {kGateway};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, STDERR_FILENO);
    std::vector<char*> c_args;
    for (std::string& arg : argv) c_args.push_back(arg.data());
    c_args.push_back(nullptr);
    execv(kGateway, c_args.data());
    _exit(127);
  }
  return pid;
}

// The gateway's exit status, waiting at most 20 s.
int Wait(pid_t pid) {
  int status = 0;
  for (int i = 0; i < 2000; ++i) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return -1;
}

// Runs the gateway to its end (for the flags it refuses); its stderr.
std::string Refusal(const std::vector<std::string>& args, const fs::path& dir) {
  const fs::path err = dir / "refusal.err";
  const int code = Wait(StartGateway(args, err));
  return absl::StrCat("exit ", code, ": ", ReadAll(err));
}

// `request` through the run proxy's socket; the answer.
std::string ThroughProxy(const fs::path& socket_path, const std::string& request) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof(address.sun_path), "%s", socket_path.c_str());
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return "connect failed";
  }
  ssize_t ignored = write(fd, request.data(), request.size());
  (void)ignored;
  std::string answer;
  char buffer[4096];
  for (;;) {
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, 5000) <= 0) break;
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n <= 0) break;
    answer.append(buffer, static_cast<size_t>(n));
    if (absl::StartsWith(request, "CONNECT") && absl::StrContains(answer, "\r\n\r\n")) break;
  }
  close(fd);
  return answer;
}

TEST(EgressGatewayTest, RefusesTheClustersPortsAndBadFlags) {
  TempDir dir;
  const std::vector<std::string> common = {"--socket_dir", (dir.path() / "s").string(),
                                           "--access_log", (dir.path() / "log").string(),
                                           "--forbidden_ports", "8980-8984,9999"};
  for (const char* hosts : {"127.0.0.1:8980", "localhost:8984", "example.com:443,*.x.org:9999"}) {
    std::vector<std::string> args = {"--allowed_hosts", hosts};
    args.insert(args.end(), common.begin(), common.end());
    const std::string error = Refusal(args, dir.path());
    EXPECT_THAT(error, HasSubstr("exit 1: ")) << hosts;
    EXPECT_THAT(error, HasSubstr("--forbidden_ports reserves")) << hosts;
  }
  std::vector<std::string> none = {"--allowed_hosts", ""};
  none.insert(none.end(), common.begin(), common.end());
  EXPECT_THAT(Refusal(none, dir.path()), HasSubstr("names no host"));
  EXPECT_THAT(Refusal({"--allowed_hosts", "a.example.com", "--socket_dir", "s", "--access_log",
                       "log"},
                      dir.path()),
              HasSubstr("--socket_dir must be an absolute path"));
  EXPECT_THAT(Refusal({"--allowed_hosts", "a.example.com", "--socket_dir", "/s", "--access_log",
                       "/log", "--forbidden_ports", "90-80"},
                      dir.path()),
              HasSubstr("is not a port"));
  EXPECT_THAT(Refusal({"--allowed_hosts", "http://a.example.com", "--socket_dir", "/s",
                       "--access_log", "/log"},
                      dir.path()),
              HasSubstr("no scheme"));
  // Nothing was started, nothing published.
  EXPECT_FALSE(fs::exists(dir.path() / "s" / "egress.sock"));
}

TEST(EgressGatewayTest, ServesARunsProxyAndStopsCleanly) {
  TempDir dir;
  HttpOrigin allowed("through the gateway");
  HttpOrigin refused("not on the gateway's list");
  const fs::path socket_dir = dir.path() / "socket";
  const fs::path published = socket_dir / "egress.sock";
  const fs::path access_log = dir.path() / "access.log";
  const pid_t gateway = StartGateway(
      {"--allowed_hosts", absl::StrCat("127.0.0.1:", allowed.port()), "--socket_dir",
       socket_dir.string(), "--access_log", access_log.string(), "--forbidden_ports",
       "8980-8984"},
      dir.path() / "gateway.err");
  struct stat st;
  for (int i = 0; i < 1000 && stat(published.c_str(), &st) != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(stat(published.c_str(), &st), 0) << ReadAll(dir.path() / "gateway.err");
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  ASSERT_EQ(stat(socket_dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  // Only the socket's link: the gateway's configuration and log are elsewhere.
  EXPECT_EQ(std::distance(fs::directory_iterator(socket_dir), fs::directory_iterator()), 1);
  EXPECT_THAT(ReadAll(dir.path() / "gateway.err"),
              HasSubstr(absl::StrCat("listening at ", published.string())));

  // A second gateway for the same directory is refused.
  EXPECT_THAT(Refusal({"--allowed_hosts", "a.example.com", "--socket_dir", socket_dir.string(),
                       "--access_log", (dir.path() / "other.log").string()},
                      dir.path()),
              HasSubstr("another egress gateway answers at"));

  {
    absl::StatusOr<EgressProxy> proxy =
        EgressProxy::Start({{"127.0.0.1", allowed.port()}, {"127.0.0.1", refused.port()}},
                           {.parent_socket = published});
    ASSERT_TRUE(proxy.ok()) << proxy.status();
    const fs::path socket = proxy->socket_dir() / kProxySocketName;
    const auto get = [](int port) {
      return absl::StrCat("GET http://127.0.0.1:", port,
                          "/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    };
    EXPECT_THAT(ThroughProxy(socket, get(allowed.port())), HasSubstr("through the gateway"));
    EXPECT_THAT(ThroughProxy(socket, absl::StrCat("CONNECT 127.0.0.1:", refused.port(),
                                                  " HTTP/1.1\r\n\r\n")),
                HasSubstr(" 403 "));
    EXPECT_THAT(ThroughProxy(socket, get(refused.port())), HasSubstr(" 403 "));
    EXPECT_EQ(allowed.requests(), 1);
    EXPECT_EQ(refused.requests(), 0);
    absl::StatusOr<ProxyLog> log = proxy->Stop();
    ASSERT_TRUE(log.ok()) << log.status();
    EXPECT_EQ(log->total, 3);
    EXPECT_EQ(log->refused_upstream, 2);
  }

  ASSERT_EQ(kill(gateway, SIGTERM), 0);
  EXPECT_EQ(Wait(gateway), 0) << ReadAll(dir.path() / "gateway.err");
  EXPECT_FALSE(fs::exists(fs::symlink_status(published)));
  const ProxyLog log = ParseProxyAccessLog(ReadAll(access_log), 100);
  EXPECT_EQ(log.total, 3) << ReadAll(access_log);
  EXPECT_EQ(log.refused, 2);
  EXPECT_THAT(ReadAll(dir.path() / "gateway.err"),
              HasSubstr("stopped (signal 15): 3 request(s), 2 refused, 0 failed"));

  // A run that finds no gateway fails; it never connects by itself.
  absl::StatusOr<EgressProxy> proxy =
      EgressProxy::Start({{"127.0.0.1", allowed.port()}}, {.parent_socket = published});
  ASSERT_FALSE(proxy.ok());
  EXPECT_THAT(proxy.status().message(), HasSubstr("is not there"));
}

// Past --max_log_bytes the gateway stops (fail closed) and says why.
TEST(EgressGatewayTest, StopsWhenItsLogIsFull) {
  TempDir dir;
  HttpOrigin origin("origin");
  const fs::path socket_dir = dir.path() / "socket";
  const fs::path published = socket_dir / "egress.sock";
  const pid_t gateway = StartGateway(
      {"--allowed_hosts", absl::StrCat("127.0.0.1:", origin.port()), "--socket_dir",
       socket_dir.string(), "--access_log", (dir.path() / "access.log").string(),
       "--max_log_bytes", "100"},
      dir.path() / "gateway.err");
  struct stat st;
  for (int i = 0; i < 1000 && stat(published.c_str(), &st) != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(stat(published.c_str(), &st), 0) << ReadAll(dir.path() / "gateway.err");
  for (int i = 0; i < 5; ++i) {
    ThroughProxy(published, "CONNECT refused.example.com:443 HTTP/1.1\r\n\r\n");
  }
  EXPECT_EQ(Wait(gateway), 1);
  EXPECT_THAT(ReadAll(dir.path() / "gateway.err"), HasSubstr("outgrew --max_log_bytes"));
  EXPECT_FALSE(fs::exists(fs::symlink_status(published)));
  EXPECT_GE(ParseProxyAccessLog(ReadAll(dir.path() / "access.log"), 100).refused, 2);
}

}  // namespace
}  // namespace mlebench
