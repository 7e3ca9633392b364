// rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding
// (pkg/apis/rbac/validation). Names are checked by the ObjectMeta layer (path segments).
#include <string>

#include "core_kinds.hpp"
#include "go_text.hpp"
#include "kind_util.hpp"
#include "rr/validation/label_selector.hpp"
#include "rr/validation/names.hpp"

namespace rr::validation::detail {
namespace {

constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";

ErrorList policy_rule(const Json& rule, bool namespaced, const std::string& path) {
  ErrorList errs;
  if (size_at(rule, "verbs") == 0) {
    errs.push_back(required(child(path, "verbs"), "verbs must contain at least one value"));
  }
  if (size_at(rule, "nonResourceURLs") > 0) {
    const std::string urls = go_json_string_list(string_list(value_at(rule, "nonResourceURLs")));
    if (namespaced) {
      errs.push_back(
          invalid_json(child(path, "nonResourceURLs"), urls, "namespaced rules cannot apply to non-resource URLs"));
    }
    if (size_at(rule, "apiGroups") > 0 || size_at(rule, "resources") > 0 || size_at(rule, "resourceNames") > 0) {
      errs.push_back(invalid_json(child(path, "nonResourceURLs"), urls,
                                  "rules cannot apply to both regular resources and non-resource URLs"));
    }
    return errs;
  }
  if (size_at(rule, "apiGroups") == 0) {
    errs.push_back(required(child(path, "apiGroups"), "resource rules must supply at least one api group"));
  }
  if (size_at(rule, "resources") == 0) {
    errs.push_back(required(child(path, "resources"), "resource rules must supply at least one resource"));
  }
  if (size_at(rule, "resourceNames") > 0 && size_at(rule, "resources") > 1) {
    errs.push_back(required(child(path, "resourceNames"), "resource names cannot apply to multiple resources"));
  }
  return errs;
}

ErrorList rules(const Json& role, bool namespaced) {
  ErrorList errs;
  if (const Json* list = array_at(role, "rules")) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      if ((*list)[i].is_object()) append(errs, policy_rule((*list)[i], namespaced, index("rules", i)));
    }
  }
  return errs;
}

ErrorList subject(const Json& s, bool namespaced, const std::string& path) {
  ErrorList errs;
  const std::string_view name = string_member(s, "name");
  const std::string_view kind = string_member(s, "kind");
  const std::string_view api_group = string_member(s, "apiGroup");
  if (name.empty()) errs.push_back(required(child(path, "name")));
  if (kind == "ServiceAccount") {
    if (!name.empty()) invalid_each(errs, child(path, "name"), name, is_dns1123_subdomain(name));
    if (!api_group.empty()) errs.push_back(not_supported(child(path, "apiGroup"), api_group, {""}));
    if (!namespaced && string_member(s, "namespace").empty()) errs.push_back(required(child(path, "namespace")));
  } else if (kind == "User" || kind == "Group") {
    if (name.empty()) {
      errs.push_back(invalid(child(path, "name"), name,
                             kind == "User" ? "user name cannot be empty" : "group name cannot be empty"));
    }
    if (api_group != kRbacGroup) {
      errs.push_back(not_supported(child(path, "apiGroup"), api_group, {std::string(kRbacGroup)}));
    }
  } else {
    errs.push_back(not_supported(child(path, "kind"), kind, {"ServiceAccount", "User", "Group"}));
  }
  return errs;
}

ErrorList binding(const Json& b, bool namespaced) {
  ErrorList errs;
  const Json& ref = value_at(b, "roleRef");
  const std::string_view api_group = string_member(ref, "apiGroup");
  const std::string_view kind = string_member(ref, "kind");
  const std::string_view name = string_member(ref, "name");
  if (api_group != kRbacGroup) errs.push_back(not_supported("roleRef.apiGroup", api_group, {std::string(kRbacGroup)}));
  if (namespaced ? kind != "Role" && kind != "ClusterRole" : kind != "ClusterRole") {
    errs.push_back(not_supported(
        "roleRef.kind", kind,
        namespaced ? std::vector<std::string>{"Role", "ClusterRole"} : std::vector<std::string>{"ClusterRole"}));
  }
  if (name.empty()) {
    errs.push_back(required("roleRef.name"));
  } else {
    invalid_each(errs, "roleRef.name", name, is_valid_path_segment_name(name));
  }
  if (const Json* subjects = array_at(b, "subjects")) {
    for (std::size_t i = 0; i < subjects->size(); ++i) {
      if ((*subjects)[i].is_object()) append(errs, subject((*subjects)[i], namespaced, index("subjects", i)));
    }
  }
  return errs;
}

// roleRef is immutable: a binding grants what its role grants, so changing it means a new binding.
ErrorList binding_update(const Json& now, const Json& old, bool namespaced) {
  ErrorList errs = binding(now, namespaced);
  const Json& ref = value_at(now, "roleRef");
  const Json& old_ref = value_at(old, "roleRef");
  bool same = true;
  for (const char* f : {"apiGroup", "kind", "name"}) same = same && string_member(ref, f) == string_member(old_ref, f);
  if (!same) {
    // json.Marshal of the internal rbac.RoleRef (no JSON tags: Go field names).
    const std::string shown = "{\"APIGroup\":" + go_json_string(string_member(ref, "apiGroup")) +
                              ",\"Kind\":" + go_json_string(string_member(ref, "kind")) +
                              ",\"Name\":" + go_json_string(string_member(ref, "name")) + "}";
    errs.push_back(invalid_json("roleRef", shown, "cannot change roleRef"));
  }
  return errs;
}

}  // namespace

ErrorList cluster_role_selectors(const Json& aggregation_rule, const std::string& path) {
  ErrorList errs;
  const Json* selectors = array_at(aggregation_rule, "clusterRoleSelectors");
  if (!selectors) return errs;
  for (std::size_t i = 0; i < selectors->size(); ++i) {
    const std::string at = index(path, i);
    append(errs, validate_label_selector((*selectors)[i], at));
    // LabelSelectorAsSelector failing leaves a nil selector, which the finding shows as null.
    if (!label_selector_matches((*selectors)[i], Json::object())) {
      errs.push_back(invalid_json(at, "null", "invalid label selector."));
    }
  }
  return errs;
}

ErrorList validate_role(const Json& role) { return rules(role, true); }
ErrorList validate_role_update(const Json& role, const Json&) { return rules(role, true); }

ErrorList validate_cluster_role(const Json& role) {
  ErrorList errs = rules(role, false);
  if (const Json* aggregation = object_at(role, "aggregationRule")) {
    const std::string path = "aggregationRule.clusterRoleSelectors";
    if (size_at(*aggregation, "clusterRoleSelectors") == 0) {
      errs.push_back(required(path, "at least one clusterRoleSelector required if aggregationRule is non-nil"));
    }
    append(errs, cluster_role_selectors(*aggregation, path));
  }
  return errs;
}
ErrorList validate_cluster_role_update(const Json& role, const Json&) { return validate_cluster_role(role); }

ErrorList validate_role_binding(const Json& b) { return binding(b, true); }
ErrorList validate_role_binding_update(const Json& b, const Json& old) { return binding_update(b, old, true); }
ErrorList validate_cluster_role_binding(const Json& b) { return binding(b, false); }
ErrorList validate_cluster_role_binding_update(const Json& b, const Json& old) { return binding_update(b, old, false); }

}  // namespace rr::validation::detail
