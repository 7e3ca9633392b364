// Listening and accepting for the HTTP server (see server.hpp).
#include "rr/http_server/server.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace rr::http_server {
namespace {

std::string errno_text() { return std::system_category().message(errno); }

void set_flag(int fd, int level, int option) {
  const int yes = 1;
  ::setsockopt(fd, level, option, &yes, sizeof yes);
}

// The first address of `host` that binds and listens.
int open_listener(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int failed = ::getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &found)) {
    throw std::runtime_error(::gai_strerror(failed));
  }
  const std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> addresses(found, &::freeaddrinfo);
  std::string why = "no address";
  for (const addrinfo* address = found; address != nullptr; address = address->ai_next) {
    const int fd = ::socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC, address->ai_protocol);
    if (fd < 0) {
      why = "socket: " + errno_text();
      continue;
    }
    set_flag(fd, SOL_SOCKET, SO_REUSEADDR);  // a restarted operator rebinds over TIME_WAIT
    // Without TCP_NODELAY (inherited by accepted sockets, and set on them too) an answer written
    // in two parts on a kept-alive connection would wait ~40 ms for the client's delayed ACK.
    set_flag(fd, IPPROTO_TCP, TCP_NODELAY);
    if (::bind(fd, address->ai_addr, address->ai_addrlen) == 0 && ::listen(fd, SOMAXCONN) == 0) return fd;
    why = "bind: " + errno_text();
    ::close(fd);
  }
  throw std::runtime_error(why);
}

int bound_port(int fd) {
  sockaddr_storage address{};
  socklen_t size = sizeof address;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) return -1;
  if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
  return ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
}

// Over the connection limit: a short answer if the socket takes it at once, then closed.
void refuse(int fd) {
  constexpr std::string_view busy =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 20\r\n"
      "Connection: close\r\n\r\n503 too many clients";
  [[maybe_unused]] const ssize_t sent = ::send(fd, busy.data(), busy.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::close(fd);
}

}  // namespace

Server::Server(Handler handler, ServerOptions options) : handler_(std::move(handler)), options_(options) {}

Server::~Server() { stop(); }

int Server::start(const std::string& host, int port) {
  if (listen_fd_ >= 0) throw std::logic_error("rr::http_server::Server::start: already started");
  const std::string address = host + ":" + std::to_string(port);
  try {
    listen_fd_ = open_listener(host, port);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("listen tcp " + address + ": cannot bind: " + e.what());
  }
  std::array<int, 2> wake{};
  if (::pipe2(wake.data(), O_CLOEXEC) != 0) {
    const std::string why = errno_text();
    ::close(listen_fd_);
    listen_fd_ = -1;
    throw std::runtime_error("listen tcp " + address + ": " + why);
  }
  wake_read_ = wake[0];
  wake_write_ = wake[1];
  const int port_bound = bound_port(listen_fd_);
  accept_thread_ = std::thread([this] { accept_loop(); });
  return port_bound;
}

void Server::stop() {
  if (!accept_thread_.joinable()) return;
  const char byte = 1;
  while (::write(wake_write_, &byte, 1) < 0 && errno == EINTR) {
  }
  accept_thread_.join();
  for (Connection& connection : connections_) connection.thread.join();
  connections_.clear();
  for (int* fd : {&listen_fd_, &wake_read_, &wake_write_}) {
    ::close(*fd);
    *fd = -1;
  }
}

void Server::reap_finished() {
  connections_.remove_if([](Connection& connection) {
    if (!connection.done) return false;
    connection.thread.join();
    return true;
  });
}

void Server::accept_loop() {
  while (true) {
    std::array<pollfd, 2> fds{{{listen_fd_, POLLIN, 0}, {wake_read_, POLLIN, 0}}};
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;  // stop()
    const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EBADF || errno == EINVAL || errno == ENOTSOCK) return;  // no listening socket any more
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        // Out of descriptors or memory: pause rather than spin, as Go's server does.
        std::array<pollfd, 1> wake{{{wake_read_, POLLIN, 0}}};
        ::poll(wake.data(), wake.size(), 100);
      }
      continue;  // the client gave up already (ECONNABORTED), a signal (EINTR) ...
    }
    set_flag(fd, IPPROTO_TCP, TCP_NODELAY);
    reap_finished();
    if (connections_.size() >= options_.max_connections) {
      refuse(fd);
      continue;
    }
    // The certificate as it is now: a rotated pair serves from this handshake on.
    std::shared_ptr<ssl_ctx_st> tls = options_.tls ? options_.tls->context() : nullptr;
    Connection& connection = connections_.emplace_back();
    try {
      connection.thread = std::thread([this, fd, &connection, tls = std::move(tls)] {
        serve_connection(fd, wake_read_, handler_, options_.connection, tls.get());
        connection.done = true;
      });
    } catch (const std::system_error&) {  // no thread to be had: this client is refused
      connections_.pop_back();
      refuse(fd);
    }
  }
}

}  // namespace rr::http_server
