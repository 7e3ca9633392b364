#include "workload_common.hpp"

#include "rr/core/go_quote.hpp"
#include "rr/validation/object_meta.hpp"

namespace rr::validation::detail {

std::optional<std::int64_t> int_member(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  if (!v || !v->is_number_integer()) return std::nullopt;
  if (v->is_number_unsigned()) {
    const auto u = v->get<std::uint64_t>();
    return u > static_cast<std::uint64_t>(INT64_MAX) ? std::nullopt : std::optional<std::int64_t>(std::int64_t(u));
  }
  return v->get<std::int64_t>();
}

bool bool_member(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  return v && v->is_boolean() && v->get<bool>();
}

std::size_t list_size(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  return v && v->is_array() ? v->size() : 0;
}

void nonnegative(ErrorList& errs, const Json& object, std::string_view key, const std::string& path) {
  if (const auto n = int_member(object, key); n && *n < 0) {
    errs.push_back(invalid_int(path, *n, "must be greater than or equal to 0"));
  }
}

FieldError not_supported_json(std::string field, std::string json_text, const std::vector<std::string>& supported) {
  std::string detail;
  for (const std::string& v : supported) detail += (detail.empty() ? "supported values: " : ", ") + go_quote(v);
  return {FieldErrorType::NotSupported, std::move(field), std::move(json_text), std::move(detail)};
}

std::string_view restart_policy_of(const Json& spec) {
  const std::string_view policy = string_member(spec, "restartPolicy");
  return policy.empty() ? std::string_view("Always") : policy;
}

namespace {

// How field.Invalid shows a decoded value: a string quoted, a number or bool as is, else JSON.
std::string shown(const Json& v) {
  if (v.is_string()) return go_quote(v.get_ref<const std::string&>());
  return go_json(v);
}

}  // namespace

void immutable(ErrorList& errs, const Json& now, const Json& old, const std::string& path) {
  if (now != old) errs.push_back(invalid_json(path, shown(now), "field is immutable"));
}

void drop_empty(Json& v) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end();) {
      drop_empty(*it);
      if (it->is_null() || ((it->is_object() || it->is_array()) && it->empty())) {
        it = v.erase(it);
      } else {
        ++it;
      }
    }
  } else if (v.is_array()) {
    for (Json& e : v) drop_empty(e);
  }
}

std::string labels_json(const Json& template_spec) {
  const Json& labels = value_at(value_at(template_spec, "metadata"), "labels");
  return labels.is_object() ? go_json(labels) : "null";
}

ErrorList validate_pod_template_spec(const Json& template_spec, const std::string& path) {
  ErrorList errs;
  const Json& meta = value_at(template_spec, "metadata");
  append(errs, validate_labels(value_at(meta, "labels"), child(path, "labels")));
  append(errs, validate_annotations(value_at(meta, "annotations"), child(path, "annotations")));
  const Json& spec = value_at(template_spec, "spec");
  append(errs, validate_pod_spec(spec, child(path, "spec"), PodSpecContext{}));
  if (list_size(spec, "ephemeralContainers") > 0) {
    errs.push_back(
        forbidden(child(path, "spec.ephemeralContainers"), "ephemeral containers not allowed in pod template"));
  }
  return errs;
}

}  // namespace rr::validation::detail
