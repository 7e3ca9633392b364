// The bytes the API server's JSON serializer sends: Go's json.Encoder over a document whose members
// are in Go order (go_order.hpp). The encoder escapes '<', '>' and '&' (its HTML escaping is on by
// default) and U+2028 and U+2029 as \u003c, \u003e, \u0026, \u2028 and \u2029, and ends the text
// with a newline. Clients that compare bodies byte for byte (or hash them) see the difference.
#pragma once
#include <string>
#include <string_view>

#include "rr/core/json.hpp"

namespace rr::wire_order {

// What json.NewEncoder(w).Encode(document) writes: dump(document), escaped, then '\n'.
std::string encode(const Json& document);
// The same for a document written as the Go struct `definition` (dump_as()).
std::string encode_as(std::string_view definition, const Json& document);
// One watch event line: {"type":...,"object":...} escaped, then '\n'.
std::string encode_watch_event(std::string_view type, const Json& object);

// Rewrites the five characters Go's encoder escapes, in place, from `from` on. JSON text carries
// them only inside strings, so the text stays valid and means the same.
void escape_as_go(std::string& text, std::size_t from = 0);

}  // namespace rr::wire_order
