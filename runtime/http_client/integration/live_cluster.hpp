// The real stack for one test: an in-memory rr::Cluster served by rr::ApiServer on 127.0.0.1:0,
// and rr::HttpClient instances talking to it over loopback. Nothing is mocked.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "rr/apiserver/api_server.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/http_client/http_client.hpp"

namespace rr::integration {

// Retries that keep a test short: 10 ms backoff doubled up to 100 ms, at most 10 retries.
HttpClientOptions quick_retries();

class LiveCluster {
 public:
  explicit LiveCluster(ApiServerOptions server_options = {}, ClusterOptions cluster_options = {});
  ~LiveCluster();
  LiveCluster(const LiveCluster&) = delete;
  LiveCluster& operator=(const LiveCluster&) = delete;

  // host = the server's URL, client-side rate limiting off (qps 0), no credentials.
  RestConfig config() const;
  std::shared_ptr<HttpClient> client(HttpClientOptions options = quick_retries()) const;
  std::shared_ptr<HttpClient> client(RestConfig config, HttpClientOptions options = quick_retries()) const;

  Cluster& cluster() const { return *cluster_; }
  ApiServer& server() const { return *server_; }

 private:
  std::shared_ptr<Cluster> cluster_;
  std::unique_ptr<ApiServer> server_;
};

// Polls `done` every 10 ms until it is true or `timeout` has passed; returns its last value.
bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout = std::chrono::seconds(5));

// A v1 ConfigMap in `ns` with the given data.
Json config_map(const std::string& ns, const std::string& name, const Json& data = Json::object());

// GVKs of the kinds the tests use.
GroupVersionKind config_map_gvk();
GroupVersionKind deployment_gvk();
GroupVersionKind crd_gvk();
GroupVersionKind widget_gvk();

// The CRD of the tests: integration.rrgen.dev/v1 Widget (widgets, short name wd), namespaced, with
// the status subresource.
Json widget_crd();
// Creates widget_crd() through `client` and waits until the client's discovery serves the kind;
// returns its KindInfo. Fails the test (REQUIRE) when it is not served within 5 s.
KindInfo register_widget_crd(HttpClient& client);

// Throws nothing and returns the ApiError's Status when `call` throws one; fails the test when
// `call` returns normally or throws anything else.
Status status_of(const std::function<void()>& call);

}  // namespace rr::integration
