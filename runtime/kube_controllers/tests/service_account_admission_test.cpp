// ServiceAccountAdmission over a plain rr::Cluster: the `default` account is waited for (the lock
// released, so NamespaceDefaults can make it meanwhile) only while its Namespace exists.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/kube_controllers/service_account_admission.hpp"

using namespace std::chrono_literals;
using rr::Json;

namespace {

const rr::KindInfo sa_namespaces{{"", "v1", "Namespace"}, "namespaces", "NamespaceList", rr::Scope::Cluster, true};
const rr::KindInfo sa_accounts{
    {"", "v1", "ServiceAccount"}, "serviceaccounts", "ServiceAccountList", rr::Scope::Namespaced, false};
const rr::KindInfo sa_config_maps{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", rr::Scope::Namespaced, false};
const rr::KindInfo sa_pods{{"", "v1", "Pod"}, "pods", "PodList", rr::Scope::Namespaced, true};

std::shared_ptr<rr::Cluster> admitting_cluster() {
  auto cluster = std::make_shared<rr::Cluster>();
  for (const rr::KindInfo* kind : {&sa_namespaces, &sa_accounts, &sa_config_maps, &sa_pods}) {
    cluster->register_kind(*kind);
  }
  cluster->set_admission_plugin(
      std::make_shared<rr::kube_controllers::ServiceAccountAdmission>([] { return "abcde"; }));
  return cluster;
}

Json sa_pod(const std::string& ns) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", "p"}, {"namespace", ns}}},
          {"spec", {{"containers", Json::array({{{"name", "c"}, {"image", "x"}}})}}}};
}

}  // namespace

TEST_CASE("ServiceAccountAdmission: a pod created right after its namespace waits for the `default` account") {
  auto cluster = admitting_cluster();
  cluster->create(sa_namespaces, {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "fresh"}}}});
  // As NamespaceDefaults would, a little later; its create needs the lock the admission releases.
  std::thread controller([&] {
    std::this_thread::sleep_for(300ms);
    cluster->create(sa_accounts, {{"apiVersion", "v1"},
                                  {"kind", "ServiceAccount"},
                                  {"metadata", {{"name", "default"}, {"namespace", "fresh"}}}});
  });
  const auto start = std::chrono::steady_clock::now();
  const Json created = cluster->create(sa_pods, sa_pod("fresh"));
  controller.join();
  CHECK(std::chrono::steady_clock::now() - start >= 250ms);
  CHECK(created["spec"]["serviceAccountName"] == "default");
  CHECK(created["spec"]["volumes"][0]["name"] == "kube-api-access-abcde");
}

TEST_CASE("ServiceAccountAdmission: no waiting in a namespace that does not exist (lax clusters)") {
  auto cluster = admitting_cluster();
  const auto start = std::chrono::steady_clock::now();
  try {
    cluster->create(sa_pods, sa_pod("nowhere"));
    FAIL("admitted without an account");
  } catch (const rr::ApiError& e) {
    CHECK(e.status().code == 403);
    CHECK(e.status().message ==
          "pods \"p\" is forbidden: error looking up service account nowhere/default: serviceaccount \"default\" "
          "not found");
  }
  CHECK(std::chrono::steady_clock::now() - start < 500ms);
}
