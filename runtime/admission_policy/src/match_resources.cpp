#include "match_resources.hpp"

#include <algorithm>

namespace rr::admission_policy::detail {

namespace {

bool listed(const std::vector<std::string>& values, std::string_view value) {
  return std::any_of(values.begin(), values.end(), [&](const std::string& v) { return v == "*" || v == value; });
}

// rules.Matcher with resourceNames: operation, group, version (any version under matchPolicy
// Equivalent: this cluster serves each resource in one version per group, so the equivalent
// resource is the same one), resource and subresource, scope, name.
bool rule_matches(const ResourceRule& rule, const AdmissionAttributes& a, bool equivalent) {
  const KindInfo& kind = a.kind;
  if (!listed(rule.operations, operation_text(a.operation))) return false;
  if (!listed(rule.api_groups, kind.gvk.group)) return false;
  if (!equivalent && !listed(rule.api_versions, kind.gvk.version)) return false;
  if (rule.scope == "Cluster" && kind.namespaced()) return false;
  if (rule.scope == "Namespaced" && !kind.namespaced()) return false;
  if (!rule.resource_names.empty() &&
      std::find(rule.resource_names.begin(), rule.resource_names.end(), a.name) == rule.resource_names.end()) {
    return false;
  }
  return std::any_of(rule.resources.begin(), rule.resources.end(), [&](const std::string& written) {
    const std::size_t slash = written.find('/');
    const std::string resource = written.substr(0, slash);
    const std::string sub = slash == std::string::npos ? "" : written.substr(slash + 1);
    return (resource == "*" || resource == kind.plural) && (sub == "*" || sub == a.subresource);
  });
}

bool any_rule(const std::vector<ResourceRule>& rules, const AdmissionAttributes& a, bool equivalent) {
  return std::any_of(rules.begin(), rules.end(), [&](const ResourceRule& r) { return rule_matches(r, a, equivalent); });
}

// namespace.Matcher: a cluster-scoped object other than a Namespace always matches; a Namespace
// is matched by its own labels.
bool namespace_matches(const Selector& selector, const AdmissionAttributes& a) {
  if (selector.empty()) return true;
  if (a.kind.gvk == namespace_gvk) return selector.matches(labels_of(a.object ? a.object : a.old_object));
  if (a.namespace_.empty()) return true;
  return selector.matches(labels_of(a.store->find(namespace_gvk, ObjectKey{"", a.namespace_})));
}

// object.Matcher: the object's labels or the old object's.
bool object_matches(const Selector& selector, const AdmissionAttributes& a) {
  if (selector.empty()) return true;
  auto matches = [&](const Json* object) { return object && selector.matches(labels_of(object)); };
  return matches(a.object) || matches(a.old_object);
}

}  // namespace

bool matches(const MatchResources& m, const AdmissionAttributes& a) {
  if (!namespace_matches(m.namespace_selector, a) || !object_matches(m.object_selector, a)) return false;
  if (any_rule(m.exclude, a, m.equivalent)) return false;
  return m.rules.empty() || any_rule(m.rules, a, m.equivalent);
}

}  // namespace rr::admission_policy::detail
