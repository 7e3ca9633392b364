// ValidateObjectMetaAccessorUpdate (k8s.io/apimachinery/pkg/api/validation/objectmeta.go).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common.hpp"
#include "go_text.hpp"
#include "rr/validation/object_meta.hpp"

namespace rr::validation {
namespace {

using detail::append;
using detail::child;
using detail::member;
using detail::string_member;

constexpr std::string_view kImmutable = "field is immutable";

const Json& member_or_null(const Json& object, std::string_view key) {
  static const Json kNull;
  const Json* v = member(object, key);
  return v ? *v : kNull;
}

// A timestamp or pointer member as json.Marshal shows the new value: null when unset.
std::string shown(const Json& v) { return v.is_null() ? std::string("null") : detail::go_json(v); }

std::int64_t int_member(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  if (!v || !v->is_number_integer()) return 0;
  // Past int64 the decoder refuses the value; saturate rather than wrap to a negative.
  if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) return INT64_MAX;
  return v->get<std::int64_t>();
}

}  // namespace

ErrorList validate_object_meta_update(const Json& new_metadata, const Json& old_metadata, std::string_view path) {
  ErrorList errs;
  // Finalizers cannot be added once the object is being deleted.
  if (!member_or_null(old_metadata, "deletionTimestamp").is_null()) {
    const std::vector<std::string> added = detail::added_strings(member_or_null(new_metadata, "finalizers"),
                                                                 member_or_null(old_metadata, "finalizers"));
    if (!added.empty()) {
      errs.push_back(forbidden(child(path, "finalizers"),
                               "no new finalizers can be added if the object is being deleted, found new finalizers " +
                                   detail::go_string_slice(added)));
    }
  }
  const std::string_view resource_version = string_member(new_metadata, "resourceVersion");
  if (resource_version.empty()) {
    errs.push_back(invalid(child(path, "resourceVersion"), resource_version, "must be specified for an update"));
  }
  const std::int64_t generation = int_member(new_metadata, "generation");
  if (generation < int_member(old_metadata, "generation")) {
    errs.push_back(invalid_int(child(path, "generation"), generation, "must not be decremented"));
  }
  for (const char* key : {"name", "namespace"}) {
    const std::string_view now = string_member(new_metadata, key);
    if (now != string_member(old_metadata, key))
      errs.push_back(invalid(child(path, key), now, std::string(kImmutable)));
  }
  // uid is a types.UID, not a Go string, so the API server shows it through encoding/json.
  const std::string_view uid = string_member(new_metadata, "uid");
  if (uid != string_member(old_metadata, "uid")) {
    errs.push_back(invalid_json(child(path, "uid"), detail::go_json_string(uid), std::string(kImmutable)));
  }
  for (const char* key : {"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds"}) {
    const Json& now = member_or_null(new_metadata, key);
    if (now != member_or_null(old_metadata, key))
      errs.push_back(invalid_json(child(path, key), shown(now), std::string(kImmutable)));
  }
  append(errs, validate_labels(member_or_null(new_metadata, "labels"), child(path, "labels")));
  append(errs, validate_annotations(member_or_null(new_metadata, "annotations"), child(path, "annotations")));
  append(errs,
         validate_owner_references(member_or_null(new_metadata, "ownerReferences"), child(path, "ownerReferences")));
  append(errs, validate_managed_fields(member_or_null(new_metadata, "managedFields"), child(path, "managedFields")));
  return errs;
}

}  // namespace rr::validation
