// The lifecycle of a core v1 Namespace, as the namespace registry, the NamespaceLifecycle admission
// plugin and kube-controller-manager's namespace controller give it on a real cluster:
// - create: spec.finalizers gains "kubernetes", status.phase is "Active";
// - update: spec.finalizers is kept from the stored namespace (only /finalize changes it upstream);
// - delete: the namespace becomes terminating (deletionTimestamp, phase "Terminating") while a
//   finalizer holds it;
// - the controller (here a step of the synchronous collector, gc.cpp) deletes every namespaced
//   object in it, waits for those with finalizers, then drops "kubernetes"; the namespace goes
//   when no finalizer of either list is left;
// - creating content in a terminating namespace is 403 Forbidden.
// Only the kind registered as v1 Namespace gets this; a cluster without one is unchanged.
#include "namespace_lifecycle.hpp"

#include <algorithm>

#include "errors.hpp"
#include "object_meta.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

bool is_namespace_kind(const KindInfo& kind) {
  return kind.gvk.group.empty() && kind.gvk.version == "v1" && kind.gvk.kind == "Namespace" && !kind.namespaced();
}

std::vector<std::string> spec_finalizers_of(const Json& ns) {
  std::vector<std::string> out;
  auto spec = ns.find("spec");
  if (spec == ns.end() || !spec->is_object()) return out;
  auto finalizers = spec->find("finalizers");
  if (finalizers == spec->end() || !finalizers->is_array()) return out;
  for (const auto& f : *finalizers) {
    if (f.is_string()) out.push_back(f.get<std::string>());
  }
  return out;
}

void set_spec_finalizers(Json& ns, const std::vector<std::string>& finalizers) {
  Json& spec = ns["spec"];
  if (!spec.is_object()) spec = Json::object();
  if (finalizers.empty()) spec.erase("finalizers");
  else spec["finalizers"] = finalizers;
}

void set_phase(Json& ns, const char* phase) {
  Json& status = ns["status"];
  if (!status.is_object()) status = Json::object();
  status["phase"] = phase;
}

bool namespace_terminating(const Json& ns) {
  if (is_terminating(ns)) return true;
  auto status = ns.find("status");
  if (status == ns.end() || !status->is_object()) return false;
  auto phase = status->find("phase");
  return phase != status->end() && phase->is_string() && phase->get<std::string>() == "Terminating";
}

bool Store::finalized(const KindEntry& entry, const Json& object) {
  if (!finalizers_of(object).empty()) return false;
  return !is_namespace_kind(entry.info) || spec_finalizers_of(object).empty();
}

const Json* Store::find_namespace(const std::string& name) const {
  const KindEntry* namespaces = find_kind(GroupVersionKind{"", "v1", "Namespace"});
  if (!namespaces || !is_namespace_kind(namespaces->info)) return nullptr;
  auto it = namespaces->objects.find(ObjectKey{"", name});
  return it == namespaces->objects.end() ? nullptr : &it->second;
}

// NamespaceLifecycle admission: the name is the request's (or its generateName: admission runs
// before names are generated).
void Store::check_namespace_open(const KindInfo& kind, const Json& object) const {
  if (!kind.namespaced()) return;
  const std::string ns = meta_string(object, "namespace");
  const Json* found = find_namespace(ns);
  if (!found) {
    if (options_.require_namespaces) fail(api_errors::not_found("namespaces", "", ns));
    return;
  }
  if (!namespace_terminating(*found)) return;
  std::string name = meta_string(object, "name");
  if (name.empty()) name = meta_string(object, "generateName");
  Status refused = api_errors::forbidden(kind.plural, kind.gvk.group, name,
                                         "unable to create new content in namespace " + ns +
                                             " because it is being terminated");
  refused.causes.push_back(StatusCause{.type = "NamespaceTerminating",
                                       .message = "namespace " + ns + " is being terminated",
                                       .field = "metadata.namespace"});
  fail(std::move(refused));
}

// namespaceStrategy.PrepareForCreate.
void Store::prepare_namespace_create(Json& ns) {
  auto finalizers = spec_finalizers_of(ns);
  if (std::find(finalizers.begin(), finalizers.end(), namespace_content_finalizer) == finalizers.end()) {
    finalizers.push_back(namespace_content_finalizer);
  }
  set_spec_finalizers(ns, finalizers);
  ns["status"] = Json{{"phase", "Active"}};
}

// namespaceStrategy.PrepareForUpdate: a write of the main resource cannot change spec.finalizers.
void Store::keep_spec_finalizers(Json& ns, const Json& stored) {
  const auto finalizers = spec_finalizers_of(stored);
  if (!finalizers.empty()) {
    set_spec_finalizers(ns, finalizers);
    return;
  }
  auto spec = ns.find("spec");
  if (spec == ns.end() || !spec->is_object()) return;
  spec->erase("finalizers");
  if (spec->empty() && !stored.contains("spec")) ns.erase("spec");
}

// The namespace controller, one step at a time: each call deletes the content of one terminating
// namespace, or finalizes one that is empty. Reading a namespace's content is a range lookup per
// kind (objects are sorted by namespace), not a scan of the store.
bool Store::process_namespace_finalizer() {
  auto namespaces = kinds_.find(GroupVersionKind{"", "v1", "Namespace"});
  if (namespaces == kinds_.end() || !is_namespace_kind(namespaces->second.info)) return false;
  for (const auto& [key, ns] : namespaces->second.objects) {
    if (!is_terminating(ns)) continue;
    const auto finalizers = spec_finalizers_of(ns);
    if (std::find(finalizers.begin(), finalizers.end(), namespace_content_finalizer) == finalizers.end()) continue;
    const ObjectKey ns_key = key;  // finalizing may erase the element `key` lives in
    if (delete_namespace_content(ns_key.name)) return true;  // let the collector see what went first
    if (namespace_has_content(ns_key.name)) continue;          // terminating objects wait for their finalizers
    finalize_namespace(namespaces->second, ns_key);
    return true;
  }
  return false;
}

bool Store::delete_namespace_content(const std::string& ns) {
  bool deleted = false;
  for (auto& [gvk, entry] : kinds_) {
    if (!entry.info.namespaced()) continue;
    std::vector<ObjectKey> keys;
    auto it = entry.objects.lower_bound(ObjectKey{ns, ""});
    for (; it != entry.objects.end() && it->first.namespace_ == ns; ++it) {
      if (!is_terminating(it->second)) keys.push_back(it->first);
    }
    // The controller deletes with background propagation.
    for (const auto& key : keys) {
      delete_object(entry, key, PropagationPolicy::Background);
      deleted = true;
    }
  }
  return deleted;
}

bool Store::namespace_has_content(const std::string& ns) const {
  return std::any_of(kinds_.begin(), kinds_.end(), [&](const auto& kind) {
    const KindEntry& entry = kind.second;
    if (!entry.info.namespaced()) return false;
    auto it = entry.objects.lower_bound(ObjectKey{ns, ""});
    return it != entry.objects.end() && it->first.namespace_ == ns;
  });
}

void Store::finalize_namespace(KindEntry& namespaces, const ObjectKey& key) {
  const Json previous = namespaces.objects.at(key);
  auto finalizers = spec_finalizers_of(previous);
  std::erase(finalizers, std::string(namespace_content_finalizer));
  Json updated = previous;
  set_spec_finalizers(updated, finalizers);
  commit_update(namespaces, previous, std::move(updated));  // removes it when nothing holds it any more
}

}  // namespace rr::cluster_detail
