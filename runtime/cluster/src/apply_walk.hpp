// The walks server-side apply makes over objects (structured-merge-diff's typed.TypedValue
// operations on JSON typed by the kind's schema, apply_schema.hpp): the fields an applied
// configuration sets, the merge of a configuration into the live object, the difference of two
// objects, and the removal of fields. Each takes the type of the whole object (FieldType{}: no
// schema, lists typed by their member's name).
#pragma once
#include "apply_field_set.hpp"
#include "apply_schema.hpp"
#include "rr/core/json.hpp"

namespace rr::cluster_detail {

// ToFieldSet: every scalar, every atomic list or object, every item of an associative or set list
// (and the fields inside associative items). Granular objects are not members themselves, so an
// empty one sets nothing.
FieldSet fields_set_by(const Json& configuration, const FieldType& type = {});

// Merge: objects merge member by member, associative lists item by item (new items are appended),
// set lists take the union, anything else (atomic objects too) is replaced by the configuration's
// value. A null in the configuration removes the member.
Json merge_configuration(const Json& live, const Json& configuration, const FieldType& type = {});

// Compare: what changed from `before` to `after`. A member on one side only is added or removed
// with everything below it (objects included, which is why an Update entry shows "." on a map it
// created); a value that differs is modified.
struct Comparison {
  FieldSet added;
  FieldSet modified;
  FieldSet removed;
};
Comparison compare_objects(const Json& before, const Json& after, const FieldType& type = {});

// Removes the field at `path` from `object` (nothing when it is not there). An object or list left
// empty by the removal goes too, as the API server drops the nulls structured-merge-diff leaves.
void remove_field(Json& object, const FieldPath& path, const FieldType& type = {});

}  // namespace rr::cluster_detail
