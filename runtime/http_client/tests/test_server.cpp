#include "test_server.hpp"

#include <stdexcept>

namespace rr_test {

TestServer::TestServer() : server_(std::make_unique<httplib::Server>()) { record(); }

TestServer::TestServer(const std::string& cert_file, const std::string& key_file, const std::string& client_ca_file)
    : server_(std::make_unique<httplib::SSLServer>(cert_file.c_str(), key_file.c_str(),
                                                   client_ca_file.empty() ? nullptr : client_ca_file.c_str())),
      tls_(true) {
  if (!server_->is_valid()) throw std::runtime_error("SSLServer: bad certificate or key");
  record();
}

void TestServer::record() {
  server_->set_keep_alive_timeout(1);
  // After the handler (the body has been read then) and before the answer is written, so a test
  // that got its answer sees the request recorded.
  server_->set_post_routing_handler([this](const httplib::Request& req, httplib::Response&) {
    std::lock_guard lock(mutex_);
    seen_.push_back({req.method, req.target, req.get_header_value("Content-Type"),
                     req.get_header_value("Authorization"), req.get_header_value("User-Agent"), req.body});
  });
}

void TestServer::start() {
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("cannot bind 127.0.0.1");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  for (int i = 0; i < 500 && !server_->is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

TestServer::~TestServer() {
  closing_.store(true);
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string TestServer::url() const {
  return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_);
}

void TestServer::hold(std::chrono::milliseconds duration) const {
  const auto until = std::chrono::steady_clock::now() + duration;
  while (!closing() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::vector<SeenRequest> TestServer::seen() const {
  std::lock_guard lock(mutex_);
  return seen_;
}

std::size_t TestServer::count(const std::string& method, const std::string& path_prefix) const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& r : seen_) {
    if (r.method == method && r.target.rfind(path_prefix, 0) == 0) ++n;
  }
  return n;
}

rr::RestConfig config_for(const TestServer& server) {
  rr::RestConfig config;
  config.host = server.url();
  config.qps = 0;  // no client-side rate limiting unless a test asks for it
  return config;
}

rr::HttpClientOptions quick_options() {
  rr::HttpClientOptions options;
  options.retry.initial_backoff = std::chrono::milliseconds(1);
  options.retry.max_backoff = std::chrono::milliseconds(4);
  options.retry.max_retry_after = std::chrono::milliseconds(20);
  options.connect_timeout = std::chrono::milliseconds(2000);
  return options;
}

int unused_port() {
  TestServer probe;
  probe.start();
  return probe.port();
}

void reply_json(httplib::Response& res, int code, const std::string& body) {
  res.status = code;
  res.set_content(body, "application/json");
}

std::string status_body(int code, const std::string& reason, const std::string& message) {
  return R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":")" + message +
         R"(","reason":")" + reason + R"(","code":)" + std::to_string(code) + "}";
}

}  // namespace rr_test
