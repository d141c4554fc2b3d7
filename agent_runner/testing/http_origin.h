#ifndef MLEBENCH_AGENT_RUNNER_TESTING_HTTP_ORIGIN_H_
#define MLEBENCH_AGENT_RUNNER_TESTING_HTTP_ORIGIN_H_

// For tests of the network allow-list: a stand-in for a host an agent
// reaches through the egress proxy.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace mlebench::testing {

// An HTTP server on a free 127.0.0.1 port, in a thread of its own, answering
// every request with 200 and `body`, and counting the requests.
class HttpOrigin {
 public:
  explicit HttpOrigin(std::string body) : body_(std::move(body)) {
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
  ~HttpOrigin() {
    stop_ = true;
    thread_.join();
    close(fd_);
  }
  int port() const { return port_; }
  int requests() const { return requests_; }

 private:
  void Serve() {
    while (!stop_) {
      struct pollfd p = {fd_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      const int client = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      std::string request;
      char buffer[4096];
      while (!absl::StrContains(request, "\r\n\r\n")) {
        const ssize_t n = read(client, buffer, sizeof(buffer));
        if (n <= 0) break;
        request.append(buffer, static_cast<size_t>(n));
      }
      ++requests_;
      const std::string reply =
          absl::StrCat("HTTP/1.1 200 OK\r\nContent-Length: ", body_.size(),
                       "\r\nConnection: close\r\n\r\n", body_);
      ssize_t ignored = write(client, reply.data(), reply.size());
      (void)ignored;
      close(client);
    }
  }

  std::string body_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

}  // namespace mlebench::testing

#endif  // MLEBENCH_AGENT_RUNNER_TESTING_HTTP_ORIGIN_H_
