// Item order of a merged list, as the API server's strategic merge patch leaves it.
#pragma once
#include <string_view>

#include "rr/core/json.hpp"

namespace rr::strategic {

// What identifies a list item: its merge key's value (lists of objects), or the item itself
// (lists of primitives, merge_key ""). nullptr when an object lacks the key.
const Json* item_identity(const Json& item, std::string_view merge_key);

// The index of the first item of `list` with the identity of `item`, or -1.
long index_of_item(const Json& list, const Json& item, std::string_view merge_key);

// Orders `merged`: the items named in `wanted` (the patch list, or a $setElementOrder list) in
// that order; the others ("server-only") in their order in `server`; and the two sequences
// interleaved so that a server-only item comes before a wanted item that it preceded in
// `server`, while a wanted item new to the server comes as early as it can.
Json order_items(const Json& merged, const Json& wanted, const Json& server, std::string_view merge_key);

}  // namespace rr::strategic
