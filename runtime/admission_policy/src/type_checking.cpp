#include "type_checking.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "admission_types.hpp"
#include "rr/cel/program.hpp"
#include "rr/schema_cel/cel_rules.hpp"

namespace rr::admission_policy::detail {

namespace {

constexpr std::size_t kMaxTypesToCheck = 10;  // upstream's maxTypesToCheck

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// RESTMapper.KindsFor of an explicit group/version/resource: the served kinds with that plural
// (or singular) name.
std::vector<GroupVersionKind> kinds_for(const std::vector<KindInfo>& served, const std::string& group,
                                        const std::string& version, const std::string& resource) {
  std::vector<GroupVersionKind> out;
  const std::string wanted = lower(resource);
  for (const KindInfo& k : served) {
    if (k.gvk.group == group && k.gvk.version == version && (k.plural == wanted || lower(k.gvk.kind) == wanted)) {
      out.push_back(k.gvk);
    }
  }
  return out;
}

bool gvk_less(const GroupVersionKind& a, const GroupVersionKind& b) {
  if (a.group != b.group) return a.group < b.group;
  if (a.version != b.version) return a.version < b.version;
  return a.kind < b.kind;
}

// schema.GroupVersionKind's String(): "apps/v1, Kind=Deployment", "/v1, Kind=Pod".
std::string gvk_text(const GroupVersionKind& gvk) { return gvk.group + "/" + gvk.version + ", Kind=" + gvk.kind; }

// paramKind as schema.ParseGroupVersion reads its apiVersion; nullopt without one (or unparsable).
std::optional<GroupVersionKind> params_gvk(const Json& spec) {
  auto pk = spec.find("paramKind");
  if (pk == spec.end() || !pk->is_object()) return std::nullopt;
  const std::string api_version = string_at(*pk, "apiVersion");
  const std::string kind = string_at(*pk, "kind");
  GroupVersionKind gvk{"", "", kind};
  if (const auto slash = api_version.find('/'); slash == std::string::npos) {
    gvk.version = api_version;
  } else if (api_version.find('/', slash + 1) == std::string::npos) {
    gvk.group = api_version.substr(0, slash);
    gvk.version = api_version.substr(slash + 1);
  } else {
    return std::nullopt;
  }
  if (gvk.group.empty() && gvk.version.empty() && gvk.kind.empty()) return std::nullopt;
  return gvk;
}

// The declared type of a kind (its schema as a resource root); nullopt when it has no schema.
std::optional<cel::CelType> decl_type_of(const SchemaResolver& resolve, const GroupVersionKind& gvk) {
  std::optional<Json> schema = resolve(gvk);
  if (!schema) return std::nullopt;
  return schema::resource_cel_type(*schema, gvk.kind);
}

}  // namespace

TypedEnvironment::TypedEnvironment(const cel::CelType& object, const std::optional<cel::CelType>& params,
                                   const Json& variables, bool authorizer) {
  options.declarations.emplace("object", object);
  options.declarations.emplace("oldObject", object);
  options.declarations.emplace("request", request_type());
  options.declarations.emplace("namespaceObject", namespace_type());
  if (params) options.declarations.emplace("params", *params);
  options.variables = std::vector<std::string>{"object", "oldObject", "request", "namespaceObject", "variables"};
  if (authorizer) {
    options.variables->push_back("authorizer");
    options.variables->push_back("authorizer.requestResource");
  }
  if (params) options.variables->push_back("params");
  std::map<std::string, cel::CelType> fields;
  set_variables(fields);
  if (!variables.is_array()) return;
  for (const Json& v : variables) {
    if (!v.is_object()) continue;
    const cel::CompileResult r = cel::compile(string_at(v, "expression"), options);
    fields[string_at(v, "name")] = r.ok() ? r.type : cel::CelType::dyn();
    set_variables(fields);
  }
}

void TypedEnvironment::set_variables(std::map<std::string, cel::CelType> fields) {
  options.declarations.insert_or_assign("variables", cel::CelType::object("kubernetes.variables", std::move(fields)));
}

std::vector<GroupVersionKind> types_to_check(const Json& policy, const std::vector<KindInfo>& served) {
  const Json::json_pointer rules_at("/spec/matchConstraints/resourceRules");
  if (!policy.contains(rules_at) || !policy.at(rules_at).is_array()) return {};
  std::set<GroupVersionKind, decltype(&gvk_less)> gvks(&gvk_less);
  for (const Json& rule : policy.at(rules_at)) {
    std::vector<std::string> groups = strings_at(rule, "apiGroups");
    std::vector<std::string> versions = strings_at(rule, "apiVersions");
    std::vector<std::string> resources;
    for (const std::string& r : strings_at(rule, "resources"))
      if (r.find_first_of("*/") == std::string::npos) resources.push_back(r);
    const auto wildcard = [](const std::string& s) { return s.find('*') != std::string::npos; };
    if (std::any_of(groups.begin(), groups.end(), wildcard) || std::any_of(versions.begin(), versions.end(), wildcard))
      continue;
    if (groups.empty() || versions.empty() || resources.empty()) continue;
    std::sort(groups.begin(), groups.end());
    std::sort(versions.begin(), versions.end());
    std::sort(resources.begin(), resources.end());
    std::size_t count = 0;
    for (const auto& group : groups) {
      for (const auto& version : versions) {
        for (const auto& resource : resources) {
          for (const GroupVersionKind& gvk : kinds_for(served, group, version, resource)) {
            gvks.insert(gvk);
            if (++count == kMaxTypesToCheck) return {gvks.begin(), gvks.end()};
          }
        }
      }
    }
  }
  return {gvks.begin(), gvks.end()};
}

std::vector<ExpressionWarning> type_check(const Json& policy, const std::vector<KindInfo>& served,
                                          const SchemaResolver& resolve) {
  std::vector<ExpressionWarning> out;
  if (!resolve || !policy.is_object()) return out;
  const Json spec = policy.value("spec", Json::object());
  if (!spec.is_object()) return out;
  const auto param_gvk = params_gvk(spec);
  std::optional<cel::CelType> params;
  if (param_gvk) params = decl_type_of(resolve, *param_gvk).value_or(cel::CelType::dyn());

  std::vector<std::pair<GroupVersionKind, TypedEnvironment>> environments;
  for (const GroupVersionKind& gvk : types_to_check(policy, served)) {
    auto object = decl_type_of(resolve, gvk);
    if (object)
      environments.emplace_back(gvk, TypedEnvironment(*object, params, spec.value("variables", Json::array()), true));
  }
  if (environments.empty()) return out;

  auto check = [&](const std::string& field_ref, const std::string& expression) {
    std::string warning;
    for (const auto& [gvk, env] : environments) {
      const cel::CompileResult r = cel::compile(expression, env.options);
      if (r.ok()) continue;
      std::string issues = r.error_text;
      while (!issues.empty() && issues.back() == '\n') issues.pop_back();
      if (!warning.empty()) warning += "\n";
      warning += gvk_text(gvk) + ": " + issues + "\n";
    }
    if (!warning.empty()) out.push_back({field_ref, std::move(warning)});
  };
  const Json validations = spec.value("validations", Json::array());
  if (!validations.is_array()) return out;
  for (std::size_t i = 0; i < validations.size(); ++i) {
    const Json& v = validations[i];
    if (!v.is_object()) continue;
    const std::string at = "spec.validations[" + std::to_string(i) + "].";
    check(at + "expression", string_at(v, "expression"));
    // Note that MessageExpression is optional (an empty one is not checked).
    if (const std::string message = string_at(v, "messageExpression"); !message.empty()) {
      check(at + "messageExpression", message);
    }
  }
  return out;
}

}  // namespace rr::admission_policy::detail
