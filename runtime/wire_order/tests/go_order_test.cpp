#include "rr/wire_order/go_order.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using rr::Json;

// The member names of `text`'s top-level object in the order they are written.
std::vector<std::string> keys_of(const std::string& text) {
  std::vector<std::string> keys;
  const auto document = nlohmann::ordered_json::parse(text);  // items() does not keep a temporary alive
  for (const auto& item : document.items()) keys.push_back(item.key());
  return keys;
}

using Keys = std::vector<std::string>;

}  // namespace

TEST_CASE("a Pod comes out in Go field order, with undeclared members after, alphabetically") {
  const Json pod = {{"apiVersion", "v1"},
                    {"kind", "Pod"},
                    {"zeta", 1},
                    {"alpha", 2},
                    {"status", {{"phase", "Running"}}},
                    {"spec", {{"nodeName", "n"}, {"containers", {{{"name", "c"}, {"image", "i"}}}}}},
                    {"metadata",
                     {{"uid", "u"},
                      {"resourceVersion", "1"},
                      {"namespace", "ns"},
                      {"name", "p"},
                      {"creationTimestamp", "2024-01-01T00:00:00Z"},
                      {"labels", {{"b", "1"}, {"a", "2"}}}}}};
  const std::string text = rr::wire_order::dump(pod);
  CHECK(keys_of(text) == Keys{"kind", "apiVersion", "metadata", "spec", "status", "alpha", "zeta"});
  const auto ordered = nlohmann::ordered_json::parse(text);
  Keys meta;
  for (const auto& item : ordered["metadata"].items()) meta.push_back(item.key());
  CHECK(meta == Keys{"name", "namespace", "uid", "resourceVersion", "creationTimestamp", "labels"});
  Keys container;
  for (const auto& item : ordered["spec"]["containers"][0].items()) container.push_back(item.key());
  CHECK(container == Keys{"name", "image"});
  Keys spec;
  for (const auto& item : ordered["spec"].items()) spec.push_back(item.key());
  CHECK(spec == Keys{"containers", "nodeName"});  // PodSpec declares containers before nodeName
  // A map's keys stay sorted, as Go writes them; and nothing but the order changes.
  CHECK(text.find(R"("labels":{"a":"2","b":"1"})") != std::string::npos);
  CHECK(Json::parse(text) == pod);
  CHECK(text.size() == pod.dump().size());
}

TEST_CASE("a Status is kind, apiVersion, metadata, status, message, reason, details, code") {
  const Json status = {
      {"apiVersion", "v1"},
      {"kind", "Status"},
      {"code", 404},
      {"details", {{"kind", "pods"}, {"name", "x"}, {"causes", {{{"field", "f"}, {"message", "m"}, {"reason", "r"}}}}}},
      {"message", "pods \"x\" not found"},
      {"metadata", Json::object()},
      {"reason", "NotFound"},
      {"status", "Failure"}};
  CHECK(
      rr::wire_order::dump(status) ==
      R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" not found",)"
      R"("reason":"NotFound","details":{"name":"x","kind":"pods","causes":[{"reason":"r","message":"m","field":"f"}]},)"
      R"("code":404})");
}

TEST_CASE("a custom resource and its list come out alphabetically, as encoding/json writes a map") {
  const Json widget = {{"kind", "Widget"},
                       {"apiVersion", "example.com/v1"},
                       {"spec", {{"b", 1}, {"a", 2}}},
                       {"metadata", {{"namespace", "ns"}, {"name", "w"}}}};
  CHECK(rr::wire_order::dump(widget) == widget.dump());
  const Json list = {
      {"kind", "WidgetList"}, {"apiVersion", "example.com/v1"}, {"metadata", Json::object()}, {"items", {widget}}};
  CHECK(rr::wire_order::dump(list) == list.dump());
  CHECK(rr::wire_order::struct_of("example.com/v1", "Widget").empty());
  CHECK(rr::wire_order::struct_of("apps/v1", "Deployment") == "io.k8s.api.apps.v1.Deployment");
}

TEST_CASE("a built-in list orders its items as the item kind, with or without their kind") {
  const Json list = {{"apiVersion", "v1"},
                     {"kind", "ConfigMapList"},
                     {"items", {{{"metadata", {{"name", "a"}}}, {"data", {{"k", "v"}}}}}},
                     {"metadata", {{"resourceVersion", "7"}, {"continue", "c"}}}};
  CHECK(rr::wire_order::dump(list) ==
        R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"c"},)"
        R"("items":[{"metadata":{"name":"a"},"data":{"k":"v"}}]})");
}

TEST_CASE("a Table row's object is written as the kind it holds") {
  const Json table = {
      {"apiVersion", "meta.k8s.io/v1"},
      {"kind", "Table"},
      {"rows",
       {{{"object",
          {{"apiVersion", "meta.k8s.io/v1"},
           {"kind", "PartialObjectMetadata"},
           {"metadata", {{"uid", "u"}, {"name", "n"}}}}},
         {"cells", {"n", 1}}}}},
      {"columnDefinitions",
       {{{"type", "string"}, {"priority", 0}, {"name", "Name"}, {"format", "name"}, {"description", "d"}}}},
      {"metadata", {{"resourceVersion", "3"}}}};
  CHECK(rr::wire_order::dump(table) ==
        R"({"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"3"},)"
        R"("columnDefinitions":[{"name":"Name","type":"string","format":"name","description":"d","priority":0}],)"
        R"("rows":[{"cells":["n",1],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",)"
        R"("metadata":{"name":"n","uid":"u"}}}]})");
}

TEST_CASE("a watch event is type, then object") {
  const Json pod = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "p"}}}};
  CHECK(rr::wire_order::dump_watch_event("ADDED", pod) ==
        R"({"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}}})");
}

TEST_CASE("values are written as dump() writes them; text that is not UTF-8 is refused as dump() refuses it") {
  const Json config = {{"apiVersion", "v1"},
                       {"kind", "ConfigMap"},
                       {"data", {{"q\"uote\n", "é\t\u0001"}}},
                       {"weird \"key\"", {1.5, 1e300, -0.0, 12345678901234567LL, nullptr, true}}};
  CHECK(rr::wire_order::dump(config).size() == config.dump().size());
  CHECK(Json::parse(rr::wire_order::dump(config)) == config);
  CHECK(rr::wire_order::dump(Json(3.25)) == "3.25");
  CHECK(rr::wire_order::dump(Json::array({1, "a"})) == R"([1,"a"])");
  const Json bad = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", std::string("\xff")}}}};
  CHECK_THROWS_AS(rr::wire_order::dump(bad), Json::type_error);
  CHECK_THROWS_AS(rr::wire_order::dump(Json{{std::string("\xfe"), 1}}), Json::type_error);
}

TEST_CASE("members of the wrong JSON type are written as they are") {
  const Json pod = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", "not an object"}, {"spec", {1, {{"b", 1}}}}};
  const std::string text = rr::wire_order::dump(pod);
  CHECK(Json::parse(text) == pod);
  CHECK(keys_of(text) == Keys{"kind", "apiVersion", "metadata", "spec"});
}

TEST_CASE("a CustomResourceDefinition comes out in apiextensions' types.go order, its schema too") {
  const Json crd = {{"apiVersion", "apiextensions.k8s.io/v1"},
                    {"kind", "CustomResourceDefinition"},
                    {"metadata", {{"name", "widgets.example.com"}}},
                    {"spec",
                     {{"scope", "Namespaced"},
                      {"names", {{"plural", "widgets"}, {"kind", "Widget"}}},
                      {"group", "example.com"},
                      {"versions",
                       {{{"storage", true},
                         {"served", true},
                         {"name", "v1"},
                         {"schema",
                          {{"openAPIV3Schema",
                            {{"type", "object"},
                             {"properties",
                              {{"spec",
                                {{"type", "object"},
                                 {"description", "d"},
                                 {"x-kubernetes-validations", {{{"rule", "true"}, {"message", "m"}}}}}}}}}}}}}}}}}};
  CHECK(
      rr::wire_order::dump(crd) ==
      R"({"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1","metadata":{"name":"widgets.example.com"},)"
      R"("spec":{"group":"example.com","names":{"plural":"widgets","kind":"Widget"},"scope":"Namespaced",)"
      R"("versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",)"
      R"("properties":{"spec":{"description":"d","type":"object","x-kubernetes-validations":[{"rule":"true","message":"m"}]}}}}}]}})");
}

TEST_CASE("dump_as writes a document without a kind as the struct named") {
  const Json version = {{"platform", "linux/amd64"}, {"major", "1"}, {"gitVersion", "v1.35.0"}, {"minor", "35"}};
  CHECK(rr::wire_order::dump_as("io.k8s.apimachinery.pkg.version.Info", version) ==
        R"({"major":"1","minor":"35","gitVersion":"v1.35.0","platform":"linux/amd64"})");
  CHECK(rr::wire_order::dump_as("no.such.Struct", version) == version.dump());
  CHECK(rr::wire_order::dump_as("io.k8s.apimachinery.pkg.version.Info", Json::array({1})) == "[1]");
}
