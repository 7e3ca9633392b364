// Server-side apply and managedFields as data (tests/data/apply/*.yaml): each case registers a
// kind with a schema (the built-in 1.35 facts by $ref, a CRD's openAPIV3Schema, or none), runs a
// sequence of applies and updates by field managers, and checks each refusal's conflict text,
// then the stored object and every manager's fields. The cases are written from the API server's
// documented behaviour and structured-merge-diff's merge tests.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "rr/yaml/reader.hpp"
#include "test_support.hpp"

using namespace cluster_test;

namespace {

Json read_case_yaml(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const rr::yaml::ReadResult read = rr::yaml::read(text.str());
  if (read.error || read.documents.empty()) {
    FAIL_CHECK(file.string() << ": not YAML");
    return Json::object();
  }
  return read.documents.front().value;
}

// Every definition of the 1.35 facts the runtime derives its built-in kinds from, read once.
std::shared_ptr<const Json> facts_definitions() {
  static const std::shared_ptr<const Json> definitions = [] {
    auto out = std::make_shared<Json>(Json::object());
    for (const auto& file : std::filesystem::directory_iterator(RR_K8S_FACTS_DIR)) {
      if (file.path().extension() != ".yaml") continue;
      const Json doc = read_case_yaml(file.path());
      if (!doc.contains("/components/schemas"_json_pointer)) continue;
      for (const auto& [name, schema] : doc.at("/components/schemas"_json_pointer).items()) (*out)[name] = schema;
    }
    return std::shared_ptr<const Json>(std::move(out));
  }();
  return definitions;
}

rr::KindInfo case_kind(const Json& kind) {
  rr::KindInfo info;
  info.gvk = {kind.value("group", ""), kind.value("version", "v1"), kind.value("kind", "")};
  info.plural = kind.value("plural", "");
  info.has_status = kind.value("status", false);
  return info;
}

// The object as a case writes it: without what the server sets on every write.
Json without_server_fields(Json object) {
  for (const char* field : {"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"}) {
    object["metadata"].erase(field);
  }
  return object;
}

// "manager/Operation[/subresource]" -> fieldsV1.
Json fields_by_manager(const Json& object) {
  Json out = Json::object();
  for (const Json& entry : object["metadata"].value("managedFields", Json::array())) {
    std::string id = entry.value("manager", "") + "/" + entry.value("operation", "");
    if (entry.contains("subresource")) id += "/" + entry["subresource"].get<std::string>();
    out[id] = entry["fieldsV1"];
  }
  return out;
}

// One step; returns the Status message it failed with ("" when it succeeded).
std::string run_case_step(rr::Cluster& cluster, const rr::KindInfo& kind, const Json& step) {
  const Json& object = step.at("object");
  const rr::ObjectKey key{object["metadata"].value("namespace", "default"), object["metadata"].value("name", "")};
  try {
    if (step.contains("apply")) {
      const Json& how = step["apply"];
      cluster.patch(kind, key, rr::PatchType::Apply, object.dump(), step.value("subresource", ""),
                    manager(how.value("manager", ""), how.value("force", false)));
    } else {
      // An update names the resourceVersion it read.
      Json sent = object;
      sent["metadata"]["namespace"] = key.namespace_;
      sent["metadata"]["resourceVersion"] = cluster.get(kind, key)["metadata"]["resourceVersion"];
      cluster.update(kind, sent, manager(step.at("update").value("manager", "")));
    }
  } catch (const rr::ApiError& e) {
    return e.status().message;
  }
  return "";
}

void run_case(const Json& test) {
  auto cluster = make_cluster();
  const rr::KindInfo kind = case_kind(test.at("kind"));
  cluster->register_kind(kind);
  if (test.contains("schema")) {
    const Json& schema = test["schema"];
    cluster->set_apply_schema(kind.gvk, schema.contains("$ref") ? facts_definitions() : nullptr, schema);
  }
  std::size_t index = 0;
  for (const Json& step : test.at("steps")) {
    CAPTURE(++index);
    CHECK(run_case_step(*cluster, kind, step) == step.value("conflict", ""));
  }
  const Json& expect = test.at("expect");
  const Json& first = expect.at("object");
  const Json stored = cluster->get(kind, {first["metadata"].value("namespace", "default"), first["metadata"]["name"]});
  CHECK(without_server_fields(stored).dump(2) == first.dump(2));
  CHECK(fields_by_manager(stored).dump(2) == expect.at("managedFields").dump(2));
}

}  // namespace

TEST_CASE("server-side apply cases from tests/data/apply") {
  std::vector<std::filesystem::path> files;
  for (const auto& file : std::filesystem::directory_iterator(RR_CLUSTER_TEST_DATA "/apply")) {
    if (file.path().extension() == ".yaml") files.push_back(file.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 3);
  std::size_t cases = 0;
  for (const auto& file : files) {
    const Json doc = read_case_yaml(file);
    REQUIRE_MESSAGE(doc.contains("cases"), file.string());
    for (const Json& test : doc["cases"]) {
      const std::string name = file.filename().string() + ": " + test.value("name", "");
      CAPTURE(name);
      run_case(test);
      ++cases;
    }
  }
  MESSAGE(cases << " cases");
}
