// FieldsV1 content for maps, associative lists and set lists, and the pieces behind it: the
// field-set trie, list typing, the merge, and path printing.
#include "apply_field_set.hpp"
#include "apply_list_types.hpp"
#include "apply_walk.hpp"
#include "apply_yaml.hpp"
#include "test_support.hpp"

using namespace cluster_test;
using rr::cluster_detail::FieldPath;
using rr::cluster_detail::FieldSet;

namespace {

rr::KindInfo pod_kind() { return {.gvk = {"", "v1", "Pod"}, .plural = "pods", .list_kind = "PodList", .has_status = true}; }

}  // namespace

TEST_CASE("FieldsV1 of an applied pod: containers by name, ports by containerPort and protocol, finalizers by value") {
  auto cluster = make_cluster();
  cluster->register_kind(pod_kind());
  const Json owner = cluster->create(config_map_kind(), config_map("default", "owner"));
  const std::string owner_uid = owner["metadata"]["uid"];
  const Json pod = cluster->patch(pod_kind(), {"default", "p"}, rr::PatchType::Apply, R"(
apiVersion: v1
kind: Pod
metadata:
  name: p
  finalizers: [example.com/guard]
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: owner, uid: )" + owner_uid + R"(}
spec:
  containers:
  - name: app
    image: app:1
    args: [--serve, --port=80]
    ports:
    - containerPort: 80
    env:
    - {name: MODE, value: fast}
  tolerations:
  - {key: k, operator: Exists}
)",
                                  {}, manager("kubectl"));
  const Json expected = Json::parse(R"({
    "f:metadata": {
      "f:finalizers": {"v:\"example.com/guard\"": {}},
      "f:ownerReferences": {"k:{\"uid\":\")" + owner_uid + R"(\"}": {
        ".": {}, "f:apiVersion": {}, "f:kind": {}, "f:name": {}, "f:uid": {}}}
    },
    "f:spec": {
      "f:containers": {"k:{\"name\":\"app\"}": {
        ".": {}, "f:args": {}, "f:image": {}, "f:name": {},
        "f:env": {"k:{\"name\":\"MODE\"}": {".": {}, "f:name": {}, "f:value": {}}},
        "f:ports": {"k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}}}
      }},
      "f:tolerations": {}
    }})");
  CHECK(pod["metadata"]["managedFields"][0]["fieldsV1"] == expected);
}

TEST_CASE("finalizers are a set: appliers add and remove their own values only") {
  auto cluster = make_cluster();
  auto apply = [&](const std::string& finalizers, const std::string& who) {
    return cluster->patch(config_map_kind(), {"default", "a"}, rr::PatchType::Apply,
                          R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","finalizers":)" + finalizers +
                              "}}",
                          {}, manager(who));
  };
  apply(R"(["a/one"])", "first");
  CHECK(apply(R"(["b/two"])", "second")["metadata"]["finalizers"] == Json::parse(R"(["a/one","b/two"])"));
  CHECK(apply(R"([])", "first")["metadata"]["finalizers"] == Json::parse(R"(["b/two"])"));
}

TEST_CASE("conditions merge by type") {
  auto cluster = make_cluster();
  auto apply_status = [&](const std::string& conditions, const std::string& who) {
    return cluster->patch(thing_kind(), {"default", "a"}, rr::PatchType::Apply,
                          R"({"apiVersion":"things.test/v1","kind":"Thing","metadata":{"name":"a"},
                              "status":{"conditions":)" + conditions + "}}",
                          "status", manager(who));
  };
  cluster->create(thing_kind(), thing("default", "a"));
  apply_status(R"([{"type":"Ready","status":"True"}])", "ready-controller");
  const Json both = apply_status(R"([{"type":"Synced","status":"False"}])", "sync-controller");
  CHECK(both["status"]["conditions"] ==
        Json::parse(R"([{"type":"Ready","status":"True"},{"type":"Synced","status":"False"}])"));
}

TEST_CASE("lists without a known key are atomic: the whole list is one field, replaced by the applier") {
  auto cluster = make_cluster();
  auto apply = [&](const std::string& items, const std::string& who) {
    return cluster->patch(thing_kind(), {"default", "a"}, rr::PatchType::Apply,
                          R"({"apiVersion":"things.test/v1","kind":"Thing","metadata":{"name":"a"},"spec":{"items":)" +
                              items + "}}",
                          {}, manager(who));
  };
  const Json first = apply(R"([1,2])", "a");
  CHECK(first["metadata"]["managedFields"][0]["fieldsV1"] == Json::parse(R"({"f:spec":{"f:items":{}}})"));
  CHECK(failure_of([&] { apply(R"([3])", "b"); }).causes.at(0).field == ".spec.items");
  CHECK(apply(R"([2,1])", "a")["spec"]["items"] == Json::parse("[2,1]"));
}

TEST_CASE("the field set trie round-trips FieldsV1 and marks members that have members below with \".\"") {
  const Json fields = Json::parse(R"({"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:replicas":{}}})");
  const auto set = FieldSet::from_fields_v1(fields);
  REQUIRE(set);
  CHECK(set->size() == 3);
  CHECK(set->contains(FieldPath{"f:metadata", "f:labels"}));
  CHECK_FALSE(set->contains(FieldPath{"f:spec"}));
  CHECK(set->contains_at_or_below(FieldPath{"f:spec"}));
  CHECK(set->to_fields_v1() == fields);
  CHECK_FALSE(FieldSet::from_fields_v1(Json::parse(R"({"f:a":1})")));
  CHECK_FALSE(FieldSet::from_fields_v1(Json::array()));
}

TEST_CASE("paths print as the API server prints them, members before what lies below") {
  using rr::cluster_detail::display_path;
  CHECK(display_path({"f:spec", "f:replicas"}) == ".spec.replicas");
  CHECK(display_path({"f:spec", "f:containers", R"(k:{"name":"app"})", "f:image"}) ==
        R"(.spec.containers[name="app"].image)");
  CHECK(display_path({"f:ports", R"(k:{"containerPort":80,"protocol":"TCP"})"}) ==
        R"(.ports[containerPort=80,protocol="TCP"])");
  CHECK(display_path({"f:metadata", "f:finalizers", R"(v:"x")"}) == R"(.metadata.finalizers[="x"])");
  FieldSet set;
  set.insert({"f:spec", "f:template", "f:image"});
  set.insert({"f:spec", "f:replicas"});
  set.insert({"f:spec", "f:a", "f:b"});
  CHECK(set.in_merge_order() ==
        std::vector<FieldPath>{{"f:spec", "f:replicas"}, {"f:spec", "f:a", "f:b"}, {"f:spec", "f:template", "f:image"}});
}

TEST_CASE("list typing: known names with fitting items are keyed, anything else is atomic") {
  using rr::cluster_detail::list_type_of;
  using rr::cluster_detail::ListKind;
  const Json containers = Json::parse(R"([{"name":"a"},{"name":"b"}])");
  CHECK(list_type_of("containers", containers).kind == ListKind::Associative);
  CHECK(list_type_of("containers", Json::parse(R"([{"name":"a"},{"name":"a"}])")).kind == ListKind::Atomic);
  CHECK(list_type_of("containers", Json::parse(R"(["a"])")).kind == ListKind::Atomic);
  CHECK(list_type_of("args", Json::parse(R"(["a"])")).kind == ListKind::Atomic);
  CHECK(list_type_of("finalizers", Json::parse(R"(["a","b"])")).kind == ListKind::Set);
  const auto service_ports = list_type_of("ports", Json::parse(R"([{"port":80},{"port":80,"protocol":"UDP"}])"));
  REQUIRE(service_ports.kind == ListKind::Associative);
  CHECK(service_ports.element_of(Json::parse(R"({"port":80})")) == R"(k:{"port":80,"protocol":"TCP"})");
  // Both sides must agree on the keys.
  CHECK(list_type_of("containers", containers, &containers).kind == ListKind::Associative);
  const Json unnamed = Json::parse(R"([{"image":"x"}])");
  CHECK(list_type_of("containers", containers, &unnamed).kind == ListKind::Atomic);
}

TEST_CASE("merge: objects by member, keyed lists by item, nulls remove") {
  using rr::cluster_detail::merge_configuration;
  const Json live = Json::parse(R"({"a":{"x":1,"y":2},"env":[{"name":"A","value":"1"}],"args":["p"]})");
  const Json config = Json::parse(R"({"a":{"y":null,"z":3},"env":[{"name":"B","value":"2"},{"name":"A","value":"9"}],
                                     "args":["q"]})");
  CHECK(merge_configuration(live, config) ==
        Json::parse(R"({"a":{"x":1,"z":3},"env":[{"name":"A","value":"9"},{"name":"B","value":"2"}],"args":["q"]})"));
}

TEST_CASE("YAML scalars resolve like the API server's decoder") {
  using rr::cluster_detail::parse_apply_body;
  const Json j = parse_apply_body("a: 010\nb: -0x10\nc: 1_000\nd: 1e3\ne: off\nf: 'off'\ng: 9223372036854775808\n"
                                  "h: .5\ni: 1.2.3\nj: null\nk: !!str 12\n");
  CHECK(j["a"] == 8);
  CHECK(j["b"] == -16);
  CHECK(j["c"] == 1000);
  CHECK(j["d"] == 1000.0);
  CHECK(j["d"].is_number_float());
  CHECK(j["e"] == false);
  CHECK(j["f"] == "off");
  CHECK(j["g"].is_number_unsigned());
  CHECK(j["h"] == 0.5);
  CHECK(j["i"] == "1.2.3");
  CHECK(j["j"].is_null());
  CHECK(j["k"] == "12");
}
