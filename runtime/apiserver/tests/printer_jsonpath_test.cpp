#include <doctest/doctest.h>

#include "printer_jsonpath.hpp"

using rr::Json;
using rr::apiserver_detail::PrinterJsonPath;

namespace {

const Json object = Json::parse(R"({
  "metadata": {"name": "g1", "labels": {"app.kubernetes.io/name": "web"}},
  "spec": {"size": 3, "ratio": 1.5, "tags": ["a", "b", "c"], "enabled": true},
  "status": {"conditions": [
    {"type": "Synced", "status": "False", "observedGeneration": 1},
    {"type": "Ready", "status": "True", "reason": "Done", "observedGeneration": 2, "detail": {"kind": "x"}}
  ]}
})");

// The values a path finds, as a JSON array; null when the path does not parse or fails.
Json values(std::string_view expression, const Json& document = object) {
  const auto path = PrinterJsonPath::parse(expression);
  if (!path) return nullptr;
  const auto found = path->find(document);
  if (!found) return nullptr;
  Json out = Json::array();
  for (const Json* value : *found) out.push_back(*value);
  return out;
}

}  // namespace

TEST_CASE("printer JSONPath: dotted fields, bracketed names and the root") {
  CHECK(values(".metadata.name") == Json::array({"g1"}));
  CHECK(values(" .spec.size ") == Json::array({3}));
  CHECK(values("$.spec.enabled") == Json::array({true}));
  CHECK(values(".metadata.labels['app.kubernetes.io/name']") == Json::array({"web"}));
  CHECK(values(R"(.metadata["labels"]["app.kubernetes.io/name"])") == Json::array({"web"}));
  CHECK(values(".") == Json::array({object}));
  CHECK(values("$") == Json::array({object}));
}

TEST_CASE("printer JSONPath: a path that matches nothing finds no value") {
  CHECK(values(".spec.missing") == Json::array());
  CHECK(values(".spec.size.deeper") == Json::array());
  CHECK(values(".spec.tags.first") == Json::array());
  CHECK(values(".spec.tags[3]") == Json::array());
  CHECK(values(".spec[0]") == Json::array());
}

TEST_CASE("printer JSONPath: indexes and wildcards") {
  CHECK(values(".spec.tags[0]") == Json::array({"a"}));
  CHECK(values(".spec.tags[ 2 ]") == Json::array({"c"}));
  CHECK(values(".spec.tags[-1]") == Json::array({"c"}));
  CHECK(values(".spec.tags[-4]") == Json::array());
  CHECK(values(".spec.tags[*]") == Json::array({"a", "b", "c"}));
  CHECK(values(".status.conditions[*].type") == Json::array({"Synced", "Ready"}));
  CHECK(values(".status.conditions[1].reason") == Json::array({"Done"}));
  CHECK(values(".metadata.labels.*") == Json::array({"web"}));
}

TEST_CASE("printer JSONPath: filters") {
  CHECK(values(R"(.status.conditions[?(@.type=="Ready")].status)") == Json::array({"True"}));
  CHECK(values(R"(.status.conditions[?(@.type == 'Synced')].status)") == Json::array({"False"}));
  CHECK(values(R"(.status.conditions[?(@.type!="Ready")].type)") == Json::array({"Synced"}));
  CHECK(values(R"(.status.conditions[?(@.detail.kind=="x")].type)") == Json::array({"Ready"}));
  CHECK(values(R"(.status.conditions[?(@['detail']['kind']=="x")].type)") == Json::array({"Ready"}));
  CHECK(values(R"(.status.conditions[?(@.observedGeneration==2)].type)") == Json::array({"Ready"}));
  CHECK(values(R"(.status.conditions[?(@.observedGeneration==2.0)].type)") == Json::array({"Ready"}));
  CHECK(values(R"(.status.conditions[?(@.reason)].type)") == Json::array({"Ready"}));
  CHECK(values(R"(.status.conditions[?(@.type=="Gone")].status)") == Json::array());
  // Elements without the field are skipped; a filter on an object finds nothing.
  CHECK(values(R"(.status.conditions[?(@.reason=="Done")].type)") == Json::array({"Ready"}));
  CHECK(values(R"(.spec[?(@.a=="b")])") == Json::array());
  CHECK(values(R"(.spec.tags[?(@=="b")])") == Json::array({"b"}));
}

TEST_CASE("printer JSONPath: comparing values of different types fails the evaluation, as upstream") {
  CHECK(values(R"(.status.conditions[?(@.observedGeneration=="2")].type)").is_null());
  CHECK(values(R"(.status.conditions[?(@.detail=="x")].type)").is_null());
  CHECK(values(R"(.status.conditions[?(@.type==true)].type)").is_null());
}

TEST_CASE("printer JSONPath: syntax outside the subset is refused") {
  for (const char* expression :
       {"", "   ", "spec.size", ".spec..size", "..size", ".spec.", ".spec.tags[0:2]", ".spec.tags[0,1]", ".spec.tags[",
        ".spec.tags[x]", ".spec.tags[1", ".spec['size", R"(.a[?(@.b<"c")])", R"(.a[?(@.b=="c"])", R"(.a[?(.b=="c")])",
        R"(.a[?(@.b==c)])", ".a[?(@.b==)]", "{.spec.size}", ".spec.size extra", ".a[?(@[*])]", "$$", ".a[-]"}) {
    INFO(expression);
    CHECK_FALSE(PrinterJsonPath::parse(expression).has_value());
  }
}
