#include "rbac_authorizer.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "json_members.hpp"
#include "rr/client/label_selector.hpp"
#include "rr/client/quote.hpp"
#include "scale_subresource.hpp"

namespace rr::apiserver_detail {

namespace {

bool contains(const std::vector<std::string>& values, std::string_view value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

bool verb_matches(const PolicyRule& rule, const std::string& verb) {
  return contains(rule.verbs, "*") || contains(rule.verbs, verb);
}

bool group_matches(const PolicyRule& rule, const std::string& group) {
  return contains(rule.api_groups, "*") || contains(rule.api_groups, group);
}

bool resource_matches(const PolicyRule& rule, const std::string& combined, const std::string& subresource) {
  for (const auto& resource : rule.resources) {
    if (resource == "*" || resource == combined) return true;
    if (!subresource.empty() && resource == "*/" + subresource) return true;
  }
  return false;
}

bool name_matches(const PolicyRule& rule, const std::string& name) {
  return rule.resource_names.empty() || contains(rule.resource_names, name);
}

bool url_matches(const PolicyRule& rule, const std::string& path) {
  for (const auto& url : rule.non_resource_urls) {
    if (url == "*" || url == path) return true;
    if (!url.empty() && url.back() == '*') {
      const std::string_view prefix = std::string_view(url).substr(0, url.find_last_not_of('*') + 1);
      if (path.compare(0, prefix.size(), prefix) == 0) return true;
    }
  }
  return false;
}

const Json* find_named(const std::vector<Json>& objects, const std::string& name, const std::string& namespace_) {
  for (const Json& object : objects) {
    if (meta_string(object, "name") == name && meta_string(object, "namespace") == namespace_) return &object;
  }
  return nullptr;
}

std::map<std::string, std::string> labels_of(const Json& object) {
  std::map<std::string, std::string> out;
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return out;
  auto labels = meta->find("labels");
  if (labels == meta->end() || !labels->is_object()) return out;
  for (const auto& [key, value] : labels->items()) {
    if (value.is_string()) out[key] = value.get<std::string>();
  }
  return out;
}

bool selector_matches(const Json& selector, const std::map<std::string, std::string>& labels) {
  try {
    return Selector::parse(format_label_selector(selector)).matches(labels);
  } catch (const std::exception&) {
    return false;  // an invalid selector matches nothing, as the controller skips it
  }
}

void collect_rules(const RbacObjects& objects, const Json& role, std::set<std::string>& visiting,
                   std::vector<PolicyRule>& out) {
  auto add = [&out](PolicyRule rule) {
    if (std::find(out.begin(), out.end(), rule) == out.end()) out.push_back(std::move(rule));
  };
  auto aggregation = role.find("aggregationRule");
  const bool aggregated = aggregation != role.end() && aggregation->is_object() &&
                          aggregation->contains("clusterRoleSelectors");
  if (!aggregated) {
    if (auto rules = role.find("rules"); rules != role.end() && rules->is_array()) {
      for (const Json& rule : *rules) add(policy_rule_of(rule));
    }
    return;
  }
  const std::string self = meta_string(role, "name");
  visiting.insert(self);
  const Json& selectors = (*aggregation)["clusterRoleSelectors"];
  if (!selectors.is_array()) return;
  for (const Json& selector : selectors) {
    std::vector<const Json*> matched;
    for (const Json& other : objects.cluster_roles) {
      if (!visiting.contains(meta_string(other, "name")) && selector_matches(selector, labels_of(other))) {
        matched.push_back(&other);
      }
    }
    // The controller takes the matched roles by name.
    std::sort(matched.begin(), matched.end(),
              [](const Json* a, const Json* b) { return meta_string(*a, "name") < meta_string(*b, "name"); });
    for (const Json* other : matched) {
      std::vector<PolicyRule> nested;
      collect_rules(objects, *other, visiting, nested);
      for (auto& rule : nested) add(std::move(rule));
    }
  }
  visiting.erase(self);
}

}  // namespace

RoleRules role_reference_rules(const RbacObjects& objects, const Json& ref, const std::string& binding_namespace) {
  const std::string kind = member_string(ref, "kind");
  const std::string name = member_string(ref, "name");
  if (kind == "Role") {
    const Json* role = find_named(objects.roles, name, binding_namespace);
    if (!role) return {{}, "role.rbac.authorization.k8s.io " + go_quote(name) + " not found"};
    std::vector<PolicyRule> rules;
    std::set<std::string> visiting;
    collect_rules(objects, *role, visiting, rules);
    return {std::move(rules), {}};
  }
  if (kind == "ClusterRole") {
    const Json* role = find_named(objects.cluster_roles, name, "");
    if (!role) return {{}, "clusterrole.rbac.authorization.k8s.io " + go_quote(name) + " not found"};
    return {cluster_role_rules(objects, *role), {}};
  }
  return {{}, "unsupported role reference kind: " + go_quote(kind)};
}

namespace {

CompiledBinding compile_binding(const RbacObjects& objects, const Json& binding, const std::string& binding_namespace) {
  CompiledBinding out;
  out.binding_namespace = binding_namespace;
  if (auto subjects = binding.find("subjects"); subjects != binding.end() && subjects->is_array()) {
    for (const Json& subject : *subjects) {
      out.subjects.push_back(
          {member_string(subject, "kind"), member_string(subject, "name"), member_string(subject, "namespace")});
    }
  }
  const Json ref = binding.value("roleRef", Json::object());
  RoleRules found = role_reference_rules(objects, ref, binding_namespace);
  out.rules = std::move(found.rules);
  out.error = std::move(found.error);
  const std::string name = meta_string(binding, "name");
  const std::string role = member_string(ref, "kind") + " " + go_quote(member_string(ref, "name"));
  out.source_prefix = binding_namespace.empty()
                          ? "ClusterRoleBinding " + go_quote(name) + " of " + role + " to "
                          : "RoleBinding " + go_quote(name + "/" + binding_namespace) + " of " + role + " to ";
  return out;
}

// rbac appliesToUser: a ServiceAccount subject without a namespace takes the binding's.
bool subject_applies(const CompiledBinding::Subject& subject, const UserInfo& user,
                     const std::string& binding_namespace) {
  if (subject.kind == "User") return user.name == subject.name;
  if (subject.kind == "Group") return contains(user.groups, subject.name);
  if (subject.kind == "ServiceAccount") {
    const std::string& ns = subject.namespace_.empty() ? binding_namespace : subject.namespace_;
    return !ns.empty() && user.name == service_account_user(ns, subject.name);
  }
  return false;
}

std::string describe_subject(const CompiledBinding::Subject& subject, const std::string& binding_namespace) {
  std::string name = subject.name;
  if (subject.kind == "ServiceAccount")
    name += "/" + (subject.namespace_.empty() ? binding_namespace : subject.namespace_);
  return subject.kind + " " + go_quote(name);
}

// The subject of `binding` that `user` is, if any.
const CompiledBinding::Subject* matching_subject(const CompiledBinding& binding, const UserInfo& user) {
  for (const auto& subject : binding.subjects) {
    if (subject_applies(subject, user, binding.binding_namespace)) return &subject;
  }
  return nullptr;
}

}  // namespace

PolicyRule policy_rule_of(const Json& rule) {
  return PolicyRule{.verbs = member_strings(rule, "verbs"),
                    .api_groups = member_strings(rule, "apiGroups"),
                    .resources = member_strings(rule, "resources"),
                    .resource_names = member_strings(rule, "resourceNames"),
                    .non_resource_urls = member_strings(rule, "nonResourceURLs")};
}

Json to_json(const PolicyRule& rule) {
  Json out = Json::object();
  out["verbs"] = rule.verbs;
  if (!rule.api_groups.empty()) out["apiGroups"] = rule.api_groups;
  if (!rule.resources.empty()) out["resources"] = rule.resources;
  if (!rule.resource_names.empty()) out["resourceNames"] = rule.resource_names;
  if (!rule.non_resource_urls.empty()) out["nonResourceURLs"] = rule.non_resource_urls;
  return out;
}

bool rule_allows(const RequestAttributes& request, const PolicyRule& rule) {
  if (!verb_matches(rule, request.verb)) return false;
  if (!request.resource_request) return url_matches(rule, request.path);
  const std::string combined = request.subresource.empty() ? request.resource
                                                           : request.resource + "/" + request.subresource;
  return group_matches(rule, request.group) && resource_matches(rule, combined, request.subresource) &&
         name_matches(rule, request.name);
}

std::string service_account_user(std::string_view namespace_, std::string_view name) {
  return "system:serviceaccount:" + std::string(namespace_) + ":" + std::string(name);
}

std::vector<PolicyRule> cluster_role_rules(const RbacObjects& objects, const Json& cluster_role) {
  std::vector<PolicyRule> out;
  std::set<std::string> visiting;
  collect_rules(objects, cluster_role, visiting, out);
  return out;
}

CompiledRbac compile_rbac(const RbacObjects& objects, const std::string& namespace_) {
  CompiledRbac out;
  for (const Json& binding : objects.cluster_role_bindings)
    out.bindings.push_back(compile_binding(objects, binding, ""));
  if (namespace_.empty()) return out;
  for (const Json& binding : objects.role_bindings) {
    if (meta_string(binding, "namespace") == namespace_) {
      out.bindings.push_back(compile_binding(objects, binding, namespace_));
    }
  }
  return out;
}

GrantedRules rules_for(const CompiledRbac& compiled, const UserInfo& user) {
  GrantedRules out;
  for (const CompiledBinding& binding : compiled.bindings) {
    const auto* subject = matching_subject(binding, user);
    if (!subject) continue;
    if (!binding.error.empty()) {
      out.errors.push_back(binding.error);
      continue;
    }
    const std::string source = binding.source_prefix + describe_subject(*subject, binding.binding_namespace);
    for (const auto& rule : binding.rules) out.rules.push_back(GrantedRule{rule, source});
  }
  return out;
}

GrantedRules rules_for(const RbacObjects& objects, const UserInfo& user, const std::string& namespace_) {
  return rules_for(compile_rbac(objects, namespace_), user);
}

Decision rbac_authorize(const CompiledRbac& compiled, const RequestAttributes& request) {
  std::vector<std::string> errors;
  for (const CompiledBinding& binding : compiled.bindings) {
    const auto* subject = matching_subject(binding, request.user);
    if (!subject) continue;
    if (!binding.error.empty()) {
      errors.push_back(binding.error);
      continue;
    }
    for (const auto& rule : binding.rules) {
      if (rule_allows(request, rule)) {
        return Decision{
            true, "RBAC: allowed by " + binding.source_prefix + describe_subject(*subject, binding.binding_namespace)};
      }
    }
  }
  return Decision{false, errors.empty() ? std::string() : "RBAC: " + aggregate_errors(errors)};
}

Decision rbac_authorize(const RbacObjects& objects, const RequestAttributes& request) {
  return rbac_authorize(compile_rbac(objects, request.namespace_), request);
}

std::string aggregate_errors(const std::vector<std::string>& errors) {
  if (errors.size() == 1) return errors.front();
  std::string out = "[";
  for (std::size_t i = 0; i < errors.size(); ++i) out += (i ? ", " : "") + errors[i];
  return out + "]";
}

}  // namespace rr::apiserver_detail
