// Codecs and checks for the well-known shapes in rr/core/meta.hpp.
#include "rr/core/meta.hpp"

#include <string_view>

#include "rr/core/codec.hpp"
#include "rr/core/json.hpp"
#include "rr/core/pattern.hpp"
#include "rr/core/validator.hpp"

namespace rr {

bool TypeMeta::operator==(const TypeMeta&) const = default;
bool ListMeta::operator==(const ListMeta&) const = default;
bool OwnerReference::operator==(const OwnerReference&) const = default;
bool ManagedFieldsEntry::operator==(const ManagedFieldsEntry&) const = default;
bool ObjectMeta::operator==(const ObjectMeta&) const = default;
bool Condition::operator==(const Condition&) const = default;
bool LabelSelectorRequirement::operator==(const LabelSelectorRequirement&) const = default;
bool LabelSelector::operator==(const LabelSelector&) const = default;
bool ObjectReference::operator==(const ObjectReference&) const = default;
bool LocalObjectReference::operator==(const LocalObjectReference&) const = default;
bool EmbeddedResource::operator==(const EmbeddedResource&) const = default;

namespace {

// Go's encoding/json: a null leaves the member at its zero value.
template <class T>
void go_decode(JsonReader& r, T& v) {
  if (r.try_null()) {
    v = T{};
    return;
  }
  decode(r, v);
}

void go_string(JsonWriter& w, std::string_view key, const std::string& v) {
  if (v.empty()) return;
  w.key_literal(key);
  w.value(v);
}

}  // namespace

// ---- TypeMeta ---------------------------------------------------------------------------------

void decode(JsonReader& r, TypeMeta& v) {
  if (r.try_null()) {
    v = TypeMeta{};
    return;
  }
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "apiVersion") go_decode(r, v.api_version);
    else if (k == "kind") go_decode(r, v.kind);
    else r.capture_unknown(v.unknown_fields);
  }
}

void encode(JsonWriter& w, const TypeMeta& v) {
  w.begin_object();
  go_string(w, "apiVersion", v.api_version);
  go_string(w, "kind", v.kind);
  w.unknown(v.unknown_fields);
  w.end_object();
}

// ---- ListMeta ---------------------------------------------------------------------------------

void decode(JsonReader& r, ListMeta& v) {
  if (r.try_null()) {
    v = ListMeta{};
    return;
  }
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "selfLink") go_decode(r, v.self_link);
    else if (k == "resourceVersion") go_decode(r, v.resource_version);
    else if (k == "continue") go_decode(r, v.continue_);
    else if (k == "remainingItemCount") decode(r, v.remaining_item_count);
    else r.capture_unknown(v.unknown_fields);
  }
}

void encode(JsonWriter& w, const ListMeta& v) {
  w.begin_object();
  go_string(w, "selfLink", v.self_link);
  go_string(w, "resourceVersion", v.resource_version);
  go_string(w, "continue", v.continue_);
  if (v.remaining_item_count) {
    w.key_literal("remainingItemCount");
    w.value(*v.remaining_item_count);
  }
  w.unknown(v.unknown_fields);
  w.end_object();
}

// ---- OwnerReference ---------------------------------------------------------------------------

void decode(JsonReader& r, OwnerReference& v) {
  if (r.try_null()) {
    v = OwnerReference{};
    return;
  }
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "apiVersion") go_decode(r, v.api_version);
    else if (k == "kind") go_decode(r, v.kind);
    else if (k == "name") go_decode(r, v.name);
    else if (k == "uid") go_decode(r, v.uid);
    else if (k == "controller") decode(r, v.controller);
    else if (k == "blockOwnerDeletion") decode(r, v.block_owner_deletion);
    else r.capture_unknown(v.unknown_fields);
  }
}

void encode(JsonWriter& w, const OwnerReference& v) {
  w.begin_object();
  w.key_literal("apiVersion");
  w.value(v.api_version);
  w.key_literal("kind");
  w.value(v.kind);
  w.key_literal("name");
  w.value(v.name);
  w.key_literal("uid");
  w.value(v.uid);
  if (v.controller) {
    w.key_literal("controller");
    w.value(*v.controller);
  }
  if (v.block_owner_deletion) {
    w.key_literal("blockOwnerDeletion");
    w.value(*v.block_owner_deletion);
  }
  w.unknown(v.unknown_fields);
  w.end_object();
}

// ---- ManagedFieldsEntry -----------------------------------------------------------------------

void decode(JsonReader& r, ManagedFieldsEntry& v) {
  if (r.try_null()) {
    v = ManagedFieldsEntry{};
    return;
  }
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "manager") go_decode(r, v.manager);
    else if (k == "operation") go_decode(r, v.operation);
    else if (k == "apiVersion") go_decode(r, v.api_version);
    else if (k == "time") decode(r, v.time);
    else if (k == "fieldsType") go_decode(r, v.fields_type);
    else if (k == "fieldsV1") {
      v.fields_v1_json.clear();
      if (!r.try_null()) r.skip(v.fields_v1_json);
    } else if (k == "subresource") go_decode(r, v.subresource);
    else r.capture_unknown(v.unknown_fields);
  }
}

void encode(JsonWriter& w, const ManagedFieldsEntry& v) {
  w.begin_object();
  go_string(w, "manager", v.manager);
  go_string(w, "operation", v.operation);
  go_string(w, "apiVersion", v.api_version);
  if (!v.time.str().empty()) {
    w.key_literal("time");
    encode(w, v.time);
  }
  go_string(w, "fieldsType", v.fields_type);
  if (!v.fields_v1_json.empty()) {
    w.key_literal("fieldsV1");
    w.raw(v.fields_v1_json);
  }
  go_string(w, "subresource", v.subresource);
  w.unknown(v.unknown_fields);
  w.end_object();
}

// ---- ObjectMeta -------------------------------------------------------------------------------

void decode(JsonReader& r, ObjectMeta& v) {
  if (r.try_null()) {
    v = ObjectMeta{};
    return;
  }
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "name") go_decode(r, v.name);
    else if (k == "namespace") go_decode(r, v.namespace_);
    else if (k == "labels") go_decode(r, v.labels);
    else if (k == "annotations") go_decode(r, v.annotations);
    else if (k == "uid") go_decode(r, v.uid);
    else if (k == "resourceVersion") go_decode(r, v.resource_version);
    else if (k == "generation") go_decode(r, v.generation);
    else if (k == "creationTimestamp") decode(r, v.creation_timestamp);
    else if (k == "generateName") go_decode(r, v.generate_name);
    else if (k == "selfLink") go_decode(r, v.self_link);
    else if (k == "deletionTimestamp") decode(r, v.deletion_timestamp);
    else if (k == "deletionGracePeriodSeconds") decode(r, v.deletion_grace_period_seconds);
    else if (k == "ownerReferences") go_decode(r, v.owner_references);
    else if (k == "finalizers") go_decode(r, v.finalizers);
    else if (k == "managedFields") go_decode(r, v.managed_fields);
    else r.capture_unknown(v.unknown_fields);
  }
}

void encode(JsonWriter& w, const ObjectMeta& v) {
  w.begin_object();
  go_string(w, "name", v.name);
  go_string(w, "generateName", v.generate_name);
  go_string(w, "namespace", v.namespace_);
  go_string(w, "selfLink", v.self_link);
  go_string(w, "uid", v.uid);
  go_string(w, "resourceVersion", v.resource_version);
  if (v.generation != 0) {
    w.key_literal("generation");
    w.value(v.generation);
  }
  if (!v.creation_timestamp.str().empty()) {
    w.key_literal("creationTimestamp");
    encode(w, v.creation_timestamp);
  }
  if (v.deletion_timestamp) {
    w.key_literal("deletionTimestamp");
    encode(w, *v.deletion_timestamp);
  }
  if (v.deletion_grace_period_seconds) {
    w.key_literal("deletionGracePeriodSeconds");
    w.value(*v.deletion_grace_period_seconds);
  }
  if (!v.labels.empty()) {
    w.key_literal("labels");
    encode(w, v.labels);
  }
  if (!v.annotations.empty()) {
    w.key_literal("annotations");
    encode(w, v.annotations);
  }
  if (!v.owner_references.empty()) {
    w.key_literal("ownerReferences");
    encode(w, v.owner_references);
  }
  if (!v.finalizers.empty()) {
    w.key_literal("finalizers");
    encode(w, v.finalizers);
  }
  if (!v.managed_fields.empty()) {
    w.key_literal("managedFields");
    encode(w, v.managed_fields);
  }
  w.unknown(v.unknown_fields);
  w.end_object();
}

// ---- Condition --------------------------------------------------------------------------------

void decode(JsonReader& r, Condition& v) {
  r.begin_object();
  bool has_type = false, has_status = false, has_time = false, has_reason = false, has_message = false;
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "type") { decode(r, v.type); has_type = true; }
    else if (k == "status") { decode(r, v.status); has_status = true; }
    else if (k == "observedGeneration") { decode(r, v.observed_generation); }
    else if (k == "lastTransitionTime") { decode(r, v.last_transition_time); has_time = true; }
    else if (k == "reason") { decode(r, v.reason); has_reason = true; }
    else if (k == "message") { decode(r, v.message); has_message = true; }
    else r.capture_unknown(v.unknown_fields);
  }
  if (!has_type) r.fail_missing("type");
  if (!has_status) r.fail_missing("status");
  if (!has_time) r.fail_missing("lastTransitionTime");
  if (!has_reason) r.fail_missing("reason");
  if (!has_message) r.fail_missing("message");
}

void encode(JsonWriter& w, const Condition& v) {
  w.begin_object();
  w.key_literal("type");
  w.value(v.type);
  w.key_literal("status");
  w.value(v.status);
  if (v.observed_generation) {
    w.key_literal("observedGeneration");
    w.value(*v.observed_generation);
  }
  w.key_literal("lastTransitionTime");
  encode(w, v.last_transition_time);
  w.key_literal("reason");
  w.value(v.reason);
  w.key_literal("message");
  w.value(v.message);
  w.unknown(v.unknown_fields);
  w.end_object();
}

// The schema controller-gen emits for metav1.Condition.
void validate(Validator& val, const Condition& v) {
  static const Pattern type_pattern(
      R"(^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$)");
  static const Pattern reason_pattern(R"(^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$)");
  static constexpr std::string_view kStatus[] = {"True", "False", "Unknown"};
  {
    auto s = val.field("type");
    val.max_length(v.type, 316);
    val.pattern(v.type, type_pattern);
  }
  {
    auto s = val.field("status");
    val.enum_string(v.status, kStatus);
  }
  if (v.observed_generation) {
    auto s = val.field("observedGeneration");
    val.minimum(static_cast<double>(*v.observed_generation), 0, false);
  }
  {
    auto s = val.field("lastTransitionTime");
    val.format(v.last_transition_time.str(), Format::DateTime);
  }
  {
    auto s = val.field("reason");
    val.max_length(v.reason, 1024);
    val.min_length(v.reason, 1);
    val.pattern(v.reason, reason_pattern);
  }
  {
    auto s = val.field("message");
    val.max_length(v.message, 32768);
  }
}

// ---- LabelSelectorRequirement / LabelSelector -------------------------------------------------

void decode(JsonReader& r, LabelSelectorRequirement& v) {
  r.begin_object();
  bool has_key = false, has_operator = false;
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "key") { decode(r, v.key); has_key = true; }
    else if (k == "operator") { decode(r, v.operator_); has_operator = true; }
    else if (k == "values") decode(r, v.values);
    else r.capture_unknown(v.unknown_fields);
  }
  if (!has_key) r.fail_missing("key");
  if (!has_operator) r.fail_missing("operator");
}

void encode(JsonWriter& w, const LabelSelectorRequirement& v) {
  w.begin_object();
  w.key_literal("key");
  w.value(v.key);
  w.key_literal("operator");
  w.value(v.operator_);
  if (v.values) {
    w.key_literal("values");
    encode(w, *v.values);
  }
  w.unknown(v.unknown_fields);
  w.end_object();
}

void decode(JsonReader& r, LabelSelector& v) {
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "matchLabels") decode(r, v.match_labels);
    else if (k == "matchExpressions") decode(r, v.match_expressions);
    else r.capture_unknown(v.unknown_fields);
  }
}

void encode(JsonWriter& w, const LabelSelector& v) {
  w.begin_object();
  if (v.match_labels) {
    w.key_literal("matchLabels");
    encode(w, *v.match_labels);
  }
  if (v.match_expressions) {
    w.key_literal("matchExpressions");
    encode(w, *v.match_expressions);
  }
  w.unknown(v.unknown_fields);
  w.end_object();
}

// ---- ObjectReference / LocalObjectReference ---------------------------------------------------

void decode(JsonReader& r, ObjectReference& v) {
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "kind") decode(r, v.kind);
    else if (k == "namespace") decode(r, v.namespace_);
    else if (k == "name") decode(r, v.name);
    else if (k == "uid") decode(r, v.uid);
    else if (k == "apiVersion") decode(r, v.api_version);
    else if (k == "resourceVersion") decode(r, v.resource_version);
    else if (k == "fieldPath") decode(r, v.field_path);
    else r.capture_unknown(v.unknown_fields);
  }
}

void encode(JsonWriter& w, const ObjectReference& v) {
  auto opt = [&](std::string_view key, const std::optional<std::string>& s) {
    if (!s) return;
    w.key_literal(key);
    w.value(*s);
  };
  w.begin_object();
  opt("kind", v.kind);
  opt("namespace", v.namespace_);
  opt("name", v.name);
  opt("uid", v.uid);
  opt("apiVersion", v.api_version);
  opt("resourceVersion", v.resource_version);
  opt("fieldPath", v.field_path);
  w.unknown(v.unknown_fields);
  w.end_object();
}

void decode(JsonReader& r, LocalObjectReference& v) {
  r.begin_object();
  while (r.next_key()) {
    if (r.key() == "name") decode(r, v.name);
    else r.capture_unknown(v.unknown_fields);
  }
}

void encode(JsonWriter& w, const LocalObjectReference& v) {
  w.begin_object();
  if (v.name) {
    w.key_literal("name");
    w.value(*v.name);
  }
  w.unknown(v.unknown_fields);
  w.end_object();
}

// ---- EmbeddedResource -------------------------------------------------------------------------

void decode(JsonReader& r, EmbeddedResource& v) {
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "apiVersion") decode(r, v.api_version);
    else if (k == "kind") decode(r, v.kind);
    else if (k == "metadata") decode(r, v.metadata);
    else r.capture_unknown(v.body);
  }
}

void encode(JsonWriter& w, const EmbeddedResource& v) {
  w.begin_object();
  if (v.api_version) {
    w.key_literal("apiVersion");
    w.value(*v.api_version);
  }
  if (v.kind) {
    w.key_literal("kind");
    w.value(*v.kind);
  }
  if (v.metadata) {
    w.key_literal("metadata");
    encode(w, *v.metadata);
  }
  w.unknown(v.body);
  w.end_object();
}

// ---- validate / apply_defaults ------------------------------------------------------------------
// metav1 metadata is validated by the API server itself (not by the CRD schema), and none of these
// shapes carries schema defaults; LabelSelector and the references have no constraints beyond the
// required members their types already enforce.

void validate(Validator&, const TypeMeta&) {}
void validate(Validator&, const ListMeta&) {}
void validate(Validator&, const OwnerReference&) {}
void validate(Validator&, const ManagedFieldsEntry&) {}
void validate(Validator&, const ObjectMeta&) {}
void validate(Validator&, const LabelSelectorRequirement&) {}
void validate(Validator&, const LabelSelector&) {}
void validate(Validator&, const ObjectReference&) {}
void validate(Validator&, const LocalObjectReference&) {}
void validate(Validator&, const EmbeddedResource&) {}

void apply_defaults(TypeMeta&) {}
void apply_defaults(ListMeta&) {}
void apply_defaults(OwnerReference&) {}
void apply_defaults(ManagedFieldsEntry&) {}
void apply_defaults(ObjectMeta&) {}
void apply_defaults(Condition&) {}
void apply_defaults(LabelSelectorRequirement&) {}
void apply_defaults(LabelSelector&) {}
void apply_defaults(ObjectReference&) {}
void apply_defaults(LocalObjectReference&) {}
void apply_defaults(EmbeddedResource&) {}

// ---- nlohmann ADL bridges ---------------------------------------------------------------------

#define RR_CORE_META_DOM(X)                                                                            \
  void to_json(Json& j, const X& v) {                                                                  \
    encode_to_dom(j, [](JsonWriter& w, const void* p) { encode(w, *static_cast<const X*>(p)); }, &v);  \
  }                                                                                                    \
  void from_json(const Json& j, X& v) {                                                                \
    decode_from_dom(j, [](JsonReader& r, void* p) { decode(r, *static_cast<X*>(p)); }, &v);           \
  }

RR_CORE_META_DOM(TypeMeta)
RR_CORE_META_DOM(ListMeta)
RR_CORE_META_DOM(OwnerReference)
RR_CORE_META_DOM(ManagedFieldsEntry)
RR_CORE_META_DOM(ObjectMeta)
RR_CORE_META_DOM(Condition)
RR_CORE_META_DOM(LabelSelectorRequirement)
RR_CORE_META_DOM(LabelSelector)
RR_CORE_META_DOM(ObjectReference)
RR_CORE_META_DOM(LocalObjectReference)
RR_CORE_META_DOM(EmbeddedResource)

#undef RR_CORE_META_DOM

}  // namespace rr
