// Server-side apply over HTTP (application/apply-patch+yaml with fieldManager and force) and
// strategic merge patch of a Deployment's containers.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "live_cluster.hpp"

using namespace rr;
using namespace rr::integration;

namespace {

WriteOptions manager(std::string name, bool force = false) {
  return WriteOptions{.field_manager = std::move(name), .force = force};
}

// "manager/operation" of every managedFields entry.
std::vector<std::string> managers_of(const Json& object) {
  std::vector<std::string> out;
  for (const Json& entry : object["metadata"].value("managedFields", Json::array())) {
    out.push_back(entry.value("manager", "") + "/" + entry.value("operation", ""));
  }
  return out;
}

bool owns(const Json& object, const std::string& manager, const std::string& data_key) {
  for (const Json& entry : object["metadata"].value("managedFields", Json::array())) {
    if (entry.value("manager", "") != manager) continue;
    const Json& fields = entry["fieldsV1"];
    return fields.contains("f:data") && fields["f:data"].contains("f:" + data_key);
  }
  return false;
}

const char* alice_config = R"(apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: default
data:
  color: red
  size: "3"
)";

const char* bob_config = R"(apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {color: blue, owner: bob}
)";

Json deployment_with(const std::string& containers) {
  return Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"namespace":"default","name":"web"},
    "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
    "spec":{"containers":)" + containers + "}}}}");
}

std::vector<std::string> container_images(const Json& deployment) {
  std::vector<std::string> out;
  for (const Json& c : deployment["spec"]["template"]["spec"]["containers"]) {
    out.push_back(c["name"].get<std::string>() + "=" + c.value("image", ""));
  }
  return out;
}

}  // namespace

TEST_CASE("server-side apply: create, a conflict between two managers, force, and removal by the owner") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());
  const ObjectKey key{"default", "settings"};

  // Apply creates the object; alice owns what she applied.
  const Json created = client->patch(cm, key, PatchType::Apply, alice_config, {}, manager("alice"));
  CHECK(created["data"] == Json{{"color", "red"}, {"size", "3"}});
  CHECK(managers_of(created) == std::vector<std::string>{"alice/Apply"});
  CHECK(owns(created, "alice", "color"));

  // Re-applying the same configuration writes nothing.
  const Json again = client->patch(cm, key, PatchType::Apply, alice_config, {}, manager("alice"));
  CHECK(again["metadata"]["resourceVersion"] == created["metadata"]["resourceVersion"]);

  // Bob changes a field alice owns: 409 naming her and the field; nothing is written.
  const Status conflict = status_of([&] { client->patch(cm, key, PatchType::Apply, bob_config, {}, manager("bob")); });
  CHECK(is_conflict(conflict));
  CHECK(conflict.message == R"(Apply failed with 1 conflict: conflict with "alice": .data.color)");
  REQUIRE(conflict.causes.size() == 1);
  CHECK(conflict.causes[0].type == "FieldManagerConflict");
  CHECK(conflict.causes[0].field == ".data.color");
  CHECK(client->get(cm, key)["data"]["color"] == "red");

  // With force, bob takes color over; alice keeps size.
  const Json forced = client->patch(cm, key, PatchType::Apply, bob_config, {}, manager("bob", true));
  CHECK(forced["data"] == Json{{"color", "blue"}, {"owner", "bob"}, {"size", "3"}});
  CHECK(owns(forced, "bob", "color"));
  CHECK_FALSE(owns(forced, "alice", "color"));
  CHECK(owns(forced, "alice", "size"));

  // Bob applies without owner: he was its only owner, so it goes; color stays his.
  const Json dropped =
      client->patch(cm, key, PatchType::Apply, R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings"},
        "data":{"color":"blue"}})", {}, manager("bob"));
  CHECK(dropped["data"] == Json{{"color", "blue"}, {"size", "3"}});

  // An update by a third writer records an Update entry beside the appliers.
  Json edited = dropped;
  edited["data"]["note"] = "hand-edited";
  const Json after_update = client->update(cm, edited, manager("kubectl-edit"));
  const auto managers = managers_of(after_update);
  CHECK(std::find(managers.begin(), managers.end(), "kubectl-edit/Update") != managers.end());

  // Apply without a field manager is refused by the client before it is sent.
  CHECK(is_bad_request(status_of([&] { client->patch(cm, key, PatchType::Apply, bob_config); })));
  // The server's copy is what the client saw last.
  CHECK(live.cluster().get(cm, key) == client->get(cm, key));
}

TEST_CASE("server-side apply of a custom resource and of its status") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo widget = register_widget_crd(*client);
  const ObjectKey key{"default", "w"};
  const Json created = client->patch(widget, key, PatchType::Apply,
                                     "apiVersion: integration.rrgen.dev/v1\nkind: Widget\nmetadata: {name: w}\n"
                                     "spec: {size: 2}\nstatus: {phase: ignored}\n",
                                     {}, manager("op"));
  CHECK(created["spec"]["size"] == 2);
  CHECK_FALSE(created.contains("status"));  // the main resource does not write status
  const Json status = client->patch(widget, key, PatchType::Apply,
                                    "apiVersion: integration.rrgen.dev/v1\nkind: Widget\nmetadata: {name: w}\n"
                                    "status: {phase: Ready}\n",
                                    "status", manager("op"));
  CHECK(status["status"]["phase"] == "Ready");
  CHECK(status["spec"]["size"] == 2);
}

TEST_CASE("strategic merge patch of a Deployment's containers merges by name, a merge patch replaces the list") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo deployments = client->kind_info(deployment_gvk());
  const ObjectKey key{"default", "web"};
  client->create(deployments,
                 deployment_with(R"([{"name":"app","image":"app:1"},{"name":"sidecar","image":"proxy:1"}])"));

  // One container named: its image changes, the other container stays.
  const Json patched = client->patch(deployments, key, PatchType::Strategic,
                                     R"({"spec":{"template":{"spec":{"containers":[{"name":"app","image":"app:2"}]}}}})");
  CHECK(container_images(patched) == std::vector<std::string>{"app=app:2", "sidecar=proxy:1"});
  CHECK(patched["metadata"]["generation"] == 2);

  // A new name is added; $patch: delete removes one by its key.
  const Json added = client->patch(deployments, key, PatchType::Strategic,
                                   R"({"spec":{"template":{"spec":{"containers":[{"name":"init","image":"busybox"}]}}}})");
  CHECK(container_images(added).size() == 3);
  const Json removed = client->patch(
      deployments, key, PatchType::Strategic,
      R"({"spec":{"template":{"spec":{"containers":[{"$patch":"delete","name":"sidecar"}]}}}})");
  const auto left = container_images(removed);
  CHECK(std::find(left.begin(), left.end(), "sidecar=proxy:1") == left.end());
  CHECK(std::find(left.begin(), left.end(), "app=app:2") != left.end());
  CHECK(std::find(left.begin(), left.end(), "init=busybox") != left.end());

  // A JSON merge patch (RFC 7386) has no merge keys: the list is replaced whole.
  const Json replaced = client->patch(deployments, key, PatchType::Merge,
                                      R"({"spec":{"template":{"spec":{"containers":[{"name":"only","image":"x"}]}}}})");
  CHECK(container_images(replaced) == std::vector<std::string>{"only=x"});
  CHECK(replaced == live.cluster().get(deployments, key));

  // A strategic patch that breaks the merge-key rule is refused, and nothing is written.
  const Status bad = status_of([&] {
    client->patch(deployments, key, PatchType::Strategic, R"({"spec":{"template":{"spec":{"containers":[{"image":"nameless"}]}}}})");
  });
  CHECK(bad.code >= 400);
  CHECK(bad.code < 500);
  CHECK(container_images(client->get(deployments, key)) == std::vector<std::string>{"only=x"});
}
