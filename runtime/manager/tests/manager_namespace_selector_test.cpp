// --namespace-selector against the local API server with RBAC on, as a deployed operator meets it:
// the manager's ServiceAccount may list and watch Namespaces (a bound ClusterRole) and ConfigMaps
// only where a RoleBinding grants its namespaced ClusterRole (config/rbac-namespaces' template).
// A labelled namespace's objects reach the controller; a selected namespace without the binding
// is refused (403), counted and retried, and served once an admin binds it; an unlabelled one leaves.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "manager_test_util.hpp"
#include "metrics_auth_cluster.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/controller/informer_cache_metrics.hpp"
#include "rr/manager/operator_main.hpp"

using namespace std::chrono_literals;
using rr::test::eventually;
using rr::test::Running;

namespace {

const rr::KindInfo& configmap_kind() {
  static const rr::KindInfo kind{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", rr::Scope::Namespaced, false};
  return kind;
}

struct ReconciledKeys {
  std::mutex mutex;
  std::vector<std::string> keys;
  std::set<std::string> distinct() {
    std::lock_guard lock(mutex);
    return {keys.begin(), keys.end()};
  }
  std::size_t count() {
    std::lock_guard lock(mutex);
    return keys.size();
  }
};

struct ConfigMapRecorder {
  std::shared_ptr<ReconciledKeys> seen;
  rr::Outcome reconcile(const rr::Request& request, const rr::RequestOptions&) const {
    std::lock_guard lock(seen->mutex);
    seen->keys.push_back(request.str());
    return rr::Outcome{};
  }
  void validate(rr::Validation&) const {}
  void setup(rr::Setup& s) const { s.for_kind(configmap_kind()); }
  std::string display_name() const { return "ConfigMapRecorder"; }
};

struct NamespaceSelectorCluster : rr::test::MetricsAuthCluster {
  NamespaceSelectorCluster() {
    // What rrgen generates for `namespaces: {selector}`: namespaces list/watch in the bound
    // ClusterRole; the kinds' rules in a ClusterRole bound per namespace only.
    bind("manager-role",
         rr::Json::array({{{"apiGroups", {""}}, {"resources", {"namespaces"}}, {"verbs", {"list", "watch"}}}}),
         account_subject("controller-manager"));
    create("/apis/rbac.authorization.k8s.io/v1/clusterroles",
           rr::apiserver_test::cluster_role_object(
               "manager-role-namespaced",
               rr::Json::array(
                   {{{"apiGroups", {""}}, {"resources", {"configmaps"}}, {"verbs", {"list", "watch"}}},
                    {{"apiGroups", {"events.k8s.io"}}, {"resources", {"events"}}, {"verbs", {"create", "patch"}}}})));
  }
  void make_namespace(const std::string& name, const rr::Json& labels) {
    rr::Json ns = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}};
    if (!labels.empty()) ns["metadata"]["labels"] = labels;
    create("/api/v1/namespaces", ns);
    create(
        "/api/v1/namespaces/" + name + "/configmaps",
        {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "settings"}}}, {"data", {{"k", name}}}});
  }
  void label(const std::string& name, const rr::Json& labels) {
    const rr::Json patch = {{"metadata", {{"labels", labels}}}};
    auto answer = admin->Patch("/api/v1/namespaces/" + name, patch.dump(), "application/merge-patch+json");
    if (!answer || answer->status != 200) throw std::runtime_error("cannot label namespace " + name);
  }
  // config/rbac-namespaces/role_binding.yaml, applied in `ns` by an admin.
  void bind_in(const std::string& ns) {
    create("/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/rolebindings",
           {{"apiVersion", "rbac.authorization.k8s.io/v1"},
            {"kind", "RoleBinding"},
            {"metadata", {{"name", "manager-role-namespaced-rolebinding"}}},
            {"roleRef",
             {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", "manager-role-namespaced"}}},
            {"subjects", {account_subject("controller-manager")}}});
  }
};

}  // namespace

TEST_CASE(
    "namespace selector under RBAC: labelled namespaces reach the controller; an unbound one is retried until bound") {
  NamespaceSelectorCluster local;
  local.make_namespace("team-a", {{"team", "x"}});
  local.make_namespace("team-b", {{"team", "x"}});
  local.make_namespace("other", rr::Json::object());
  local.bind_in("team-a");
  local.bind_in("other");  // bound but not selected: never read

  auto api = local.manager_client();
  rr::ManagerOptions flags = rr::ManagerOptions::parse(std::vector<std::string>{"--namespace-selector=team=x"});
  rr::Manager manager(rr::test::loopback_options(), api);
  rr::InformerCacheOptions cache_options;
  cache_options.informer.poll_interval = 20ms;
  cache_options.informer.initial_backoff = 20ms;
  cache_options.informer.max_backoff = 100ms;
  cache_options.namespace_selector = flags.namespace_selector;
  auto cache = std::make_shared<rr::InformerCache>(api, cache_options);
  manager.add(cache);
  auto seen = std::make_shared<ReconciledKeys>();
  rr::OperatorContext op{manager, api, cache, flags};
  rr::ControllerOptions controller;
  controller.name = "configmap";
  op.add_controller(std::move(controller),
                    [seen](const rr::Config&) -> rr::Reconciler { return ConfigMapRecorder{seen}; });
  rr::metrics::InformerCacheMetrics cache_metrics(manager.metrics(), cache);

  Running running(manager);
  // team-a is served though team-b is refused: one namespace without a binding stops no one.
  REQUIRE(eventually([&] { return seen->distinct().contains("team-a/settings"); }, 10s));
  CHECK(cache->selected_namespaces() == std::vector<std::string>{"team-a", "team-b"});
  REQUIRE(eventually([&] { return cache->forbidden_counts()[{configmap_kind().gvk, "team-b"}] >= 2; }, 10s));
  CHECK(cache->forbidden_counts().count({configmap_kind().gvk, "team-a"}) == 0);
  cache_metrics.collect();
  CHECK(manager.metrics().expose().find(
            R"(rr_informer_cache_forbidden_total{group="",kind="ConfigMap",namespace="team-b",version="v1"} )") !=
        std::string::npos);
  CHECK_FALSE(seen->distinct().contains("other/settings"));

  // The admin applies the RoleBinding template in team-b: the next retry lists it.
  local.bind_in("team-b");
  REQUIRE(eventually([&] { return seen->distinct().contains("team-b/settings"); }, 10s));
  CHECK(cache->get(configmap_kind(), {"team-b", "settings"})["data"]["k"] == "team-b");

  // team-a unlabelled: its ConfigMap leaves the cache as a delete, which reaches the controller.
  const std::size_t before = seen->count();
  local.label("team-a", {{"team", nullptr}});
  REQUIRE(eventually([&] { return cache->selected_namespaces() == std::vector<std::string>{"team-b"}; }, 10s));
  CHECK_THROWS_AS(cache->get(configmap_kind(), {"team-a", "settings"}), rr::ApiError);
  REQUIRE(eventually([&] { return seen->count() > before; }, 10s));
  {
    std::lock_guard lock(seen->mutex);
    CHECK(seen->keys.back() == "team-a/settings");
  }
  // A new namespace with the label is picked up (already bound here).
  local.make_namespace("team-c", {{"team", "x"}});
  local.bind_in("team-c");
  REQUIRE(eventually([&] { return seen->distinct().contains("team-c/settings"); }, 10s));
  CHECK_FALSE(seen->distinct().contains("other/settings"));
  CHECK(running.stop() == 0);
}
