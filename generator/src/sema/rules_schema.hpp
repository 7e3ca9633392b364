// The part of a CRD version's schema its CEL rules and junctors need, as minified JSON: what a
// generated validate() compiles once per process to run them (rr::schema::TypedRules).
#pragma once
#include <string>

#include "load/schema.hpp"

namespace rrgen {

// Empty when no node of `root` has x-kubernetes-validations or a junctor (the int-or-string
// idiom, anyOf integer or string, aside: the typed member allows nothing else). Otherwise the schema
// without descriptions, and without the subtrees that hold no rule or junctor; the
// full subtree under a node with rules or junctors stays (CEL types `self` from it), as do the
// keys of a list-type map whose items stay.
std::string rules_schema_json(const Schema& root);

}  // namespace rrgen
