#include "rr/validation/api_server_checks.hpp"

#include <algorithm>

#include "rr/validation/builtin.hpp"
#include "rr/validation/defaults.hpp"
#include "rr/validation/resource_rules.hpp"

namespace rr::validation {

namespace {

// A member the client or the server fills at the write, which validate() cannot require.
bool filled_at_write(const FieldError& e) {
  return e.type == FieldErrorType::Required && (e.field == "metadata.name" || e.field == "metadata.namespace");
}

ErrorList metadata_findings(const KindFacts& kind, const Json& metadata) {
  const auto builtin = builtin_metadata_rules(kind.group, kind.plural);
  ErrorList errors = validate_create_metadata(metadata.is_object() ? metadata : Json::object(), kind.namespaced,
                                              builtin ? *builtin : custom_resource_metadata_rules());
  std::erase_if(errors, filled_at_write);
  return errors;
}

Json parse_or_null(std::string_view text) {
  if (text.empty()) return Json();
  return Json::parse(text, nullptr, false);  // the encoder wrote it: never discarded in practice
}

}  // namespace

bool has_go_validation(const KindFacts& kind) noexcept {
  return find_builtin_validator(kind.group, kind.version, kind.kind) != nullptr;
}

void add_api_server_findings(const KindFacts& kind, std::string_view object_json, std::string_view old_json,
                             std::vector<rr::FieldError>& findings) {
  Json object = parse_or_null(object_json);
  if (!has_go_validation(kind)) {
    for (const FieldError& e : metadata_findings(kind, object)) findings.push_back(e.to_core());
    return;
  }
  // The API server's order: ObjectMeta first, then the kind's strategy, on the defaulted object.
  ErrorList errors = metadata_findings(kind, object.is_object() ? object.value("metadata", Json()) : Json());
  apply_builtin_defaults(kind.group, kind.version, kind.kind, object);
  Json old = parse_or_null(old_json);
  if (!old.is_null()) apply_builtin_defaults(kind.group, kind.version, kind.kind, old);
  const ErrorList own = validate_builtin(kind.group, kind.version, kind.kind, object, old.is_null() ? nullptr : &old);
  errors.insert(errors.end(), own.begin(), own.end());
  findings = to_core(errors);
}

}  // namespace rr::validation
