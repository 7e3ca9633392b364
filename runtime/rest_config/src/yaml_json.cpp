#include "yaml_json.hpp"

#include "rr/rest_config/rest_config.hpp"

namespace rr::config_detail {
namespace {

constexpr int kMaxDepth = 64;
constexpr int kMaxNodes = 10000;  // what a plugin is handed stays small (aliases expand)

void check(const Json& value, const std::string& where, int depth, int& nodes) {
  if (depth > kMaxDepth) throw ConfigError(where + ": nested deeper than 64 levels");
  if (++nodes > kMaxNodes) throw ConfigError(where + ": more than 10000 values");
  if (value.is_structured()) {
    for (const Json& item : value) check(item, where, depth + 1, nodes);
  }
}

}  // namespace

std::string yaml_to_json_text(const Json& value, const std::string& where) {
  int nodes = 0;
  check(value, where, 0, nodes);
  // Invalid UTF-8 in a scalar is replaced rather than thrown on: the text only goes to a plugin.
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace rr::config_detail
