#include "tcp_forwarder.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace rr::node_detail {

TcpForwarder::TcpForwarder(int listener, sockaddr_in target)
    : listener_(listener), target_(target), stop_(::eventfd(0, EFD_CLOEXEC)) {
  thread_ = std::thread([this] { accept_loop(); });
}

TcpForwarder::~TcpForwarder() {
  const std::uint64_t one = 1;
  (void)!::write(stop_, &one, sizeof one);
  thread_.join();
  for (auto& c : connections_) {
    // Wakes a copy blocked in write(); poll() sees the eventfd.
    ::shutdown(c->inside, SHUT_RDWR);
    ::shutdown(c->outside, SHUT_RDWR);
    c->thread.join();
    ::close(c->inside);
    ::close(c->outside);
  }
  ::close(listener_);
  ::close(stop_);
}

void TcpForwarder::accept_loop() {
  for (;;) {
    pollfd fds[2] = {{listener_, POLLIN, 0}, {stop_, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    const int inside = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (inside < 0) continue;
    // This thread is in the agent's namespace: the target is the host's address.
    const int outside = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (outside < 0 || ::connect(outside, reinterpret_cast<const sockaddr*>(&target_), sizeof target_) != 0) {
      if (outside >= 0) ::close(outside);
      ::close(inside);  // the pod sees the refusal as a closed connection
      continue;
    }
    std::lock_guard lock(mutex_);
    for (auto it = connections_.begin(); it != connections_.end();) {
      if (!(*it)->done) {
        ++it;
        continue;
      }
      (*it)->thread.join();
      ::close((*it)->inside);
      ::close((*it)->outside);
      it = connections_.erase(it);
    }
    auto c = std::make_unique<Connection>();
    c->inside = inside;
    c->outside = outside;
    Connection& ref = *c;
    c->thread = std::thread([&ref, stop = stop_] { copy(ref, stop); });
    connections_.push_back(std::move(c));
  }
}

// Both directions until both ended (a half-close is passed on) or the forwarder stops.
void TcpForwarder::copy(Connection& c, int stop) {
  bool open[2] = {true, true};  // inside -> outside, outside -> inside
  char buffer[16384];
  while (open[0] || open[1]) {
    pollfd fds[3] = {{open[0] ? c.inside : -1, POLLIN, 0}, {open[1] ? c.outside : -1, POLLIN, 0}, {stop, POLLIN, 0}};
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[2].revents != 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents == 0) continue;
      const int from = i == 0 ? c.inside : c.outside, to = i == 0 ? c.outside : c.inside;
      const ssize_t n = ::read(from, buffer, sizeof buffer);
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        open[i] = false;
        ::shutdown(to, SHUT_WR);
        if (n < 0) open[0] = open[1] = false;  // a reset ends both
        continue;
      }
      for (ssize_t sent = 0; sent < n;) {
        const ssize_t w = ::send(to, buffer + sent, static_cast<std::size_t>(n - sent), MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
          open[0] = open[1] = false;
          break;
        }
        sent += w;
      }
    }
  }
  ::shutdown(c.inside, SHUT_RDWR);  // the fds close when the connection is reaped
  ::shutdown(c.outside, SHUT_RDWR);
  c.done = true;
}

}  // namespace rr::node_detail
