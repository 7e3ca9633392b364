// RBAC escalation prevention (see the header); upstream: pkg/registry/rbac/validation and the
// policy-based storages of roles, clusterroles and their bindings.
#include "escalation_check.hpp"

#include <algorithm>
#include <set>

#include "json_members.hpp"
#include "rr/client/api_error.hpp"
#include "rr/client/quote.hpp"

namespace rr::apiserver_detail {

namespace {

constexpr std::string_view rbac_group = "rbac.authorization.k8s.io";

bool has(const std::vector<std::string>& set, std::string_view value) {
  return std::find(set.begin(), set.end(), value) != set.end();
}

bool has_all(const std::vector<std::string>& set, const std::vector<std::string>& values) {
  return std::all_of(values.begin(), values.end(), [&](const std::string& v) { return has(set, v); });
}

bool resource_covers_all(const std::vector<std::string>& set, const std::vector<std::string>& covers) {
  if (has(set, "*") || has_all(set, covers)) return true;
  return std::all_of(covers.begin(), covers.end(), [&](const std::string& path) {
    if (has(set, path)) return true;
    const auto slash = path.find('/');
    return slash != std::string::npos && has(set, "*/" + path.substr(slash + 1));
  });
}

bool url_covers(const std::string& owner, const std::string& sub) {
  if (owner == sub) return true;
  if (owner.empty() || owner.back() != '*') return false;
  const std::string prefix = owner.substr(0, owner.find_last_not_of('*') + 1);
  return sub.compare(0, prefix.size(), prefix) == 0;
}

bool urls_cover_all(const std::vector<std::string>& set, const std::vector<std::string>& covers) {
  return std::all_of(covers.begin(), covers.end(), [&](const std::string& path) {
    return std::any_of(set.begin(), set.end(), [&](const std::string& owner) { return url_covers(owner, path); });
  });
}

// Go's %q of a []string: ["a" "b"].
std::string quoted_list(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? " " : "") + go_quote(values[i]);
  return out + "]";
}

// CompactRules: rules of one group and one resource (and at most one name) merge their verbs.
std::vector<PolicyRule> compact_rules(const std::vector<PolicyRule>& rules) {
  std::vector<PolicyRule> out;
  std::vector<std::size_t> simple;  // indices into out of the simple rules
  for (const PolicyRule& rule : rules) {
    const bool is_simple = rule.api_groups.size() == 1 && rule.resources.size() == 1 &&
                           rule.non_resource_urls.empty() && rule.resource_names.size() <= 1;
    if (is_simple) {
      const auto same = std::find_if(simple.begin(), simple.end(), [&](std::size_t i) {
        return out[i].api_groups == rule.api_groups && out[i].resources == rule.resources &&
               out[i].resource_names == rule.resource_names;
      });
      if (same != simple.end()) {
        out[*same].verbs.insert(out[*same].verbs.end(), rule.verbs.begin(), rule.verbs.end());
        continue;
      }
      simple.push_back(out.size());
    }
    out.push_back(rule);
  }
  return out;
}

std::vector<PolicyRule> rules_of(const Json& object) {
  std::vector<PolicyRule> rules;
  if (auto it = object.find("rules"); it != object.end() && it->is_array()) {
    for (const Json& rule : *it) rules.push_back(policy_rule_of(rule));
  }
  return rules;
}

// What is left of an object once the fields a garbage collector may change are set aside
// (IsOnlyMutatingGCFields), with the server-set metadata too.
Json without_gc_fields(Json object) {
  if (auto meta = object.find("metadata"); meta != object.end() && meta->is_object()) {
    for (const char* key : {"ownerReferences", "finalizers", "resourceVersion", "managedFields", "generation",
                            "creationTimestamp", "uid"}) {
      meta->erase(key);
    }
  }
  return object;
}

// rbac.RoleRef printed as Go's %#v prints it in the roleRef validation error.
std::string role_ref_text(const Json& ref) {
  return "rbac.RoleRef{APIGroup:" + go_quote(member_string(ref, "apiGroup")) +
         ", Kind:" + go_quote(member_string(ref, "kind")) + ", Name:" + go_quote(member_string(ref, "name")) + "}";
}

Status forbidden(const std::string& plural, const std::string& name, const std::string& text) {
  return api_errors::forbidden(plural, rbac_group, name, text);
}

}  // namespace

std::vector<PolicyRule> breakdown_rule(const PolicyRule& rule) {
  std::vector<PolicyRule> out;
  for (const auto& group : rule.api_groups) {
    for (const auto& resource : rule.resources) {
      for (const auto& verb : rule.verbs) {
        if (rule.resource_names.empty()) {
          out.push_back(PolicyRule{.verbs = {verb}, .api_groups = {group}, .resources = {resource}});
        }
        for (const auto& name : rule.resource_names) {
          out.push_back(
              PolicyRule{.verbs = {verb}, .api_groups = {group}, .resources = {resource}, .resource_names = {name}});
        }
      }
    }
  }
  for (const auto& url : rule.non_resource_urls) {
    for (const auto& verb : rule.verbs) out.push_back(PolicyRule{.verbs = {verb}, .non_resource_urls = {url}});
  }
  return out;
}

bool rule_covers(const PolicyRule& owner, const PolicyRule& sub) {
  const bool verbs = has(owner.verbs, "*") || has_all(owner.verbs, sub.verbs);
  const bool groups = has(owner.api_groups, "*") || has_all(owner.api_groups, sub.api_groups);
  const bool resources = resource_covers_all(owner.resources, sub.resources);
  const bool urls = urls_cover_all(owner.non_resource_urls, sub.non_resource_urls);
  const bool names = owner.resource_names.empty() ||
                     (!sub.resource_names.empty() && has_all(owner.resource_names, sub.resource_names));
  return verbs && groups && resources && urls && names;
}

std::vector<PolicyRule> uncovered_rules(const std::vector<PolicyRule>& owner, const std::vector<PolicyRule>& servant) {
  std::vector<PolicyRule> out;
  for (const PolicyRule& rule : servant) {
    for (PolicyRule& sub : breakdown_rule(rule)) {
      const bool covered = std::any_of(owner.begin(), owner.end(),
                                       [&](const PolicyRule& o) { return rule_covers(o, sub); });
      if (!covered) out.push_back(std::move(sub));
    }
  }
  return out;
}

std::string compact_string(const PolicyRule& rule) {
  std::vector<std::string> parts;
  if (!rule.api_groups.empty()) parts.push_back("APIGroups:" + quoted_list(rule.api_groups));
  if (!rule.resources.empty()) parts.push_back("Resources:" + quoted_list(rule.resources));
  if (!rule.non_resource_urls.empty()) parts.push_back("NonResourceURLs:" + quoted_list(rule.non_resource_urls));
  if (!rule.resource_names.empty()) parts.push_back("ResourceNames:" + quoted_list(rule.resource_names));
  if (!rule.verbs.empty()) parts.push_back("Verbs:" + quoted_list(rule.verbs));
  std::string out = "{";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out + "}";
}

std::string escalation_message(const UserInfo& user, const std::vector<PolicyRule>& missing,
                               const std::vector<std::string>& resolution_errors) {
  std::set<std::string> descriptions;  // sorted and unique, as sets.NewString().List()
  for (const PolicyRule& rule : compact_rules(missing)) descriptions.insert(compact_string(rule));
  std::string text = "user " + go_quote(user.name) + " (groups=" + quoted_list(user.groups) +
                     ") is attempting to grant RBAC permissions not currently held:";
  for (const auto& description : descriptions) text += "\n" + description;
  if (!resolution_errors.empty()) text += "; resolution errors: [" + aggregate_errors(resolution_errors) + "]";
  return text;
}

void confirm_rbac_write(const Authorizer& authorizer, const UserInfo& user, const GroupVersionKind& gvk,
                        const std::string& namespace_, const Json& object, const Json* old) {
  if (gvk.group != rbac_group) return;
  const bool binding = gvk.kind == "RoleBinding" || gvk.kind == "ClusterRoleBinding";
  const bool role = gvk.kind == "Role" || gvk.kind == "ClusterRole";
  if (!binding && !role) return;
  const std::string name = object.value("/metadata/name"_json_pointer, std::string());
  const Json role_ref = object.value("roleRef", Json::object());
  if (binding && old && old->value("roleRef", Json::object()) != role_ref) {
    const std::string message = "roleRef: Invalid value: " + role_ref_text(role_ref) + ": cannot change roleRef";
    throw ApiError(
        api_errors::invalid(gvk.kind, rbac_group, name,
                            {StatusCause{.type = "FieldValueInvalid", .message = message, .field = "roleRef"}}));
  }
  if (!authorizer.enforcing() || has(user.groups, masters_group)) return;   // EscalationAllowed
  if (old && without_gc_fields(*old) == without_gc_fields(object)) return;  // IsOnlyMutatingGCFields

  const std::string plural = gvk.kind == "Role"          ? "roles"
                             : gvk.kind == "ClusterRole" ? "clusterroles"
                             : gvk.kind == "RoleBinding" ? "rolebindings"
                                                         : "clusterrolebindings";
  auto allowed = [&](const std::string& verb, const std::string& resource, const std::string& resource_name) {
    return authorizer
        .authorize(RequestAttributes{.user = user,
                                     .verb = verb,
                                     .group = std::string(rbac_group),
                                     .resource = resource,
                                     .namespace_ = namespace_,
                                     .name = resource_name})
        .allowed;
  };
  const GrantedRules held = authorizer.granted_rules(user, namespace_);
  std::vector<PolicyRule> owner;
  for (const auto& granted : held.rules) owner.push_back(granted.rule);
  auto confirm = [&](const std::vector<PolicyRule>& rules) {
    const auto missing = uncovered_rules(owner, rules);
    if (!missing.empty()) throw ApiError(forbidden(plural, name, escalation_message(user, missing, held.errors)));
  };

  if (role) {
    if (allowed("escalate", plural, old ? name : std::string())) return;  // RoleEscalationAuthorized
    confirm(rules_of(object));
    const bool aggregated = object.contains("aggregationRule") && !object["aggregationRule"].is_null();
    const bool aggregation_changed = aggregated &&
                                     (!old || old->value("aggregationRule", Json()) != object["aggregationRule"]);
    if (gvk.kind == "ClusterRole" && aggregation_changed) {
      const std::vector<PolicyRule> full_authority = {
          PolicyRule{.verbs = {"*"}, .api_groups = {"*"}, .resources = {"*"}},
          PolicyRule{.verbs = {"*"}, .non_resource_urls = {"*"}}};
      if (!uncovered_rules(owner, full_authority).empty()) {
        throw ApiError(forbidden(plural, name, "must have cluster-admin privileges to use the aggregationRule"));
      }
    }
    return;
  }
  // A binding: `bind` on the role it refers to (BindingAuthorized), or holding all its rules.
  const std::string ref_kind = member_string(role_ref, "kind");
  const std::string ref_plural = ref_kind == "Role" ? "roles" : "clusterroles";
  if (allowed("bind", ref_plural, member_string(role_ref, "name"))) return;
  const RoleRules referenced = authorizer.role_reference_rules(role_ref, namespace_);
  if (!referenced.error.empty()) throw ApiError(forbidden(plural, name, referenced.error));
  confirm(referenced.rules);
}

}  // namespace rr::apiserver_detail
