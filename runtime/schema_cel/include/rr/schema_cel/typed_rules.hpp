// The CEL rules and junctors of a generated kind, for its validate(): rrgen embeds the parts of the
// CRD version's schema they need, compiled here once per process (a function-local static in the
// generated source) with cel_node_checks().
#pragma once
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/schema/schema.hpp"

namespace rr::schema {

class TypedRules {
 public:
  // schema_json: the version's openAPIV3Schema (or the part rrgen keeps of it) as JSON text.
  explicit TypedRules(std::string_view schema_json);

  // Appends to `errors` (the typed checks' findings, which decide like the schema's own whether
  // the rules are withheld) what the rules and junctors find in `object`; `old` on update. Both
  // are pruned first, as the API server stores them: a typed object keeps unknown members. A
  // schema that did not compile reports its compile errors here, every time.
  void check(Json object, const Json* old, std::vector<FieldError>& errors) const;
  // check() of a generated kind's object, encoded through its to_json().
  template <class Kind>
  void check_object(const Kind& object, const std::type_identity_t<Kind>* old, std::vector<FieldError>& errors) const {
    Json self, old_self;
    to_json(self, object);
    if (old) to_json(old_self, *old);
    check(std::move(self), old ? &old_self : nullptr, errors);
  }

 private:
  std::optional<Schema> schema_;
  std::vector<FieldError> compile_errors_;
};

}  // namespace rr::schema
