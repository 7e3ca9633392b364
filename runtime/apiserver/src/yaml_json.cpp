#include "yaml_json.hpp"

#include <regex>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

namespace rr::apiserver_detail {

namespace {

Json plain_scalar(const std::string& text) {
  static const std::regex integer("[-+]?[0-9]+");
  static const std::regex floating("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  if (std::regex_match(text, integer)) {
    try {
      return std::stoll(text);
    } catch (const std::out_of_range&) {
      return std::stod(text);
    }
  }
  if (std::regex_match(text, floating)) return std::stod(text);
  return text;
}

Json to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      // "!" is the tag of a quoted (non-plain) scalar: always a string.
      return node.Tag() == "!" ? Json(node.Scalar()) : plain_scalar(node.Scalar());
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const auto& item : node) out.push_back(to_json(item));
      return out;
    }
    case YAML::NodeType::Map: {
      Json out = Json::object();
      for (const auto& entry : node) out[entry.first.as<std::string>()] = to_json(entry.second);
      return out;
    }
  }
  return nullptr;
}

}  // namespace

std::vector<Json> yaml_documents(const std::string& text) {
  std::vector<Json> out;
  try {
    for (const YAML::Node& doc : YAML::LoadAll(text)) {
      Json json = to_json(doc);
      if (!json.is_null()) out.push_back(std::move(json));
    }
  } catch (const YAML::Exception& e) {
    throw std::runtime_error(std::string("invalid YAML: ") + e.what());
  }
  return out;
}

}  // namespace rr::apiserver_detail
