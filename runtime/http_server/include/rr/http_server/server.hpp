// A small HTTP/1.1 server on POSIX sockets, for the manager's /metrics and probes and for the
// webhook server: it binds, accepts on a thread of its own and serves each connection on a thread
// of its own (a few at once: scrapes, probes and webhook calls are quick), until stop(). Plain
// HTTP, or TLS (OpenSSL) with a certificate that is reloaded when its files change; no HTTP
// library, so that a production operator links none (docs/dependencies.md).
#pragma once
#include <atomic>
#include <cstddef>
#include <list>
#include <memory>
#include <string>
#include <thread>

#include "rr/http_server/connection.hpp"
#include "rr/http_server/tls.hpp"

namespace rr::http_server {

struct ServerOptions {
  ConnectionOptions connection;
  std::size_t max_connections = 16;  // beyond: 503 and closed at once
  std::shared_ptr<CertificateFiles> tls;  // null: plain HTTP
};

class Server {
 public:
  explicit Server(Handler handler, ServerOptions options = {});
  ~Server();  // stops
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds host:port (port 0: the system picks one; SO_REUSEADDR but not SO_REUSEPORT, so a port
  // in use fails as Go's net.Listen does), listens with TCP_NODELAY and starts accepting. Returns
  // the bound port. Throws std::runtime_error ("listen tcp <host>:<port>: cannot bind: <why>"), or
  // std::logic_error when already started (it may start again after stop()).
  int start(const std::string& host, int port);
  // Stops accepting, ends the connections (an answer being written is finished first, within the
  // write timeout), joins every thread and closes the socket. Idempotent.
  void stop();

 private:
  struct Connection {
    std::thread thread;
    std::atomic<bool> done{false};  // the thread has finished: join() will not block
  };
  void accept_loop();
  void reap_finished();

  Handler handler_;
  ServerOptions options_;
  int listen_fd_ = -1;
  int wake_read_ = -1;  // readable once stop() has written to wake_write_: every poll() wakes
  int wake_write_ = -1;
  std::thread accept_thread_;
  std::list<Connection> connections_;  // the accept thread's, then stop()'s
};

}  // namespace rr::http_server
