// StrategicSchema: per-kind trees of field patch metadata.
#include <stdexcept>

#include "rr/client/strategic_merge.hpp"
#include "rr/core/json.hpp"

namespace rr {
namespace {

// "apps/v1" -> "apps"; "v1" -> "" (the core group).
std::string_view group_of(std::string_view api_version) {
  const std::size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view{} : api_version.substr(0, slash);
}

std::string kind_key(std::string_view group, std::string_view kind) {
  std::string key(group);
  key += '/';
  key += kind;
  return key;
}

std::string_view string_member(const Json& object, const char* name) {
  if (!object.is_object()) return {};
  const auto it = object.find(name);
  return it != object.end() && it->is_string() ? std::string_view(it->get_ref<const std::string&>())
                                                : std::string_view{};
}

}  // namespace

const StrategicNode& StrategicNode::field(std::string_view name) const {
  static const StrategicNode empty;
  const auto it = fields_.find(name);
  return it == fields_.end() ? empty : *it->second;
}

void StrategicSchema::add_path(StrategicNode& root, std::string_view path, FieldPatch patch) {
  if (path.empty()) throw std::invalid_argument("StrategicSchema: empty field path");
  StrategicNode* node = &root;
  while (!path.empty()) {
    const std::size_t dot = path.find('.');
    const std::string_view name = path.substr(0, dot);
    if (name.empty()) throw std::invalid_argument("StrategicSchema: empty field name in a path");
    auto it = node->fields_.find(name);
    if (it == node->fields_.end()) {
      it = node->fields_.emplace(std::string(name), std::make_unique<StrategicNode>()).first;
    }
    node = it->second.get();
    path = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
  }
  node->patch_ = std::move(patch);
}

StrategicSchema& StrategicSchema::add(std::string_view group, std::string_view kind, std::string_view path,
                                      FieldPatch patch) {
  add_path(kinds_[kind_key(group, kind)], path, std::move(patch));
  return *this;
}

StrategicSchema& StrategicSchema::add_fallback(std::string_view path, FieldPatch patch) {
  add_path(fallback_, path, std::move(patch));
  return *this;
}

bool StrategicSchema::covers(std::string_view api_version, std::string_view kind) const {
  return kinds_.find(kind_key(group_of(api_version), kind)) != kinds_.end();
}

const StrategicNode& StrategicSchema::root_for(const Json& object) const {
  const std::string_view kind = string_member(object, "kind");
  if (kind.empty()) return fallback_;
  const auto it = kinds_.find(kind_key(group_of(string_member(object, "apiVersion")), kind));
  return it == kinds_.end() ? fallback_ : it->second;
}

}  // namespace rr
