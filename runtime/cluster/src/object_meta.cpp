#include "object_meta.hpp"

namespace rr::cluster_detail {

namespace {

const Json* meta_member(const Json& object, std::string_view field) {
  if (!object.is_object()) return nullptr;
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return nullptr;
  auto it = meta->find(field);
  return it == meta->end() ? nullptr : &*it;
}

}  // namespace

std::string meta_string(const Json& object, std::string_view field) {
  const Json* v = meta_member(object, field);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

void set_meta(Json& object, std::string_view field, Json value) {
  Json& meta = object["metadata"];
  if (!meta.is_object()) meta = Json::object();
  meta[std::string(field)] = std::move(value);
}

void erase_meta(Json& object, std::string_view field) {
  auto meta = object.find("metadata");
  if (meta != object.end() && meta->is_object()) meta->erase(std::string(field));
}

std::map<std::string, std::string> labels_of(const Json& object) {
  std::map<std::string, std::string> labels;
  if (const Json* v = meta_member(object, "labels"); v && v->is_object()) {
    for (const auto& [k, value] : v->items()) {
      if (value.is_string()) labels.emplace(k, value.get<std::string>());
    }
  }
  return labels;
}

std::vector<std::string> finalizers_of(const Json& object) {
  std::vector<std::string> out;
  if (const Json* v = meta_member(object, "finalizers"); v && v->is_array()) {
    for (const auto& f : *v) {
      if (f.is_string()) out.push_back(f.get<std::string>());
    }
  }
  return out;
}

void set_finalizers(Json& object, const std::vector<std::string>& finalizers) {
  if (finalizers.empty()) erase_meta(object, "finalizers");
  else set_meta(object, "finalizers", finalizers);
}

std::vector<Json> owner_references_of(const Json& object) {
  std::vector<Json> out;
  if (const Json* v = meta_member(object, "ownerReferences"); v && v->is_array()) {
    for (const auto& ref : *v) {
      if (ref.is_object()) out.push_back(ref);
    }
  }
  return out;
}

bool is_terminating(const Json& object) {
  const Json* v = meta_member(object, "deletionTimestamp");
  return v && v->is_string() && !v->get_ref<const std::string&>().empty();
}

std::int64_t generation_of(const Json& object) {
  const Json* v = meta_member(object, "generation");
  return v && v->is_number_integer() ? v->get<std::int64_t>() : 0;
}

std::string group_of(std::string_view api_version) {
  auto slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string() : std::string(api_version.substr(0, slash));
}

Json generation_relevant(const Json& object, bool has_status) {
  Json copy = object;
  if (copy.is_object()) {
    copy.erase("metadata");
    if (has_status) copy.erase("status");
  }
  return copy;
}

}  // namespace rr::cluster_detail
