// The walks server-side apply makes over objects (structured-merge-diff's typed.TypedValue
// operations on schemaless JSON, lists typed by apply_list_types.hpp): the fields an applied
// configuration sets, the merge of a configuration into the live object, the difference of two
// objects, and the removal of fields.
#pragma once
#include "apply_field_set.hpp"
#include "rr/core/json.hpp"

namespace rr::cluster_detail {

// ToFieldSet: every scalar, every atomic list, every item of an associative or set list (and the
// fields inside associative items). Objects are not members themselves, so an empty object sets
// nothing.
FieldSet fields_set_by(const Json& configuration);

// Merge: objects merge member by member, associative lists item by item (new items are appended),
// set lists take the union, anything else is replaced by the configuration's value. A null in the
// configuration removes the member.
Json merge_configuration(const Json& live, const Json& configuration);

// Compare: what changed from `before` to `after`. A member on one side only is added or removed
// with everything below it (objects included, which is why an Update entry shows "." on a map it
// created); a value that differs is modified.
struct Comparison {
  FieldSet added;
  FieldSet modified;
  FieldSet removed;
};
Comparison compare_objects(const Json& before, const Json& after);

// Removes the field at `path` from `object` (nothing when it is not there). An object or list left
// empty by the removal goes too, as the API server drops the nulls structured-merge-diff leaves.
void remove_field(Json& object, const FieldPath& path);

}  // namespace rr::cluster_detail
