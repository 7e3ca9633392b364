// Every verb against a scripted server: method, path and query, content type, body.
#include <doctest/doctest.h>

#include "rr/core/json.hpp"
#include "test_server.hpp"

using rr_test::reply_json;

namespace {

rr::KindInfo verb_widgets() {
  return {{"example.dev", "v1", "Widget"}, "widgets", "WidgetList", rr::Scope::Namespaced, true};
}
rr::KindInfo namespaces() { return {{"", "v1", "Namespace"}, "namespaces", "NamespaceList", rr::Scope::Cluster, true}; }

// Answers every request with {"echo": "<METHOD> <target>"}.
void echo_all(rr_test::TestServer& server) {
  const auto echo = [](const httplib::Request& req, httplib::Response& res) {
    reply_json(res, 200, rr::Json{{"echo", req.method + " " + req.target}}.dump());
  };
  server.http().Get(".*", echo).Post(".*", echo).Put(".*", echo).Patch(".*", echo).Delete(".*", echo);
}

}  // namespace

TEST_CASE("get, list, create, update, update_status: paths, queries and bodies") {
  rr_test::TestServer server;
  echo_all(server);
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());

  CHECK(client.get(verb_widgets(), {"ns1", "w1"})["echo"] == "GET /apis/example.dev/v1/namespaces/ns1/widgets/w1");
  CHECK(client.get(namespaces(), {"", "kube-system"})["echo"] == "GET /api/v1/namespaces/kube-system");

  rr::ListOptions list;
  list.namespace_ = "ns1";
  list.label_selector = "app=web";
  list.limit = 2;
  list.continue_ = "c1";
  CHECK(client.list(verb_widgets(), list)["echo"] ==
        "GET /apis/example.dev/v1/namespaces/ns1/widgets?labelSelector=app%3Dweb&limit=2&continue=c1");
  CHECK(client.list(verb_widgets(), {})["echo"] == "GET /apis/example.dev/v1/widgets");

  const rr::Json object = {{"apiVersion", "example.dev/v1"}, {"kind", "Widget"},
                           {"metadata", {{"namespace", "ns1"}, {"name", "w1"}, {"resourceVersion", "5"}}}};
  rr::WriteOptions write;
  write.dry_run = true;
  write.field_manager = "op";
  CHECK(client.create(verb_widgets(), object, write)["echo"] ==
        "POST /apis/example.dev/v1/namespaces/ns1/widgets?dryRun=All&fieldManager=op");
  CHECK(client.update(verb_widgets(), object)["echo"] == "PUT /apis/example.dev/v1/namespaces/ns1/widgets/w1");
  CHECK(client.update_status(verb_widgets(), object)["echo"] ==
        "PUT /apis/example.dev/v1/namespaces/ns1/widgets/w1/status");

  const auto seen = server.seen();
  REQUIRE(seen.size() == 7);
  CHECK(seen[4].content_type == "application/json");
  CHECK(rr::Json::parse(seen[4].body) == object);
  CHECK(rr::Json::parse(seen[6].body) == object);
  CHECK(seen[0].body.empty());
}

TEST_CASE("patch: content type per PatchType, apply needs a fieldManager and may force") {
  rr_test::TestServer server;
  echo_all(server);
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());

  client.patch(verb_widgets(), {"ns1", "w1"}, rr::PatchType::Merge, R"({"spec":{"a":1}})");
  client.patch(verb_widgets(), {"ns1", "w1"}, rr::PatchType::JsonPatch, R"([{"op":"remove","path":"/spec/a"}])",
               "status");
  client.patch(namespaces(), {"", "n"}, rr::PatchType::Strategic, R"({"metadata":{}})");
  rr::WriteOptions apply;
  apply.field_manager = "op";
  apply.force = true;
  CHECK(client.patch(verb_widgets(), {"ns1", "w1"}, rr::PatchType::Apply, "apiVersion: example.dev/v1\nkind: Widget\n",
                     {}, apply)["echo"] ==
        "PATCH /apis/example.dev/v1/namespaces/ns1/widgets/w1?fieldManager=op&force=true");

  const auto seen = server.seen();
  REQUIRE(seen.size() == 4);
  CHECK(seen[0].content_type == "application/merge-patch+json");
  CHECK(seen[0].body == R"({"spec":{"a":1}})");
  CHECK(seen[1].target == "/apis/example.dev/v1/namespaces/ns1/widgets/w1/status");
  CHECK(seen[1].content_type == "application/json-patch+json");
  CHECK(seen[2].target == "/api/v1/namespaces/n");
  CHECK(seen[2].content_type == "application/strategic-merge-patch+json");
  CHECK(seen[3].content_type == "application/apply-patch+yaml");
  CHECK(seen[3].body == "apiVersion: example.dev/v1\nkind: Widget\n");

  // No fieldManager: refused before anything is sent.
  try {
    client.patch(verb_widgets(), {"ns1", "w1"}, rr::PatchType::Apply, "kind: Widget\n");
    FAIL("expected an ApiError");
  } catch (const rr::ApiError& e) {
    CHECK(rr::is_bad_request(e.status()));
  }
  CHECK(server.seen().size() == 4);
}

TEST_CASE("remove and remove_collection send DeleteOptions, a missing name is refused locally") {
  rr_test::TestServer server;
  echo_all(server);
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());

  rr::DeleteOptions del;
  del.propagation = rr::PropagationPolicy::Background;
  del.precondition_resource_version = "9";
  CHECK(client.remove(verb_widgets(), {"ns1", "w1"}, del)["echo"] ==
        "DELETE /apis/example.dev/v1/namespaces/ns1/widgets/w1?propagationPolicy=Background");
  rr::ListOptions list;
  list.namespace_ = "ns1";
  list.label_selector = "x=y";
  client.remove_collection(verb_widgets(), list, {});

  const auto seen = server.seen();
  REQUIRE(seen.size() == 2);
  CHECK(rr::Json::parse(seen[0].body) == rr::Json::parse(R"({"kind":"DeleteOptions","apiVersion":"v1",
      "propagationPolicy":"Background","preconditions":{"resourceVersion":"9"}})"));
  CHECK(seen[1].target == "/apis/example.dev/v1/namespaces/ns1/widgets?labelSelector=x%3Dy");
  CHECK(seen[1].method == "DELETE");

  CHECK_THROWS_AS(client.get(verb_widgets(), {"ns1", ""}), rr::ApiError);
  CHECK_THROWS_AS(client.update(verb_widgets(), rr::Json{{"metadata", {{"namespace", "ns1"}}}}), rr::ApiError);
  CHECK(server.seen().size() == 2);
}

TEST_CASE("get_path, an empty 2xx body, and a 2xx body that is not JSON") {
  rr_test::TestServer server;
  server.http().Get("/version", [](const httplib::Request&, httplib::Response& res) {
    reply_json(res, 200, R"({"major":"1","minor":"32"})");
  });
  server.http().Delete("/api/v1/namespaces/a/configmaps/b", [](const httplib::Request&, httplib::Response& res) {
    res.status = 200;
  });
  server.http().Get("/api/v1/namespaces/a/configmaps/b", [](const httplib::Request&, httplib::Response& res) {
    res.status = 200;
    res.set_content("<html/>", "text/html");
  });
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());
  const rr::KindInfo cm{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", rr::Scope::Namespaced, false};
  CHECK(client.get_path("/version")["minor"] == "32");
  CHECK(client.remove(cm, {"a", "b"}) == rr::Json::object());
  try {
    client.get(cm, {"a", "b"});
    FAIL("expected an ApiError");
  } catch (const rr::ApiError& e) {
    CHECK(e.code() == 500);
    CHECK(std::string(e.what()).find("is not JSON") != std::string::npos);
  }
}

TEST_CASE("a config whose host is not an http(s) URL is refused") {
  rr::RestConfig config;
  config.host = "ftp://127.0.0.1:1";
  CHECK_THROWS_AS(rr::HttpClient{config}, rr::ConfigError);
  config.host = "";
  CHECK_THROWS_AS(rr::HttpClient{config}, rr::ConfigError);
}

TEST_CASE("a write sends fieldValidation and hands the answer's Warning headers to WriteOptions::warnings") {
  rr_test::TestServer server;
  server.http().Post(".*", [](const httplib::Request& req, httplib::Response& res) {
    res.set_header("Warning", "299 - \"unknown field \\\"spec.foo\\\"\"");
    res.set_header("Warning", "299 - \"second\", 299 - \"third\"");
    reply_json(res, 201, rr::Json{{"echo", req.method + " " + req.target}}.dump());
  });
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());
  const rr::Json object = {
      {"apiVersion", "example.dev/v1"}, {"kind", "Widget"}, {"metadata", {{"namespace", "ns1"}, {"name", "w1"}}}};
  std::vector<std::string> warnings;
  rr::WriteOptions write;
  write.field_validation = rr::FieldValidation::Strict;
  write.warnings = &warnings;
  CHECK(client.create(verb_widgets(), object, write)["echo"] ==
        "POST /apis/example.dev/v1/namespaces/ns1/widgets?fieldValidation=Strict");
  CHECK(warnings == std::vector<std::string>{"unknown field \"spec.foo\"", "second", "third"});
  write.warnings = nullptr;  // no sink: the warnings are dropped
  CHECK_NOTHROW(client.create(verb_widgets(), object, write));
}
