// kind_info(): discovery, caching, refresh on a miss, NotFound for unknown kinds.
#include <doctest/doctest.h>

#include <atomic>

#include "rr/core/json.hpp"
#include "test_server.hpp"

using rr_test::reply_json;

TEST_CASE("kind_info reads the group-version's APIResourceList once and refreshes on a miss") {
  rr_test::TestServer server;
  std::atomic<bool> gadgets_registered{false};
  server.http().Get("/apis/example.dev/v1", [&](const httplib::Request&, httplib::Response& res) {
    rr::Json resources = rr::Json::array({
        {{"name", "widgets"}, {"namespaced", true}, {"kind", "Widget"}, {"verbs", {"get", "list"}}},
        {{"name", "widgets/status"}, {"namespaced", true}, {"kind", "Widget"}, {"verbs", {"get"}}},
    });
    if (gadgets_registered) {
      resources.push_back({{"name", "gadgets"}, {"namespaced", false}, {"kind", "Gadget"}, {"verbs", {"get"}}});
    }
    reply_json(res, 200, rr::Json{{"kind", "APIResourceList"}, {"groupVersion", "example.dev/v1"},
                                  {"resources", resources}}.dump());
  });
  server.http().Get("/api/v1", [](const httplib::Request&, httplib::Response& res) {
    reply_json(res, 200, R"({"kind":"APIResourceList","groupVersion":"v1","resources":[
      {"name":"configmaps","namespaced":true,"kind":"ConfigMap","verbs":["get"]},
      {"name":"namespaces","namespaced":false,"kind":"Namespace","verbs":["get"]},
      {"name":"namespaces/status","namespaced":false,"kind":"Namespace","verbs":["get"]}]})");
  });
  server.http().Get("/apis/missing.dev/v1", [](const httplib::Request&, httplib::Response& res) {
    reply_json(res, 404, rr_test::status_body(404, "NotFound", "the server could not find the requested resource"));
  });
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());

  const rr::KindInfo widget = client.kind_info({"example.dev", "v1", "Widget"});
  CHECK(widget == rr::KindInfo{{"example.dev", "v1", "Widget"}, "widgets", "WidgetList", rr::Scope::Namespaced, true});
  CHECK(client.kind_info({"example.dev", "v1", "Widget"}) == widget);
  CHECK(server.count("GET", "/apis/example.dev/v1") == 1);  // cached

  const rr::KindInfo ns = client.kind_info({"", "v1", "Namespace"});
  CHECK(ns.plural == "namespaces");
  CHECK(ns.scope == rr::Scope::Cluster);
  CHECK(ns.has_status);
  CHECK(client.kind_info({"", "v1", "ConfigMap"}).list_kind == "ConfigMapList");
  CHECK(server.count("GET", "/api/v1") == 1);

  // Not there yet: NotFound, worded as client-go's NoKindMatchError.
  try {
    client.kind_info({"example.dev", "v1", "Gadget"});
    FAIL("expected an ApiError");
  } catch (const rr::ApiError& e) {
    CHECK(rr::is_not_found(e.status()));
    CHECK(e.status().message == "no matches for kind \"Gadget\" in version \"example.dev/v1\"");
  }
  gadgets_registered = true;  // e.g. a CRD applied since
  CHECK(client.kind_info({"example.dev", "v1", "Gadget"}).scope == rr::Scope::Cluster);
  CHECK(server.count("GET", "/apis/example.dev/v1") == 3);

  try {
    client.kind_info({"missing.dev", "v1", "Thing"});
    FAIL("expected an ApiError");
  } catch (const rr::ApiError& e) {
    CHECK(rr::is_not_found(e.status()));
    CHECK(e.status().message == "no matches for kind \"Thing\" in version \"missing.dev/v1\"");
  }
}
