// cpp-httplib servers for /metrics and the probes.
#include "manager_http.hpp"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "rr/controller/metrics.hpp"

namespace rr {
namespace {

constexpr std::size_t kServerThreads = 4;  // scrapes and probes are rare and quick

void answer(httplib::Response& res, const HealthResponse& health) {
  res.status = health.status;
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_content(health.body, health.content_type.c_str());
}

void serve_health(httplib::Server& server, const std::string& endpoint, const HealthChecks& checks) {
  server.Get("/" + endpoint + "(/.*)?", [&checks](const httplib::Request& req, httplib::Response& res) {
    std::vector<std::string> excludes;
    for (std::size_t i = 0; i < req.get_param_value_count("exclude"); ++i) {
      excludes.push_back(req.get_param_value("exclude", i));
    }
    answer(res, checks.serve(req.matches[1].str(), req.has_param("verbose"), excludes));
  });
}

}  // namespace

struct HttpServer::Impl {
  httplib::Server server;
  std::thread thread;
  std::atomic<bool> finished{false};
};

HttpServer::HttpServer() : impl_(std::make_unique<Impl>()) {
  impl_->server.new_task_queue = [] { return new httplib::ThreadPool(kServerThreads); };
  // As rr::ApiServer: without it a response written in two parts (headers, body) on a kept-alive
  // connection waits ~40 ms for the client's delayed ACK (Nagle) before its second part goes.
  impl_->server.set_tcp_nodelay(true);
  // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, which would let a second process
  // bind the same port silently. Go's net.Listen fails with "address already in use"; so do we.
  impl_->server.set_socket_options([](auto sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
}

HttpServer::~HttpServer() { stop(); }

void HttpServer::serve_metrics(const metrics::Registry& registry, std::function<void()> collect) {
  impl_->server.Get("/metrics", [&registry, collect = std::move(collect)](const httplib::Request&,
                                                                          httplib::Response& res) {
    if (collect) collect();
    res.set_content(registry.expose(), std::string(metrics::Registry::content_type).c_str());
  });
}

void HttpServer::serve_probes(const HealthChecks& healthz, const HealthChecks& readyz) {
  serve_health(impl_->server, "healthz", healthz);
  serve_health(impl_->server, "readyz", readyz);
}

int HttpServer::start(const BindAddress& address) {
  httplib::Server& server = impl_->server;
  int port = address.port;
  if (port == 0) {
    port = server.bind_to_any_port(address.host);
  } else if (!server.bind_to_port(address.host, port)) {
    port = -1;
  }
  if (port < 0) {
    throw std::runtime_error("listen tcp " + address.host + ":" + std::to_string(address.port) +
                             ": cannot bind");
  }
  impl_->finished = false;
  impl_->thread = std::thread([impl = impl_.get()] {
    impl->server.listen_after_bind();
    impl->finished = true;
  });
  // httplib's stop() does nothing until the loop runs: wait for it, so that stop() never hangs.
  while (!server.is_running() && !impl_->finished) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return port;
}

void HttpServer::stop() {
  if (!impl_->thread.joinable()) return;
  impl_->server.stop();
  impl_->thread.join();
}

}  // namespace rr
