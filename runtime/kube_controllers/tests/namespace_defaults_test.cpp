// NamespaceDefaults over an in-process rr::Cluster: every namespace, old and new, gets its
// `default` ServiceAccount and `kube-root-ca.crt`; deleted or edited ones come back.
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "namespace_objects.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/kube_controllers/namespace_defaults.hpp"

using namespace std::chrono_literals;
using rr::Json;
using rr::kube_controllers::NamespaceDefaults;

namespace {

const rr::KindInfo namespaces{{"", "v1", "Namespace"}, "namespaces", "NamespaceList", rr::Scope::Cluster, true};
const rr::KindInfo service_accounts{
    {"", "v1", "ServiceAccount"}, "serviceaccounts", "ServiceAccountList", rr::Scope::Namespaced, false};
const rr::KindInfo config_maps{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", rr::Scope::Namespaced, false};

constexpr const char* ca = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

std::shared_ptr<rr::Cluster> cluster_with(std::initializer_list<const char*> names) {
  auto cluster = std::make_shared<rr::Cluster>();
  for (const rr::KindInfo* kind : {&namespaces, &service_accounts, &config_maps}) cluster->register_kind(*kind);
  for (const char* name : names) {
    cluster->create(namespaces, Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}});
  }
  return cluster;
}

Json namespace_(const std::string& name) {
  return {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}};
}

bool eventually(const std::function<bool()>& done, std::chrono::milliseconds timeout = 5s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

bool exists(const rr::Cluster& cluster, const rr::KindInfo& kind, const std::string& ns, const std::string& name) {
  try {
    cluster.get(kind, {ns, name});
    return true;
  } catch (const rr::ApiError&) {
    return false;
  }
}

}  // namespace

TEST_CASE(
    "every namespace gets the default ServiceAccount and kube-root-ca.crt, as kube-controller-manager makes them") {
  auto cluster = cluster_with({"default", "kube-system"});
  NamespaceDefaults defaults(cluster, {.root_ca_pem = ca, .log = {}});
  REQUIRE(defaults.wait_settled(5s));
  for (const char* ns : {"default", "kube-system"}) {
    const Json sa = cluster->get(service_accounts, {ns, "default"});
    CHECK(sa["metadata"]["name"] == "default");
    CHECK_FALSE(sa.contains("secrets"));  // no token Secret since 1.24
    const Json cm = cluster->get(config_maps, {ns, "kube-root-ca.crt"});
    CHECK(cm["data"] == Json{{"ca.crt", ca}});
    REQUIRE(cm["metadata"].contains("managedFields"));
    CHECK(cm["metadata"]["managedFields"][0]["manager"] == "kube-controller-manager");
    CHECK(cm["metadata"]["annotations"]["kubernetes.io/description"].get<std::string>().rfind(
              "Contains a CA bundle that can be used to verify the kube-apiserver", 0) == 0);
  }

  // A namespace made later gets them too.
  cluster->create(namespaces, namespace_("shop"));
  CHECK(eventually([&] {
    return exists(*cluster, service_accounts, "shop", "default") &&
           exists(*cluster, config_maps, "shop", "kube-root-ca.crt");
  }));
}

TEST_CASE("a deleted ServiceAccount or ConfigMap comes back; an edited ConfigMap gets its data back") {
  auto cluster = cluster_with({"shop"});
  NamespaceDefaults defaults(cluster, {.root_ca_pem = ca, .log = {}});
  REQUIRE(defaults.wait_settled(5s));
  const std::string first_uid = cluster->get(service_accounts, {"shop", "default"})["metadata"]["uid"];
  cluster->remove(service_accounts, {"shop", "default"});
  CHECK(eventually([&] {
    return exists(*cluster, service_accounts, "shop", "default") &&
           cluster->get(service_accounts, {"shop", "default"})["metadata"]["uid"] != first_uid;
  }));

  Json cm = cluster->get(config_maps, {"shop", "kube-root-ca.crt"});
  cm["data"]["ca.crt"] = "tampered";
  cm["data"]["extra"] = "x";
  cm["metadata"]["labels"] = {{"team", "a"}};
  cluster->update(config_maps, cm);
  CHECK(eventually([&] {
    const Json now = cluster->get(config_maps, {"shop", "kube-root-ca.crt"});
    return now["data"] == Json{{"ca.crt", ca}};
  }));
  CHECK(cluster->get(config_maps, {"shop", "kube-root-ca.crt"})["metadata"]["labels"]["team"] == "a");

  cluster->remove(config_maps, {"shop", "kube-root-ca.crt"});
  CHECK(eventually([&] { return exists(*cluster, config_maps, "shop", "kube-root-ca.crt"); }));
  // Other ServiceAccounts and ConfigMaps are not its business.
  cluster->create(config_maps, Json{{"apiVersion", "v1"},
                                    {"kind", "ConfigMap"},
                                    {"metadata", {{"name", "mine"}, {"namespace", "shop"}}},
                                    {"data", {{"k", "v"}}}});
  cluster->remove(config_maps, {"shop", "mine"});
  std::this_thread::sleep_for(100ms);
  CHECK_FALSE(exists(*cluster, config_maps, "shop", "mine"));
}

TEST_CASE("without a CA only the ServiceAccount is made; a terminating namespace gets nothing") {
  auto cluster = cluster_with({"plain"});
  NamespaceDefaults defaults(cluster, {.root_ca_pem = "", .log = {}});
  REQUIRE(defaults.wait_settled(5s));
  CHECK(exists(*cluster, service_accounts, "plain", "default"));
  CHECK_FALSE(exists(*cluster, config_maps, "plain", "kube-root-ca.crt"));

  using rr::kube_controllers::detail::active;
  CHECK(active(Json{{"metadata", {{"name", "a"}}}, {"status", {{"phase", "Active"}}}}));
  CHECK_FALSE(active(Json{{"metadata", {{"name", "a"}}}, {"status", {{"phase", "Terminating"}}}}));
  CHECK_FALSE(active(Json{{"metadata", {{"name", "a"}, {"deletionTimestamp", "2026-01-01T00:00:00Z"}}}}));
}

TEST_CASE("the kinds must be registered") {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind(namespaces);
  CHECK_THROWS_AS(NamespaceDefaults{cluster}, std::invalid_argument);
}
