// The API server's own validation of the built-in kinds (pkg/apis/<group>/validation, 1.35): what
// each kind's strategy checks beyond ObjectMeta on create and update, with upstream's field paths
// and messages. One table serves the in-process cluster, the HTTP API server, generated code and
// `rrgen validate`. A kind without an entry is checked by its schema only (docs/runtime/35).
#pragma once
#include <optional>
#include <span>
#include <string_view>

#include "rr/core/json.hpp"
#include "rr/validation/field_error.hpp"

namespace rr::validation {

// One kind's validation. `create` sees the object after defaulting; `update` the new and the
// stored object (the update rules upstream adds, immutable fields among them, plus what create
// checks again). Both skip members of the wrong JSON type (the decoder's 400, not a 422).
struct BuiltinValidator {
  std::string_view group;  // "" for the core group
  std::string_view version;
  std::string_view kind;
  ErrorList (*create)(const Json& object);
  ErrorList (*update)(const Json& object, const Json& old_object);
};

// Every kind validated, in group order.
std::span<const BuiltinValidator> builtin_validators();
const BuiltinValidator* find_builtin_validator(std::string_view group, std::string_view version, std::string_view kind);

// The kind's findings (none for a kind without an entry); `old_object` null on create. ObjectMeta
// is not checked here (validate_create_metadata / validate_update_metadata do that first).
ErrorList validate_builtin(std::string_view group, std::string_view version, std::string_view kind, const Json& object,
                           const Json* old_object);

// The local clusters' node agent binds a pod by an update that sets its first spec.nodeName (what
// the pods/binding subresource does, which has its own checks): for such an update, the stored
// pod with that nodeName, to validate the update against; nullopt for any other write.
std::optional<Json> pod_binding_base(std::string_view group, std::string_view kind, const Json& object,
                                     const Json& old_object);

}  // namespace rr::validation
