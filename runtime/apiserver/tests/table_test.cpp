#include <doctest/doctest.h>

#include "media_negotiation.hpp"
#include "table.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_detail;
using namespace rr::apiserver_test;
using namespace std::chrono_literals;

namespace {

const char* kubectl_accept =
    "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

// 2026-01-01T00:00:00Z
const PrintClock::time_point new_year = PrintClock::time_point(std::chrono::seconds(1767225600));

Json crd_with_columns() {
  Json crd = gizmo_crd();
  crd["spec"]["versions"][0]["additionalPrinterColumns"] = Json::parse(R"([
    {"name": "Size", "type": "integer", "jsonPath": ".spec.size", "description": "How big"},
    {"name": "Ratio", "type": "number", "jsonPath": ".spec.ratio", "priority": 1},
    {"name": "Color", "type": "string", "format": "text", "jsonPath": ".spec.color"},
    {"name": "Ready", "type": "string", "jsonPath": ".status.conditions[?(@.type==\"Ready\")].status"},
    {"name": "Enabled", "type": "boolean", "jsonPath": ".spec.enabled"},
    {"name": "Broken", "type": "string", "jsonPath": ".spec..size"},
    {"name": "Created", "type": "date", "jsonPath": ".metadata.creationTimestamp"}
  ])");
  return crd;
}

// A gizmo to create over HTTP (no resourceVersion).
std::string new_gizmo(const std::string& name, const Json& spec);

Json gizmo(const std::string& name, const Json& spec) {
  return Json{{"apiVersion", "test.rrgen.dev/v1"},
              {"kind", "Gizmo"},
              {"metadata",
               {{"name", name},
                {"namespace", "default"},
                {"resourceVersion", "7"},
                {"creationTimestamp", "2025-12-31T23:55:00Z"},
                {"labels", {{"a", "b"}}}}},
              {"spec", spec},
              {"status", {{"conditions", Json::array({{{"type", "Ready"}, {"status", "True"}}})}}}};
}

std::string new_gizmo(const std::string& name, const Json& spec) {
  Json object = gizmo(name, spec);
  object["metadata"].erase("resourceVersion");
  return object.dump();
}

std::vector<std::string> column_names(const Json& table) {
  std::vector<std::string> names;
  for (const Json& c : table["columnDefinitions"]) names.push_back(c["name"].get<std::string>());
  return names;
}

}  // namespace

TEST_CASE("table: the Accept header decides, in order") {
  auto table_version = [](std::string_view accept) -> std::optional<std::string> {
    const OutputMedia media = negotiate_output(accept);
    if (media.form != OutputForm::Table) return std::nullopt;
    return media.version;
  };
  CHECK(table_version(kubectl_accept) == "v1");
  CHECK(table_version("application/json;as=Table;v=v1beta1;g=meta.k8s.io, application/json") == "v1beta1");
  CHECK(table_version("application/json; as=Table; g=meta.k8s.io; v=v1") == "v1");
  CHECK_FALSE(table_version("").has_value());
  CHECK_FALSE(table_version("application/json").has_value());
  CHECK_FALSE(table_version("*/*").has_value());
  CHECK_FALSE(table_version("application/json, application/json;as=Table;v=v1;g=meta.k8s.io").has_value());
  // Another Table version, or a metadata-only form, is passed over.
  CHECK(table_version("application/json;as=Table;v=v2;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io") ==
        "v1");
  CHECK_FALSE(table_version("application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io").has_value());
}

TEST_CASE("table: includeObject values") {
  CHECK(parse_include_object("") == IncludeObject::Metadata);
  CHECK(parse_include_object("Metadata") == IncludeObject::Metadata);
  CHECK(parse_include_object("None") == IncludeObject::None);
  CHECK(parse_include_object("Object") == IncludeObject::Object);
  CHECK_FALSE(parse_include_object("object").has_value());
}

TEST_CASE("table: human durations as Kubernetes prints them") {
  using std::chrono::hours;
  using std::chrono::minutes;
  using std::chrono::seconds;
  CHECK(human_duration(seconds(-5)) == "<invalid>");
  CHECK(human_duration(-1500ms) == "0s");
  CHECK(human_duration(seconds(0)) == "0s");
  CHECK(human_duration(seconds(119)) == "119s");
  CHECK(human_duration(seconds(120)) == "2m");
  CHECK(human_duration(seconds(200)) == "3m20s");
  CHECK(human_duration(minutes(10) + seconds(5)) == "10m");
  CHECK(human_duration(minutes(179)) == "179m");
  CHECK(human_duration(hours(3)) == "3h");
  CHECK(human_duration(hours(3) + minutes(5)) == "3h5m");
  CHECK(human_duration(hours(47)) == "47h");
  CHECK(human_duration(hours(51)) == "2d3h");
  CHECK(human_duration(hours(24 * 8)) == "8d");
  CHECK(human_duration(hours(24 * (365 * 2 + 3))) == "2y3d");
  CHECK(human_duration(hours(24 * 365 * 9)) == "9y");
  CHECK(age_of("2025-12-31T23:59:30Z", new_year) == "30s");
  CHECK(age_of("", new_year) == "<unknown>");
  CHECK(age_of("yesterday", new_year) == "<invalid>");
}

TEST_CASE("table: CRD cells are formatted by column type") {
  CHECK(cell_for_value("integer", 3, new_year) == 3);
  CHECK(cell_for_value("integer", 3.7, new_year) == 3);
  CHECK(cell_for_value("integer", "3", new_year).is_null());
  CHECK(cell_for_value("number", 2, new_year) == 2.0);
  CHECK(cell_for_value("boolean", true, new_year) == true);
  CHECK(cell_for_value("boolean", "true", new_year).is_null());
  CHECK(cell_for_value("string", "x", new_year) == "x");
  CHECK(cell_for_value("string", 5, new_year) == "5");
  CHECK(cell_for_value("string", 2.0, new_year) == "2");
  CHECK(cell_for_value("string", 2.5, new_year) == "2.5");
  CHECK(cell_for_value("string", false, new_year) == "false");
  CHECK(cell_for_value("string", nullptr, new_year).is_null());
  CHECK(cell_for_value("date", "2025-12-31T22:00:00Z", new_year) == "120m");
  CHECK(cell_for_value("date", "2025-12-31T20:00:00Z", new_year) == "4h");
  CHECK(cell_for_value("date", "soon", new_year) == "<invalid>");
  CHECK(cell_for_value("date", 5, new_year).is_null());
  CHECK(cell_for_value("object", Json::object(), new_year).is_null());
}

TEST_CASE("table: a CRD's printer columns, rows of a list and the list's metadata") {
  const auto columns = crd_printer_columns(crd_with_columns(), "v1");
  Json list{{"apiVersion", "test.rrgen.dev/v1"},
            {"kind", "GizmoList"},
            {"metadata", {{"resourceVersion", "9"}, {"continue", "token"}, {"remainingItemCount", 4}}},
            {"items", Json::array({gizmo("g1", {{"size", 3}, {"ratio", 1.5}, {"color", "blue"}, {"enabled", true}}),
                                   gizmo("g2", Json::object())})}};
  const Json table = make_table(columns, list, TableOptions{}, new_year);
  CHECK(table["kind"] == "Table");
  CHECK(table["apiVersion"] == "meta.k8s.io/v1");
  CHECK(table["metadata"] == Json{{"resourceVersion", "9"}, {"continue", "token"}, {"remainingItemCount", 4}});
  CHECK(column_names(table) ==
        std::vector<std::string>{"Name", "Size", "Ratio", "Color", "Ready", "Enabled", "Broken", "Created"});
  const Json& defs = table["columnDefinitions"];
  CHECK(defs[0] == Json{{"name", "Name"},
                        {"type", "string"},
                        {"format", "name"},
                        {"description", defs[0]["description"]},
                        {"priority", 0}});
  CHECK(defs[0]["description"].get<std::string>().rfind("Name must be unique within a namespace.", 0) == 0);
  CHECK(defs[1]["description"] == "How big");
  CHECK(defs[1]["type"] == "integer");
  CHECK(defs[2]["priority"] == 1);
  CHECK(defs[2]["description"] == "Custom resource definition column (in JSONPath format): .spec.ratio");
  CHECK(defs[3]["format"] == "text");
  CHECK(defs[7]["type"] == "date");
  REQUIRE(table["rows"].size() == 2);
  CHECK(table["rows"][0]["cells"] == Json::array({"g1", 3, 1.5, "blue", "True", true, nullptr, "5m"}));
  CHECK(table["rows"][1]["cells"] == Json::array({"g2", nullptr, nullptr, nullptr, "True", nullptr, nullptr, "5m"}));
  // includeObject defaults to Metadata: a PartialObjectMetadata of the table's version.
  CHECK(table["rows"][0]["object"] == Json{{"kind", "PartialObjectMetadata"},
                                           {"apiVersion", "meta.k8s.io/v1"},
                                           {"metadata", list["items"][0]["metadata"]}});
}

TEST_CASE("table: a CRD version without printer columns gets Name and Age (date)") {
  const auto columns = crd_printer_columns(gizmo_crd(), "v1");
  const Json table = make_table(columns, gizmo("g1", Json::object()), TableOptions{}, new_year);
  CHECK(column_names(table) == std::vector<std::string>{"Name", "Age"});
  CHECK(table["columnDefinitions"][1]["type"] == "date");
  CHECK(table["rows"][0]["cells"] == Json::array({"g1", "5m"}));
  // One object: its resourceVersion, one row.
  CHECK(table["metadata"] == Json{{"resourceVersion", "7"}});
  // Another version's columns do not apply.
  CHECK(column_names(make_table(crd_printer_columns(crd_with_columns(), "v2"), gizmo("g1", Json::object()), {}, new_year)) ==
        std::vector<std::string>{"Name", "Age"});
}

TEST_CASE("table: includeObject None and Object, v1beta1, and no headers") {
  const auto columns = crd_printer_columns(gizmo_crd(), "v1");
  const Json object = gizmo("g1", {{"size", 1}});
  const Json none = make_table(columns, object, TableOptions{.include = IncludeObject::None}, new_year);
  CHECK(none["rows"][0]["object"].is_null());
  const Json whole = make_table(columns, object, TableOptions{.version = "v1beta1", .include = IncludeObject::Object}, new_year);
  CHECK(whole["apiVersion"] == "meta.k8s.io/v1beta1");
  CHECK(whole["rows"][0]["object"] == object);
  const Json bare = make_table(columns, object, TableOptions{.headers = false}, new_year);
  CHECK_FALSE(bare.contains("columnDefinitions"));
  CHECK(bare["rows"][0]["cells"] == Json::array({"g1", "5m"}));
}

TEST_CASE("table: GET answers a Table when asked, over HTTP") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd_with_columns().dump(),
                  "application/json")->status == 201);
  const std::string gizmos = "/apis/test.rrgen.dev/v1/namespaces/default/gizmos";
  REQUIRE(c->Post(gizmos, new_gizmo("g1", {{"size", 3}, {"color", "red"}}), "application/json")->status == 201);
  // The status subresource: a create drops status, so the condition is written after.
  Json created = t.cluster->get(gizmo_kind(), {"default", "g1"});
  created["status"] = gizmo("g1", {})["status"];
  t.cluster->update_status(gizmo_kind(), created);
  const httplib::Headers table_headers{{"Accept", kubectl_accept}};

  const Json list = body_of(c->Get(gizmos, table_headers));
  CHECK(list["kind"] == "Table");
  CHECK(column_names(list).at(4) == "Ready");
  REQUIRE(list["rows"].size() == 1);
  CHECK(list["rows"][0]["cells"][0] == "g1");
  CHECK(list["rows"][0]["cells"][1] == 3);
  CHECK(list["rows"][0]["cells"][4] == "True");
  CHECK(list["rows"][0]["object"]["kind"] == "PartialObjectMetadata");
  CHECK(list["metadata"]["resourceVersion"] == t.cluster->resource_version());

  const Json one = body_of(c->Get(gizmos + "/g1?includeObject=Object", table_headers));
  CHECK(one["rows"].size() == 1);
  CHECK(one["rows"][0]["object"]["spec"]["color"] == "red");
  CHECK(body_of(c->Get(gizmos + "/g1?includeObject=Everything", table_headers))["code"] == 400);

  // Built-in kinds; plain JSON without the Accept header.
  const Json namespaces = body_of(c->Get("/api/v1/namespaces", table_headers));
  CHECK(column_names(namespaces) == std::vector<std::string>{"Name", "Status", "Age"});
  CHECK(body_of(c->Get(gizmos))["kind"] == "GizmoList");
  CHECK(body_of(c->Get(gizmos + "/g1", {{"Accept", "application/json"}}))["kind"] == "Gizmo");
}

TEST_CASE("table: a watch asked for as a Table sends one-row Tables, headers first only") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd_with_columns().dump(),
                  "application/json")->status == 201);
  const std::string gizmos = "/apis/test.rrgen.dev/v1/namespaces/default/gizmos";
  REQUIRE(c->Post(gizmos, new_gizmo("g1", {{"size", 3}}), "application/json")->status == 201);
  REQUIRE(c->Post(gizmos, new_gizmo("g2", {{"size", 4}}), "application/json")->status == 201);
  // WatchReader sends no Accept header: read the stream with one here.
  const std::vector<Json> events = watch_events(t.server->port(), gizmos + "?watch=1&timeoutSeconds=1", kubectl_accept);
  REQUIRE(events.size() == 2);
  CHECK(events[0]["type"] == "ADDED");
  CHECK(events[0]["object"]["kind"] == "Table");
  CHECK(events[0]["object"].contains("columnDefinitions"));
  CHECK_FALSE(events[1]["object"].contains("columnDefinitions"));
  CHECK(events[1]["object"]["rows"][0]["cells"][1] == 4);
}
