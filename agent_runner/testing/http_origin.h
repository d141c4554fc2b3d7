#ifndef MLEBENCH_AGENT_RUNNER_TESTING_HTTP_ORIGIN_H_
#define MLEBENCH_AGENT_RUNNER_TESTING_HTTP_ORIGIN_H_

// For tests of the network allow-list: stand-ins for the hosts an agent
// reaches (or must not reach) through the egress proxy.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace mlebench::testing {

// A server on a free 127.0.0.1 port, in a thread of its own, that hands each
// connection to `serve` (one at a time; the server closes it afterwards) and
// counts them. `serve` may poll `stopping()` to give up early.
class LoopbackServer {
 public:
  explicit LoopbackServer(std::function<void(int client)> serve) : serve_(std::move(serve)) {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    listen(fd_, 16);
    thread_ = std::thread([this] { Serve(); });
  }
  ~LoopbackServer() {
    stop_ = true;
    thread_.join();
    close(fd_);
  }
  int port() const { return port_; }
  int connections() const { return connections_; }
  bool stopping() const { return stop_; }

  // Writes all of `text` (best effort).
  static void Say(int fd, const std::string& text) {
    ssize_t ignored = write(fd, text.data(), text.size());
    (void)ignored;
  }

 private:
  void Serve() {
    while (!stop_) {
      struct pollfd p = {fd_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      const int client = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      ++connections_;
      serve_(client);
      close(client);
    }
  }

  std::function<void(int)> serve_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

// An HTTP server answering every request with 200 and `body`, and counting
// the requests (connections: a CONNECT tunnel through the proxy is one too).
class HttpOrigin {
 public:
  explicit HttpOrigin(std::string body)
      : body_(std::move(body)), server_([this](int client) { Answer(client); }) {}
  int port() const { return server_.port(); }
  int requests() const { return server_.connections(); }

 private:
  void Answer(int client) {
    std::string request;
    char buffer[4096];
    while (!absl::StrContains(request, "\r\n\r\n")) {
      const ssize_t n = read(client, buffer, sizeof(buffer));
      if (n <= 0) break;
      request.append(buffer, static_cast<size_t>(n));
    }
    LoopbackServer::Say(client, absl::StrCat("HTTP/1.1 200 OK\r\nContent-Length: ", body_.size(),
                                             "\r\nConnection: close\r\n\r\n", body_));
  }

  std::string body_;
  LoopbackServer server_;  // last: its thread uses body_
};

}  // namespace mlebench::testing

#endif  // MLEBENCH_AGENT_RUNNER_TESTING_HTTP_ORIGIN_H_
