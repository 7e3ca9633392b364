// The Update entries creates, updates and non-apply patches record in metadata.managedFields, and
// how they meet server-side apply.
#include "test_support.hpp"

using namespace cluster_test;

namespace {

Json apply_config_map(rr::Cluster& cluster, const std::string& data, const rr::WriteOptions& opts) {
  return cluster.patch(config_map_kind(), {"default", "a"}, rr::PatchType::Apply,
                       R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":)" + data + "}", {},
                       opts);
}

}  // namespace

TEST_CASE("create records an Update entry: maps it created carry \".\"") {
  auto cluster = make_cluster();
  Json cm = config_map("default", "a", {{"k", "v"}});
  cm["metadata"]["labels"] = {{"app", "web"}};
  const Json created = cluster->create(config_map_kind(), cm, manager("kubectl-create"));
  CHECK(managed_fields(created) == Json::parse(R"([{
      "manager": "kubectl-create", "operation": "Update", "apiVersion": "v1", "time": "2024-05-01T12:00:00Z",
      "fieldsType": "FieldsV1",
      "fieldsV1": {"f:data": {".": {}, "f:k": {}}, "f:metadata": {"f:labels": {".": {}, "f:app": {}}}}}])"));
}

TEST_CASE("a write without a field manager records an entry without a manager, as an empty user agent does") {
  auto cluster = make_cluster();
  const Json created = cluster->create(config_map_kind(), config_map("default", "a", {{"k", "v"}}));
  REQUIRE(managed_fields(created).size() == 1);
  CHECK_FALSE(managed_fields(created)[0].contains("manager"));
  CHECK(managed_fields(created)[0]["operation"] == "Update");
}

TEST_CASE("an update takes the fields it changes from an applier; the applier's next different value conflicts") {
  auto cluster = make_cluster();
  apply_config_map(*cluster, R"({"k":"v","other":"x"})", manager("kubectl"));
  Json current = cluster->get(config_map_kind(), {"default", "a"});
  current["data"]["k"] = "edited";
  const Json updated = cluster->update(config_map_kind(), current, manager("kubectl-edit"));
  REQUIRE(managed_fields(updated).size() == 2);
  CHECK(managed_fields(updated)[0]["manager"] == "kubectl");
  CHECK(managed_fields(updated)[0]["fieldsV1"] == Json::parse(R"({"f:data":{"f:other":{}}})"));
  CHECK(managed_fields(updated)[1]["manager"] == "kubectl-edit");
  CHECK(managed_fields(updated)[1]["fieldsV1"] == Json::parse(R"({"f:data":{"f:k":{}}})"));

  const rr::Status s = failure_of([&] { apply_config_map(*cluster, R"({"k":"v","other":"x"})", manager("kubectl")); });
  CHECK(s.code == 409);
  CHECK(s.message == R"(Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.k)");
  REQUIRE(s.causes.size() == 1);
  CHECK(s.causes[0].message == R"(conflict with "kubectl-edit" using v1)");
  CHECK(s.causes[0].field == ".data.k");
  // Applying the value the updater set is no conflict: the field becomes shared.
  const Json agreed = apply_config_map(*cluster, R"({"k":"edited","other":"x"})", manager("kubectl"));
  CHECK(agreed["data"]["k"] == "edited");
}

TEST_CASE("merge and JSON patches record Update entries too; removed fields leave every owner") {
  auto cluster = make_cluster();
  apply_config_map(*cluster, R"({"k":"v","gone":"x"})", manager("kubectl"));
  const Json patched = cluster->patch(config_map_kind(), {"default", "a"}, rr::PatchType::Merge,
                                      R"({"data":{"gone":null,"new":"1"}})", {}, manager("patcher"));
  REQUIRE(managed_fields(patched).size() == 2);
  CHECK(managed_fields(patched)[0]["fieldsV1"] == Json::parse(R"({"f:data":{"f:k":{}}})"));
  CHECK(managed_fields(patched)[1]["fieldsV1"] == Json::parse(R"({"f:data":{"f:new":{}}})"));
  const Json json_patched = cluster->patch(config_map_kind(), {"default", "a"}, rr::PatchType::JsonPatch,
                                           R"([{"op":"replace","path":"/data/new","value":"2"}])", {},
                                           manager("patcher"));
  CHECK(managed_fields(json_patched)[1]["fieldsV1"] == Json::parse(R"({"f:data":{"f:new":{}}})"));
}

TEST_CASE("an update that changes nothing is still a no-op; one that changes only metadata records it") {
  auto clock = std::make_shared<PinnedClock>();
  auto cluster = make_cluster({}, clock);
  const Json created = cluster->create(config_map_kind(), config_map("default", "a", {{"k", "v"}}), manager("m"));
  clock->now += std::chrono::minutes(1);
  const Json same = cluster->update(config_map_kind(), created, manager("m"));
  CHECK(same == created);
  Json labelled = created;
  labelled["metadata"]["labels"] = {{"x", "y"}};
  const Json updated = cluster->update(config_map_kind(), labelled, manager("m"));
  CHECK(managed_fields(updated).size() == 1);
  CHECK(managed_fields(updated)[0]["time"] == "2024-05-01T12:01:00Z");
  CHECK(managed_fields(updated)[0]["fieldsV1"] ==
        Json::parse(R"({"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:x":{}}}})"));
}

TEST_CASE("a client that leaves managedFields out keeps them; one that sends [{}] clears them") {
  auto cluster = make_cluster();
  apply_config_map(*cluster, R"({"k":"v"})", manager("kubectl"));
  Json current = cluster->get(config_map_kind(), {"default", "a"});
  current["metadata"].erase("managedFields");
  current["data"]["extra"] = "1";
  const Json kept = cluster->update(config_map_kind(), current, manager("editor"));
  CHECK(managed_fields(kept).size() == 2);

  Json cleared = kept;
  cleared["metadata"]["managedFields"] = Json::parse("[{}]");
  const Json result = cluster->update(config_map_kind(), cleared, manager("editor"));
  CHECK_FALSE(result["metadata"].contains("managedFields"));
}

TEST_CASE("status updates record an entry for the status subresource") {
  auto cluster = make_cluster();
  Json created = cluster->create(thing_kind(), thing("default", "a"), manager("kubectl"));
  created["status"] = {{"phase", "Ready"}};
  const Json updated = cluster->update_status(thing_kind(), created, manager("controller"));
  REQUIRE(managed_fields(updated).size() == 2);
  CHECK(managed_fields(updated)[0] == Json::parse(R"({
      "manager": "controller", "operation": "Update", "apiVersion": "things.test/v1", "time": "2024-05-01T12:00:00Z",
      "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {".": {}, "f:phase": {}}}, "subresource": "status"})"));
  CHECK(managed_fields(updated)[1]["fieldsV1"] == Json::parse(R"({"f:spec":{".":{},"f:size":{}}})"));
}
