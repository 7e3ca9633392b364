// Metadata-only answers (Accept: ...;as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1), what
// client-go's metadata client and controller-runtime's metadata-only watches ask for.
#include <doctest/doctest.h>

#include "media_negotiation.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_detail;
using namespace rr::apiserver_test;

namespace {

const std::string pom_v1 = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
const std::string poml_v1 = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
// client-go's metadata client (k8s.io/client-go/metadata): protobuf first, then JSON, then the object.
const std::string client_go_list =
    "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1," + poml_v1 +
    ",application/json";
const std::string client_go_watch =
    "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1," + pom_v1 + ",application/json";
const std::string configmaps = "/api/v1/namespaces/default/configmaps";

std::string config_map(const std::string& name, std::size_t data_bytes) {
  return Json{{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata", {{"name", name}, {"labels", {{"app", "web"}}}}},
              {"data", {{"big", std::string(data_bytes, 'x')}}}}
      .dump();
}

OutputForm form_of(std::string_view accept) { return negotiate_output(accept).form; }

Status refusal(std::string_view accept) {
  try {
    (void)negotiate_output(accept);
  } catch (const ApiError& e) {
    return e.status();
  }
  return Status{};
}

}  // namespace

TEST_CASE("negotiation: the first acceptable media range decides, as the API server's") {
  CHECK(form_of("") == OutputForm::Object);
  CHECK(form_of("application/json") == OutputForm::Object);
  CHECK(form_of("*/*") == OutputForm::Object);
  CHECK(form_of(pom_v1) == OutputForm::PartialObjectMetadata);
  CHECK(form_of(poml_v1) == OutputForm::PartialObjectMetadataList);
  CHECK(negotiate_output("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1").version == "v1beta1");
  CHECK(negotiate_output(pom_v1).version == "v1");
  // Blanks around parameters, any order of them.
  CHECK(form_of("application/json ; v=v1 ; g=meta.k8s.io ; as=PartialObjectMetadata") ==
        OutputForm::PartialObjectMetadata);
  // client-go's headers: rr does not encode PartialObjectMetadata in protobuf, so JSON is next.
  CHECK(form_of(client_go_list) == OutputForm::PartialObjectMetadataList);
  CHECK(form_of(client_go_watch) == OutputForm::PartialObjectMetadata);
  // Plain JSON first wins; a lower q comes after.
  CHECK(form_of("application/json," + pom_v1) == OutputForm::Object);
  CHECK(form_of("application/json;q=0.5," + pom_v1) == OutputForm::PartialObjectMetadata);
  // A wildcard is tried after a concrete type of the same q.
  CHECK(form_of("*/*," + pom_v1) == OutputForm::PartialObjectMetadata);
  CHECK(form_of("application/*;as=PartialObjectMetadata;g=meta.k8s.io;v=v1") == OutputForm::PartialObjectMetadata);
  // What can not be answered is passed over.
  CHECK(form_of("application/json;as=Unknown;g=meta.k8s.io;v=v1,application/json") == OutputForm::Object);
  CHECK(form_of("application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2," + poml_v1) ==
        OutputForm::PartialObjectMetadataList);
  CHECK(form_of("text/plain, application/json;stream=watch") == OutputForm::Object);
  CHECK(form_of("application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1," + pom_v1) ==
        OutputForm::PartialObjectMetadata);
}

TEST_CASE("negotiation: nothing acceptable is 406 NotAcceptable with the media types served") {
  for (const char* accept : {"application/json;as=Unknown;g=meta.k8s.io;v=v1",
                             "application/json;as=PartialObjectMetadata;g=apps;v=v1",
                             "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2",
                             "application/json;as=PartialObjectMetadata", "application/json;g=meta.k8s.io;v=v1",
                             "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
                             "application/yaml;stream=watch", "application/json;stream=chunks",
                             "application/json;sv=v2", "text/plain", "nonsense"}) {
    CAPTURE(accept);
    const Status status = refusal(accept);
    CHECK(status.code == 406);
    CHECK(status.reason == "NotAcceptable");
    CHECK(status.message ==
          "only the following media types are accepted: application/json, application/yaml, "
          "application/vnd.kubernetes.protobuf");
  }
}

TEST_CASE("negotiation: Accept headers parsed as goautoneg does") {
  const auto clauses = parse_accept(" application/json ;q=0.5; as=Table , */*;q=x, image , text/plain;foo");
  REQUIRE(clauses.size() == 3);  // "image" has no subtype
  CHECK(clauses[0].type == "text");  // q 1 before 0.5; an unparsable q is 0
  CHECK(clauses[0].params.empty());  // a parameter without '=' is dropped
  CHECK(clauses[1].type == "application");
  CHECK(clauses[1].q == doctest::Approx(0.5));
  CHECK(clauses[1].params == std::vector<std::pair<std::string, std::string>>{{"as", "Table"}});
  CHECK(clauses[2].subtype == "*");
  CHECK(clauses[2].q == 0);
}

TEST_CASE("metadata: get and list of a built-in kind answer PartialObjectMetadata only") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(configmaps, config_map("big", 20000), "application/json")->status == 201);
  REQUIRE(c->Post(configmaps, config_map("small", 10), "application/json")->status == 201);

  auto one = c->Get(configmaps + "/big", {{"Accept", pom_v1}});
  REQUIRE(one);
  CHECK(one->status == 200);
  const Json partial = body_of(one);
  CHECK(partial["kind"] == "PartialObjectMetadata");
  CHECK(partial["apiVersion"] == "meta.k8s.io/v1");
  CHECK(partial["metadata"]["name"] == "big");
  CHECK(partial["metadata"]["labels"]["app"] == "web");
  CHECK_FALSE(partial["metadata"]["uid"].get<std::string>().empty());
  CHECK_FALSE(partial.contains("data"));
  CHECK(one->body.size() < 2000);  // the 20 kB of data stayed on the server

  const Json list = body_of(c->Get(configmaps, {{"Accept", client_go_list}}));
  CHECK(list["kind"] == "PartialObjectMetadataList");
  CHECK(list["apiVersion"] == "meta.k8s.io/v1");
  CHECK(list["metadata"]["resourceVersion"] == t.cluster->resource_version());
  REQUIRE(list["items"].size() == 2);
  for (const Json& item : list["items"]) {
    CHECK(item["kind"] == "PartialObjectMetadata");
    CHECK(item["apiVersion"] == "meta.k8s.io/v1");
    CHECK(item.size() == 3);
  }

  // A page keeps continue; v1beta1 as well.
  const Json page = body_of(c->Get(configmaps + "?limit=1",
                                   {{"Accept", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1"}}));
  CHECK(page["apiVersion"] == "meta.k8s.io/v1beta1");
  CHECK(page["items"].size() == 1);
  CHECK(page["items"][0]["apiVersion"] == "meta.k8s.io/v1beta1");
  CHECK_FALSE(page["metadata"]["continue"].get<std::string>().empty());

  // Without the header, or with JSON first: the objects.
  CHECK(body_of(c->Get(configmaps + "/big"))["data"]["big"].get<std::string>().size() == 20000);
  CHECK(body_of(c->Get(configmaps, {{"Accept", "application/json, " + poml_v1}}))["kind"] == "ConfigMapList");
}

TEST_CASE("metadata: a form of the wrong shape or an unknown one is 406") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(configmaps, config_map("one", 10), "application/json")->status == 201);

  auto list_as_object = c->Get(configmaps, {{"Accept", pom_v1}});
  REQUIRE(list_as_object);
  CHECK(list_as_object->status == 406);
  const Json status = body_of(list_as_object);
  CHECK(status["kind"] == "Status");
  CHECK(status["reason"] == "NotAcceptable");
  CHECK(status["message"].get<std::string>().starts_with(
      "you requested PartialObjectMetadata, but the requested object is a list"));

  auto object_as_list = c->Get(configmaps + "/one", {{"Accept", poml_v1}});
  REQUIRE(object_as_list);
  CHECK(object_as_list->status == 406);
  CHECK(body_of(object_as_list)["message"].get<std::string>().starts_with(
      "you requested PartialObjectMetadataList, but the requested object is not a list"));

  auto unknown = c->Get(configmaps + "/one", {{"Accept", "application/json;as=Everything;g=meta.k8s.io;v=v1"}});
  REQUIRE(unknown);
  CHECK(unknown->status == 406);
  CHECK(body_of(unknown)["message"] ==
        "only the following media types are accepted: application/json, application/yaml, "
        "application/vnd.kubernetes.protobuf");
  // With a fallback the server answers it.
  auto fallback = c->Get(configmaps + "/one", {{"Accept", "application/json;as=Everything;g=meta.k8s.io;v=v1, */*"}});
  REQUIRE(fallback);
  CHECK(fallback->status == 200);
  CHECK(body_of(fallback)["kind"] == "ConfigMap");
  // Writes are not shaped (their answer is the object written).
  auto created = c->Post(configmaps, config_map("two", 10), "application/json");
  REQUIRE(created);
  CHECK(created->status == 201);
}

TEST_CASE("metadata: custom resources, and a version served by conversion") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", gizmo_crd().dump(),
                  "application/json")->status == 201);
  const std::string gizmos = "/apis/test.rrgen.dev/v1/namespaces/default/gizmos";
  const Json gizmo{{"apiVersion", "test.rrgen.dev/v1"},
                   {"kind", "Gizmo"},
                   {"metadata", {{"name", "g1"}, {"annotations", {{"note", "kept"}}}}},
                   {"spec", {{"size", 3}}}};
  REQUIRE(c->Post(gizmos, gizmo.dump(), "application/json")->status == 201);

  const Json one = body_of(c->Get(gizmos + "/g1", {{"Accept", client_go_watch}}));
  CHECK(one["kind"] == "PartialObjectMetadata");
  CHECK(one["metadata"]["annotations"]["note"] == "kept");
  CHECK_FALSE(one.contains("spec"));
  const Json list = body_of(c->Get(gizmos, {{"Accept", client_go_list}}));
  CHECK(list["kind"] == "PartialObjectMetadataList");
  REQUIRE(list["items"].size() == 1);
  CHECK(list["items"][0]["metadata"]["name"] == "g1");
  CHECK_FALSE(list["items"][0].contains("spec"));
}

TEST_CASE("metadata: a watch sends PartialObjectMetadata objects, bookmarks included") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(configmaps, config_map("a", 5000), "application/json")->status == 201);
  REQUIRE(c->Post(configmaps, config_map("b", 5000), "application/json")->status == 201);
  const std::vector<Json> events = watch_events(
      t.server->port(), configmaps + "?watch=1&timeoutSeconds=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&"
                      "allowWatchBookmarks=true",
      client_go_watch);
  REQUIRE(events.size() >= 3);
  CHECK(events[0]["type"] == "ADDED");
  CHECK(events[1]["type"] == "ADDED");
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(events[i]["object"]["kind"] == "PartialObjectMetadata");
    CHECK(events[i]["object"]["apiVersion"] == "meta.k8s.io/v1");
    CHECK_FALSE(events[i]["object"].contains("data"));
  }
  CHECK(events[2]["type"] == "BOOKMARK");
  CHECK(events[2]["object"]["kind"] == "PartialObjectMetadata");
  CHECK_FALSE(events[2]["object"]["metadata"]["resourceVersion"].get<std::string>().empty());

  // Asked as lists, the API server can not transform events and sends the objects.
  const std::vector<Json> whole = watch_events(t.server->port(), configmaps + "?watch=1&timeoutSeconds=1&resourceVersion=0", poml_v1);
  REQUIRE(whole.size() >= 2);
  CHECK(whole[0]["object"]["kind"] == "ConfigMap");
}
