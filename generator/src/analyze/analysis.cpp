#include "analyze/analysis.hpp"

#include <algorithm>

namespace rrgen {
namespace {

bool has(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

bool resource_matches(const std::vector<std::string>& resources, const std::string& resource) {
  if (has(resources, "*") || has(resources, resource)) return true;
  const std::size_t slash = resource.find('/');
  return slash != std::string::npos && has(resources, "*" + resource.substr(slash));
}

std::string core_group(std::string g) { return g == "core" ? std::string() : g; }

// Any (group, resource, verb) that both rules allow.
bool overlaps(const PolicyRule& a, const PolicyRule& b) {
  for (const std::string& g : a.api_groups) {
    for (const std::string& r : a.resources) {
      for (const std::string& v : a.verbs) {
        if (rule_grants(b, core_group(g), r, v)) return true;
      }
    }
  }
  for (const std::string& g : b.api_groups) {
    for (const std::string& r : b.resources) {
      for (const std::string& v : b.verbs) {
        if (rule_grants(a, core_group(g), r, v)) return true;
      }
    }
  }
  return !a.non_resource_urls.empty() && a == b;
}

// Every verb a call may use: its own and its alternative (a read the informer cache may serve).
std::vector<std::string> any_verbs(const ApiCall& call) {
  std::vector<std::string> verbs = call.verbs;
  verbs.insert(verbs.end(), call.or_verbs.begin(), call.or_verbs.end());
  return verbs;
}

bool call_granted_by(const ApiCall& call, const PolicyRule& rule) {
  if (!call.resolved) return false;
  for (const std::string& v : any_verbs(call)) {
    if (rule_grants(rule, call.group, call.resource, v)) return true;
  }
  return false;
}

std::string group_text(const std::string& group) { return group.empty() ? "\"\" (core)" : "\"" + group + "\""; }

std::string quoted_list(const std::vector<std::string>& verbs) {
  std::string out;
  for (std::size_t i = 0; i < verbs.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == verbs.size() ? " and " : ", ") + ("'" + verbs[i] + "'");
  }
  return out;
}

// What a call needs, in words: "'get' on 'secrets' in API group "" (core)", with the alternative.
std::string need_text(const ApiCall& call, const std::vector<std::string>& verbs) {
  std::string text = quoted_list(verbs) + " on '" + call.resource + "' in API group " + group_text(call.group);
  if (!call.or_verbs.empty()) {
    text += " (or " + quoted_list(call.or_verbs) + ", should the client be the controller's cached one)";
  }
  return text;
}

// The first of `granting` that grants each verb of `verbs`, the largest of those indexes:
// granting.size() when a verb is granted by none.
std::size_t granted_through(const std::vector<PolicyRule>& granting, const ApiCall& call,
                            const std::vector<std::string>& verbs, std::vector<std::string>& missing) {
  std::size_t last = 0;
  for (const std::string& verb : verbs) {
    std::size_t first = granting.size();
    for (std::size_t i = 0; i < granting.size() && first == granting.size(); ++i) {
      if (rule_grants(granting[i], call.group, call.resource, verb)) first = i;
    }
    if (first == granting.size()) missing.push_back(verb);
    last = std::max(last, first);
  }
  return last;
}

// The roles a resolved call's rules go to: the ClusterRole for a cluster-scoped kind; under
// `namespaces:` the Role of each listed namespace; else the manager role.
std::vector<RoleKey> roles_of(const AnalysisInput& input, const ApiCall& call) {
  if (call.cluster_scoped) return {input.cluster_calls_role};
  if (!input.namespace_roles.empty()) return input.namespace_roles;
  return {input.calls_role};
}

bool has_role(const std::vector<RoleKey>& roles, const RoleKey& key) {
  return std::find(roles.begin(), roles.end(), key) != roles.end();
}

// The namespaces a call must be granted in: each listed one under `namespaces:` for a namespaced
// kind; otherwise {""}, any role's rule counting.
std::vector<std::string> checked_namespaces(const AnalysisInput& input, const ApiCall& call) {
  if (call.cluster_scoped || input.namespace_roles.empty()) return {std::string()};
  std::vector<std::string> out;
  for (const RoleKey& role : input.namespace_roles) out.push_back(role.namespace_);
  return out;
}

}  // namespace

bool rule_grants(const PolicyRule& rule, const std::string& group, const std::string& resource,
                 const std::string& verb) {
  if (!has(rule.verbs, "*") && !has(rule.verbs, verb)) return false;
  bool group_ok = has(rule.api_groups, "*");
  for (const std::string& g : rule.api_groups) group_ok = group_ok || core_group(g) == group;
  if (!group_ok || !resource_matches(rule.resources, resource)) return false;
  // resourceNames narrows to named objects: list, watch, create and deletecollection name none.
  if (!rule.resource_names.empty()) {
    return verb == "get" || verb == "update" || verb == "patch" || verb == "delete";
  }
  return true;
}

void resolve_plurals(std::vector<ApiCall>& calls, const std::vector<ResolvedKind>& known) {
  for (ApiCall& call : calls) {
    if (call.resolved || call.kind.empty() || !call.resource.empty()) continue;
    for (const ResolvedKind& k : known) {
      if (k.group == call.group && k.kind == call.kind && (call.version.empty() || k.version == call.version)) {
        call.resource = k.plural + (call.subresource.empty() ? "" : "/" + call.subresource);
        call.cluster_scoped = !k.namespaced;
        call.resolved = true;
        call.unresolved_reason.clear();
        break;
      }
    }
  }
}

void follow_events_api(std::vector<ApiCall>& calls, bool core_v1) {
  if (!core_v1) return;
  for (ApiCall& call : calls) {
    if (!call.event_recorder) continue;
    call.group.clear();
    call.version = "v1";
  }
}

Analysis analyze_rules(const AnalysisInput& input, Diagnostics& diags) {
  Analysis out;
  std::vector<RuleSource> sources = input.spec_sources;

  RuleSource from_calls{rbac_origin_calls, {}};
  for (const ApiCall& call : input.calls) {
    if (!call.resolved) {
      out.unresolved.push_back(&call);
      continue;
    }
    for (const RoleKey& role : roles_of(input, call)) {
      from_calls.roles.add(role, PolicyRule{{call.group}, {call.resource}, {}, call.verbs, {}}, rbac_origin_calls);
    }
  }
  RuleSource from_markers{rbac_origin_markers, {}};
  for (const WrittenRule& w : input.written) {
    if (w.marker) from_markers.roles.add(w.role, w.rule, rbac_origin_markers);
  }
  // What grants a hook's call: the spec's rules and the markers, never the calls themselves, and
  // never the leader-election Role; each with the namespace of its Role ("" for a ClusterRole).
  std::vector<PolicyRule> granting;
  std::vector<std::string> granting_namespaces;
  for (const RuleSource& s : sources) {
    for (const auto& entry : s.roles.roles) {
      if (entry.first == input.excluded_role) continue;
      granting.insert(granting.end(), entry.second.rules.begin(), entry.second.rules.end());
      granting_namespaces.insert(granting_namespaces.end(), entry.second.rules.size(), entry.first.namespace_);
    }
  }
  const std::size_t spec_rules = granting.size();
  for (const WrittenRule& w : input.written) {
    if (!w.marker) continue;
    granting.push_back(w.rule);
    granting_namespaces.push_back(w.role.namespace_);
  }

  std::vector<bool> used(input.written.size(), false);
  for (const ApiCall& call : input.calls) {
    if (!call.resolved) {
      // A marker that grants the verb is the way to cover a call the analysis cannot resolve.
      bool covered = false;
      for (std::size_t i = 0; i < input.written.size(); ++i) {
        const WrittenRule& w = input.written[i];
        for (const std::string& v : any_verbs(call)) {
          if (w.marker && (has(w.rule.verbs, v) || has(w.rule.verbs, "*"))) covered = true, used[i] = true;
        }
      }
      if (!covered) {
        diags.warning(
            call.location, "rbac-unresolved-call",
            call.callee + ": what it addresses is chosen at run time (" + call.unresolved_reason +
                "), so the analysis cannot tell what it needs; a // +kubebuilder:rbac marker granting its verb (" +
                call.verbs.front() + ") covers it");
      }
      continue;
    }
    for (std::size_t i = 0; i < input.written.size(); ++i) {
      if (call_granted_by(call, input.written[i].rule)) used[i] = true;
    }
    if (!input.check_coverage) continue;
    // Granted when all of its verbs are, or all of the alternative's (a cached read); under
    // `namespaces:`, in each listed namespace.
    std::vector<std::string> missing, ungranted_in;
    bool marker_only = false;
    for (const std::string& ns : checked_namespaces(input, call)) {
      std::vector<PolicyRule> here;  // the rules that reach `ns`, in granting's order
      std::size_t here_spec_rules = 0;
      for (std::size_t i = 0; i < granting.size(); ++i) {
        if (!ns.empty() && !granting_namespaces[i].empty() && granting_namespaces[i] != ns) continue;
        here.push_back(granting[i]);
        if (i < spec_rules) ++here_spec_rules;
      }
      std::vector<std::string> missing_here, alternative_missing;
      std::size_t granted_by = granted_through(here, call, call.verbs, missing_here);
      if (!call.or_verbs.empty()) {
        granted_by = std::min(granted_by, granted_through(here, call, call.or_verbs, alternative_missing));
      }
      if (granted_by == here.size()) {
        if (missing.empty()) missing = missing_here;
        ungranted_in.push_back(ns);
      } else if (granted_by >= here_spec_rules) {
        marker_only = true;
      }
    }
    if (!ungranted_in.empty()) {
      std::string where;
      if (!ungranted_in.front().empty())
        where = (ungranted_in.size() == 1 ? " in namespace " : " in namespaces ") + quoted_list(ungranted_in);
      diags.error(call.location, "rbac-ungranted-call",
                  call.callee + " needs " + need_text(call, missing) + ", which no rule grants" + where +
                      ": add it to the spec's rbac: or write a // +kubebuilder:rbac marker");
    } else if (!input.spec_sources.empty() && marker_only) {
      // rrgen generate's role.yaml holds the spec's rules only: what a marker alone grants is in
      // the analysed role, not in the deployed one.
      diags.warning(call.location, "rbac-marker-only",
                    call.callee + " needs " + need_text(call, call.verbs) +
                        ", which only a marker grants: the role rrgen generate writes from the spec lacks it; add "
                        "it to the spec's rbac: or deploy the analysed role");
    }
  }
  for (std::size_t i = 0; i < input.written.size(); ++i) {
    if (used[i]) continue;
    const WrittenRule& w = input.written[i];
    diags.warning(w.location, "rbac-unused-rule",
                  (w.marker ? std::string("RBAC marker") : std::string("rbac: entry")) +
                      " grants nothing that a call in the analysed sources needs");
  }

  sources.push_back(std::move(from_markers));
  sources.push_back(std::move(from_calls));
  out.roles = merge_rule_sources(sources);
  for (const auto& [key, rules] : out.roles.roles) {
    for (const PolicyRule& rule : rules.rules) {
      ExplainedRule e{key, rule, {}, {}, {}};
      for (const RuleSource& s : input.spec_sources) {
        const auto it = s.roles.roles.find(key);
        if (it == s.roles.roles.end()) continue;
        for (const PolicyRule& r : it->second.rules) {
          if (overlaps(r, rule) && !has(e.sources, s.origin)) e.sources.push_back(s.origin);
        }
      }
      for (const ApiCall& call : input.calls) {
        const std::vector<RoleKey> roles = roles_of(input, call);
        if (has_role(roles, key) && call_granted_by(call, rule)) e.calls.push_back(&call);
      }
      for (const WrittenRule& w : input.written) {
        if (w.role == key && overlaps(w.rule, rule)) e.written.push_back(&w);
      }
      out.explained.push_back(std::move(e));
    }
  }
  return out;
}

}  // namespace rrgen
