#include "probe.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace rr::node_detail {

namespace {

std::chrono::seconds seconds_at(const Json& probe, const char* key, std::int64_t fallback) {
  auto it = probe.find(key);
  const std::int64_t v = it != probe.end() && it->is_number_integer() ? it->get<std::int64_t>() : fallback;
  return std::chrono::seconds(v);
}

// The port a probe names: a number, or a container port's name.
int port_of(const Json& port, const Json& container) {
  if (port.is_number_integer()) return port.get<int>();
  if (port.is_string()) {
    const std::string name = port.get<std::string>();
    if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos) return std::stoi(name);
    for (const Json& p : container.value("ports", Json::array())) {
      if (p.value("name", "") == name) return p.value("containerPort", 0);
    }
  }
  return 0;
}

// A connected socket within the deadline, or -1.
int connect_within(const std::string& host, int port, std::chrono::steady_clock::time_point deadline) {
  if (port <= 0 || port > 65535) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  if (::inet_pton(AF_INET, host.c_str(), &address.sin_addr) != 1) return -1;
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 && errno != EINPROGRESS) {
    ::close(fd);
    return -1;
  }
  pollfd p{fd, POLLOUT, 0};
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  int error = 0;
  socklen_t length = sizeof error;
  if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) != 1 ||
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool http_get(const Json& get, const Json& container, const std::string& default_host,
              std::chrono::steady_clock::time_point deadline) {
  if (get.value("scheme", "HTTP") != "HTTP") return false;  // HTTPS probes: not yet
  const std::string host = get.value("host", default_host);
  const int port = port_of(get.value("port", Json()), container);
  const int fd = connect_within(host, port, deadline);
  if (fd < 0) return false;
  std::string path = get.value("path", "/");
  if (path.empty() || path[0] != '/') path = "/" + path;
  std::string request = "GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + std::to_string(port) +
                        "\r\nUser-Agent: kube-probe/1.35\r\nAccept: */*\r\nConnection: close\r\n";
  for (const Json& h : get.value("httpHeaders", Json::array())) {
    request += h.value("name", "") + ": " + h.value("value", "") + "\r\n";
  }
  request += "\r\n";
  std::string response;
  std::size_t sent = 0;
  bool ok = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                            std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd, static_cast<short>(sent < request.size() ? POLLOUT : POLLIN), 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) != 1) break;
    if (sent < request.size()) {
      const ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<std::size_t>(n);
      continue;
    }
    char buffer[512];
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n > 0) response.append(buffer, static_cast<std::size_t>(n));
    if (n <= 0 || response.find("\r\n") != std::string::npos) {
      // "HTTP/1.x NNN ..."
      if (response.size() >= 12 && response.rfind("HTTP/1.", 0) == 0) {
        const int code = std::atoi(response.substr(9, 3).c_str());
        ok = code >= 200 && code < 400;
      }
      break;
    }
  }
  ::close(fd);
  return ok;
}

}  // namespace

ProbeTiming probe_timing(const Json& probe) {
  ProbeTiming t;
  t.initial_delay = seconds_at(probe, "initialDelaySeconds", 0);
  t.period = std::max(seconds_at(probe, "periodSeconds", 10), std::chrono::seconds(1));
  t.timeout = std::max(seconds_at(probe, "timeoutSeconds", 1), std::chrono::seconds(1));
  t.success_threshold = std::max(1, probe.value("successThreshold", 1));
  t.failure_threshold = std::max(1, probe.value("failureThreshold", 3));
  return t;
}

bool probe_supported(const Json& probe) {
  return probe.is_object() && (probe.contains("httpGet") || probe.contains("tcpSocket"));
}

bool run_probe(const Json& probe, const Json& container, const std::string& host) {
  try {
    const auto deadline = std::chrono::steady_clock::now() + probe_timing(probe).timeout;
    if (probe.contains("httpGet")) return http_get(probe["httpGet"], container, host, deadline);
    if (probe.contains("tcpSocket")) {
      const Json& tcp = probe["tcpSocket"];
      const int fd = connect_within(tcp.value("host", host), port_of(tcp.value("port", Json()), container), deadline);
      if (fd < 0) return false;
      ::close(fd);
      return true;
    }
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace rr::node_detail
