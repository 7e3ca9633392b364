#include "crd_controller.hpp"

#include <algorithm>
#include <utility>

#include "crd_admission.hpp"
#include "crd_conversion.hpp"
#include "crd_kinds.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/time.hpp"
#include "rr/schema/selectable_fields.hpp"

namespace rr::apiserver_detail {

namespace {

// The CRD's spec.versions[] entry of that name, or nullptr.
const Json* version_entry(const Json& crd, const std::string& version_name) {
  const Json* versions = crd.contains("/spec/versions"_json_pointer) ? &crd.at("/spec/versions"_json_pointer) : nullptr;
  if (!versions || !versions->is_array()) return nullptr;
  for (const Json& version : *versions) {
    if (version.is_object() && version.value("name", std::string()) == version_name) return &version;
  }
  return nullptr;
}

// The field selector names a served version's selectableFields give its custom resources.
std::vector<std::string> selectable_fields_of(const Json& crd, const std::string& version_name) {
  const Json* version = version_entry(crd, version_name);
  if (!version || !version->contains("selectableFields")) return {};
  return schema::selectable_field_names(version->at("selectableFields"));
}

// The version's openAPIV3Schema, which server-side apply reads list and map types from ({}: none).
Json apply_schema_of(const Json& crd, const std::string& version_name) {
  const Json* version = version_entry(crd, version_name);
  const Json::json_pointer at("/schema/openAPIV3Schema");
  if (!version || !version->contains(at) || !version->at(at).is_object()) return Json::object();
  return version->at(at);
}

const GroupVersionKind crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};

bool is_terminating(const Json& object) { return object.contains("/metadata/deletionTimestamp"_json_pointer); }

}  // namespace

CrdController::CrdController(std::shared_ptr<Cluster> cluster, KindCatalog& catalog)
    : cluster_(std::move(cluster)), catalog_(catalog) {}

CrdController::~CrdController() { stop(); }

void CrdController::start() {
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void CrdController::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

void CrdController::run() {
  const auto kind = cluster_->find_kind(crd_gvk);
  if (!kind) return;
  std::unique_ptr<Watch> watch;
  while (!stopping_) {
    if (!watch || watch->stopped()) {
      try {
        watch = cluster_->watch(*kind, ListOptions{});
      } catch (const ApiError&) {
        return;
      }
    }
    auto event = watch->next(std::chrono::milliseconds(100));
    if (!event || event->type == WatchEventType::Bookmark || event->type == WatchEventType::Error) continue;
    const std::string name = event->object.value("/metadata/name"_json_pointer, std::string());
    if (!name.empty()) sync(name);
  }
  if (watch) watch->stop();
}

void CrdController::sync(const std::string& crd_name) {
  const auto kind = cluster_->find_kind(crd_gvk);
  if (!kind) return;
  std::lock_guard lock(mutex_);
  Json crd;
  try {
    crd = cluster_->get(*kind, ObjectKey{"", crd_name});
  } catch (const ApiError& e) {
    if (is_not_found(e.status())) forget(crd_name);
    return;
  }
  apply(crd);
  if (!is_terminating(crd) && !crd_status_current(crd)) mark_accepted(*kind, std::move(crd));
}

void CrdController::apply(const Json& crd) {
  const std::string name = crd.value("/metadata/name"_json_pointer, std::string());
  // Status writes (the conditions this controller sets) leave the spec, and so the kinds, as they were.
  const std::int64_t generation = crd.value("/metadata/generation"_json_pointer, std::int64_t{0});
  if (auto it = applied_generation_.find(name); it != applied_generation_.end() && it->second == generation) return;
  applied_generation_[name] = generation;
  auto declared = kinds_of_crd(crd);
  std::vector<GroupVersionKind> now_served;
  if (declared) {
    for (const KindInfo& info : declared->kinds) {
      // The CRD's schema is the admission, as on a real API server. Without a schema, a kind an
      // operator registered before (its generated type's admission) keeps that registration.
      auto admission = schema_admission(crd, info.gvk.version);
      if (admission || !cluster_->find_kind(info.gvk) || registered_here_.contains(info.gvk)) {
        cluster_->register_kind(info, std::move(admission));
        registered_here_.insert(info.gvk);
      }
      cluster_->set_selectable_fields(info.gvk, selectable_fields_of(crd, info.gvk.version));
      cluster_->set_apply_schema(info.gvk, nullptr, apply_schema_of(crd, info.gvk.version));
      ResourceNames names = declared->names;
      const auto& scaled = declared->scaled_versions;
      names.has_scale = std::find(scaled.begin(), scaled.end(), info.gvk.version) != scaled.end();
      catalog_.set_names(info.gvk, std::move(names));
      catalog_.show(info.gvk);
      now_served.push_back(info.gvk);
    }
  }
  if (declared) adopt_old_storage(crd, *declared);
  for (const auto& gvk : served_by_crd_[name]) {
    if (std::find(now_served.begin(), now_served.end(), gvk) == now_served.end()) catalog_.hide(gvk);
  }
  served_by_crd_[name] = std::move(now_served);
}

void CrdController::adopt_old_storage(const Json& crd, const CrdKinds& declared) {
  const std::string name = crd.value("/metadata/name"_json_pointer, std::string());
  std::string& previous = storage_version_[name];
  const std::string old_version = std::exchange(previous, declared.storage_version);
  if (old_version.empty() || old_version == declared.storage_version || declared.kinds.empty()) return;
  const KindInfo& to = declared.kinds.front();  // the storage version's
  const auto from = cluster_->find_kind(GroupVersionKind{to.gvk.group, old_version, to.gvk.kind});
  if (!from) return;
  std::vector<Json> objects = cluster_->list(*from, ListOptions{})["items"].get<std::vector<Json>>();
  if (objects.empty()) return;
  try {
    if (auto conversion = crd_conversion(crd)) {
      objects = convert_objects(*conversion, std::move(objects), to.gvk.api_version(), ClusterReader(*cluster_));
    } else {
      for (Json& object : objects) object["apiVersion"] = to.gvk.api_version();
    }
  } catch (const ApiError&) {
    return;  // the conversion webhook failed: the objects stay where they are
  }
  cluster_->move_objects(*from, to, objects);
}

void CrdController::forget(const std::string& crd_name) {
  applied_generation_.erase(crd_name);
  auto it = served_by_crd_.find(crd_name);
  if (it == served_by_crd_.end()) return;
  for (const auto& gvk : it->second) {
    // The API server deletes every custom resource of a deleted CRD.
    if (auto info = cluster_->find_kind(gvk)) {
      try {
        cluster_->remove_collection(*info, ListOptions{});
      } catch (const ApiError&) {
      }
    }
    catalog_.hide(gvk);
  }
  served_by_crd_.erase(it);
}

void CrdController::mark_accepted(const KindInfo& crd_kind, Json crd) {
  for (int attempt = 0; attempt < 5; ++attempt) {
    crd["status"] = accepted_crd_status(crd, Time::from(cluster_->now()).str());
    try {
      cluster_->update_status(crd_kind, crd);
      return;
    } catch (const ApiError& e) {
      if (!is_conflict(e.status())) return;
    }
    try {
      crd = cluster_->get(crd_kind, ObjectKey{"", crd.value("/metadata/name"_json_pointer, std::string())});
    } catch (const ApiError&) {
      return;
    }
    if (crd_status_current(crd)) return;
  }
}

}  // namespace rr::apiserver_detail
