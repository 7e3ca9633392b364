#include "request_checks.hpp"

#include "errors.hpp"
#include "object_meta.hpp"

namespace rr::cluster_detail {

namespace {

std::string string_member(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

void check_type_meta(const KindInfo& kind, Json& object) {
  if (!object.is_object()) fail(api_errors::bad_request("the body of the request is not a JSON object"));
  const std::string expected_api_version = kind.gvk.api_version();
  const std::string api_version = string_member(object, "apiVersion");
  const std::string kind_name = string_member(object, "kind");
  if (!api_version.empty() && api_version != expected_api_version) {
    fail(api_errors::bad_request("the API version in the data (" + api_version +
                                 ") does not match the expected API version (" + expected_api_version + ")"));
  }
  if (!kind_name.empty() && kind_name != kind.gvk.kind) {
    fail(api_errors::bad_request("the kind in the data (" + kind_name + ") does not match the expected kind (" +
                                 kind.gvk.kind + ")"));
  }
  object["apiVersion"] = expected_api_version;
  object["kind"] = kind.gvk.kind;
}

void normalize_namespace(const KindInfo& kind, Json& object) {
  if (!kind.namespaced()) {
    erase_meta(object, "namespace");
    return;
  }
  if (meta_string(object, "namespace").empty()) {
    fail(invalid(kind, meta_string(object, "name"),
                 {cause(FieldErrorType::Required, "metadata.namespace", "Required value")}));
  }
}

}  // namespace rr::cluster_detail
