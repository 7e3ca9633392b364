#include "yaml_json.hpp"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <cstdint>

#include "rr/core/json.hpp"
#include "rr/rest_config/rest_config.hpp"

namespace rr::config_detail {
namespace {

constexpr int kMaxDepth = 64;
// Aliases share nodes in yaml-cpp but are copied out here: the budget stops an alias bomb.
constexpr int kMaxNodes = 10000;

Json scalar_of(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return text;  // quoted: always a string
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  const char* begin = text.data();
  const char* end = begin + text.size();
  std::int64_t integer = 0;
  if (auto [ptr, ec] = std::from_chars(begin, end, integer); ec == std::errc() && ptr == end) return integer;
  double number = 0;
  if (auto [ptr, ec] = std::from_chars(begin, end, number); ec == std::errc() && ptr == end && std::isfinite(number))
    return number;
  return text;
}

Json json_of(const YAML::Node& node, const std::string& where, int depth, int& nodes) {
  if (depth > kMaxDepth) throw ConfigError(where + ": nested deeper than 64 levels");
  if (++nodes > kMaxNodes) throw ConfigError(where + ": more than 10000 values");
  switch (node.Type()) {
    case YAML::NodeType::Scalar: return scalar_of(node);
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const auto& item : node) out.push_back(json_of(item, where, depth + 1, nodes));
      return out;
    }
    case YAML::NodeType::Map: {
      Json out = Json::object();
      for (const auto& field : node) {
        if (!field.first.IsScalar()) throw ConfigError(where + ": a mapping key is not a string");
        out[field.first.Scalar()] = json_of(field.second, where, depth + 1, nodes);
      }
      return out;
    }
    default: return nullptr;
  }
}

}  // namespace

std::string yaml_to_json_text(const YAML::Node& value, const std::string& where) {
  // Invalid UTF-8 in a scalar is replaced rather than thrown on: the text only goes to a plugin.
  int nodes = 0;
  return json_of(value, where, 0, nodes).dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace rr::config_detail
