// How server-side apply merges a list. The API server reads it from the schema
// (x-kubernetes-list-type: atomic | set | map, x-kubernetes-list-map-keys), and so does
// apply_schema.hpp where a schema is known; without one, the well-known lists of the built-in
// kinds and of metav1 are known here by the name of their member, and every other list is atomic
// (the schema's default).
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::cluster_detail {

enum class ListKind { Atomic, Associative, Set };

struct ListType {
  ListKind kind = ListKind::Atomic;
  // Associative lists: the key fields in name order, each with the value an item without it
  // takes (null when the key is required), as structured-merge-diff defaults a key like a
  // port's protocol.
  std::vector<std::pair<std::string, Json>> keys;

  // The FieldsV1 path element of an item: k:{"name":"nginx"} or v:"x". Atomic lists have none.
  std::string element_of(const Json& item) const;
};

// The list type of the list held in member `field`. A list the table names is still atomic when
// its items do not fit (an item without its keys, or two items with the same key); `other`, when
// given, is the same list on the other side of a merge or comparison and must fit too.
ListType list_type_of(std::string_view field, const Json& list, const Json* other = nullptr);

// `type`, or atomic when the items of `list` (or of `other`) do not fit it.
ListType fitted(ListType type, const Json& list, const Json* other = nullptr);

}  // namespace rr::cluster_detail
