// Copies bytes between the connections a listening socket accepts and a fixed IPv4 target: how a
// pod reaches the API server on the host's loopback. The listener may live in another network
// namespace than the thread that connects out (the pod's 127.0.0.1:port forwarded to the host's).
// Bytes pass untouched (TLS stays end to end); each connection has a thread of its own.
#pragma once
#include <netinet/in.h>

#include <atomic>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

namespace rr::node_detail {

class TcpForwarder {
 public:
  // Takes `listener` (listening already). The destructor closes it and every connection.
  TcpForwarder(int listener, sockaddr_in target);
  ~TcpForwarder();
  TcpForwarder(const TcpForwarder&) = delete;
  TcpForwarder& operator=(const TcpForwarder&) = delete;

 private:
  struct Connection {
    int inside = -1, outside = -1;
    std::atomic<bool> done{false};
    std::thread thread;
  };
  void accept_loop();
  static void copy(Connection& c, int stop);

  int listener_;
  sockaddr_in target_;
  int stop_;  // an eventfd: readable once the forwarder stops
  std::mutex mutex_;
  std::list<std::unique_ptr<Connection>> connections_;
  std::thread thread_;
};

}  // namespace rr::node_detail
