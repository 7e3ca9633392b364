// validateAffinity (pkg/apis/core/validation, 1.35): node affinity's selector terms and weights,
// pod (anti-)affinity terms' selectors, namespaces and topology keys.
#include "pod_parts.hpp"
#include "rr/validation/label_selector.hpp"
#include "rr/validation/names.hpp"

namespace rr::validation::detail {
namespace {

void label_name(ErrorList& errs, std::string_view key, const std::string& path) {
  for (std::string& m : is_qualified_name(key)) errs.push_back(invalid(path, key, std::move(m)));
}

// ValidateNodeSelectorRequirement; `check_values` is off where upstream allows any value.
void node_selector_requirement(ErrorList& errs, const Json& rq, bool check_values, const std::string& path) {
  const std::string_view op = string_member(rq, "operator");
  const std::size_t values = list_size(rq, "values");
  if (op == "In" || op == "NotIn") {
    if (values == 0)
      errs.push_back(required(child(path, "values"), "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (values > 0) {
      errs.push_back(
          forbidden(child(path, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    }
  } else if (op == "Gt" || op == "Lt") {
    if (values != 1) {
      errs.push_back(required(child(path, "values"), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
    }
  } else {
    errs.push_back(invalid(child(path, "operator"), op, "not a valid selector operator"));
  }
  label_name(errs, string_member(rq, "key"), child(path, "key"));
  const Json& list = value_at(rq, "values");
  if (!check_values || !list.is_array()) return;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string()) continue;
    const std::string& v = list[i].get_ref<const std::string&>();
    for (std::string& m : is_valid_label_value(v))
      errs.push_back(invalid(index(child(path, "values"), i), v, std::move(m)));
  }
}

// ValidateNodeFieldSelectorRequirement: only metadata.name, In or NotIn one node name.
void node_field_requirement(ErrorList& errs, const Json& rq, const std::string& path) {
  const std::string_view op = string_member(rq, "operator");
  if (op == "In" || op == "NotIn") {
    if (list_size(rq, "values") != 1) {
      errs.push_back(required(child(path, "values"),
                              "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
    }
  } else {
    errs.push_back(invalid(child(path, "operator"), op, "not a valid selector operator"));
  }
  const std::string_view key = string_member(rq, "key");
  if (key != "metadata.name") {
    errs.push_back(invalid(child(path, "key"), key, "not a valid field selector key"));
    return;
  }
  const Json& list = value_at(rq, "values");
  if (!list.is_array()) return;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string v = list[i].is_string() ? list[i].get<std::string>() : std::string();
    for (std::string& m : is_dns1123_subdomain(v))
      errs.push_back(invalid(index(child(path, "values"), i), v, std::move(m)));
  }
}

void node_selector_term(ErrorList& errs, const Json& term, bool check_values, const std::string& path) {
  if (const Json& exprs = value_at(term, "matchExpressions"); exprs.is_array()) {
    for (std::size_t j = 0; j < exprs.size(); ++j) {
      node_selector_requirement(errs, exprs[j], check_values, index(child(path, "matchExpressions"), j));
    }
  }
  if (const Json& fields = value_at(term, "matchFields"); fields.is_array()) {
    for (std::size_t j = 0; j < fields.size(); ++j)
      node_field_requirement(errs, fields[j], index(child(path, "matchFields"), j));
  }
}

void weight(ErrorList& errs, const Json& term, const std::string& path) {
  const std::int64_t w = int_member(term, "weight").value_or(0);
  if (w <= 0 || w > 100) errs.push_back(invalid_int(path, w, "must be in the range 1-100"));
}

void node_affinity(ErrorList& errs, const Json& na, const std::string& path) {
  if (const Json& req = value_at(na, "requiredDuringSchedulingIgnoredDuringExecution"); req.is_object()) {
    const std::string terms_path = child(child(path, "requiredDuringSchedulingIgnoredDuringExecution"),
                                         "nodeSelectorTerms");
    const Json& terms = value_at(req, "nodeSelectorTerms");
    if (!terms.is_array() || terms.empty()) {
      errs.push_back(required(terms_path, "must have at least one node selector term"));
    } else {
      for (std::size_t i = 0; i < terms.size(); ++i) node_selector_term(errs, terms[i], true, index(terms_path, i));
    }
  }
  if (const Json& preferred = value_at(na, "preferredDuringSchedulingIgnoredDuringExecution"); preferred.is_array()) {
    const std::string p = child(path, "preferredDuringSchedulingIgnoredDuringExecution");
    for (std::size_t i = 0; i < preferred.size(); ++i) {
      weight(errs, preferred[i], child(index(p, i), "weight"));
      node_selector_term(errs, value_at(preferred[i], "preference"), false, child(index(p, i), "preference"));
    }
  }
}

void pod_affinity_term(ErrorList& errs, const Json& term, const std::string& path) {
  append(errs, validate_label_selector(value_at(term, "labelSelector"), child(path, "labelSelector")));
  append(errs, validate_label_selector(value_at(term, "namespaceSelector"), child(path, "namespaceSelector")));
  if (const Json& namespaces = value_at(term, "namespaces"); namespaces.is_array()) {
    for (const Json& n : namespaces) {
      const std::string name = n.is_string() ? n.get<std::string>() : std::string();
      for (std::string& m : is_dns1123_label(name))
        errs.push_back(invalid(child(path, "namespace"), name, std::move(m)));
    }
  }
  const std::string_view key = string_member(term, "topologyKey");
  if (key.empty()) errs.push_back(required(child(path, "topologyKey"), "can not be empty"));
  label_name(errs, key, child(path, "topologyKey"));
}

void pod_affinity(ErrorList& errs, const Json& pa, const std::string& path) {
  if (const Json& req = value_at(pa, "requiredDuringSchedulingIgnoredDuringExecution"); req.is_array()) {
    const std::string p = child(path, "requiredDuringSchedulingIgnoredDuringExecution");
    for (std::size_t i = 0; i < req.size(); ++i) pod_affinity_term(errs, req[i], index(p, i));
  }
  if (const Json& preferred = value_at(pa, "preferredDuringSchedulingIgnoredDuringExecution"); preferred.is_array()) {
    const std::string p = child(path, "preferredDuringSchedulingIgnoredDuringExecution");
    for (std::size_t i = 0; i < preferred.size(); ++i) {
      weight(errs, preferred[i], child(index(p, i), "weight"));
      pod_affinity_term(errs, value_at(preferred[i], "podAffinityTerm"), child(index(p, i), "podAffinityTerm"));
    }
  }
}

}  // namespace

void validate_affinity(ErrorList& errs, const Json& affinity, const std::string& path) {
  if (!affinity.is_object()) return;
  if (const Json& na = value_at(affinity, "nodeAffinity"); na.is_object())
    node_affinity(errs, na, child(path, "nodeAffinity"));
  if (const Json& pa = value_at(affinity, "podAffinity"); pa.is_object())
    pod_affinity(errs, pa, child(path, "podAffinity"));
  if (const Json& anti = value_at(affinity, "podAntiAffinity"); anti.is_object()) {
    pod_affinity(errs, anti, child(path, "podAntiAffinity"));
  }
}

}  // namespace rr::validation::detail
