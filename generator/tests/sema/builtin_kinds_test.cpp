// The generator's view of rr::builtin comes from the embedded schemas/*.yaml; these checks pin
// what specs and backends rely on (resource names, scope, C++ names, headers).
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>

#include "sema/builtin_kinds.hpp"
#include "support/embedded.hpp"

namespace rrgen {
namespace {

const ResolvedKind* find(const std::string& group, const std::string& kind) {
  const auto& all = builtin_kinds();
  auto it = std::find_if(all.begin(), all.end(), [&](const ResolvedKind& k) { return k.group == group && k.kind == kind; });
  return it == all.end() ? nullptr : &*it;
}

TEST_CASE("the built-in kinds are the ones rr::builtin compiles") {
  const ResolvedKind* cm = find("", "ConfigMap");
  REQUIRE(cm != nullptr);
  CHECK(cm->version == "v1");
  CHECK(cm->plural == "configmaps");
  CHECK(cm->namespaced);
  CHECK_FALSE(cm->has_status);
  CHECK(cm->builtin);
  CHECK(cm->cpp_type == "k8s::core::v1::ConfigMap");
  CHECK(cm->header == "k8s/core/v1/config_map.hpp");

  const ResolvedKind* deploy = find("apps", "Deployment");
  REQUIRE(deploy != nullptr);
  CHECK(deploy->plural == "deployments");
  CHECK(deploy->has_status);
  CHECK(deploy->cpp_type == "k8s::apps::v1::Deployment");

  const ResolvedKind* lease = find("coordination.k8s.io", "Lease");
  REQUIRE(lease != nullptr);
  CHECK(lease->cpp_type == "k8s::coordination::v1::Lease");

  const ResolvedKind* ns = find("", "Namespace");
  REQUIRE(ns != nullptr);
  CHECK_FALSE(ns->namespaced);

  for (const char* kind : {"Secret", "Service", "ServiceAccount", "Event", "Pod", "PersistentVolumeClaim", "Node"}) {
    CAPTURE(kind);
    CHECK(find("", kind) != nullptr);
  }
}

TEST_CASE("every group-version a 1.35 server serves has its kinds, with the facts of its paths") {
  const ResolvedKind* sts = find("apps", "StatefulSet");
  REQUIRE(sts != nullptr);
  CHECK(sts->plural == "statefulsets");
  CHECK(sts->has_status);
  const ResolvedKind* crb = find("rbac.authorization.k8s.io", "ClusterRoleBinding");
  REQUIRE(crb != nullptr);
  CHECK_FALSE(crb->namespaced);
  const ResolvedKind* crd = find("apiextensions.k8s.io", "CustomResourceDefinition");
  REQUIRE(crd != nullptr);  // JSONSchemaProps contains itself: generated with rr::Box
  CHECK(crd->cpp_type == "k8s::apiextensions::v1::CustomResourceDefinition");
  std::set<std::string> group_versions;
  for (const auto& k : builtin_kinds()) group_versions.insert(k.group + "/" + k.version);
  CHECK(group_versions.size() >= 35);  // 36 documents; one (storagemigration) may define no kind of its own
  CHECK(group_versions.count("resource.k8s.io/v1beta2") == 1);
  CHECK(group_versions.count("admissionregistration.k8s.io/v1alpha1") == 1);
}

TEST_CASE("a bare kind name means the kind kubectl picks") {
  auto preferred = [](const std::string& group, const std::string& version, const std::string& kind) {
    for (const auto& k : builtin_kinds())
      if (k.group == group && k.version == version && k.kind == kind) return builtin_preferred(k);
    FAIL("no built-in kind " << group << "/" << version << "/" << kind);
    return false;
  };
  CHECK(preferred("", "v1", "Event"));
  CHECK_FALSE(preferred("events.k8s.io", "v1", "Event"));
  CHECK(preferred("autoscaling", "v2", "HorizontalPodAutoscaler"));
  CHECK_FALSE(preferred("autoscaling", "v1", "HorizontalPodAutoscaler"));
  CHECK(preferred("resource.k8s.io", "v1", "ResourceClaim"));
  CHECK_FALSE(preferred("resource.k8s.io", "v1beta2", "ResourceClaim"));
  CHECK_FALSE(preferred("resource.k8s.io", "v1beta1", "ResourceClaim"));
  CHECK(preferred("networking.k8s.io", "v1", "IPAddress"));
  CHECK_FALSE(preferred("networking.k8s.io", "v1beta1", "IPAddress"));
}

TEST_CASE("embedded files are sorted and found by path") {
  const auto files = embedded_files();
  REQUIRE(!files.empty());
  CHECK(std::is_sorted(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; }));
  CHECK(embedded_file("schemas/kubernetes-1.35/core-v1.yaml").find("ConfigMap") != std::string_view::npos);
  CHECK(embedded_file("schemas/none.yaml").empty());
}

}  // namespace
}  // namespace rrgen
