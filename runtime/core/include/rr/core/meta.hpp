// Well-known Kubernetes shapes that generated types reuse instead of regenerating them.
//
// Two families:
//  - Go-semantics types (TypeMeta, ListMeta, ObjectMeta, OwnerReference, ManagedFieldsEntry): the
//    API server round-trips metadata through its Go structs, so these follow metav1's JSON tags:
//    plain members, JSON null leaves the zero value, `omitempty` members are left out when empty
//    (an empty Time counts as empty), unknown members are kept.
//  - Lossless schema shapes (Condition, LabelSelector, LabelSelectorRequirement, ObjectReference,
//    LocalObjectReference, EmbeddedResource): required members are plain values (missing ones are a
//    DecodeError), optional ones std::optional (null decodes as absent); encode writes exactly what
//    is present.
//
// Light on purpose: no nlohmann/json.hpp here (rr::Json is only forward-declared).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rr/core/fwd.hpp"
#include "rr/core/time.hpp"
#include "rr/core/unknown_fields.hpp"

namespace rr {

// metav1.TypeMeta: apiVersion,omitempty kind,omitempty.
struct TypeMeta {
  std::string api_version;
  std::string kind;
  UnknownFields unknown_fields;
  bool operator==(const TypeMeta&) const;
};

// metav1.ListMeta.
struct ListMeta {
  std::string self_link;
  std::string resource_version;
  std::string continue_;                              // JSON "continue"
  std::optional<std::int64_t> remaining_item_count;
  UnknownFields unknown_fields;
  bool operator==(const ListMeta&) const;
};

// metav1.OwnerReference: apiVersion, kind, name and uid are always written (no omitempty in Go).
struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  std::optional<bool> controller;
  std::optional<bool> block_owner_deletion;
  UnknownFields unknown_fields;
  bool operator==(const OwnerReference&) const;
};

// metav1.ManagedFieldsEntry. fieldsV1 is kept as minified JSON text ("" = absent).
struct ManagedFieldsEntry {
  std::string manager;
  std::string operation;
  std::string api_version;
  Time time;
  std::string fields_type;
  std::string fields_v1_json;
  std::string subresource;
  UnknownFields unknown_fields;
  bool operator==(const ManagedFieldsEntry&) const;
};

// metav1.ObjectMeta.
struct ObjectMeta {
  std::string name;
  std::string generate_name;
  std::string namespace_;                             // JSON "namespace"
  std::string self_link;
  std::string uid;
  std::string resource_version;
  std::int64_t generation = 0;
  Time creation_timestamp;
  std::optional<Time> deletion_timestamp;
  std::optional<std::int64_t> deletion_grace_period_seconds;
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
  std::vector<OwnerReference> owner_references;
  std::vector<std::string> finalizers;
  std::vector<ManagedFieldsEntry> managed_fields;
  UnknownFields unknown_fields;
  bool operator==(const ObjectMeta&) const;
};

// metav1.Condition. Required: type, status, lastTransitionTime, reason, message.
struct Condition {
  std::string type;
  std::string status;                                 // "True", "False" or "Unknown"
  std::optional<std::int64_t> observed_generation;
  Time last_transition_time;
  std::string reason;
  std::string message;
  UnknownFields unknown_fields;
  bool operator==(const Condition&) const;
};

// metav1.LabelSelectorRequirement. Required: key, operator.
struct LabelSelectorRequirement {
  std::string key;
  std::string operator_;                              // JSON "operator"
  std::optional<std::vector<std::string>> values;
  UnknownFields unknown_fields;
  bool operator==(const LabelSelectorRequirement&) const;
};

// metav1.LabelSelector.
struct LabelSelector {
  std::optional<std::map<std::string, std::string>> match_labels;
  std::optional<std::vector<LabelSelectorRequirement>> match_expressions;
  UnknownFields unknown_fields;
  bool operator==(const LabelSelector&) const;
};

// core/v1 ObjectReference.
struct ObjectReference {
  std::optional<std::string> api_version;
  std::optional<std::string> field_path;
  std::optional<std::string> kind;
  std::optional<std::string> name;
  std::optional<std::string> namespace_;              // JSON "namespace"
  std::optional<std::string> resource_version;
  std::optional<std::string> uid;
  UnknownFields unknown_fields;
  bool operator==(const ObjectReference&) const;
};

// core/v1 LocalObjectReference.
struct LocalObjectReference {
  std::optional<std::string> name;
  UnknownFields unknown_fields;
  bool operator==(const LocalObjectReference&) const;
};

// An object under `x-kubernetes-embedded-resource: true` without declared properties: apiVersion,
// kind and metadata are typed; every other member is kept in `body` (in input order).
struct EmbeddedResource {
  std::optional<std::string> api_version;
  std::optional<std::string> kind;
  std::optional<ObjectMeta> metadata;
  UnknownFields body;
  bool operator==(const EmbeddedResource&) const;
};

#define RR_CORE_META_DECLARE(X)                \
  void decode(JsonReader& r, X& v);            \
  void encode(JsonWriter& w, const X& v);      \
  void validate(Validator& val, const X& v);   \
  void apply_defaults(X& v);                   \
  void to_json(Json& j, const X& v);           \
  void from_json(const Json& j, X& v);

RR_CORE_META_DECLARE(TypeMeta)
RR_CORE_META_DECLARE(ListMeta)
RR_CORE_META_DECLARE(OwnerReference)
RR_CORE_META_DECLARE(ManagedFieldsEntry)
RR_CORE_META_DECLARE(ObjectMeta)
RR_CORE_META_DECLARE(Condition)
RR_CORE_META_DECLARE(LabelSelectorRequirement)
RR_CORE_META_DECLARE(LabelSelector)
RR_CORE_META_DECLARE(ObjectReference)
RR_CORE_META_DECLARE(LocalObjectReference)
RR_CORE_META_DECLARE(EmbeddedResource)

#undef RR_CORE_META_DECLARE

// The protobuf codec (rr/core/pb_codec.hpp) of the shapes Kubernetes' .proto files have.
#define RR_CORE_META_DECLARE_PB(X)      \
  void rr_decode_pb(PbReader& r, X& v); \
  void rr_encode_pb(PbWriter& w, const X& v);

RR_CORE_META_DECLARE_PB(TypeMeta)
RR_CORE_META_DECLARE_PB(ListMeta)
RR_CORE_META_DECLARE_PB(OwnerReference)
RR_CORE_META_DECLARE_PB(ManagedFieldsEntry)
RR_CORE_META_DECLARE_PB(ObjectMeta)
RR_CORE_META_DECLARE_PB(Condition)
RR_CORE_META_DECLARE_PB(LabelSelectorRequirement)
RR_CORE_META_DECLARE_PB(LabelSelector)
RR_CORE_META_DECLARE_PB(ObjectReference)
RR_CORE_META_DECLARE_PB(LocalObjectReference)

#undef RR_CORE_META_DECLARE_PB

}  // namespace rr
