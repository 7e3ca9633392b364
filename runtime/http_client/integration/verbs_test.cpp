// Every verb of rr::Client over HTTP against the local cluster, on a built-in kind and on a kind a
// CRD registered through the client itself. The server's store (rr::Cluster) is the reference.
#include <doctest/doctest.h>

#include <algorithm>

#include "k8s/core/v1/config_map.hpp"
#include "live_cluster.hpp"

using namespace rr;
using namespace rr::integration;

namespace {

std::string rv_of(const Json& object) { return object["metadata"]["resourceVersion"].get<std::string>(); }

std::vector<std::string> names_of(const Json& list) {
  std::vector<std::string> names;
  for (const Json& item : list["items"]) names.push_back(item["metadata"]["name"].get<std::string>());
  return names;
}

}  // namespace

TEST_CASE("every verb on a built-in kind (v1 ConfigMap), checked against the server's store") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());
  CHECK(cm.plural == "configmaps");
  CHECK(cm.namespaced());
  CHECK_FALSE(cm.has_status);
  CHECK(cm == kind_info_of<k8s::core::v1::ConfigMap>());

  // create
  Json a = config_map("default", "a", {{"k", "1"}});
  a["metadata"]["labels"] = {{"app", "web"}};
  const Json created = client->create(cm, a);
  CHECK_FALSE(created["metadata"]["uid"].get<std::string>().empty());
  CHECK(created == live.cluster().get(cm, {"default", "a"}));
  client->create(cm, config_map("default", "b", {{"k", "2"}}));

  // dry run: answered like a create, nothing stored
  const Json dry = client->create(cm, config_map("default", "dry"), WriteOptions{.dry_run = true});
  CHECK(dry["metadata"]["name"] == "dry");
  CHECK(status_of([&] { live.cluster().get(cm, {"default", "dry"}); }).code == 404);

  // get, list (all, by label, paged)
  CHECK(client->get(cm, {"default", "a"}) == created);
  CHECK(names_of(client->list(cm, {.namespace_ = "default"})) == std::vector<std::string>{"a", "b"});
  CHECK(names_of(client->list(cm, {.namespace_ = "default", .label_selector = "app=web"})) ==
        std::vector<std::string>{"a"});
  const Json page = client->list(cm, {.namespace_ = "default", .limit = 1});
  CHECK(names_of(page) == std::vector<std::string>{"a"});
  const std::string token = page["metadata"]["continue"].get<std::string>();
  CHECK(names_of(client->list(cm, {.namespace_ = "default", .limit = 1, .continue_ = token})) ==
        std::vector<std::string>{"b"});

  // update
  Json changed = created;
  changed["data"]["k"] = "changed";
  const Json updated = client->update(cm, changed);
  CHECK(updated["data"]["k"] == "changed");
  CHECK(rv_of(updated) != rv_of(created));
  CHECK(updated == live.cluster().get(cm, {"default", "a"}));

  // patches: merge and JSON patch
  Json merged = client->patch(cm, {"default", "a"}, PatchType::Merge, R"({"data":{"extra":"x"}})");
  CHECK(merged["data"] == Json{{"k", "changed"}, {"extra", "x"}});
  Json patched = client->patch(cm, {"default", "a"}, PatchType::JsonPatch,
                               R"([{"op":"remove","path":"/data/extra"},{"op":"replace","path":"/data/k","value":"p"}])");
  CHECK(patched["data"] == Json{{"k", "p"}});
  CHECK(patched == live.cluster().get(cm, {"default", "a"}));

  // typed calls go through the same client (through Client&: HttpClient's overrides hide them)
  Client& base = *client;
  auto typed = base.get<k8s::core::v1::ConfigMap>("default", "a");
  CHECK(typed.data->at("k") == "p");
  typed.data->at("k") = "typed";
  CHECK(base.update(typed).data->at("k") == "typed");

  // delete: the object's last state comes back, then 404
  const Json removed = client->remove(cm, {"default", "a"});
  CHECK(removed["metadata"]["name"] == "a");
  CHECK(status_of([&] { client->get(cm, {"default", "a"}); }).code == 404);

  // delete collection (by label), then the namespace is empty
  client->create(cm, config_map("default", "c"));
  client->patch(cm, {"default", "c"}, PatchType::Merge, R"({"metadata":{"labels":{"sweep":"yes"}}})");
  client->patch(cm, {"default", "b"}, PatchType::Merge, R"({"metadata":{"labels":{"sweep":"yes"}}})");
  client->remove_collection(cm, {.namespace_ = "default", .label_selector = "sweep=yes"});
  CHECK(client->list(cm, {.namespace_ = "default"})["items"].empty());
  CHECK(live.cluster().list(cm, {.namespace_ = "default"})["items"].empty());
}

TEST_CASE("a cluster-scoped built-in kind (v1 Namespace): create, get, list, delete") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo ns = client->kind_info({"", "v1", "Namespace"});
  CHECK_FALSE(ns.namespaced());
  client->create(ns, Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "team-a"}}}});
  CHECK(client->get(ns, {"", "team-a"})["metadata"]["name"] == "team-a");
  const auto all = names_of(client->list(ns, {}));
  CHECK(std::find(all.begin(), all.end(), "team-a") != all.end());
  CHECK(std::find(all.begin(), all.end(), "default") != all.end());
  client->remove(ns, {"", "team-a"});
  CHECK(wait_until([&] { return live.cluster().list(ns, {.field_selector = "metadata.name=team-a"})["items"].empty(); }));
}

TEST_CASE("every verb on a kind whose CRD was created through the client, status subresource included") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo widget = register_widget_crd(*client);
  CHECK(widget.plural == "widgets");
  CHECK(widget.list_kind == "WidgetList");
  CHECK(widget.has_status);
  CHECK(widget.namespaced());
  // The CRD itself reports it is established.
  const Json crd = client->get(client->kind_info(crd_gvk()), {"", "widgets.integration.rrgen.dev"});
  bool established = false;
  for (const Json& c : crd["status"]["conditions"]) established |= c["type"] == "Established" && c["status"] == "True";
  CHECK(established);

  const Json w = Json::parse(R"({"apiVersion":"integration.rrgen.dev/v1","kind":"Widget",
    "metadata":{"namespace":"default","name":"w1"},"spec":{"size":1}})");
  const Json created = client->create(widget, w);
  CHECK(created["metadata"]["generation"] == 1);
  CHECK(client->get(widget, {"default", "w1"}) == created);

  // update ignores status; update_status ignores spec (status subresource isolation both ways)
  Json both = created;
  both["spec"]["size"] = 2;
  both["status"] = {{"phase", "Ignored"}};
  const Json updated = client->update(widget, both);
  CHECK(updated["spec"]["size"] == 2);
  CHECK_FALSE(updated.contains("status"));
  CHECK(updated["metadata"]["generation"] == 2);
  Json status_write = updated;
  status_write["spec"]["size"] = 99;
  status_write["status"] = {{"phase", "Ready"}};
  const Json after_status = client->update_status(widget, status_write);
  CHECK(after_status["status"]["phase"] == "Ready");
  CHECK(after_status["spec"]["size"] == 2);
  CHECK(after_status["metadata"]["generation"] == 2);

  // patches: of the object and of its status
  CHECK(client->patch(widget, {"default", "w1"}, PatchType::Merge, R"({"spec":{"color":"red"}})")["spec"]["color"] ==
        "red");
  CHECK(client->patch(widget, {"default", "w1"}, PatchType::Merge, R"({"status":{"phase":"Done"}})", "status")
            ["status"]["phase"] == "Done");
  CHECK(client->patch(widget, {"default", "w1"}, PatchType::JsonPatch, R"([{"op":"add","path":"/spec/n","value":3}])")
            ["spec"]["n"] == 3);
  // A custom resource has no strategic merge patch: 415, as on a real server.
  CHECK(status_of([&] { client->patch(widget, {"default", "w1"}, PatchType::Strategic, R"({"spec":{}})"); }).code ==
        415);
  CHECK(client->get(widget, {"default", "w1"}) == live.cluster().get(widget, {"default", "w1"}));

  // list, watch
  client->create(widget, Json{{"apiVersion", "integration.rrgen.dev/v1"}, {"kind", "Widget"},
                              {"metadata", {{"namespace", "default"}, {"name", "w2"}}}});
  CHECK(names_of(client->list(widget, {.namespace_ = "default"})) == std::vector<std::string>{"w1", "w2"});
  auto watch = client->watch(widget, {.namespace_ = "default", .resource_version = ""});
  for (const char* name : {"w1", "w2"}) {
    auto e = watch->next(std::chrono::seconds(5));
    REQUIRE(e.has_value());
    CHECK(e->type == WatchEventType::Added);
    CHECK(e->object["metadata"]["name"] == name);
  }

  // delete one, delete the collection
  client->remove(widget, {"default", "w1"});
  auto deleted = watch->next(std::chrono::seconds(5));
  REQUIRE(deleted.has_value());
  CHECK(deleted->type == WatchEventType::Deleted);
  CHECK(deleted->object["metadata"]["name"] == "w1");
  client->remove_collection(widget, {.namespace_ = "default"});
  CHECK(client->list(widget, {.namespace_ = "default"})["items"].empty());
  watch->stop();
  CHECK(watch->stopped());
}
