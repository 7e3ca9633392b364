#include "apply_managed_fields.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <tuple>
#include <vector>

#include "object_meta.hpp"

namespace rr::cluster_detail {

namespace {

// stripmeta.go: fields every write carries that no manager owns.
const std::array<FieldPath, 12> stripped = {
    FieldPath{"f:apiVersion"},
    FieldPath{"f:kind"},
    FieldPath{"f:metadata"},
    FieldPath{"f:metadata", "f:name"},
    FieldPath{"f:metadata", "f:namespace"},
    FieldPath{"f:metadata", "f:creationTimestamp"},
    FieldPath{"f:metadata", "f:selfLink"},
    FieldPath{"f:metadata", "f:uid"},
    FieldPath{"f:metadata", "f:clusterName"},
    FieldPath{"f:metadata", "f:generation"},
    FieldPath{"f:metadata", "f:managedFields"},
    FieldPath{"f:metadata", "f:resourceVersion"},
};

std::string text(const Json& entry, const char* member) {
  auto it = entry.find(member);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// json.Marshal of the identifying part of a ManagedFieldsEntry: the order conflicts are printed in.
std::string identifier(const ManagerId& id) {
  std::string out = "{\"manager\":" + Json(id.manager).dump() + ",\"operation\":" + Json(id.operation).dump();
  if (!id.api_version.empty()) out += ",\"apiVersion\":" + Json(id.api_version).dump();
  if (!id.subresource.empty()) out += ",\"subresource\":" + Json(id.subresource).dump();
  return out + "}";
}

// printManager, without the time: the identifier never carries one.
std::string printed(const ManagerId& id) {
  std::string out = Json(id.manager).dump();
  if (!id.subresource.empty()) out += " with subresource " + Json(id.subresource).dump();
  if (id.operation == "Update") out += " using " + id.api_version;
  return out;
}

std::vector<std::pair<ManagerId, FieldSet>> by_identifier(const Conflicts& conflicts) {
  std::vector<std::pair<ManagerId, FieldSet>> out(conflicts.begin(), conflicts.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return identifier(a.first) < identifier(b.first); });
  return out;
}

}  // namespace

ManagerId applier(std::string manager, std::string subresource) {
  return ManagerId{std::move(manager), "Apply", "", std::move(subresource)};
}

ManagerId updater(std::string manager, std::string api_version, std::string subresource) {
  return ManagerId{std::move(manager), "Update", std::move(api_version), std::move(subresource)};
}

std::optional<ManagedFields> decode_managed_fields(const Json& object) {
  ManagedFields out;
  const Json* entries = nullptr;
  if (auto meta = object.find("metadata"); meta != object.end() && meta->is_object()) {
    if (auto it = meta->find("managedFields"); it != meta->end()) entries = &*it;
  }
  if (!entries || entries->is_null()) return out;
  if (!entries->is_array()) return std::nullopt;
  for (const Json& entry : *entries) {
    if (!entry.is_object()) return std::nullopt;
    if (entry.empty()) continue;
    const std::string operation = text(entry, "operation");
    if ((operation != "Apply" && operation != "Update") || text(entry, "fieldsType") != "FieldsV1") return std::nullopt;
    std::optional<FieldSet> fields = FieldSet{};
    if (auto f = entry.find("fieldsV1"); f != entry.end() && !f->is_null()) fields = FieldSet::from_fields_v1(*f);
    if (!fields) return std::nullopt;
    const std::string api_version = text(entry, "apiVersion");
    const ManagerId id{text(entry, "manager"), operation, operation == "Update" ? api_version : "",
                       text(entry, "subresource")};
    ManagerFields& held = out[id];
    held.fields = held.fields.united_with(*fields);
    held.api_version = api_version;
    held.time = std::max(held.time, text(entry, "time"));
  }
  return out;
}

void encode_managed_fields(Json& object, const ManagedFields& managed) {
  std::vector<std::pair<const ManagerId*, const ManagerFields*>> entries;
  for (const auto& [id, fields] : managed) {
    if (!fields.fields.empty()) entries.emplace_back(&id, &fields);
  }
  if (entries.empty()) {
    erase_meta(object, "managedFields");
    return;
  }
  // sortEncodedManagedFields; RFC 3339 texts at second precision sort as their times do.
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first->operation, a.second->time, a.first->manager, a.second->api_version, a.first->subresource) <
           std::tie(b.first->operation, b.second->time, b.first->manager, b.second->api_version, b.first->subresource);
  });
  Json list = Json::array();
  for (const auto& [id, fields] : entries) {
    Json entry = {{"operation", id->operation},
                  {"apiVersion", fields->api_version},
                  {"fieldsType", "FieldsV1"},
                  {"fieldsV1", fields->fields.to_fields_v1()}};
    if (!id->manager.empty()) entry["manager"] = id->manager;
    if (!fields->time.empty()) entry["time"] = fields->time;
    if (!id->subresource.empty()) entry["subresource"] = id->subresource;
    list.push_back(std::move(entry));
  }
  set_meta(object, "managedFields", std::move(list));
}

bool FieldScope::tracks(const FieldPath& path) const {
  if (std::find(stripped.begin(), stripped.end(), path) != stripped.end()) return false;
  if (!has_status) return true;
  const bool under_status = !path.empty() && path.front() == "f:status";
  return status_subresource ? under_status : !under_status;
}

FieldSet FieldScope::of(const FieldSet& fields) const {
  return fields.filtered([this](const FieldPath& path) { return tracks(path); });
}

Comparison FieldScope::of(const Comparison& change) const {
  return Comparison{of(change.added), of(change.modified), of(change.removed)};
}

Conflicts conflicts_with(const ManagedFields& managed, const ManagerId& current, const Comparison& change) {
  const FieldSet changed = change.added.united_with(change.modified);
  Conflicts out;
  for (const auto& [id, fields] : managed) {
    if (id == current) continue;
    FieldSet owned = fields.fields.intersected_with(changed);
    if (!owned.empty()) out.emplace(id, std::move(owned));
  }
  return out;
}

void transfer_ownership(ManagedFields& managed, const ManagerId& current, const Comparison& change) {
  const FieldSet lost = change.added.united_with(change.modified).united_with(change.removed);
  for (auto it = managed.begin(); it != managed.end();) {
    if (it->first != current) it->second.fields = it->second.fields.minus(lost);
    it = it->second.fields.empty() ? managed.erase(it) : std::next(it);
  }
}

Status apply_conflict(const Conflicts& conflicts) {
  Status s;
  s.reason = "Conflict";
  s.code = 409;
  std::size_t count = 0;
  std::string listing;
  const auto sorted = by_identifier(conflicts);
  for (const auto& [id, fields] : sorted) {
    listing += (listing.empty() ? "" : "\n") + std::string("conflicts with ") + printed(id) + ":";
    for (const FieldPath& path : fields.in_merge_order()) {
      ++count;
      listing += "\n- " + display_path(path);
      s.causes.push_back(StatusCause{.type = "FieldManagerConflict",
                                     .message = "conflict with " + printed(id),
                                     .field = display_path(path)});
    }
  }
  if (count == 1) {
    s.message = "Apply failed with 1 conflict: " + s.causes.front().message + ": " + s.causes.front().field;
  } else {
    s.message = "Apply failed with " + std::to_string(count) + " conflicts: " + listing;
  }
  return s;
}

}  // namespace rr::cluster_detail
