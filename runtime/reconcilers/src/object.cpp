// Non-template helpers behind object.hpp: status comparison, lastTransitionTime restore, owner
// references.
#include "rr/reconcilers/object.hpp"

#include <algorithm>

#include "rr/core/json.hpp"

namespace rr {

namespace {

// Drops nulls, then objects and arrays left empty, recursively: Go's semantic equality treats a
// nil slice or map like an empty one, and `omitempty` does not serialise either.
Json pruned(const Json& value) {
  if (value.is_object()) {
    Json out = Json::object();
    for (const auto& [key, member] : value.items()) {
      Json kept = pruned(member);
      if (kept.is_null() || ((kept.is_object() || kept.is_array()) && kept.empty())) continue;
      out[key] = std::move(kept);
    }
    return out;
  }
  if (value.is_array()) {
    Json out = Json::array();
    for (const auto& item : value) out.push_back(pruned(item));
    return out;
  }
  return value;
}

Json parsed(std::string_view text) {
  if (text.empty()) return Json::object();
  return pruned(Json::parse(text));
}

std::string_view group_of(std::string_view api_version) noexcept {
  const auto slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

// controllerutil's referSameObject: group (not version), kind and name.
bool same_object(const OwnerReference& a, const OwnerReference& b) noexcept {
  return group_of(a.api_version) == group_of(b.api_version) && a.kind == b.kind && a.name == b.name;
}

}  // namespace

bool same_json_document(std::string_view a, std::string_view b) {
  // The same text is the same document (the common case: a status the reconcile did not change,
  // serialised twice by the same encoder); only texts that differ are parsed and pruned.
  if (a == b) return true;
  Json left = parsed(a);
  Json right = parsed(b);
  // An absent document and one that prunes to nothing are the same (a status never set vs {}).
  return left == right;
}

namespace object_detail {

std::string dumped(void (*encode)(Json& out, const void* value), const void* value) {
  Json j;
  encode(j, value);
  return j.dump();
}

bool same_json_member(const Json* a, const Json* b) {
  return same_json_document(a ? a->dump() : std::string(), b ? b->dump() : std::string());
}

}  // namespace object_detail

void restore_last_transition_times(std::vector<Condition>& proposed, const std::vector<Condition>& original) {
  for (const Condition& o : original) {
    auto p = std::find_if(proposed.begin(), proposed.end(), [&](const Condition& c) { return c.type == o.type; });
    if (p == proposed.end()) continue;
    if (p->status == o.status && p->reason == o.reason && p->message == o.message &&
        p->observed_generation == o.observed_generation) {
      p->last_transition_time = o.last_transition_time;
    }
  }
}

const OwnerReference* controller_of(const ObjectMeta& meta) noexcept {
  for (const OwnerReference& ref : meta.owner_references) {
    if (ref.controller.value_or(false)) return &ref;
  }
  return nullptr;
}

bool is_controlled_by(const ObjectMeta& object, const ObjectMeta& owner) noexcept {
  const OwnerReference* ref = controller_of(object);
  return ref != nullptr && ref->uid == owner.uid;
}

Error upsert_controller_reference(ObjectMeta& object, OwnerReference ref) {
  if (const OwnerReference* existing = controller_of(object); existing && !same_object(*existing, ref)) {
    return Error::make("Object " + object.namespace_ + "/" + object.name + " is already owned by another " +
                       existing->kind + " controller " + existing->name);
  }
  auto same = std::find_if(object.owner_references.begin(), object.owner_references.end(),
                           [&](const OwnerReference& r) { return same_object(r, ref); });
  if (same != object.owner_references.end()) {
    *same = std::move(ref);
  } else {
    object.owner_references.push_back(std::move(ref));
  }
  return {};
}

std::string gvk_text(const GroupVersionKind& gvk) { return gvk.api_version() + ", Kind=" + gvk.kind; }

}  // namespace rr
