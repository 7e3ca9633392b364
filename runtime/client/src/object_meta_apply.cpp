// ObjectMetaApply's codec and equality: metav1.ObjectMetaApplyConfiguration's members, written only
// when set, in Go's field order.
#include "rr/client/apply.hpp"
#include "rr/core/codec.hpp"

namespace rr {

bool ObjectMetaApply::operator==(const ObjectMetaApply& other) const {
  return name == other.name && namespace_ == other.namespace_ && labels == other.labels &&
         annotations == other.annotations && owner_references == other.owner_references &&
         finalizers == other.finalizers && generate_name == other.generate_name;
}

bool ObjectMetaApply::empty() const { return *this == ObjectMetaApply{}; }

void ObjectMetaApply::rr_decode(JsonReader& r) {
  *this = ObjectMetaApply{};
  r.begin_object();
  while (r.next_key()) {
    const std::string_view k = r.key();
    if (k == "name") decode(r, name);
    else if (k == "generateName") decode(r, generate_name);
    else if (k == "namespace") decode(r, namespace_);
    else if (k == "labels") decode(r, labels);
    else if (k == "annotations") decode(r, annotations);
    else if (k == "ownerReferences") decode(r, owner_references);
    else if (k == "finalizers") decode(r, finalizers);
    else r.skip();  // what the server sets (uid, resourceVersion, managedFields ...): not applied
  }
}

void ObjectMetaApply::rr_encode(JsonWriter& w) const {
  w.begin_object();
  if (name) {
    w.key_literal("name");
    encode(w, *name);
  }
  if (generate_name) {
    w.key_literal("generateName");
    encode(w, *generate_name);
  }
  if (namespace_) {
    w.key_literal("namespace");
    encode(w, *namespace_);
  }
  if (labels) {
    w.key_literal("labels");
    encode(w, *labels);
  }
  if (annotations) {
    w.key_literal("annotations");
    encode(w, *annotations);
  }
  if (owner_references) {
    w.key_literal("ownerReferences");
    encode(w, *owner_references);
  }
  if (finalizers) {
    w.key_literal("finalizers");
    encode(w, *finalizers);
  }
  w.end_object();
}

void to_json(Json& j, const ObjectMetaApply& v) {
  encode_to_dom(
      j, [](JsonWriter& w, const void* p) { static_cast<const ObjectMetaApply*>(p)->rr_encode(w); }, &v);
}

void from_json(const Json& j, ObjectMetaApply& v) {
  decode_from_dom(
      j, [](JsonReader& r, void* p) { static_cast<ObjectMetaApply*>(p)->rr_decode(r); }, &v);
}

}  // namespace rr
