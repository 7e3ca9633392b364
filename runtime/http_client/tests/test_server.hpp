// An httplib server on 127.0.0.1 (ephemeral port) scripted per test, recording every request it
// sees, plus a client configured for it. Declare the server before the client: the client must go
// first, so its kept-alive connections close before the server stops.
#pragma once
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>

#include "rr/client/watch.hpp"
#include "rr/core/json.hpp"
#include "rr/http_client/http_client.hpp"

namespace rr_test {

struct SeenRequest {
  std::string method;
  std::string target;  // raw path and query, as sent
  std::string content_type;
  std::string authorization;
  std::string user_agent;
  std::string body;
};

class TestServer {
 public:
  TestServer();  // plain HTTP
  // HTTPS; with `client_ca_file` the server requires a client certificate signed by it.
  TestServer(const std::string& cert_file, const std::string& key_file, const std::string& client_ca_file = {});
  ~TestServer();
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;

  httplib::Server& http() { return *server_; }
  void start();
  std::string url() const;
  int port() const { return port_; }
  // Set when the test ends: handlers that hold a response open (watch streams, slow answers)
  // poll it and finish.
  bool closing() const { return closing_.load(); }
  // Waits in small steps until `duration` passed or the server is closing.
  void hold(std::chrono::milliseconds duration) const;
  std::vector<SeenRequest> seen() const;
  std::size_t count(const std::string& method, const std::string& path_prefix) const;

 private:
  void record();
  std::unique_ptr<httplib::Server> server_;
  bool tls_ = false;
  std::thread thread_;
  int port_ = 0;
  std::atomic<bool> closing_{false};
  mutable std::mutex mutex_;
  std::vector<SeenRequest> seen_;
};

// A RestConfig for `server` with rate limiting off; quick retries.
rr::RestConfig config_for(const TestServer& server);
rr::HttpClientOptions quick_options();
// A port on 127.0.0.1 that was just free (bound, noted, closed): nobody answers there.
int unused_port();

// Shorthands for handlers.
void reply_json(httplib::Response& res, int code, const std::string& body);
std::string status_body(int code, const std::string& reason, const std::string& message);

}  // namespace rr_test
