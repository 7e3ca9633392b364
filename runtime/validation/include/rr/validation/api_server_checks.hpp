// What the API server checks in Go that a kind's schema does not carry, for a generated kind's
// validate(): the ObjectMeta rules of the members that are set, and for a built-in kind with an
// entry in builtin.hpp's table its own validation, on a copy with the API server's Go defaults.
// A built-in kind's schema findings are replaced, as the API server runs no OpenAPI validation on
// its own kinds. A light header: generated sources include it, and they do not see nlohmann.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/codec.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/resource_traits.hpp"

namespace rr::validation {

struct KindFacts {
  std::string_view group, version, kind, plural;
  bool namespaced = true;
};

// Whether builtin.hpp's table validates the kind (its whole object is then needed).
bool has_go_validation(const KindFacts& kind) noexcept;

// `object_json` is the whole object (has_go_validation) or its metadata alone (otherwise).
// `old_json` is the stored object, or empty on create. name and namespace are not required: a
// client or the server fills them (generateName, the request's namespace); the cluster's own
// metadata validation requires them at the write.
void add_api_server_findings(const KindFacts& kind, std::string_view object_json, std::string_view old_json,
                             std::vector<rr::FieldError>& findings);

template <class T>
KindFacts kind_facts_of() noexcept {
  using Traits = ResourceTraits<T>;
  return KindFacts{Traits::group, Traits::version, Traits::kind, Traits::plural, Traits::scope == Scope::Namespaced};
}

// The generated validate() / validate_update(old) call these.
template <class T>
void add_api_server_findings(const T& object, std::vector<rr::FieldError>& findings) {
  const KindFacts kind = kind_facts_of<T>();
  if (has_go_validation(kind)) add_api_server_findings(kind, encode_text(object), {}, findings);
  else add_api_server_findings(kind, encode_text(object.metadata), {}, findings);
}
template <class T>
void add_api_server_findings(const T& object, const T& old, std::vector<rr::FieldError>& findings) {
  const KindFacts kind = kind_facts_of<T>();
  if (has_go_validation(kind)) add_api_server_findings(kind, encode_text(object), encode_text(old), findings);
  else add_api_server_findings(kind, encode_text(object.metadata), encode_text(old.metadata), findings);
}

}  // namespace rr::validation
