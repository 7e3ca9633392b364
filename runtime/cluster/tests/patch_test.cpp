// PATCH semantics: merge and JSON patch, resourceVersion preconditions, subresource isolation.
#include "test_support.hpp"

using namespace cluster_test;

TEST_CASE("merge patch: objects merge, null deletes, arrays are replaced") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "a", {{"keep", "1"}, {"drop", "2"}}));
  const Json patched = cluster->patch(
      config_map_kind(), {"default", "a"}, rr::PatchType::Merge,
      R"({"data":{"drop":null,"add":"3"},"metadata":{"finalizers":["example.test/x"]}})");
  CHECK(patched["data"] == Json{{"keep", "1"}, {"add", "3"}});
  CHECK(patched["metadata"]["finalizers"] == Json::array({"example.test/x"}));
  CHECK(rv_of(patched) == "2");
}

TEST_CASE("merge patch: a resourceVersion in the patch is a precondition, none means last writer wins") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "a"));
  const rr::Status s = failure_of([&] {
    cluster->patch(config_map_kind(), {"default", "a"}, rr::PatchType::Merge,
                   R"({"metadata":{"resourceVersion":"99"},"data":{"k":"v"}})");
  });
  CHECK(s.code == 409);
  CHECK(s.reason == "Conflict");
  const Json current = cluster->patch(config_map_kind(), {"default", "a"}, rr::PatchType::Merge,
                                      R"({"metadata":{"resourceVersion":"1"},"data":{"k":"v"}})");
  CHECK(rv_of(current) == "2");
  const Json last_writer =
      cluster->patch(config_map_kind(), {"default", "a"}, rr::PatchType::Merge, R"({"data":{"k":"w"}})");
  CHECK(last_writer["data"]["k"] == "w");
}

TEST_CASE("JSON patch: operations apply; a failed test rejects the whole patch with 422") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "a", {{"k", "v"}}));
  const Json patched =
      cluster->patch(config_map_kind(), {"default", "a"}, rr::PatchType::JsonPatch,
                     R"([{"op":"test","path":"/data/k","value":"v"},{"op":"add","path":"/data/n","value":"1"}])");
  CHECK(patched["data"]["n"] == "1");
  const rr::Status s = failure_of([&] {
    cluster->patch(config_map_kind(), {"default", "a"}, rr::PatchType::JsonPatch,
                   R"([{"op":"add","path":"/data/m","value":"2"},{"op":"test","path":"/data/k","value":"other"}])");
  });
  CHECK(s.code == 422);
  CHECK(s.reason == "Invalid");
  CHECK_FALSE(cluster->get(config_map_kind(), {"default", "a"})["data"].contains("m"));
}

TEST_CASE("patch bodies that are not JSON are a BadRequest") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "a"));
  const rr::Status s =
      failure_of([&] { cluster->patch(config_map_kind(), {"default", "a"}, rr::PatchType::Merge, "{"); });
  CHECK(s.code == 400);
}

TEST_CASE("strategic merge patch: a custom resource refuses it, a built-in kind applies it") {
  auto cluster = make_cluster();
  cluster->create(thing_kind(), thing("default", "a"));
  const rr::Status s = failure_of(
      [&] { cluster->patch(thing_kind(), {"default", "a"}, rr::PatchType::Strategic, R"({"spec":{}})"); });
  CHECK(s.code == 415);
  CHECK(s.reason == "UnsupportedMediaType");

  // What kubectl apply sends for a ConfigMap: a merge of data with a deletion.
  Json cm = config_map("default", "b");
  cm["data"] = {{"keep", "1"}, {"drop", "2"}};
  cluster->create(config_map_kind(), cm);
  const Json patched = cluster->patch(config_map_kind(), {"default", "b"}, rr::PatchType::Strategic,
                                      R"({"data":{"drop":null,"new":"3"}})");
  CHECK(patched["data"] == Json{{"keep", "1"}, {"new", "3"}});
}

TEST_CASE("patching a missing object is NotFound") {
  auto cluster = make_cluster();
  CHECK(failure_of([&] { cluster->patch(config_map_kind(), {"default", "nope"}, rr::PatchType::Merge, "{}"); }).code ==
        404);
}

TEST_CASE("patch of the main resource ignores status; patch of /status ignores everything else") {
  auto cluster = make_cluster();
  cluster->create(thing_kind(), thing("default", "a"));
  const Json main = cluster->patch(thing_kind(), {"default", "a"}, rr::PatchType::Merge,
                                   R"({"spec":{"size":2},"status":{"phase":"Ignored"}})");
  CHECK(main["spec"]["size"] == 2);
  CHECK_FALSE(main.contains("status"));
  CHECK(generation_of(main) == 2);

  const Json status =
      cluster->patch(thing_kind(), {"default", "a"}, rr::PatchType::Merge,
                     R"({"spec":{"size":7},"metadata":{"labels":{"x":"y"}},"status":{"phase":"Ready"}})", "status");
  CHECK(status["status"]["phase"] == "Ready");
  CHECK(status["spec"]["size"] == 2);
  CHECK_FALSE(status["metadata"].contains("labels"));
  CHECK(generation_of(status) == 2);
}

TEST_CASE("patch of /status on a kind without the subresource is NotFound") {
  auto cluster = make_cluster();
  cluster->create(plain_thing_kind(), plain_thing("default", "a"));
  CHECK(failure_of([&] {
          cluster->patch(plain_thing_kind(), {"default", "a"}, rr::PatchType::Merge, R"({"status":{}})", "status");
        }).code == 404);
}

TEST_CASE("a patch cannot rename the object") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "a"));
  CHECK(failure_of([&] {
          cluster->patch(config_map_kind(), {"default", "a"}, rr::PatchType::Merge, R"({"metadata":{"name":"b"}})");
        }).code == 400);
}

TEST_CASE("dry-run patch changes nothing") {
  auto cluster = make_cluster();
  cluster->create(config_map_kind(), config_map("default", "a"));
  const Json result = cluster->patch(config_map_kind(), {"default", "a"}, rr::PatchType::Merge, R"({"data":{"k":"v"}})",
                                     {}, dry_run());
  CHECK(result["data"]["k"] == "v");
  CHECK(cluster->get(config_map_kind(), {"default", "a"})["data"].empty());
}
