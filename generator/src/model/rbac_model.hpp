// RBAC rules as Kubernetes spells them (rbac.authorization.k8s.io/v1 PolicyRule), grouped into
// roles, and the normalisation controller-gen applies to its +kubebuilder:rbac markers
// (controller-tools pkg/rbac/parser.go, NormalizeRules), so a rrgen role reads like a kubebuilder one.
// docs/rbac.md describes the steps and what is deliberately not done (subsumption).
#pragma once
#include <compare>
#include <map>
#include <string>
#include <vector>

namespace rrgen {

struct PolicyRule {
  std::vector<std::string> api_groups{};      // "" = the core group ("core" is accepted and rewritten)
  std::vector<std::string> resources{};       // "deployments", "functions/status"
  std::vector<std::string> resource_names{};
  std::vector<std::string> verbs{};
  std::vector<std::string> non_resource_urls{};

  friend bool operator==(const PolicyRule&, const PolicyRule&) = default;
};

// Which role a rule belongs to. An empty namespace means a ClusterRole; std::map orders roles by
// (namespace, name), which is the order controller-gen writes them in.
struct RoleKey {
  std::string namespace_{};
  std::string name{};

  bool cluster_role() const noexcept { return namespace_.empty(); }
  friend auto operator<=>(const RoleKey&, const RoleKey&) = default;
};

struct RoleRules {
  std::vector<PolicyRule> rules{};
  std::vector<std::string> origins{};  // sorted, distinct: where the rules came from (for comments)
};

struct RoleSet {
  std::map<RoleKey, RoleRules> roles{};

  void add(const RoleKey& role, PolicyRule rule, const std::string& origin);
};

// One producer of rules: the spec's derivation, the spec's `rbac:` entries, and later e.g. a
// source analysis that reports what the user's hooks call.
struct RuleSource {
  std::string origin;  // "derived from reconciler.yaml", "rbac: in reconciler.yaml"
  RoleSet roles;
};

// controller-gen's NormalizeRules:
//   1. one rule per resource (a rule without resources stays whole: non-resource URLs);
//   2. group "core" becomes "";
//   3. each field deduplicated and sorted;
//   4. verbs of rules with the same key (groups, resources, resourceNames, URLs) merged;
//   5. resources of rules equal in everything else merged; 6. then groups; 7. then URLs;
//   8. a rule holding "*" keeps only "*" as its verbs;
//   9. rules sorted by their key string ("groups + resources + resourceNames + URLs", '&'-joined).
// No subsumption: a rule whose permissions another rule already grants is kept.
// One deliberate difference: where a merge step yields two rules with the same key,
// controller-gen keeps whichever its map iteration saw last and drops the other; here their verbs
// are merged, so no permission is ever lost and the result does not depend on iteration order.
std::vector<PolicyRule> normalize_rules(std::vector<PolicyRule> rules);

// Every role of every source, each role's rules normalised together (so a rule from one source
// merges with a rule from another), each role listing the origins of its rules.
RoleSet merge_rule_sources(const std::vector<RuleSource>& sources);

}  // namespace rrgen
