#include "params.hpp"

#include "match_resources.hpp"

namespace rr::admission_policy::detail {

namespace {

GroupVersionKind gvk_of(const ParamKind& kind) {
  const auto slash = kind.api_version.find('/');
  if (slash == std::string::npos) return GroupVersionKind{"", kind.api_version, kind.kind};
  return GroupVersionKind{kind.api_version.substr(0, slash), kind.api_version.substr(slash + 1), kind.kind};
}

}  // namespace

Params collect_params(const CompiledPolicy& policy, const CompiledBinding& binding, const StoreReader& store,
                      const std::string& request_namespace) {
  Params out;
  if (!policy.param_kind || !binding.param_ref) {
    out.objects.emplace_back(nullptr);
    return out;
  }
  const ParamRef& ref = *binding.param_ref;
  const GroupVersionKind gvk = gvk_of(*policy.param_kind);
  const auto kind = store.kind(gvk);
  if (!kind) {
    out.error = "paramKind kind `&ParamKind{APIVersion:" + policy.param_kind->api_version +
                ",Kind:" + policy.param_kind->kind + ",}` not known";
    return out;
  }
  std::string param_namespace;
  if (kind->namespaced()) {
    param_namespace = !ref.namespace_.empty() ? ref.namespace_ : request_namespace;
    if (param_namespace.empty()) {
      out.error = "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources";
      return out;
    }
  } else if (!ref.namespace_.empty()) {
    out.error = "paramRef.namespace must not be provided for a cluster-scoped `paramKind`";
    return out;
  }
  if (!ref.name.empty()) {
    if (ref.selector) {
      out.error = "paramRef.name and paramRef.selector are mutually exclusive";
      return out;
    }
    if (const Json* param = store.find(gvk, ObjectKey{param_namespace, ref.name})) out.objects.push_back(*param);
  } else if (ref.selector) {
    for (const Json* param : store.all(gvk)) {
      const std::string ns = param->value("/metadata/namespace"_json_pointer, std::string());
      if (kind->namespaced() && ns != param_namespace) continue;
      if (ref.selector->matches(labels_of(param))) out.objects.push_back(*param);
    }
  } else {
    out.error = "one of name or selector must be provided";
    return out;
  }
  if (out.objects.empty() && ref.deny_not_found) {
    out.error = "no params found for policy binding with `Deny` parameterNotFoundAction";
  }
  return out;
}

}  // namespace rr::admission_policy::detail
