// RFC 6902 JSON Patch: creating a patch from two documents. Deterministic: members are visited
// in key order (nlohmann keeps objects sorted), so equal inputs always give the same bytes.
#include <string>

#include "json_pointer.hpp"
#include "rr/client/patch.hpp"
#include "rr/core/json.hpp"

namespace rr {
namespace {

Json operation(const char* op, const std::string& path) { return Json{{"op", op}, {"path", path}}; }

Json operation(const char* op, const std::string& path, const Json& value) {
  return Json{{"op", op}, {"path", path}, {"value", value}};
}

void diff(const std::string& path, const Json& from, const Json& to, Json& ops) {
  if (from == to) return;
  if (from.is_object() && to.is_object()) {
    // One pass over the union of keys, in order: remove, add, or descend.
    auto a = from.begin();
    auto b = to.begin();
    while (a != from.end() || b != to.end()) {
      if (b == to.end() || (a != from.end() && a.key() < b.key())) {
        ops.push_back(operation("remove", path + "/" + detail::escape_json_pointer_token(a.key())));
        ++a;
      } else if (a == from.end() || b.key() < a.key()) {
        ops.push_back(operation("add", path + "/" + detail::escape_json_pointer_token(b.key()), b.value()));
        ++b;
      } else {
        diff(path + "/" + detail::escape_json_pointer_token(a.key()), a.value(), b.value(), ops);
        ++a;
        ++b;
      }
    }
    return;
  }
  if (from.is_array() && to.is_array() && from.size() == to.size()) {
    for (std::size_t i = 0; i < from.size(); ++i) diff(path + "/" + std::to_string(i), from[i], to[i], ops);
    return;
  }
  ops.push_back(operation("replace", path, to));
}

}  // namespace

Json create_json_patch(const Json& from, const Json& to) {
  Json ops = Json::array();
  diff("", from, to, ops);
  return ops;
}

}  // namespace rr
