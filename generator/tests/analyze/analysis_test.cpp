// The rule side of rrgen analyze: Kubernetes' matching of a rule against a request, the merge of
// calls, markers and spec rules, and the three checks (ungranted call, unused rule, unresolved call).
#include "analyze/analysis.hpp"

#include <doctest/doctest.h>

#include "analyze/call_table.hpp"

using namespace rrgen;

namespace {

using Strings = std::vector<std::string>;

ApiCall call(std::string group, std::string resource, Strings verbs, std::uint32_t line) {
  ApiCall c;
  c.location = Location{intern_file_name("hooks.cpp"), line, 3};
  c.callee = "rr::Client::get<T>";
  c.verbs = std::move(verbs);
  c.resolved = true;
  c.group = std::move(group);
  c.resource = std::move(resource);
  return c;
}

WrittenRule marker(PolicyRule rule, std::uint32_t line) {
  return WrittenRule{Location{intern_file_name("hooks.cpp"), line, 4}, "+kubebuilder:rbac:...",
                     RoleKey{"", "manager-role"}, std::move(rule), true};
}

// Calls and written rules, checked (as with a spec or markers), every rule in one ClusterRole.
AnalysisInput checked(std::vector<ApiCall> calls, std::vector<WrittenRule> written) {
  AnalysisInput in;
  in.calls = std::move(calls);
  in.written = std::move(written);
  in.calls_role = in.cluster_calls_role = RoleKey{"", "manager-role"};
  in.check_coverage = true;
  return in;
}

std::vector<std::string> checks(const Diagnostics& diags) {
  std::vector<std::string> out;
  for (const Diagnostic& d : diags.all()) out.push_back(d.check + "@" + std::to_string(d.location.line));
  return out;
}

// The checks analyze_rules() reports on `in`, as "check@line".
std::vector<std::string> checks_of(const AnalysisInput& in) {
  Diagnostics diags;
  (void)analyze_rules(in, diags);
  return checks(diags);
}

}  // namespace

TEST_CASE("rule_grants: verbs, groups, resources and subresources, with Kubernetes' wildcards") {
  const PolicyRule apps{{"apps"}, {"deployments"}, {}, {"get", "list"}, {}};
  CHECK(rule_grants(apps, "apps", "deployments", "get"));
  CHECK_FALSE(rule_grants(apps, "apps", "deployments", "watch"));
  CHECK_FALSE(rule_grants(apps, "", "deployments", "get"));
  CHECK_FALSE(rule_grants(apps, "apps", "deployments/status", "get"));  // a subresource is its own resource
  CHECK(rule_grants(PolicyRule{{"*"}, {"*"}, {}, {"*"}, {}}, "x.dev", "things/status", "patch"));
  CHECK(rule_grants(PolicyRule{{"apps"}, {"*/scale"}, {}, {"patch"}, {}}, "apps", "deployments/scale", "patch"));
  CHECK(rule_grants(PolicyRule{{"core"}, {"secrets"}, {}, {"get"}, {}}, "", "secrets", "get"));
  // resourceNames: the name is chosen at run time; it can match get/update/patch/delete, never a
  // collection verb.
  const PolicyRule named{{""}, {"configmaps"}, {"settings"}, {"get", "list"}, {}};
  CHECK(rule_grants(named, "", "configmaps", "get"));
  CHECK_FALSE(rule_grants(named, "", "configmaps", "list"));
}

TEST_CASE("analyze_rules: a call no spec rule or marker grants is an error at the call") {
  const AnalysisInput in = checked({call("", "secrets", {"get"}, 10), call("", "configmaps", {"get"}, 11)},
                                   {marker(PolicyRule{{""}, {"configmaps"}, {}, {"get"}, {}}, 2)});
  Diagnostics diags;
  const Analysis a = analyze_rules(in, diags);
  CHECK(checks(diags) == Strings{"rbac-ungranted-call@10"});
  // The rules still hold every call: the output is what the code needs.
  REQUIRE(a.roles.roles.size() == 1);
  CHECK(a.roles.roles.begin()->second.rules ==
        std::vector<PolicyRule>{PolicyRule{{""}, {"configmaps", "secrets"}, {}, {"get"}, {}}});
}

TEST_CASE("analyze_rules: a read through a client of unknown origin is granted by get, or by list and watch") {
  ApiCall read = call("", "secrets", {"get"}, 30);
  read.or_verbs = {"list", "watch"};
  const PolicyRule informer{{""}, {"secrets"}, {}, {"list", "watch"}, {}};
  const PolicyRule list_only{{""}, {"secrets"}, {}, {"list"}, {}};
  CHECK(checks_of(checked({read}, {marker(informer, 1)})).empty());
  CHECK(checks_of(checked({read}, {marker(PolicyRule{{""}, {"secrets"}, {}, {"get"}, {}}, 1)})).empty());
  // list without watch serves no informer: neither way is granted.
  Diagnostics diags;
  (void)analyze_rules(checked({read}, {marker(list_only, 1)}), diags);
  REQUIRE(checks(diags) == Strings{"rbac-ungranted-call@30"});
  CHECK(diags.all()[0].message.find("needs 'get' on 'secrets'") != std::string::npos);
  CHECK(diags.all()[0].message.find("(or 'list' and 'watch'") != std::string::npos);
}

TEST_CASE("analyze_rules: with a spec, a call only a marker grants is a warning (role.yaml lacks it)") {
  AnalysisInput in = checked({call("", "configmaps", {"get"}, 10), call("batch", "jobs", {"create"}, 11)},
                             {marker(PolicyRule{{"batch"}, {"jobs"}, {}, {"create"}, {}}, 2)});
  RuleSource spec{"derived from the reconciler spec", {}};
  spec.roles.add(RoleKey{"", "manager-role"}, PolicyRule{{""}, {"configmaps"}, {}, {"get"}, {}}, spec.origin);
  in.spec_sources = {spec};
  CHECK(checks_of(in) == Strings{"rbac-marker-only@11"});  // a warning: nothing else, no error
}

TEST_CASE("analyze_rules: without a spec or markers nothing is checked, only merged") {
  AnalysisInput in;
  in.calls = {call("apps", "deployments", {"get"}, 5), call("apps", "deployments", {"update"}, 6)};
  in.calls_role = in.cluster_calls_role = RoleKey{"", "manager-role"};
  Diagnostics diags;
  const Analysis a = analyze_rules(in, diags);
  CHECK(diags.all().empty());
  REQUIRE(a.explained.size() == 1);
  CHECK(a.explained[0].rule.verbs == Strings{"get", "update"});
  CHECK(a.explained[0].calls.size() == 2);
}

TEST_CASE("analyze_rules: a marker nothing uses is a warning; one covering an unresolved call is used") {
  ApiCall runtime_kind = call("", "", {"delete"}, 20);
  runtime_kind.resolved = false;
  runtime_kind.unresolved_reason = "a parameter";
  const AnalysisInput in = checked({runtime_kind, call("", "pods", {"list"}, 21)},
                                   {marker(PolicyRule{{"batch"}, {"jobs"}, {}, {"create"}, {}}, 1),
                                    marker(PolicyRule{{"apps"}, {"deployments"}, {}, {"delete"}, {}}, 2),
                                    marker(PolicyRule{{""}, {"pods"}, {}, {"list"}, {}}, 3)});
  Diagnostics diags;
  const Analysis a = analyze_rules(in, diags);
  CHECK(checks(diags) == Strings{"rbac-unused-rule@1"});
  CHECK(a.unresolved.size() == 1);
}

TEST_CASE("analyze_rules: an unresolved call no marker covers is a warning, not an error") {
  ApiCall runtime_kind = call("", "", {"list"}, 7);
  runtime_kind.resolved = false;
  CHECK(checks_of(checked({runtime_kind}, {})) == Strings{"rbac-unresolved-call@7"});  // a warning only
}

TEST_CASE("resolve_plurals: a call naming only a GroupVersionKind gets the plural of a known kind") {
  ApiCall c;
  c.group = "apps";
  c.version = "v1";
  c.kind = "StatefulSet";
  c.subresource = "status";
  c.verbs = {"update"};
  ApiCall unknown = c;
  unknown.kind = "Nothing";
  std::vector<ApiCall> calls{c, unknown};
  ResolvedKind known;
  known.group = "apps", known.version = "v1", known.kind = "StatefulSet", known.plural = "statefulsets";
  resolve_plurals(calls, {known});
  CHECK(calls[0].resolved);
  CHECK(calls[0].resource == "statefulsets/status");
  CHECK_FALSE(calls[1].resolved);
}

TEST_CASE("call_table: each verb of the client has its typed and unstructured forms") {
  CHECK(call_forms("rr::Client", "update_status").front()->subresource == "status");
  CHECK(call_forms("rr::Client", "remove").front()->verbs == std::vector<std::string_view>{"delete"});
  CHECK(call_forms("rr::Api", "remove_collection").empty());  // Api<T> has none
  CHECK(call_forms("rr::Client", "kind_info").empty());       // discovery: no RBAC
  CHECK(call_forms("rr::EventRecorder", "event").front()->kind_from == KindFrom::CoreEvents);
}
