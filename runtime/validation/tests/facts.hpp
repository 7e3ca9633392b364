// The Kubernetes 1.35 OpenAPI definitions of schemas/kubernetes-1.35/ (every facts file), read
// once with yaml-cpp, for the tests of decoding.hpp.
#pragma once
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>

#include "rr/core/json.hpp"

namespace rr::validation::test {

inline bool facts_integer(const std::string& s) {
  std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
  if (i >= s.size() || s.size() - i > 18) return false;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

inline Json facts_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      Json out = Json::object();
      for (const auto& kv : node) out[kv.first.as<std::string>()] = facts_to_json(kv.second);
      return out;
    }
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const auto& item : node) out.push_back(facts_to_json(item));
      return out;
    }
    case YAML::NodeType::Scalar: {
      const std::string s = node.Scalar();
      if (node.Tag() == "!") return s;
      if (s == "true") return true;
      if (s == "false") return false;
      if (facts_integer(s)) return std::stoll(s);
      return s;
    }
    default: return nullptr;
  }
}

// components/schemas of every facts file, by definition name.
inline const Json& facts_definitions() {
  static const Json all = [] {
    Json out = Json::object();
    const std::filesystem::path dir = std::filesystem::path(RR_VALIDATION_REPO_ROOT) / "schemas" / "kubernetes-1.35";
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".yaml") continue;
      const YAML::Node doc = YAML::LoadFile(entry.path().string());
      if (!doc["components"] || !doc["components"]["schemas"]) continue;
      const Json schemas = facts_to_json(doc["components"]["schemas"]);
      for (auto it = schemas.begin(); it != schemas.end(); ++it) out[it.key()] = *it;
    }
    return out;
  }();
  return all;
}

}  // namespace rr::validation::test
