#include "live_cluster.hpp"

#include <doctest/doctest.h>

#include <thread>

namespace rr::integration {

HttpClientOptions quick_retries() {
  HttpClientOptions options;
  options.retry.initial_backoff = std::chrono::milliseconds(10);
  options.retry.max_backoff = std::chrono::milliseconds(100);
  options.connect_timeout = std::chrono::seconds(5);
  return options;
}

LiveCluster::LiveCluster(ApiServerOptions server_options, ClusterOptions cluster_options)
    : cluster_(std::make_shared<Cluster>(std::move(cluster_options))),
      server_(std::make_unique<ApiServer>(cluster_, std::move(server_options))) {
  server_->start();
}

LiveCluster::~LiveCluster() { server_->stop(); }

RestConfig LiveCluster::config() const {
  RestConfig config;
  config.host = server_->url();
  config.qps = 0;  // no client-side throttling: tests measure the server's behaviour
  config.timeout = std::chrono::seconds(10);
  return config;
}

std::shared_ptr<HttpClient> LiveCluster::client(HttpClientOptions options) const {
  return client(config(), std::move(options));
}

std::shared_ptr<HttpClient> LiveCluster::client(RestConfig config, HttpClientOptions options) const {
  return std::make_shared<HttpClient>(std::move(config), std::move(options));
}

bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return done();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

Json config_map(const std::string& ns, const std::string& name, const Json& data) {
  Json object{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", ns}}}};
  if (!data.empty()) object["data"] = data;
  return object;
}

GroupVersionKind config_map_gvk() { return {"", "v1", "ConfigMap"}; }
GroupVersionKind deployment_gvk() { return {"apps", "v1", "Deployment"}; }
GroupVersionKind crd_gvk() { return {"apiextensions.k8s.io", "v1", "CustomResourceDefinition"}; }
GroupVersionKind widget_gvk() { return {"integration.rrgen.dev", "v1", "Widget"}; }

Json widget_crd() {
  return Json::parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "widgets.integration.rrgen.dev"},
    "spec": {
      "group": "integration.rrgen.dev",
      "names": {"kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "singular": "widget",
                "shortNames": ["wd"]},
      "scope": "Namespaced",
      "versions": [{
        "name": "v1", "served": true, "storage": true,
        "subresources": {"status": {}},
        "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
      }]
    }
  })");
}

KindInfo register_widget_crd(HttpClient& client) {
  client.create(client.kind_info(crd_gvk()), widget_crd());
  std::optional<KindInfo> served;
  // The server's CRD controller registers the kind asynchronously; discovery shows it once done.
  wait_until([&] {
    try {
      served = client.kind_info(widget_gvk());
      return true;
    } catch (const ApiError&) {
      return false;
    }
  });
  REQUIRE_MESSAGE(served.has_value(), "Widget is not served 5 s after its CRD was created");
  return *served;
}

Status status_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const ApiError& e) {
    return e.status();
  }
  FAIL("the call did not throw an ApiError");
  return {};
}

}  // namespace rr::integration
