// The rule side of `rrgen analyze`: the calls found in the sources, the RBAC markers and (with a
// spec) the spec's rules, merged into one RoleSet through merge_rule_sources(), each normalised
// rule with what is behind it; and the checks: a call no rule grants (error), with a spec a call
// only a marker grants (warning: generate's role.yaml lacks it), a marker or `rbac:` entry nothing
// uses (warning), a call whose kind is chosen at run time (warning, unless a marker grants its
// verb). No Clang here: call_finder.cpp hands over plain ApiCalls.
#pragma once
#include <string>
#include <vector>

#include "analyze/api_call.hpp"
#include "model/rbac_model.hpp"
#include "model/reconciler.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

// A rule somebody wrote: a marker or one of the spec's `rbac:` entries. The unused check is about these.
struct WrittenRule {
  Location location;
  std::string what;  // "+kubebuilder:rbac:groups=..." or "rbac: entry"
  RoleKey role;
  PolicyRule rule;
  bool marker = false;
};

inline constexpr const char* rbac_origin_calls = "the calls in the analysed sources";
inline constexpr const char* rbac_origin_markers = "+kubebuilder:rbac markers";

struct AnalysisInput {
  std::vector<ApiCall> calls;
  std::vector<WrittenRule> written;      // markers and the spec's rbac: entries
  std::vector<RuleSource> spec_sources;  // rbac_sources(spec); empty without --spec
  RoleKey calls_role;                    // where the calls' rules go
  RoleKey cluster_calls_role;            // ... for cluster-scoped kinds (== calls_role under Cluster scope)
  // With the spec's `namespaces:`, the manager's Role in each listed namespace: a call of a
  // namespaced kind may address any of them, so its rules go to each, and it is granted only when
  // it is granted in each (by that namespace's Role, a marker of that namespace or a ClusterRole).
  // Empty: calls_role, and any role's rule grants a call.
  std::vector<RoleKey> namespace_roles;
  RoleKey excluded_role;                 // the leader-election Role: grants nothing to the hooks
  bool check_coverage = false;           // a spec or markers given: every call must be granted
};

struct ExplainedRule {
  RoleKey role;
  PolicyRule rule;
  std::vector<std::string> sources;         // origins of spec rules behind it ("derived from ...")
  std::vector<const ApiCall*> calls;        // the calls it grants
  std::vector<const WrittenRule*> written;  // the markers and rbac: entries behind it
};

struct Analysis {
  RoleSet roles;
  std::vector<ExplainedRule> explained;    // in role order, each role's rules in normalised order
  std::vector<const ApiCall*> unresolved;  // calls whose kind the analysis could not see
};

// True when `rule` allows `verb` on `resource` ("deployments", "webapps/status") of `group`,
// with Kubernetes' wildcards ("*" verb, group, resource; "*/status"). A rule with resourceNames
// is taken to match (the object's name is chosen at run time) for the verbs that name an object.
bool rule_grants(const PolicyRule& rule, const std::string& group, const std::string& resource,
                 const std::string& verb);

// Fills the plural of calls that named only a GroupVersionKind from `known` (the built-in kinds and
// the spec's kinds); a call whose kind is in neither stays unresolved.
void resolve_plurals(std::vector<ApiCall>& calls, const std::vector<ResolvedKind>& known);

// The event recorder's calls address the Event API the operator writes (the spec's `events:`):
// with `core_v1`, core/v1 `events` instead of events.k8s.io's.
void follow_events_api(std::vector<ApiCall>& calls, bool core_v1);

// `input` is kept by the result (it points into input.calls and input.written).
Analysis analyze_rules(const AnalysisInput& input, Diagnostics& diags);

}  // namespace rrgen
