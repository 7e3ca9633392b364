// Decoding as the API server decodes: unknown members and wrong JSON types of built-in kinds
// against the 1.35 facts (schemas/kubernetes-1.35/), and duplicated keys in JSON and YAML text,
// each with the text the API server's decoders give (sigs.k8s.io/json, yaml.v2, resource.Quantity).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "facts.hpp"
#include "rr/validation/decoding.hpp"

using rr::Json;
using namespace rr::validation;

namespace {

const Json& definitions() { return rr::validation::test::facts_definitions(); }

GoDecoding decode_pod(Json& pod) { return decode_as_go(pod, definitions(), "io.k8s.api.core.v1.Pod"); }

Json pod_with_spec(Json spec) {
  return Json{{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "p"}}}, {"spec", std::move(spec)}};
}

}  // namespace

TEST_CASE("a kind's definition is found by its group, version and kind") {
  CHECK(kind_definition(definitions(), "", "v1", "Pod") == "io.k8s.api.core.v1.Pod");
  CHECK(kind_definition(definitions(), "apps", "v1", "Deployment") == "io.k8s.api.apps.v1.Deployment");
  CHECK(!kind_definition(definitions(), "apps", "v1", "Pod"));
}

TEST_CASE("unknown members of a built-in kind are named by their path and pruned") {
  Json pod = pod_with_spec(
      {{"contaners", Json::array()}, {"containers", {{{"name", "c"}, {"image", "i"}, {"imagee", "x"}}}}});
  pod["metadata"]["labelz"] = {{"a", "b"}};
  const GoDecoding out = decode_pod(pod);
  CHECK(out.error.empty());
  CHECK(out.unknown_fields ==
        std::vector<std::string>{"metadata.labelz", "spec.containers[0].imagee", "spec.contaners"});
  CHECK(!pod["spec"].contains("contaners"));
  CHECK(!pod["spec"]["containers"][0].contains("imagee"));
  CHECK(pod["spec"]["containers"][0]["image"] == "i");
  CHECK(!pod["metadata"].contains("labelz"));
}

TEST_CASE("maps, quantities and free-form places take any member") {
  Json pod = pod_with_spec(
      {{"containers",
        {{{"name", "c"}, {"image", "i"}, {"resources", {{"limits", {{"cpu", "1"}, {"example.com/gpu", 2}}}}}}}},
       {"nodeSelector", {{"anything", "goes"}}}});
  pod["metadata"]["annotations"] = {{"x", "y"}};
  CHECK(decode_pod(pod).unknown_fields.empty());
  Json revision = {{"apiVersion", "apps/v1"},
                   {"kind", "ControllerRevision"},
                   {"metadata", {{"name", "r"}}},
                   {"revision", 1},
                   {"data", {{"spec", {{"whatever", {{"deep", 1}}}}}}}};
  const GoDecoding out = decode_as_go(revision, definitions(), "io.k8s.api.apps.v1.ControllerRevision");
  CHECK(out.unknown_fields.empty());
  CHECK(out.error.empty());
  CHECK(revision["data"]["spec"]["whatever"]["deep"] == 1);  // RawExtension: kept as sent
}

TEST_CASE("a value of the wrong JSON type fails as Go's UnmarshalTypeError words it") {
  Json map_for_list = pod_with_spec({{"containers", {{"name", "c"}}}});
  CHECK(decode_pod(map_for_list).error ==
        "json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container");
  Json string_for_int = pod_with_spec({{"containers", Json::array()}, {"terminationGracePeriodSeconds", "30"}});
  CHECK(decode_pod(string_for_int).error ==
        "json: cannot unmarshal string into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64");
  Json number_in_list = pod_with_spec(
      {{"containers", {{{"name", "c"}, {"image", "i"}, {"ports", {{{"containerPort", 1.5}}}}}}}});
  CHECK(decode_pod(number_in_list).error ==
        "json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of "
        "type int32");
  Json label_number = pod_with_spec({{"containers", Json::array()}});
  label_number["metadata"]["labels"] = {{"a", 1}};
  CHECK(decode_pod(label_number).error ==
        "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string");
}

TEST_CASE("a type error is reported alone, before unknown members") {
  Json pod = pod_with_spec({{"containers", "c"}, {"contaners", 1}});
  const GoDecoding out = decode_pod(pod);
  CHECK(out.error ==
        "json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container");
  CHECK(out.unknown_fields.empty());
}

TEST_CASE("quantities and int-or-strings fail with their own decoders' text") {
  Json bad_cpu = pod_with_spec(
      {{"containers", {{{"name", "c"}, {"image", "i"}, {"resources", {{"limits", {{"cpu", "abc"}}}}}}}}});
  CHECK(decode_pod(bad_cpu).error ==
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  Json good_cpu = pod_with_spec(
      {{"containers",
        {{{"name", "c"}, {"image", "i"}, {"resources", {{"limits", {{"cpu", " 500m "}, {"memory", 1024}}}}}}}}});
  CHECK(decode_pod(good_cpu).error.empty());
  Json port = pod_with_spec(
      {{"containers", {{{"name", "c"}, {"image", "i"}, {"readinessProbe", {{"httpGet", {{"port", {{"a", 1}}}}}}}}}}});
  CHECK(decode_pod(port).error == "json: cannot unmarshal object into Go value of type int32");
  Json named_port = pod_with_spec(
      {{"containers", {{{"name", "c"}, {"image", "i"}, {"readinessProbe", {{"httpGet", {{"port", "http"}}}}}}}}});
  CHECK(decode_pod(named_port).error.empty());
}

TEST_CASE("times and base64 bytes fail with time.Parse's and encoding/base64's text") {
  Json pod = pod_with_spec({{"containers", {{{"name", "c"}, {"image", "i"}}}}});
  pod["metadata"]["creationTimestamp"] = "yesterday";
  CHECK(decode_pod(pod).error ==
        R"(parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006")");
  pod["metadata"]["creationTimestamp"] = "2024-05-01T10:00:00Z";
  CHECK(decode_pod(pod).error.empty());
  // A Lease's renewTime is a MicroTime: six fraction digits are required.
  Json lease = {{"apiVersion", "coordination.k8s.io/v1"},
                {"kind", "Lease"},
                {"metadata", {{"name", "l"}}},
                {"spec", {{"renewTime", "2024-05-01T10:00:00Z"}}}};
  CHECK(decode_as_go(lease, definitions(), "io.k8s.api.coordination.v1.Lease").error ==
        R"(parsing time "2024-05-01T10:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000")");
  // Secret data is []byte: the first bad value is saved, as a type error is, and decoding goes on.
  Json secret = {{"apiVersion", "v1"},
                 {"kind", "Secret"},
                 {"metadata", {{"name", "s"}}},
                 {"data", {{"a", "c2VjcmV0"}, {"b", "<not base64>"}}},
                 {"extra", 1}};
  const GoDecoding out = decode_as_go(secret, definitions(), "io.k8s.api.core.v1.Secret");
  CHECK(out.error == "illegal base64 data at input byte 0");
  CHECK(out.unknown_fields.empty());  // the failure is reported alone
}

TEST_CASE("null is accepted anywhere, as Go leaves the value as it is") {
  Json pod = pod_with_spec({{"containers", nullptr}, {"terminationGracePeriodSeconds", nullptr}});
  const GoDecoding out = decode_pod(pod);
  CHECK(out.error.empty());
  CHECK(out.unknown_fields.empty());
}

TEST_CASE("duplicated JSON members are named by their path") {
  CHECK(duplicate_json_fields(R"({"a":1,"b":{"c":1,"c":2},"a":3})") ==
        std::vector<std::string>{R"(duplicate field "b.c")", R"(duplicate field "a")"});
  CHECK(duplicate_json_fields(R"({"spec":{"containers":[{"name":"a"},{"name":"b","name":"c"}]}})") ==
        std::vector<std::string>{R"(duplicate field "spec.containers[1].name")"});
  CHECK(duplicate_json_fields(R"({"metadata":{"name":"a","name":"a","name":"b"}})") ==
        std::vector<std::string>{R"(duplicate field "metadata.name")"});
  CHECK(duplicate_json_fields(R"({"a\u0062":1,"ab":2})") == std::vector<std::string>{R"(duplicate field "ab")"});
  CHECK(duplicate_json_fields(R"({"a":1,"b":2,"c":[1,{"a":1}],"d":{}})").empty());
  CHECK(duplicate_json_fields(R"({"a":1,"a":)").empty());  // not JSON: the parser's to report
  CHECK(duplicate_json_fields("[1, 2, [3]]").empty());
  CHECK(duplicate_json_fields(std::string(20000, '[')).empty());
}

TEST_CASE("duplicated YAML keys fail as yaml.v2's strict decoder says, at the line of the value") {
  CHECK(duplicate_yaml_keys("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\n") ==
        "yaml: unmarshal errors:\n  line 5: key \"name\" already set in map");
  CHECK(duplicate_yaml_keys("a: 1\nb:\n  - x: 1\n    x: 2\na: 3\n") ==
        "yaml: unmarshal errors:\n  line 4: key \"x\" already set in map\n  line 5: key \"a\" already set in map");
  CHECK(duplicate_yaml_keys("{a: 1, b: {c: 1}, 1: x, 1: y}") ==
        "yaml: unmarshal errors:\n  line 1: key 1 already set in map");
  CHECK(!duplicate_yaml_keys("a: 1\nb: {a: 1}\nc: [a, a]\n"));
  CHECK(!duplicate_yaml_keys("a: [\n"));
  CHECK(yaml_error_warnings("yaml: unmarshal errors:\n  line 4: key \"x\" already set in map\n  line 5: key \"a\" "
                            "already set in map") ==
        std::vector<std::string>{"line 4: key \"x\" already set in map", "line 5: key \"a\" already set in map"});
}

TEST_CASE("the API server's 400 texts") {
  CHECK(
      cannot_be_handled("Pod", "v1",
                        strict_decoding_error({R"(unknown field "spec.a")", R"(unknown field "spec.b")"})) ==
      R"(Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.a", unknown field "spec.b")");
}

TEST_CASE("order_as_written: member paths in the order the JSON text writes them, depth first") {
  std::vector<std::string> fields{"metadata.a", "spec.containers[0].imagee", "metadata.b", "zeta", "gone"};
  rr::validation::order_as_written(
      fields, R"({"zeta":1,"metadata":{"b":1,"a":2},"spec":{"containers":[{"imagee":"x","name":"c"}]}})");
  CHECK(fields == std::vector<std::string>{"zeta", "metadata.b", "metadata.a", "spec.containers[0].imagee", "gone"});
  std::vector<std::string> unchanged{"b", "a"};
  rr::validation::order_as_written(unchanged, "not json");
  CHECK(unchanged == std::vector<std::string>{"b", "a"});
}
