// The garbage collector, run synchronously to a fixed point at the end of the call that removed
// an owner or made one terminating, so tests see its effects deterministically.
//
// Background: once an owner is gone, a dependent whose every ownerReference names a missing owner
// (a uid mismatch counts as missing) is deleted, through the ordinary delete path (so dependents
// with finalizers become terminating). Foreground: a terminating owner with the
// "foregroundDeletion" finalizer has its dependents deleted (foreground too) and loses the
// finalizer once no dependent with blockOwnerDeletion remains. Orphan: a terminating owner with
// the "orphan" finalizer has its ownerReferences stripped from the dependents, then loses the
// finalizer. Namespace: a terminating v1 Namespace has its content deleted and loses the
// "kubernetes" spec finalizer once it is empty (namespace_lifecycle.cpp).
#include <algorithm>

#include "object_meta.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

namespace {

std::string ref_member(const Json& ref, const char* key) {
  auto it = ref.find(key);
  return it != ref.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool has_finalizer(const Json& object, std::string_view finalizer) {
  const auto all = finalizers_of(object);
  return std::find(all.begin(), all.end(), finalizer) != all.end();
}

}  // namespace

void Store::collect_garbage() {
  for (;;) {
    if (!removed_uids_.empty()) {
      const std::string uid = removed_uids_.front();
      removed_uids_.pop_front();
      collect_dependents_of(uid);
      continue;
    }
    if (process_orphan_finalizer()) continue;
    if (process_foreground_finalizer()) continue;
    if (process_namespace_finalizer()) continue;  // namespace_lifecycle.cpp
    return;
  }
}

// Only a write that can unblock the collector runs it: one that makes an object terminating, or one
// to a dependent of a terminating owner (e.g. dropping blockOwnerDeletion under a foreground
// delete). Running it after every write to an owned object scanned the whole store per write.
void Store::collect_garbage_after_write(const Json& stored) {
  if (is_terminating(stored)) {
    collect_garbage();
    return;
  }
  const std::string ns = meta_string(stored, "namespace");
  for (const Json& ref : owner_references_of(stored)) {
    if (const Json* owner = find_owner(ref, ns); owner && is_terminating(*owner)) {
      collect_garbage();
      return;
    }
  }
}

const Json* Store::find_owner(const Json& ref, const std::string& dependent_namespace, bool* served_kind) const {
  const std::string group = group_of(ref_member(ref, "apiVersion"));
  const std::string kind = ref_member(ref, "kind");
  for (const auto& [gvk, entry] : kinds_) {
    if (gvk.group != group || gvk.kind != kind) continue;
    if (served_kind) *served_kind = true;
    // A namespaced owner lives in the dependent's namespace; a cluster-scoped dependent cannot
    // have one at all.
    if (entry.info.namespaced() && dependent_namespace.empty()) continue;
    const ObjectKey key{entry.info.namespaced() ? dependent_namespace : "", ref_member(ref, "name")};
    auto it = entry.objects.find(key);
    if (it != entry.objects.end() && meta_string(it->second, "uid") == ref_member(ref, "uid")) return &it->second;
  }
  return nullptr;
}

bool Store::owner_present(const Json& ref, const std::string& dependent_namespace) const {
  bool served_kind = false;
  if (find_owner(ref, dependent_namespace, &served_kind)) return true;
  // The owner's kind is not served, so it cannot be looked up: keep the dependent.
  return !served_kind;
}

bool Store::collect_dependents_of(const std::string& owner_uid) {
  bool deleted = false;
  for (const auto& [entry, key] : dependents_of(owner_uid)) {
    auto it = entry->objects.find(key);
    if (it == entry->objects.end() || is_terminating(it->second)) continue;
    const std::string ns = meta_string(it->second, "namespace");
    const auto refs = owner_references_of(it->second);
    if (std::none_of(refs.begin(), refs.end(), [&](const Json& ref) { return owner_present(ref, ns); })) {
      delete_object(*entry, key, PropagationPolicy::Background);
      deleted = true;
    }
  }
  return deleted;
}

// Both finalizer steps visit only the terminating objects (gc_index.cpp), in store order.
bool Store::process_orphan_finalizer() {
  for (const auto& [gvk, key] : terminating_objects()) {
    KindEntry& entry = kinds_.at(gvk);
    auto found = entry.objects.find(key);
    if (found == entry.objects.end() || !has_finalizer(found->second, "orphan")) continue;
    const std::string uid = meta_string(found->second, "uid");
    const ObjectKey owner_key = key;  // the object may move while dependents are written
    for (const auto& [dependent_entry, dependent_key] : dependents_of(uid)) {
      const Json previous = dependent_entry->objects.at(dependent_key);
      auto refs = owner_references_of(previous);
      std::erase_if(refs, [&](const Json& ref) { return ref_member(ref, "uid") == uid; });
      Json updated = previous;
      if (refs.empty()) erase_meta(updated, "ownerReferences");
      else set_meta(updated, "ownerReferences", refs);
      commit_update(*dependent_entry, previous, std::move(updated));
    }
    remove_finalizer(entry, owner_key, "orphan");
    return true;
  }
  return false;
}

bool Store::process_foreground_finalizer() {
  for (const auto& [gvk, key] : terminating_objects()) {
    KindEntry& entry = kinds_.at(gvk);
    auto found = entry.objects.find(key);
    if (found == entry.objects.end() || !has_finalizer(found->second, "foregroundDeletion")) continue;
    const std::string uid = meta_string(found->second, "uid");
    const ObjectKey owner_key = key;
    const auto dependents = dependents_of(uid);
    bool deleted = false;
    for (const auto& [dependent_entry, dependent_key] : dependents) {
      auto it = dependent_entry->objects.find(dependent_key);
      if (it == dependent_entry->objects.end() || is_terminating(it->second)) continue;
      delete_object(*dependent_entry, dependent_key, PropagationPolicy::Foreground);
      deleted = true;
    }
    if (deleted) return true;
    const bool blocked = std::any_of(dependents.begin(), dependents.end(), [&](const auto& dependent) {
      auto it = dependent.first->objects.find(dependent.second);
      if (it == dependent.first->objects.end()) return false;
      const auto refs = owner_references_of(it->second);
      return std::any_of(refs.begin(), refs.end(), [&](const Json& ref) {
        auto block = ref.find("blockOwnerDeletion");
        return ref_member(ref, "uid") == uid && block != ref.end() && block->is_boolean() && block->get<bool>();
      });
    });
    if (blocked) continue;  // waits for those dependents' own finalizers
    remove_finalizer(entry, owner_key, "foregroundDeletion");
    return true;
  }
  return false;
}

void Store::remove_finalizer(KindEntry& entry, const ObjectKey& key, const std::string& finalizer) {
  auto it = entry.objects.find(key);
  if (it == entry.objects.end()) return;
  const Json previous = it->second;
  auto finalizers = finalizers_of(previous);
  std::erase(finalizers, finalizer);
  Json updated = previous;
  set_finalizers(updated, finalizers);
  commit_update(entry, previous, std::move(updated));  // removes it when that was the last one
}

}  // namespace rr::cluster_detail
