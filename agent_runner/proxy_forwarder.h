#ifndef MLEBENCH_AGENT_RUNNER_PROXY_FORWARDER_H_
#define MLEBENCH_AGENT_RUNNER_PROXY_FORWARDER_H_

// The sandbox's side of network allowlist (egress_proxy.h has the host's):
// where the agent finds the proxy, and the forwarder sandbox_entry starts.
// Apart from the proxy so that the statically linked sandbox entry carries
// none of the host side's code.

#include <string>
#include <vector>

namespace mlebench {

// The port of the forwarder on the sandbox's loopback, and the directory the
// host's proxy socket is bound at.
inline constexpr int kSandboxProxyPort = 3128;
inline constexpr char kSandboxProxySocketDir[] = "/run/mlebench/network";
inline constexpr char kProxySocketName[] = "proxy.sock";

// socat's arguments for a forwarder listening on the sandbox's
// 127.0.0.1:kSandboxProxyPort that relays each connection to `socket` (the
// bound proxy socket).
inline std::vector<std::string> SandboxForwarderArgs(const std::string& socat,
                                                     const std::string& socket) {
  return {socat,
          "TCP4-LISTEN:" + std::to_string(kSandboxProxyPort) + ",bind=127.0.0.1,reuseaddr,fork",
          "UNIX-CONNECT:" + socket};
}

}  // namespace mlebench

#endif  // MLEBENCH_AGENT_RUNNER_PROXY_FORWARDER_H_
