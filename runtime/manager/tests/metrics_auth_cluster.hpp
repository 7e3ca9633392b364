// The local cluster (rr::apiserver, RBAC on, over plain HTTP on loopback) set up for the secure
// metrics endpoint: an admin token, the manager's ServiceAccount "controller-manager" bound to
// kubebuilder's metrics-auth-role, and a client for the manager that counts the reviews it creates.
// Shared by manager_secure_metrics_test.cpp and bench/bench_metrics_auth.cpp.
#pragma once
#include <httplib.h>

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "rbac_objects.hpp"
#include "rr/apiserver/api_server.hpp"
#include "rr/client/forwarding_client.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/http_client/http_client.hpp"

namespace rr::test {

// Counts create() calls per resource (plural).
class CountingClient : public ForwardingClient {
 public:
  using ForwardingClient::ForwardingClient;
  int created(const std::string& plural) const {
    const std::lock_guard lock(mutex_);
    const auto found = creates_.find(plural);
    return found == creates_.end() ? 0 : found->second;
  }

 protected:
  Json do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) override {
    {
      const std::lock_guard lock(mutex_);
      ++creates_[kind.plural];
    }
    return ForwardingClient::do_create(kind, object, opts);
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, int> creates_;
};

struct MetricsAuthCluster {
  std::shared_ptr<Cluster> cluster = std::make_shared<Cluster>();
  ApiServer server{cluster, [] {
                     ApiServerOptions options;
                     options.authorization = AuthorizationMode::RBAC;
                     options.static_tokens = {{"admin-token", "admin", {"system:masters"}}};
                     return options;
                   }()};
  std::unique_ptr<httplib::Client> admin;

  MetricsAuthCluster() {
    server.start();
    admin = std::make_unique<httplib::Client>("127.0.0.1", server.port());
    admin->set_bearer_token_auth("admin-token");
    add_account("controller-manager");
    bind(
        "metrics-auth-role",
        Json::array({{{"apiGroups", {"authentication.k8s.io"}}, {"resources", {"tokenreviews"}}, {"verbs", {"create"}}},
                     {{"apiGroups", {"authorization.k8s.io"}},
                      {"resources", {"subjectaccessreviews"}},
                      {"verbs", {"create"}}}}),
        account_subject("controller-manager"));
  }

  Json create(const std::string& path, const Json& body) {
    auto answer = admin->Post(path, body.dump(), "application/json");
    if (!answer || answer->status != 201) throw std::runtime_error("cannot create " + path);
    return Json::parse(answer->body);
  }
  static Json account_subject(const std::string& account) { return apiserver_test::default_service_account(account); }
  // A ClusterRole with `rules` and its binding to `subject`.
  void bind(const std::string& name, const Json& rules, const Json& subject) {
    create("/apis/rbac.authorization.k8s.io/v1/clusterroles", apiserver_test::cluster_role_object(name, rules));
    create("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
           apiserver_test::cluster_role_binding_object(name + "-binding", name, subject));
  }
  // kubebuilder's metrics-reader (get /metrics) bound to `subject`.
  void bind_metrics_reader(const Json& subject) {
    bind("metrics-reader", Json::array({{{"nonResourceURLs", {"/metrics"}}, {"verbs", {"get"}}}}), subject);
  }
  void add_account(const std::string& account) {
    create("/api/v1/namespaces/default/serviceaccounts",
           Json{{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", {{"name", account}}}});
  }
  // A new token of the ServiceAccount `account` (kubectl create token).
  std::string token(const std::string& account) {
    return create("/api/v1/namespaces/default/serviceaccounts/" + account + "/token",
                  Json{{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "TokenRequest"}})["status"]["token"];
  }
  // The manager's client: the controller-manager ServiceAccount's token, no client-side rate limit.
  std::shared_ptr<CountingClient> manager_client() {
    RestConfig config;
    config.host = server.url();
    config.bearer_token = token("controller-manager");
    config.qps = 0;
    return std::make_shared<CountingClient>(std::make_shared<HttpClient>(config));
  }
};

}  // namespace rr::test
