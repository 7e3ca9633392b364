#include "openapi_schemas.hpp"

#include <map>

#include "decode_facts.hpp"
#include "embedded_facts.hpp"
#include "yaml_json.hpp"

namespace rr::apiserver_detail {

namespace {

constexpr std::string_view kRefPrefix = "#/components/schemas/";
constexpr const char* kObjectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

// Our own extensions stay out of what is served (x-rrgen-protobuf: field numbers).
void strip_rrgen_extensions(Json& schema) {
  if (schema.is_object()) {
    for (auto it = schema.begin(); it != schema.end();) {
      if (it.key().rfind("x-rrgen-", 0) == 0) {
        it = schema.erase(it);
      } else {
        strip_rrgen_extensions(*it);
        ++it;
      }
    }
  } else if (schema.is_array()) {
    for (Json& item : schema) strip_rrgen_extensions(item);
  }
}

struct Facts {
  Json schemas = Json::object();                          // every definition, by name
  std::map<std::string, std::vector<std::string>> names;  // facts file -> its definitions
};

// Parsed once, on the first OpenAPI request (decoding reads decode_facts.hpp's smaller part).
const Facts& facts() {
  static const Facts parsed = [] {
    Facts out;
    for (const EmbeddedFile& file : embedded_files()) {
      const std::vector<Json> docs = yaml_documents(std::string(file.content));
      if (docs.empty() || !docs.front().contains("/components/schemas"_json_pointer)) continue;
      for (auto& [name, schema] : docs.front().at("/components/schemas"_json_pointer).items()) {
        Json clean = schema;
        strip_rrgen_extensions(clean);
        out.schemas[name] = std::move(clean);
        out.names[std::string(file.path)].push_back(name);
      }
    }
    return out;
  }();
  return parsed;
}

void collect_refs(const Json& schema, std::vector<std::string>& out) {
  if (schema.is_object()) {
    for (const auto& [key, value] : schema.items()) {
      if (key == "$ref" && value.is_string()) {
        const std::string ref = value.get<std::string>();
        if (ref.rfind(kRefPrefix, 0) == 0) out.push_back(ref.substr(kRefPrefix.size()));
      } else {
        collect_refs(value, out);
      }
    }
  } else if (schema.is_array()) {
    for (const Json& item : schema) collect_refs(item, out);
  }
}

// Adds `names` and everything they reference to `schemas`.
void add_with_references(std::vector<std::string> names, Json& schemas) {
  const Json& all = facts().schemas;
  while (!names.empty()) {
    const std::string name = std::move(names.back());
    names.pop_back();
    if (schemas.contains(name) || !all.contains(name)) continue;
    const Json& schema = all[name];
    schemas[name] = schema;
    collect_refs(schema, names);
  }
}

std::string facts_file_of(const std::string& group, const std::string& version) {
  return (group.empty() ? std::string("core") : group) + "-" + version + ".yaml";
}

}  // namespace

Json builtin_component_schemas(const std::string& group, const std::string& version) {
  Json schemas = Json::object();
  const auto& names = facts().names;
  if (auto it = names.find(facts_file_of(group, version)); it != names.end()) add_with_references(it->second, schemas);
  return schemas;
}

const Json& builtin_definitions() {
  static const Json parsed = Json::parse(decode_facts_json());
  return parsed;
}

std::string crd_schema_name(const std::string& group, const std::string& version, const std::string& kind) {
  std::string reversed;
  std::size_t end = group.size();
  while (end != std::string::npos && end > 0) {
    const std::size_t dot = group.rfind('.', end - 1);
    const std::size_t start = dot == std::string::npos ? 0 : dot + 1;
    reversed += (reversed.empty() ? "" : ".") + group.substr(start, end - start);
    end = dot;
  }
  return reversed + "." + version + "." + kind;
}

bool add_crd_schema(const Json& crd, const std::string& version, Json& schemas) {
  const Json::json_pointer versions_at("/spec/versions");
  if (!crd.contains(versions_at) || !crd.at(versions_at).is_array()) return false;
  const std::string group = crd.value("/spec/group"_json_pointer, std::string());
  const std::string kind = crd.value("/spec/names/kind"_json_pointer, std::string());
  for (const Json& v : crd.at(versions_at)) {
    if (!v.is_object() || v.value("name", std::string()) != version) continue;
    const Json::json_pointer schema_at("/schema/openAPIV3Schema");
    if (!v.contains(schema_at) || !v.at(schema_at).is_object()) return false;
    Json schema = v.at(schema_at);
    if (!schema.contains("properties") || !schema["properties"].is_object()) schema["properties"] = Json::object();
    Json& properties = schema["properties"];
    for (const char* member : {"apiVersion", "kind"}) {
      if (!properties.contains(member)) properties[member] = {{"type", "string"}};
    }
    properties["metadata"] = {{"allOf", Json::array({{{"$ref", std::string(kRefPrefix) + kObjectMeta}}})}};
    schema["x-kubernetes-group-version-kind"] = Json::array({{{"group", group}, {"kind", kind}, {"version", version}}});
    schemas[crd_schema_name(group, version, kind)] = std::move(schema);
    add_with_references({kObjectMeta}, schemas);
    return true;
  }
  return false;
}

}  // namespace rr::apiserver_detail
