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

// The Function reconciler: a sync step reading a ConfigMap, and an owned Image child.
ResolvedSpec function_spec() {
  ResolvedSpec spec;
  spec.name = "Function";
  spec.leader_election_id = "function.build.example.rrgen.dev";
  spec.file_stem = "function";
  spec.resource = kind(build_group, "Function", "functions", true, true);
  ResolvedStep sync;
  sync.type = StepKind::Sync;
  sync.name = "TargetImage";
  sync.tracks = {kind("", "ConfigMap", "configmaps")};
  ResolvedStep child;
  child.type = StepKind::Child;
  child.name = "ChildImage";
  child.child = kind(build_group, "Image", "images", true, true);
  spec.steps = {sync, child};
  return spec;
}

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
  ResolvedSpec spec = function_spec();
  spec.file_stem = "web_app";
  DeployNames n = deploy_names(spec);
  CHECK(n.app == "web-app");
  CHECK(n.namespace_ == "web-app-system");
  CHECK(n.manager_role == "web-app-manager-role");
  CHECK(n.leader_election_role == "web-app-leader-election-role");
  CHECK(n.service_account == "web-app-controller-manager");
  CHECK(binding_name(n.manager_role) == "web-app-manager-rolebinding");
  spec.deploy_namespace = "operators";
  CHECK(deploy_names(spec).namespace_ == "operators");
}

TEST_CASE("rbac derive: the Function reconciler gets exactly what the runtime calls") {
  ResolvedSpec spec = function_spec();
  const RoleSet roles = derive_rbac(spec);
  REQUIRE(roles.roles.size() == 2);
  CHECK(show(rules_of(roles, "", "function-manager-role")) ==
        "[][configmaps] [list,watch]\n"
        "[build.example.rrgen.dev][functions] [list,watch]\n"
        "[build.example.rrgen.dev][functions/finalizers,functions/status] [update]\n"
        "[build.example.rrgen.dev][images] [create,delete,get,list,update,watch]\n"
        "[events.k8s.io][events] [create,patch]\n");
  CHECK(show(rules_of(roles, "function-system", "function-leader-election-role")) ==
        "[coordination.k8s.io][leases] [create,get,update]\n");
  CHECK(roles.roles.at(RoleKey{"", "function-manager-role"}).origins == Strings{rbac_origin_derived});
}

TEST_CASE("rbac derive: statusWrite: apply patches the status subresource instead of updating it") {
  ResolvedSpec spec = function_spec();
  spec.status_apply = true;
  const RoleSet roles = derive_rbac(spec);
  CHECK(show(rules_of(roles, "", "function-manager-role")) ==
        "[][configmaps] [list,watch]\n"
        "[build.example.rrgen.dev][functions] [list,watch]\n"
        "[build.example.rrgen.dev][functions/finalizers] [update]\n"
        "[build.example.rrgen.dev][functions/status] [patch]\n"
        "[build.example.rrgen.dev][images] [create,delete,get,list,update,watch]\n"
        "[events.k8s.io][events] [create,patch]\n");
}

TEST_CASE("rbac derive: a finalizer patches the resource; no owned child, no finalizers subresource") {
  ResolvedSpec spec = function_spec();
  spec.steps[0].finalizer = "build.example.rrgen.dev/cleanup";
  spec.steps[1].finalizer = "build.example.rrgen.dev/image";  // finalizer mode: no owner reference
  spec.leader_election_id.clear();
  const RoleSet roles = derive_rbac(spec);
  CHECK(roles.roles.size() == 1);  // no leader election role
  CHECK(show(rules_of(roles, "", "function-manager-role")) ==
        "[][configmaps] [list,watch]\n"
        "[build.example.rrgen.dev][functions] [list,patch,watch]\n"
        "[build.example.rrgen.dev][functions/status] [update]\n"
        "[build.example.rrgen.dev][images] [create,delete,get,list,update,watch]\n"
        "[events.k8s.io][events] [create,patch]\n");
}

TEST_CASE("rbac derive: no status subresource, no status rule; equal verbs merge across kinds") {
  ResolvedSpec spec = function_spec();
  spec.resource = kind("", "ConfigMap", "configmaps");
  spec.steps.pop_back();
  spec.steps[0].tracks = {kind("", "Secret", "secrets"), kind("apps", "Deployment", "deployments", true, true)};
  const RoleSet roles = derive_rbac(spec);
  CHECK(show(rules_of(roles, "", "function-manager-role")) == "[][configmaps,secrets] [list,watch]\n"
                                                              "[apps][deployments] [list,watch]\n"
                                                              "[events.k8s.io][events] [create,patch]\n");
}

TEST_CASE("rbac derive: a child set is owned like a child; a kind both tracked and a child gets the union") {
  ResolvedSpec spec = function_spec();
  ResolvedStep set;
  set.type = StepKind::ChildSet;
  set.name = "Workers";
  spec.steps.push_back(set);
  spec.steps[1].child.reset();  // only the child set owns children now
  spec.steps[1].type = StepKind::Sync;
  spec.steps[2].child = kind("apps", "Deployment", "deployments", true, true);
  spec.steps[0].tracks.push_back(kind("apps", "Deployment", "deployments", true, true));
  spec.leader_election_id.clear();
  const RoleSet roles = derive_rbac(spec);
  CHECK(show(rules_of(roles, "", "function-manager-role")) ==
        "[][configmaps] [list,watch]\n"
        "[apps][deployments] [create,delete,get,list,update,watch]\n"
        "[build.example.rrgen.dev][functions] [list,watch]\n"
        "[build.example.rrgen.dev][functions/finalizers,functions/status] [update]\n"
        "[events.k8s.io][events] [create,patch]\n");
}

TEST_CASE("rbac derive: Namespace scope makes a Role, and a ClusterRole only for what a Role cannot grant") {
  ResolvedSpec spec = function_spec();
  spec.scope = ReconcilerScope::Namespace;
  spec.leader_election_id.clear();
  spec.steps[0].tracks.push_back(kind("", "Namespace", "namespaces", /*namespaced=*/false));
  PolicyRule secrets;
  secrets.api_groups = {"core"};
  secrets.resources = {"secrets"};
  secrets.verbs = {"get"};
  PolicyRule metrics;
  metrics.non_resource_urls = {"/metrics"};
  metrics.verbs = {"get"};
  spec.rbac = {secrets, metrics};

  const RoleSet roles = derive_rbac(spec);
  REQUIRE(roles.roles.size() == 2);
  CHECK(show(rules_of(roles, "function-system", "function-manager-role")) ==
        "[][configmaps] [list,watch]\n"
        "[][secrets] [get]\n"
        "[build.example.rrgen.dev][functions] [list,watch]\n"
        "[build.example.rrgen.dev][functions/finalizers,functions/status] [update]\n"
        "[build.example.rrgen.dev][images] [create,delete,get,list,update,watch]\n"
        "[events.k8s.io][events] [create,patch]\n");
  CHECK(show(rules_of(roles, "", "function-manager-role")) == "[][][/metrics] [get]\n"
                                                              "[][namespaces] [list,watch]\n");
  CHECK(roles.roles.at(RoleKey{"", "function-manager-role"}).origins == Strings{rbac_origin_derived, rbac_origin_extra});
  CHECK(roles.roles.at(RoleKey{"function-system", "function-manager-role"}).origins ==
        Strings{rbac_origin_derived, rbac_origin_extra});
}

TEST_CASE("rbac derive: namespaces: a Role in each watched namespace, none in the deploy namespace") {
  ResolvedSpec spec = function_spec();
  spec.scope = ReconcilerScope::Namespace;
  spec.namespaces = {"team-a", "team-b"};
  spec.steps[0].tracks.push_back(kind("", "Namespace", "namespaces", /*namespaced=*/false));
  PolicyRule secrets;
  secrets.api_groups = {""};
  secrets.resources = {"secrets"};
  secrets.verbs = {"get"};
  spec.rbac = {secrets};

  const RoleSet roles = derive_rbac(spec);
  // team-a, team-b, the ClusterRole for namespaces, the leader-election Role in the deploy namespace.
  REQUIRE(roles.roles.size() == 4);
  const std::string each = "[][configmaps] [list,watch]\n"
                           "[][secrets] [get]\n"
                           "[build.example.rrgen.dev][functions] [list,watch]\n"
                           "[build.example.rrgen.dev][functions/finalizers,functions/status] [update]\n"
                           "[build.example.rrgen.dev][images] [create,delete,get,list,update,watch]\n"
                           "[events.k8s.io][events] [create,patch]\n";
  CHECK(show(rules_of(roles, "team-a", "function-manager-role")) == each);
  CHECK(show(rules_of(roles, "team-b", "function-manager-role")) == each);
  CHECK_FALSE(roles.roles.contains(RoleKey{"function-system", "function-manager-role"}));
  CHECK(show(rules_of(roles, "", "function-manager-role")) == "[][namespaces] [list,watch]\n");
  CHECK(show(rules_of(roles, "function-system", "function-leader-election-role")) ==
        "[coordination.k8s.io][leases] [create,get,update]\n");
}

TEST_CASE("rbac derive: events: core/v1 grants core Events instead of events.k8s.io") {
  ResolvedSpec spec = function_spec();
  spec.core_v1_events = true;
  CHECK(show(rules_of(derive_rbac(spec), "", "function-manager-role")) ==
        "[][configmaps] [list,watch]\n"
        "[][events] [create,patch]\n"
        "[build.example.rrgen.dev][functions] [list,watch]\n"
        "[build.example.rrgen.dev][functions/finalizers,functions/status] [update]\n"
        "[build.example.rrgen.dev][images] [create,delete,get,list,update,watch]\n");
}

TEST_CASE("rbac derive: extra rules merge with derived ones") {
  ResolvedSpec spec = function_spec();
  spec.leader_election_id.clear();
  PolicyRule extra;
  extra.api_groups = {""};
  extra.resources = {"configmaps", "secrets"};
  extra.verbs = {"get", "list", "watch"};
  PolicyRule more_images;
  more_images.api_groups = {build_group};
  more_images.resources = {"images"};
  more_images.verbs = {"patch"};
  spec.rbac = {extra, more_images};
  const RoleSet roles = derive_rbac(spec);
  CHECK(show(rules_of(roles, "", "function-manager-role")) ==
        "[][configmaps,secrets] [get,list,watch]\n"
        "[build.example.rrgen.dev][functions] [list,watch]\n"
        "[build.example.rrgen.dev][functions/finalizers,functions/status] [update]\n"
        "[build.example.rrgen.dev][images] [create,delete,get,list,patch,update,watch]\n"
        "[events.k8s.io][events] [create,patch]\n");
}

TEST_CASE("rbac derive: a duck: each kind listed, watched and its status patched; never created or updated") {
  ResolvedSpec spec;
  spec.name = "Watcher";
  spec.file_stem = "watcher";
  ResolvedDuck duck;
  duck.name = "Conditions";
  duck.cpp_type = "rr::ConditionsDuck";
  duck.kinds = {kind("apps", "Deployment", "deployments", true, true), kind("", "Node", "nodes", false, true)};
  spec.duck = duck;
  spec.resource.cpp_type = "rr::ConditionsDuck";  // what sema's duck_resource() sets: no group, no plural
  ResolvedStep sync;
  sync.type = StepKind::Sync;
  sync.name = "Mark";
  spec.steps = {sync};
  CHECK(show(rules_of(derive_rbac(spec), "", "watcher-manager-role")) == "[][nodes] [list,watch]\n"
                                                                         "[][nodes/status] [patch]\n"
                                                                         "[apps][deployments] [list,watch]\n"
                                                                         "[apps][deployments/status] [patch]\n"
                                                                         "[events.k8s.io][events] [create,patch]\n");
  // A finalizer is added and removed with a merge patch of each kind's metadata.
  spec.steps[0].finalizer = "watcher.rrgen.dev/release";
  CHECK(show(rules_of(derive_rbac(spec), "", "watcher-manager-role")) == "[][nodes] [list,patch,watch]\n"
                                                                         "[][nodes/status] [patch]\n"
                                                                         "[apps][deployments] [list,patch,watch]\n"
                                                                         "[apps][deployments/status] [patch]\n"
                                                                         "[events.k8s.io][events] [create,patch]\n");
}
