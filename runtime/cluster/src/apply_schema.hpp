// The types server-side apply gives the fields of an object, read from the kind's schema as the
// API server's type converter reads OpenAPI (kube-openapi schemaconv): x-kubernetes-list-type
// (atomic | set | map) with x-kubernetes-list-map-keys, the older x-kubernetes-patch-strategy:
// merge with x-kubernetes-patch-merge-key where a list has no list type, and
// x-kubernetes-map-type: atomic on objects and maps. Where no schema describes a field (an
// unknown kind, a CRD's metadata, preserve-unknown-fields), lists are typed by the table of
// apply_list_types.hpp, as before schemas were read.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "apply_list_types.hpp"
#include "rr/core/json.hpp"

namespace rr::cluster_detail {

// A kind's schema: `root` is its OpenAPI v3 schema node (a CRD version's openAPIV3Schema, or
// {"$ref": "#/components/schemas/<definition>"}); `definitions` (may be null) resolves $refs.
struct ApplySchema {
  std::shared_ptr<const Json> definitions;
  Json root;
};

// One position in an object: a schema node, or none (then the member name picks the list type).
// Holds pointers into an ApplySchema, which must outlive it (the store's lock keeps it).
class FieldType {
 public:
  FieldType() = default;
  // The type of a whole object of a kind; `schema` may be null (no schema known).
  static FieldType root_of(const ApplySchema* schema);

  FieldType member(std::string_view name) const;
  // Whether the schema makes `name` a key of a map (additionalProperties, and not one of the
  // properties), not a struct's field. False where no schema describes the object.
  bool map_key(std::string_view name) const;
  FieldType item() const;
  // x-kubernetes-map-type: atomic: the object is one field, replaced as a whole.
  bool atomic_object() const;
  // How `list` merges; `other` is the same list on the other side of a merge or comparison.
  ListType list_type(const Json& list, const Json* other = nullptr) const;

 private:
  FieldType(const ApplySchema* schema, const Json* node, std::string field)
      : schema_(schema), node_(node), field_(std::move(field)) {}
  // The keyword's value on the node or what it refers to ($ref, allOf), or nullptr.
  const Json* keyword(const Json* node, std::string_view key) const;
  const Json* keyword_within(const Json* node, std::string_view key, int& budget) const;
  ListType list_type_from_schema() const;

  const ApplySchema* schema_ = nullptr;
  const Json* node_ = nullptr;
  std::string field_;  // the member name, for the table
};

}  // namespace rr::cluster_detail
