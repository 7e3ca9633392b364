// ValidateObjectMeta on create, each case asserting the API server's full text (the cases follow
// apimachinery's objectmeta_test.go).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "messages.hpp"
#include "rr/validation/object_meta.hpp"

using namespace rr::validation;
using rr::Json;
using rr::validation::test::kDNS1035;
using rr::validation::test::kKeyName;
using rr::validation::test::kLabelValue;
using rr::validation::test::kSubdomain;

namespace {

std::vector<std::string> meta_texts(const ErrorList& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs) out.push_back(e.to_string());
  return out;
}

std::vector<std::string> create(const Json& meta, bool namespaced = true, NameRule rule = NameRule::DNSSubdomain) {
  return meta_texts(validate_object_meta(meta, namespaced, rule));
}

using Texts = std::vector<std::string>;

}  // namespace

TEST_CASE("a valid namespaced object has no findings") {
  CHECK(create(Json::parse(R"({"name":"web-0","namespace":"default","labels":{"app.kubernetes.io/name":"web"},
      "annotations":{"Example.com/Note":"x"},"finalizers":["example.com/cleanup"],
      "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"u1","controller":true}],
      "managedFields":[{"manager":"kubectl","operation":"Apply","fieldsType":"FieldsV1"}]})"))
            .empty());
}

TEST_CASE("metadata.name: the resource's rule, with every message that applies") {
  CHECK(create({{"name", "Foo"}, {"namespace", "ns"}}) ==
        Texts{"metadata.name: Invalid value: \"Foo\": " + kSubdomain});
  const std::string long_upper(300, 'A');
  CHECK(create({{"name", long_upper}, {"namespace", "ns"}}) ==
        Texts{"metadata.name: Invalid value: \"" + long_upper + "\": must be no more than 253 characters",
              "metadata.name: Invalid value: \"" + long_upper + "\": " + kSubdomain});
  // A Service is an RFC 1035 label: a 64-character child name passes as a subdomain and fails here.
  const std::string child = std::string(60, 'p') + "-svc";
  CHECK(create({{"name", child}, {"namespace", "ns"}}).empty());
  CHECK(create({{"name", child}, {"namespace", "ns"}}, true, NameRule::DNS1035Label) ==
        Texts{"metadata.name: Invalid value: \"" + child + "\": must be no more than 63 characters"});
  CHECK(create({{"name", "1abc"}, {"namespace", "ns"}}, true, NameRule::DNS1035Label) ==
        Texts{"metadata.name: Invalid value: \"1abc\": " + kDNS1035});
}

TEST_CASE("metadata.name or generateName is required; generateName is checked as a prefix") {
  CHECK(create({{"namespace", "ns"}}) == Texts{"metadata.name: Required value: name or generateName is required"});
  CHECK(create({{"generateName", "web-"}, {"name", "web-x7k2p"}, {"namespace", "ns"}}).empty());
  CHECK(create({{"generateName", "Web-"}, {"name", "web-x7k2p"}, {"namespace", "ns"}}) ==
        Texts{"metadata.generateName: Invalid value: \"Web-\": " + kSubdomain});
  // generateName alone (not yet generated) still needs the name.
  CHECK(create({{"generateName", "web-"}, {"namespace", "ns"}}) ==
        Texts{"metadata.name: Required value: name or generateName is required"});
}

TEST_CASE("metadata.namespace: required, a DNS label, or forbidden by scope") {
  CHECK(create({{"name", "a"}}) == Texts{"metadata.namespace: Required value"});
  CHECK(create({{"name", "a"}, {"namespace", "My.Ns"}}) ==
        Texts{"metadata.namespace: Invalid value: \"My.Ns\": " + rr::validation::test::kLabel});
  const std::string long_ns(64, 'n');
  CHECK(create({{"name", "a"}, {"namespace", long_ns}}) ==
        Texts{"metadata.namespace: Invalid value: \"" + long_ns + "\": must be no more than 63 characters"});
  CHECK(create({{"name", "a"}, {"namespace", "ns"}}, false) ==
        Texts{"metadata.namespace: Forbidden: not allowed on this type"});
}

TEST_CASE("metadata.generation must not be negative") {
  CHECK(create({{"name", "a"}, {"namespace", "ns"}, {"generation", -1}}) ==
        Texts{"metadata.generation: Invalid value: -1: must be greater than or equal to 0"});
}

TEST_CASE("metadata.labels: keys are qualified names, values label values; the path names the map") {
  CHECK(create({{"name", "a"}, {"namespace", "ns"}, {"labels", {{"app", "has space"}}}}) ==
        Texts{"metadata.labels: Invalid value: \"has space\": " + kLabelValue});
  CHECK(create({{"name", "a"}, {"namespace", "ns"}, {"labels", {{"-bad", "ok"}}}}) ==
        Texts{"metadata.labels: Invalid value: \"-bad\": " + kKeyName});
  const std::string long_value(64, 'v');
  CHECK(create({{"name", "a"}, {"namespace", "ns"}, {"labels", {{"a", long_value}}}}) ==
        Texts{"metadata.labels: Invalid value: \"" + long_value + "\": must be no more than 63 bytes"});
}

TEST_CASE("metadata.annotations: keys case-insensitively qualified, 256 KiB in all") {
  CHECK(create({{"name", "a"}, {"namespace", "ns"}, {"annotations", {{"Example.COM/Upper", "x"}}}}).empty());
  CHECK(create({{"name", "a"}, {"namespace", "ns"}, {"annotations", {{"a b", "x"}}}}) ==
        Texts{"metadata.annotations: Invalid value: \"a b\": " + kKeyName});
  // Exactly at the limit passes; one byte more fails (key bytes count too).
  const std::string at_limit(kTotalAnnotationSizeLimitB - 1, 'x');
  CHECK(create({{"name", "a"}, {"namespace", "ns"}, {"annotations", {{"k", at_limit}}}}).empty());
  CHECK(create({{"name", "a"}, {"namespace", "ns"}, {"annotations", {{"k", at_limit + "x"}}}}) ==
        Texts{"metadata.annotations: Too long: may not be more than 262144 bytes"});
}

TEST_CASE("metadata.ownerReferences: required members, one controller, no Event owner") {
  CHECK(create(Json::parse(R"({"name":"a","namespace":"ns","ownerReferences":[{}]})")) ==
        Texts{"metadata.ownerReferences.apiVersion: Invalid value: \"\": version must not be empty",
              "metadata.ownerReferences.kind: Invalid value: \"\": must not be empty",
              "metadata.ownerReferences.name: Invalid value: \"\": must not be empty",
              "metadata.ownerReferences.uid: Invalid value: \"\": must not be empty"});
  CHECK(create(Json::parse(R"({"name":"a","namespace":"ns","ownerReferences":[
      {"apiVersion":"apps/","kind":"K","name":"n","uid":"u"}]})")) ==
        Texts{"metadata.ownerReferences.apiVersion: Invalid value: \"apps/\": version must not be empty"});
  CHECK(
      create(Json::parse(R"({"name":"a","namespace":"ns","ownerReferences":[
      {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}]})")) ==
      Texts{
          R"(metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner)"});
  CHECK(
      create(Json::parse(R"({"name":"a","namespace":"ns","ownerReferences":[
      {"apiVersion":"apps/v1","kind":"ReplicaSet","name":"r","uid":"1","controller":true},
      {"apiVersion":"apps/v1","kind":"Deployment","name":"d","uid":"2","controller":true,"blockOwnerDeletion":true}]})")) ==
      Texts{
          R"(metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"r","uid":"1","controller":true},{"apiVersion":"apps/v1","kind":"Deployment","name":"d","uid":"2","controller":true,"blockOwnerDeletion":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/r and Deployment/d)"});
}

TEST_CASE("metadata.finalizers: qualified names, and not orphan with foregroundDeletion") {
  CHECK(create({{"name", "a"}, {"namespace", "ns"}, {"finalizers", {"kubernetes", "example.com/x"}}}).empty());
  CHECK(create({{"name", "a"}, {"namespace", "ns"}, {"finalizers", Json::array({"a/b/c"})}}).size() == 1);
  CHECK(
      create({{"name", "a"}, {"namespace", "ns"}, {"finalizers", {"orphan", "foregroundDeletion"}}}) ==
      Texts{
          R"(metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set)"});
}

TEST_CASE("the built-in kinds' finalizer names: standard or fully qualified") {
  CHECK(meta_texts(validate_kube_finalizer_names(Json{"kubernetes", "orphan", "example.com/x"}, "metadata.finalizers"))
            .empty());
  CHECK(meta_texts(validate_kube_finalizer_names(Json{"example.com/x", "cleanup"}, "metadata.finalizers")) ==
        Texts{"metadata.finalizers[1]: Invalid value: \"cleanup\": name is neither a standard finalizer name nor is it "
              "fully qualified"});
}

TEST_CASE("a custom resource's new finalizers get warnings, not errors") {
  const Json added{"cleanup", "example.com", "example.com/ok", "kubernetes"};
  CHECK(custom_resource_finalizer_warnings(added, nullptr) ==
        std::vector<std::string>{
            "metadata.finalizers: \"cleanup\": prefer a domain-qualified finalizer name to avoid accidental conflicts "
            "with other finalizer writers",
            "metadata.finalizers: \"example.com\": prefer a domain-qualified finalizer name including a path (/) to "
            "avoid accidental conflicts with other finalizer writers"});
  const Json old{"cleanup", "example.com"};
  CHECK(custom_resource_finalizer_warnings(added, &old).empty());
}

TEST_CASE("metadata.managedFields: operation, fieldsType, manager") {
  CHECK(create(Json::parse(R"({"name":"a","namespace":"ns","managedFields":[
      {"manager":"kube\u0007ctl","operation":"Patch","fieldsType":"FieldsV2"}]})")) ==
        Texts{"metadata.managedFields[0].operation: Invalid value: \"Patch\": must be `Apply` or `Update`",
              "metadata.managedFields[0].fieldsType: Invalid value: \"FieldsV2\": must be `FieldsV1`",
              "metadata.managedFields[0].manager: Invalid value: \"kube\\actl\": invalid character U+0007 (at position "
              "4)"});
  const std::string manager(129, 'm');
  CHECK(create(Json::parse(R"({"name":"a","namespace":"ns","managedFields":[{"manager":")" + manager +
                           R"(","operation":"Update"}]})")) ==
        Texts{"metadata.managedFields[0].manager: Too long: may not be more than 128 bytes"});
}

TEST_CASE("members of the wrong JSON type are the decoder's business: no findings, no crash") {
  CHECK(create(Json::parse(R"({"name":"a","namespace":"ns","labels":[1],"annotations":"x","ownerReferences":{},
      "finalizers":[1,null],"managedFields":[7],"generation":"x"})"))
            .empty());
  CHECK(create(Json()) ==
        Texts{"metadata.name: Required value: name or generateName is required", "metadata.namespace: Required value"});
}

TEST_CASE("upstream's annotation cases (objectmeta_test.go TestValidateAnnotations)") {
  for (const char* key :
       {"simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple", "now-with-dashes/simple",
        "now-with-dashes/now-with-dashes", "now.with.dots/simple", "now-with.dashes-and.dots/simple",
        "1-num.2-num/3-num", "1234/5678", "1.2.3.4/5678", "UpperCase123"}) {
    CHECK_MESSAGE(meta_texts(validate_annotations(Json::object({{key, "bar"}}), "metadata.annotations")).empty(), key);
  }
  const std::int64_t half = kTotalAnnotationSizeLimitB / 2;
  const Json halves = Json::object({{"a", std::string(static_cast<std::size_t>(half - 1), 'b')},
                                    {"c", std::string(static_cast<std::size_t>(half - 1), 'd')}});
  CHECK(meta_texts(validate_annotations(halves, "metadata.annotations")).empty());
  const Json over = Json::object({{"a", std::string(static_cast<std::size_t>(half), 'b')},
                                  {"c", std::string(static_cast<std::size_t>(half), 'd')}});
  CHECK(meta_texts(validate_annotations(over, "metadata.annotations")) ==
        Texts{"metadata.annotations: Too long: may not be more than 262144 bytes"});
  for (const char* key : {"nospecialchars^=@", "cantendwithadash-", "only/one/slash"}) {
    CHECK_MESSAGE(validate_annotations(Json::object({{key, "bar"}}), "metadata.annotations").size() == 1, key);
  }
  CHECK(meta_texts(validate_annotations(Json::object({{std::string(254, 'a'), "bar"}}), "metadata.annotations")) ==
        Texts{"metadata.annotations: Invalid value: \"" + std::string(254, 'a') +
              "\": name part must be no more than 63 bytes"});
}
