#include <doctest/doctest.h>

#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const char* cm_path = "/api/v1/namespaces/default/configmaps";

std::string config_map(const std::string& name, const std::string& value, const std::string& labels = "{}") {
  return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"(","labels":)" + labels +
         R"(},"data":{"k":")" + value + R"("}})";
}

}  // namespace

TEST_CASE("create, get, list, update, delete a ConfigMap") {
  TestServer t;
  auto c = t.client();
  auto created = c->Post(cm_path, config_map("cm1", "a"), "application/json");
  REQUIRE(created);
  CHECK(created->status == 201);
  Json object = body_of(created);
  CHECK(object["metadata"]["namespace"] == "default");
  CHECK_FALSE(object["metadata"]["uid"].get<std::string>().empty());

  Json got = body_of(c->Get(std::string(cm_path) + "/cm1"));
  CHECK(got["data"]["k"] == "a");

  Json list = body_of(c->Get(cm_path));
  CHECK(list["kind"] == "ConfigMapList");
  CHECK(list["items"].size() == 1);
  CHECK(list["metadata"].contains("resourceVersion"));
  CHECK(body_of(c->Get("/api/v1/configmaps"))["items"].size() == 1);  // all namespaces

  got["data"]["k"] = "b";
  auto updated = c->Put(std::string(cm_path) + "/cm1", got.dump(), "application/json");
  REQUIRE(updated);
  CHECK(updated->status == 200);
  CHECK(body_of(updated)["data"]["k"] == "b");

  auto stale = c->Put(std::string(cm_path) + "/cm1", got.dump(), "application/json");
  CHECK(stale->status == 409);
  CHECK(body_of(stale)["reason"] == "Conflict");

  auto removed = c->Delete(std::string(cm_path) + "/cm1");
  CHECK(removed->status == 200);
  CHECK(body_of(removed)["metadata"]["name"] == "cm1");
  auto gone = c->Get(std::string(cm_path) + "/cm1");
  CHECK(gone->status == 404);
  Json status = body_of(gone);
  CHECK(status["kind"] == "Status");
  CHECK(status["message"] == "configmaps \"cm1\" not found");
  CHECK(status["details"]["name"] == "cm1");
}

TEST_CASE("Status errors: AlreadyExists, BadRequest, name and namespace mismatches, Invalid") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(cm_path, config_map("dup", "a"), "application/json")->status == 201);
  auto again = c->Post(cm_path, config_map("dup", "a"), "application/json");
  CHECK(again->status == 409);
  CHECK(body_of(again)["reason"] == "AlreadyExists");

  CHECK(c->Post(cm_path, "{not json", "application/json")->status == 400);
  CHECK(c->Post(cm_path, "metadata:\n  name: from-yaml\ndata:\n  num: '1'\n", "application/yaml")->status == 201);
  CHECK(body_of(c->Get(std::string(cm_path) + "/from-yaml"))["data"]["num"] == "1");
  auto protobuf = c->Post(cm_path, std::string("k8s\0\n", 5), "application/vnd.kubernetes.protobuf");
  CHECK(protobuf->status == 400);  // a truncated envelope (protobuf_test.cpp has whole ones)
  CHECK(c->Post(cm_path, "data: {}", "text/plain")->status == 415);
  CHECK(c->Post(cm_path, "[1,2]", "application/json")->status == 400);
  auto elsewhere = c->Post(cm_path, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"other"}})",
                           "application/json");
  CHECK(elsewhere->status == 400);

  Json dup = body_of(c->Get(std::string(cm_path) + "/dup"));
  auto renamed = c->Put(std::string(cm_path) + "/other-name", dup.dump(), "application/json");
  CHECK(renamed->status == 400);
  CHECK(body_of(renamed)["message"] == "the name of the object (dup) does not match the name on the URL (other-name)");

  // A typed kind runs its admission: a Service port without its number is 422 Invalid.
  auto invalid = c->Post("/api/v1/namespaces/default/services",
                         R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"ports":[{"name":"no-port"}]}})",
                         "application/json");
  CHECK(invalid->status == 422);
  CHECK(body_of(invalid)["reason"] == "Invalid");
}

TEST_CASE("paths that do not fit the kind are 404, verbs that do not fit the path 405") {
  TestServer t;
  auto c = t.client();
  CHECK(c->Get("/api/v1/configmaps/x")->status == 404);                  // namespaced item without a namespace
  CHECK(c->Get("/api/v1/namespaces/default/namespaces/x")->status == 404);  // cluster-scoped under a namespace
  CHECK(c->Get("/api/v1/namespaces/default/configmaps/x/status")->status == 404);  // no status subresource
  CHECK(c->Get("/api/v1/namespaces/default/widgets")->status == 404);               // not served
  CHECK(c->Post("/api/v1/configmaps", config_map("x", "a"), "application/json")->status == 405);
  CHECK(c->Put(cm_path, config_map("x", "a"), "application/json")->status == 405);
  CHECK(c->Post(std::string(cm_path) + "/x", config_map("x", "a"), "application/json")->status == 405);
}

TEST_CASE("merge patch, JSON patch, unsupported content types, apply without a field manager") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(cm_path, config_map("p", "a"), "application/json")->status == 201);
  const std::string item = std::string(cm_path) + "/p";
  auto merged = c->Patch(item, R"({"data":{"extra":"1"}})", "application/merge-patch+json");
  REQUIRE(merged);
  CHECK(merged->status == 200);
  CHECK(body_of(merged)["data"] == Json{{"k", "a"}, {"extra", "1"}});
  auto jsonpatch = c->Patch(item, R"([{"op":"replace","path":"/data/k","value":"z"}])", "application/json-patch+json");
  CHECK(body_of(jsonpatch)["data"]["k"] == "z");
  auto failed_test = c->Patch(item, R"([{"op":"test","path":"/data/k","value":"nope"}])", "application/json-patch+json");
  CHECK(failed_test->status == 422);
  auto unknown = c->Patch(item, "{}", "application/json");
  CHECK(unknown->status == 415);
  CHECK(body_of(unknown)["reason"] == "UnsupportedMediaType");
  auto apply = c->Patch(item, "apiVersion: v1\nkind: ConfigMap\n", "application/apply-patch+yaml");
  CHECK(apply->status == 422);
  CHECK(body_of(apply)["message"] ==
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch");
  auto forced = c->Patch(item + "?force=true", R"({"data":{"extra":"2"}})", "application/merge-patch+json");
  CHECK(forced->status == 422);
  CHECK(body_of(forced)["message"] ==
        "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch");
}

TEST_CASE("status subresource: PUT /status writes only the status, the main resource ignores it") {
  TestServer t;
  auto c = t.client();
  const std::string pods = "/api/v1/namespaces/default/pods";
  auto created = c->Post(pods, R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
                                   "spec":{"containers":[{"name":"main","image":"app:v1"}]},
                                   "status":{"phase":"Running"}})",
                         "application/json");
  REQUIRE(created->status == 201);
  Json pod = body_of(created);
  CHECK_FALSE(pod.contains("status"));
  pod["status"] = {{"phase", "Running"}};
  pod["metadata"]["labels"] = {{"ignored", "yes"}};
  auto status = c->Put(pods + "/p/status", pod.dump(), "application/json");
  REQUIRE(status->status == 200);
  Json after = body_of(status);
  CHECK(after["status"]["phase"] == "Running");
  CHECK_FALSE(after["metadata"].contains("labels"));
  auto patched = c->Patch(pods + "/p/status", R"({"status":{"phase":"Succeeded"}})", "application/merge-patch+json");
  CHECK(body_of(patched)["status"]["phase"] == "Succeeded");
  CHECK(body_of(c->Get(pods + "/p/status"))["status"]["phase"] == "Succeeded");
}

TEST_CASE("list options: label and field selectors, limit and continue") {
  TestServer t;
  auto c = t.client();
  for (int i = 0; i < 5; ++i) {
    const std::string labels = i % 2 == 0 ? R"({"parity":"even"})" : R"({"parity":"odd"})";
    REQUIRE(c->Post(cm_path, config_map("cm" + std::to_string(i), "v", labels), "application/json")->status == 201);
  }
  CHECK(body_of(c->Get(std::string(cm_path) + "?labelSelector=parity%3Deven"))["items"].size() == 3);
  CHECK(body_of(c->Get(std::string(cm_path) + "?fieldSelector=metadata.name%3Dcm1"))["items"].size() == 1);
  CHECK(c->Get(std::string(cm_path) + "?labelSelector=%3D%3D%3D")->status == 400);

  Json page = body_of(c->Get(std::string(cm_path) + "?limit=2"));
  CHECK(page["items"].size() == 2);
  const std::string token = page["metadata"]["continue"];
  CHECK(page["metadata"]["remainingItemCount"] == 3);
  Json next = body_of(c->Get(std::string(cm_path) + "?limit=2&continue=" + url_encode(token)));
  CHECK(next["items"].size() == 2);
  CHECK(next["items"][0]["metadata"]["name"] == "cm2");
}

TEST_CASE("delete with finalizers, preconditions, deletecollection and dryRun") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(cm_path, R"({"metadata":{"name":"fin","finalizers":["test/hold"]}})", "application/json")->status == 201);
  auto terminating = c->Delete(std::string(cm_path) + "/fin");
  CHECK(terminating->status == 200);
  CHECK(body_of(terminating)["metadata"].contains("deletionTimestamp"));
  CHECK(c->Get(std::string(cm_path) + "/fin")->status == 200);

  REQUIRE(c->Post(cm_path, config_map("pre", "a"), "application/json")->status == 201);
  auto precondition = c->Delete(std::string(cm_path) + "/pre", R"({"preconditions":{"uid":"not-it"}})", "application/json");
  CHECK(precondition->status == 409);

  auto dry = c->Post(std::string(cm_path) + "?dryRun=All", config_map("dry", "a"), "application/json");
  CHECK(dry->status == 201);
  CHECK(c->Get(std::string(cm_path) + "/dry")->status == 404);

  REQUIRE(c->Post(cm_path, config_map("l1", "a", R"({"batch":"x"})"), "application/json")->status == 201);
  REQUIRE(c->Post(cm_path, config_map("l2", "a", R"({"batch":"x"})"), "application/json")->status == 201);
  auto collection = c->Delete(std::string(cm_path) + "?labelSelector=batch%3Dx");
  CHECK(collection->status == 200);
  CHECK(body_of(collection)["status"] == "Success");
  CHECK(body_of(c->Get(cm_path))["items"].size() == 2);  // fin (terminating) and pre
}

TEST_CASE(
    "fieldValidation is accepted (Strict, Warn, Ignore); an unknown member of a built-in kind is refused with Strict") {
  TestServer t;
  auto c = t.client();
  const std::string surprise = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"fv"},"surprise":1})";
  CHECK(c->Post(std::string(cm_path) + "?fieldValidation=Strict", surprise, "application/json")->status == 400);
  auto created = c->Post(std::string(cm_path) + "?fieldValidation=Ignore", surprise, "application/json");
  CHECK(created->status == 201);
  CHECK_FALSE(body_of(created).contains("surprise"));
  CHECK(c->Post(std::string(cm_path) + "?fieldValidation=Sometimes", config_map("x", "a"), "application/json")->status == 400);
}

TEST_CASE("namespaces exist at start: ownerReferences are garbage-collected over HTTP") {
  TestServer t;
  auto c = t.client();
  for (const char* ns : {"default", "kube-system"}) {
    Json got = body_of(c->Get(std::string("/api/v1/namespaces/") + ns));
    CHECK(got["status"]["phase"] == "Active");
  }
  Json owner = body_of(c->Post(cm_path, config_map("owner", "a"), "application/json"));
  Json child = {{"metadata",
                 {{"name", "child"},
                  {"ownerReferences",
                   Json::array({{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"name", "owner"}, {"uid", owner["metadata"]["uid"]}}})}}}};
  REQUIRE(c->Post(cm_path, child.dump(), "application/json")->status == 201);
  REQUIRE(c->Delete(std::string(cm_path) + "/owner")->status == 200);
  CHECK(c->Get(std::string(cm_path) + "/child")->status == 404);
}
