// What the pod and workload validators share: JSON access that treats a missing or wrongly typed
// member as Go's zero value (a wrong type is the decoder's 400, not a 422), the pod spec checks
// every workload embeds, and the findings' shared shapes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"
#include "go_text.hpp"
#include "kind_util.hpp"
#include "rr/core/json.hpp"
#include "rr/validation/field_error.hpp"

namespace rr::validation::detail {

// Absent members read as null: kind_util.hpp's absent_json(), value_at() and is_set().
// An integer member; nullopt when absent, null or not an integer (what the decoder refuses).
std::optional<std::int64_t> int_member(const Json& object, std::string_view key);
bool bool_member(const Json& object, std::string_view key);  // false unless `true`
std::size_t list_size(const Json& object, std::string_view key);

// ValidateNonnegativeField: "must be greater than or equal to 0".
void nonnegative(ErrorList& errs, const Json& object, std::string_view key, const std::string& path);
// field.NotSupported / field.Invalid whose bad value is shown as JSON (a struct, a map, a pointer).
FieldError not_supported_json(std::string field, std::string json_text, const std::vector<std::string>& supported);

// How a pod spec is validated (the caller's context). A Pod's unset hostPort is defaulted to its
// containerPort, so the hostNetwork rule reads the same for Pods and templates.
struct PodSpecContext {
  std::string_view pod_name;  // for ephemeral volumes' PVC names; empty in templates
};

// ValidatePodSpec over a v1 PodSpec as JSON at `path` ("spec", "spec.template.spec"). Fields the
// API server defaults (restartPolicy, dnsPolicy, imagePullPolicy, protocol, ...) are read as their
// defaults when absent, so the result is the same before and after defaulting.
ErrorList validate_pod_spec(const Json& spec, const std::string& path, const PodSpecContext& context);

// ValidatePodTemplateSpec at `path` ("spec.template"): the template's labels and annotations
// (paths `<path>.labels`, `<path>.annotations`), its pod spec, and no ephemeral containers.
ErrorList validate_pod_template_spec(const Json& template_spec, const std::string& path);

// The restart policy a pod spec has after defaulting ("Always" when unset).
std::string_view restart_policy_of(const Json& spec);

// ValidateImmutableField: Invalid "<path>: Invalid value: <new>: field is immutable" when they differ.
void immutable(ErrorList& errs, const Json& now, const Json& old, const std::string& path);

// Go's semantic equality for comparisons: drops null members, empty lists and empty maps, recursively.
void drop_empty(Json& value);

// The template labels as field.Invalid prints a map[string]string ("null" when unset).
std::string labels_json(const Json& template_spec);

}  // namespace rr::validation::detail
