// Compares a document with its decode -> encode round trip, allowing exactly what the API server
// itself would change: a JSON null for a non-nullable member is pruned (our decoder drops it), and
// `metadata` goes through Go's metav1.ObjectMeta, whose empty members are omitted (omitempty).
#pragma once
#include <string>

#include "rr/core/json.hpp"

namespace corpus {

// Empty when equal; otherwise a JSON pointer and a description of the first difference.
std::string first_difference(const rr::Json& expected, const rr::Json& actual);

}  // namespace corpus
