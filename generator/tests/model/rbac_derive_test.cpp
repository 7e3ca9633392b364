// Least-privilege RBAC derived from hand-built resolved specs.
#include "model/rbac_derive.hpp"

#include <doctest/doctest.h>

#include <sstream>

using namespace rrgen;

namespace {

using Strings = std::vector<std::string>;

ResolvedKind kind(std::string group, std::string k, std::string plural, bool namespaced = true, bool has_status = false) {
  ResolvedKind out;
  out.group = std::move(group);
  out.version = "v1";
  out.kind = std::move(k);
  out.plural = std::move(plural);
  out.namespaced = namespaced;
  out.has_status = has_status;
  return out;
}

const std::string build_group = "build.example.rrgen.dev";

// The seeds' Function reconciler: a sync step reading a ConfigMap, and an owned Image child.
struct FunctionSpec {
  ReconcilerSpec spec;
  ResolvedSpec resolved;

  FunctionSpec() {
    spec.name = "Function";
    spec.leader_election_id = "function.build.example.rrgen.dev";
    SpecStep sync;
    sync.type = StepType::Sync;
    sync.name = "TargetImage";
    SpecStep child;
    child.type = StepType::Child;
    child.name = "ChildImage";
    spec.steps = {sync, child};
    relink();
    resolved.file_stem = "function";
    resolved.resource = kind(build_group, "Function", "functions", true, true);
    resolved.steps[0].tracks = {kind("", "ConfigMap", "configmaps")};
    resolved.steps[1].child = kind(build_group, "Image", "images", true, true);
  }
  // The resolved steps point into spec.steps: call after changing the steps.
  void relink() {
    resolved.spec = &spec;
    resolved.steps.resize(spec.steps.size());
    for (std::size_t i = 0; i < spec.steps.size(); ++i) resolved.steps[i].step = &spec.steps[i];
  }
};

std::string show(const std::vector<PolicyRule>& rules) {
  std::ostringstream out;
  auto list = [&](const Strings& values) {
    out << "[";
    for (std::size_t i = 0; i < values.size(); ++i) out << (i ? "," : "") << values[i];
    out << "]";
  };
  for (const auto& r : rules) {
    list(r.api_groups);
    list(r.resources);
    if (!r.resource_names.empty()) list(r.resource_names);
    if (!r.non_resource_urls.empty()) list(r.non_resource_urls);
    out << " ";
    list(r.verbs);
    out << "\n";
  }
  return out.str();
}

const std::vector<PolicyRule>& rules_of(const RoleSet& roles, const std::string& ns, const std::string& name) {
  REQUIRE(roles.roles.count(RoleKey{ns, name}) == 1);
  return roles.roles.at(RoleKey{ns, name}).rules;
}

}  // namespace

TEST_CASE("rbac derive: names follow the file stem; the deploy namespace defaults to <app>-system") {
  FunctionSpec f;
  f.resolved.file_stem = "web_app";
  DeployNames n = deploy_names(f.resolved);
  CHECK(n.app == "web-app");
  CHECK(n.namespace_ == "web-app-system");
  CHECK(n.manager_role == "web-app-manager-role");
  CHECK(n.leader_election_role == "web-app-leader-election-role");
  CHECK(n.service_account == "web-app-controller-manager");
  CHECK(binding_name(n.manager_role) == "web-app-manager-rolebinding");
  f.spec.deploy_namespace = "operators";
  CHECK(deploy_names(f.resolved).namespace_ == "operators");
}

TEST_CASE("rbac derive: the Function reconciler gets exactly what the runtime calls") {
  FunctionSpec f;
  const RoleSet roles = derive_rbac(f.resolved);
  REQUIRE(roles.roles.size() == 2);
  CHECK(show(rules_of(roles, "", "function-manager-role")) ==
        "[][configmaps] [get,list,watch]\n"
        "[][events] [create,patch]\n"
        "[build.example.rrgen.dev][functions] [get,list,watch]\n"
        "[build.example.rrgen.dev][functions/finalizers] [update]\n"
        "[build.example.rrgen.dev][functions/status] [get,update]\n"
        "[build.example.rrgen.dev][images] [create,delete,get,list,update,watch]\n");
  CHECK(show(rules_of(roles, "function-system", "function-leader-election-role")) ==
        "[][events] [create,patch]\n"
        "[coordination.k8s.io][leases] [create,delete,get,list,patch,update,watch]\n");
  CHECK(roles.roles.at(RoleKey{"", "function-manager-role"}).origins == Strings{rbac_origin_derived});
}

TEST_CASE("rbac derive: a finalizer patches the resource; no owned child, no finalizers subresource") {
  FunctionSpec f;
  f.spec.steps[0].finalizer = "build.example.rrgen.dev/cleanup";
  f.spec.steps[1].finalizer = "build.example.rrgen.dev/image";  // finalizer mode: no owner reference
  f.spec.leader_election_id.clear();
  const RoleSet roles = derive_rbac(f.resolved);
  CHECK(roles.roles.size() == 1);  // no leader election role
  CHECK(show(rules_of(roles, "", "function-manager-role")) ==
        "[][configmaps] [get,list,watch]\n"
        "[][events] [create,patch]\n"
        "[build.example.rrgen.dev][functions] [get,list,patch,watch]\n"
        "[build.example.rrgen.dev][functions/status] [get,update]\n"
        "[build.example.rrgen.dev][images] [create,delete,get,list,update,watch]\n");
}

TEST_CASE("rbac derive: no status subresource, no status rule; equal verbs merge across kinds") {
  FunctionSpec f;
  f.resolved.resource = kind("", "ConfigMap", "configmaps");
  f.spec.steps.pop_back();
  f.relink();
  f.resolved.steps[0].tracks = {kind("", "Secret", "secrets"), kind("apps", "Deployment", "deployments", true, true)};
  const RoleSet roles = derive_rbac(f.resolved);
  CHECK(show(rules_of(roles, "", "function-manager-role")) ==
        "[][configmaps,secrets] [get,list,watch]\n"
        "[][events] [create,patch]\n"
        "[apps][deployments] [get,list,watch]\n");
}

TEST_CASE("rbac derive: a child set is owned like a child; a kind both tracked and a child gets the union") {
  FunctionSpec f;
  SpecStep set;
  set.type = StepType::ChildSet;
  set.name = "Workers";
  f.spec.steps.push_back(set);
  f.relink();
  f.resolved.steps[1].child.reset();  // only the child set owns children now
  f.spec.steps[1].type = StepType::Sync;
  f.resolved.steps[2].child = kind("apps", "Deployment", "deployments", true, true);
  f.resolved.steps[0].tracks.push_back(kind("apps", "Deployment", "deployments", true, true));
  f.spec.leader_election_id.clear();
  const RoleSet roles = derive_rbac(f.resolved);
  CHECK(show(rules_of(roles, "", "function-manager-role")) ==
        "[][configmaps] [get,list,watch]\n"
        "[][events] [create,patch]\n"
        "[apps][deployments] [create,delete,get,list,update,watch]\n"
        "[build.example.rrgen.dev][functions] [get,list,watch]\n"
        "[build.example.rrgen.dev][functions/finalizers] [update]\n"
        "[build.example.rrgen.dev][functions/status] [get,update]\n");
}

TEST_CASE("rbac derive: Namespace scope makes a Role, and a ClusterRole only for what a Role cannot grant") {
  FunctionSpec f;
  f.spec.scope = Scope::Namespace;
  f.spec.leader_election_id.clear();
  f.resolved.steps[0].tracks.push_back(kind("", "Namespace", "namespaces", /*namespaced=*/false));
  SpecRule secrets;
  secrets.api_groups = {"core"};
  secrets.resources = {"secrets"};
  secrets.verbs = {"get"};
  SpecRule metrics;
  metrics.non_resource_urls = {"/metrics"};
  metrics.verbs = {"get"};
  f.spec.rbac = {secrets, metrics};

  const RoleSet roles = derive_rbac(f.resolved);
  REQUIRE(roles.roles.size() == 2);
  CHECK(show(rules_of(roles, "function-system", "function-manager-role")) ==
        "[][configmaps] [get,list,watch]\n"
        "[][events] [create,patch]\n"
        "[][secrets] [get]\n"
        "[build.example.rrgen.dev][functions] [get,list,watch]\n"
        "[build.example.rrgen.dev][functions/finalizers] [update]\n"
        "[build.example.rrgen.dev][functions/status] [get,update]\n"
        "[build.example.rrgen.dev][images] [create,delete,get,list,update,watch]\n");
  CHECK(show(rules_of(roles, "", "function-manager-role")) ==
        "[][][/metrics] [get]\n"
        "[][namespaces] [get,list,watch]\n");
  CHECK(roles.roles.at(RoleKey{"", "function-manager-role"}).origins == Strings{rbac_origin_derived, rbac_origin_extra});
  CHECK(roles.roles.at(RoleKey{"function-system", "function-manager-role"}).origins ==
        Strings{rbac_origin_derived, rbac_origin_extra});
}

TEST_CASE("rbac derive: extra rules merge with derived ones") {
  FunctionSpec f;
  f.spec.leader_election_id.clear();
  SpecRule extra;
  extra.api_groups = {""};
  extra.resources = {"configmaps", "secrets"};
  extra.verbs = {"get", "list", "watch"};
  SpecRule more_images;
  more_images.api_groups = {build_group};
  more_images.resources = {"images"};
  more_images.verbs = {"patch"};
  f.spec.rbac = {extra, more_images};
  const RoleSet roles = derive_rbac(f.resolved);
  CHECK(show(rules_of(roles, "", "function-manager-role")) ==
        "[][configmaps,secrets] [get,list,watch]\n"
        "[][events] [create,patch]\n"
        "[build.example.rrgen.dev][functions] [get,list,watch]\n"
        "[build.example.rrgen.dev][functions/finalizers] [update]\n"
        "[build.example.rrgen.dev][functions/status] [get,update]\n"
        "[build.example.rrgen.dev][images] [create,delete,get,list,patch,update,watch]\n");
}
