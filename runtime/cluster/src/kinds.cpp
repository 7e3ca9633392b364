// The kinds the server serves.
#include "apply_schema.hpp"
#include "errors.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

void Store::register_kind(KindInfo info, Cluster::AdmissionFn admission) {
  if (info.list_kind.empty()) info.list_kind = info.gvk.kind + "List";
  KindEntry& entry = kinds_[info.gvk];  // registering again replaces the description, keeps the objects
  entry.info = std::move(info);
  entry.admission = std::move(admission);
}

void Store::set_selectable_fields(const GroupVersionKind& gvk, std::vector<std::string> fields) {
  auto it = kinds_.find(gvk);
  if (it != kinds_.end()) it->second.selectable_fields = std::move(fields);
}

void Store::set_apply_schema(const GroupVersionKind& gvk, std::shared_ptr<const ApplySchema> schema) {
  auto it = kinds_.find(gvk);
  if (it != kinds_.end()) it->second.apply_schema = std::move(schema);
}

const KindEntry* Store::find_kind(const GroupVersionKind& gvk) const {
  auto it = kinds_.find(gvk);
  return it == kinds_.end() ? nullptr : &it->second;
}

const KindEntry* Store::find_kind_by_plural(std::string_view group, std::string_view plural) const {
  for (const auto& [gvk, entry] : kinds_) {
    if (gvk.group == group && entry.info.plural == plural) return &entry;
  }
  return nullptr;
}

std::vector<KindInfo> Store::kinds() const {
  std::vector<KindInfo> out;
  out.reserve(kinds_.size());
  for (const auto& [gvk, entry] : kinds_) out.push_back(entry.info);
  return out;
}

KindEntry& Store::served(const KindInfo& kind) {
  auto it = kinds_.find(kind.gvk);
  if (it == kinds_.end()) fail(not_served(kind));
  return it->second;
}

const KindEntry& Store::served(const KindInfo& kind) const {
  auto it = kinds_.find(kind.gvk);
  if (it == kinds_.end()) fail(not_served(kind));
  return it->second;
}

ObjectKey Store::storage_key(const KindEntry& entry, const ObjectKey& key) {
  return entry.info.namespaced() ? key : ObjectKey{"", key.name};
}

const Json* Store::find(const GroupVersionKind& gvk, const ObjectKey& key) const {
  auto kind = kinds_.find(gvk);
  if (kind == kinds_.end()) return nullptr;
  auto it = kind->second.objects.find(storage_key(kind->second, key));
  return it == kind->second.objects.end() ? nullptr : &it->second;
}

std::vector<const Json*> Store::all(const GroupVersionKind& gvk) const {
  std::vector<const Json*> out;
  if (auto kind = kinds_.find(gvk); kind != kinds_.end()) {
    for (const auto& [key, object] : kind->second.objects) out.push_back(&object);
  }
  return out;
}

std::optional<KindInfo> Store::kind(const GroupVersionKind& gvk) const {
  auto it = kinds_.find(gvk);
  if (it == kinds_.end()) return std::nullopt;
  return it->second.info;
}

Json& Store::stored_or_404(KindEntry& entry, const ObjectKey& key) {
  auto it = entry.objects.find(storage_key(entry, key));
  if (it == entry.objects.end()) fail(not_found(entry.info, key.name));
  return it->second;
}

}  // namespace rr::cluster_detail
