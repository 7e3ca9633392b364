#include "test_server.hpp"

#include <doctest/doctest.h>

#include <cctype>

namespace rr::apiserver_test {

TestServer::TestServer(ApiServerOptions options, ClusterOptions cluster_options)
    : cluster(std::make_shared<Cluster>(std::move(cluster_options))),
      server(std::make_unique<ApiServer>(cluster, std::move(options))) {
  // What kube-controller-manager keeps there: pods of the tests pass the ServiceAccount admission.
  if (auto account = cluster->find_kind({"", "v1", "ServiceAccount"})) {
    cluster->seed(*account, {{"apiVersion", "v1"},
                             {"kind", "ServiceAccount"},
                             {"metadata", {{"name", "default"}, {"namespace", "default"}}}});
  }
  server->start();
}

TestServer::~TestServer() { server->stop(); }

std::unique_ptr<httplib::Client> TestServer::client() const {
  auto c = std::make_unique<httplib::Client>("127.0.0.1", server->port());
  c->set_connection_timeout(10);
  c->set_read_timeout(10);
  return c;
}

std::vector<Json> watch_events(int port, const std::string& path, const std::string& accept) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(10, 0);
  std::string body;
  auto result = client.Get(path, {{"Accept", accept}}, [&](const char* data, std::size_t size) {
    body.append(data, size);
    return true;
  });
  REQUIRE(result);
  std::vector<Json> events;
  std::size_t start = 0;
  for (std::size_t end; (end = body.find('\n', start)) != std::string::npos; start = end + 1) {
    events.push_back(Json::parse(body.substr(start, end - start)));
  }
  return events;
}

Json body_of(const httplib::Result& result) {
  if (!result) return nullptr;
  return Json::parse(result->body, nullptr, false);
}

std::string url_encode(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

WatchReader::WatchReader(int port, std::string path) {
  thread_ = std::thread([this, port, path = std::move(path)] {
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(30);
    auto result = client.Get(path, [this](const char* data, std::size_t size) {
      std::lock_guard lock(mutex_);
      partial_.append(data, size);
      for (std::size_t nl; (nl = partial_.find('\n')) != std::string::npos;) {
        events_.push_back(Json::parse(partial_.substr(0, nl)));
        partial_.erase(0, nl + 1);
      }
      changed_.notify_all();
      return !abandon_.load();
    });
    std::lock_guard lock(mutex_);
    ended_ = true;
    clean_ = static_cast<bool>(result) && result->status == 200;
    changed_.notify_all();
  });
}

WatchReader::~WatchReader() {
  abandon_ = true;
  thread_.join();
}

bool WatchReader::wait_for(std::size_t count, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return events_.size() >= count; });
}

bool WatchReader::wait_end(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return ended_; });
}

std::vector<Json> WatchReader::events() {
  std::lock_guard lock(mutex_);
  return events_;
}

bool WatchReader::clean_end() {
  std::lock_guard lock(mutex_);
  return clean_;
}

Json gizmo_crd() {
  return Json::parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "gizmos.test.rrgen.dev"},
    "spec": {
      "group": "test.rrgen.dev",
      "names": {"kind": "Gizmo", "plural": "gizmos", "shortNames": ["gz"]},
      "scope": "Namespaced",
      "versions": [{
        "name": "v1", "served": true, "storage": true,
        "subresources": {"status": {}},
        "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
      }]
    }
  })");
}

KindInfo gizmo_kind() {
  return KindInfo{.gvk = {"test.rrgen.dev", "v1", "Gizmo"},
                  .plural = "gizmos",
                  .list_kind = "GizmoList",
                  .scope = Scope::Namespaced,
                  .has_status = true};
}

}  // namespace rr::apiserver_test
