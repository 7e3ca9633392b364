#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/core/codec.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/core/meta.hpp"
#include "rr/core/validator.hpp"

namespace {

// decode -> encode must give the same JSON (as a DOM: member order may differ).
template <class T>
void check_lossless(const std::string& doc) {
  CAPTURE(doc);
  const T v = rr::decode_text<T>(doc);
  const std::string out = rr::encode_text(v);
  CHECK(rr::Json::parse(out) == rr::Json::parse(doc));
  CHECK(rr::decode_text<T>(out) == v);
}

std::vector<std::string> messages(const rr::Condition& c) {
  rr::Validator v("status.conditions[0]");
  validate(v, c);
  std::vector<std::string> m;
  for (const auto& e : v.errors()) m.push_back(e.message);
  return m;
}

}  // namespace

TEST_CASE("Condition: lossless, required members, validation") {
  const std::string with_gen =
      R"({"type":"Ready","status":"True","observedGeneration":3,"lastTransitionTime":"2024-05-01T12:00:00Z","reason":"AllGood","message":"ok"})";
  const std::string without_gen =
      R"({"type":"Ready","status":"False","lastTransitionTime":"2024-05-01T12:00:00Z","reason":"Failing","message":""})";
  check_lossless<rr::Condition>(with_gen);
  check_lossless<rr::Condition>(without_gen);
  CHECK(rr::encode_text(rr::decode_text<rr::Condition>(with_gen)) == with_gen);  // Go member order
  CHECK(rr::encode_text(rr::decode_text<rr::Condition>(without_gen)) == without_gen);
  check_lossless<rr::Condition>(
      R"({"message":"m","reason":"R","lastTransitionTime":"2024-05-01T12:00:00Z","status":"Unknown","type":"a.b/C","extra":[1]})");

  const auto c = rr::decode_text<rr::Condition>(with_gen);
  CHECK(c.observed_generation == 3);
  CHECK(c.last_transition_time.valid());
  CHECK(messages(c).empty());
  const auto null_gen = rr::decode_text<rr::Condition>(
      R"({"type":"Ready","status":"True","observedGeneration":null,"lastTransitionTime":"2024-05-01T12:00:00Z","reason":"R","message":""})");
  CHECK_FALSE(null_gen.observed_generation.has_value());

  try {
    (void)rr::decode_text<std::vector<rr::Condition>>(
        R"([)" + with_gen + R"(,{"type":"Ready","status":"True","lastTransitionTime":"2024-05-01T12:00:00Z","message":""}])");
    FAIL("no error");
  } catch (const rr::DecodeError& e) {
    CHECK(e.pointer() == "/1/reason");
  }
  CHECK_THROWS_AS(rr::decode_text<rr::Condition>(R"({"type":null,"status":"True","lastTransitionTime":"2024-05-01T12:00:00Z","reason":"R","message":""})"),
                  rr::DecodeError);

  rr::Condition bad;
  bad.type = "Not Valid!";
  bad.status = "Maybe";
  bad.observed_generation = -1;
  bad.last_transition_time = rr::Time("yesterday");
  bad.reason = "";
  bad.message = std::string(32769, 'm');
  const auto m = messages(bad);
  const std::vector<std::string> expected = {
      R"(status.conditions[0].type: Invalid value: "Not Valid!": status.conditions[0].type in body should match '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$')",
      R"(status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown")",
      R"(status.conditions[0].observedGeneration: Invalid value: -1: status.conditions[0].observedGeneration in body should be greater than or equal to 0)",
      R"(status.conditions[0].lastTransitionTime: Invalid value: "yesterday": status.conditions[0].lastTransitionTime in body must be of type date-time: "yesterday")",
      R"(status.conditions[0].reason: Invalid value: "": status.conditions[0].reason in body should be at least 1 chars long)",
      R"(status.conditions[0].reason: Invalid value: "": status.conditions[0].reason in body should match '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$')",
      R"(status.conditions[0].message: Too long: may not be longer than 32768)",
  };
  CHECK(m == expected);
  rr::Condition long_type = c;
  long_type.type = std::string(317, 'a');
  CHECK(messages(long_type) == std::vector<std::string>{"status.conditions[0].type: Too long: may not be longer than 316"});
}

TEST_CASE("LabelSelector and requirements") {
  check_lossless<rr::LabelSelector>(R"({})");
  check_lossless<rr::LabelSelector>(R"({"matchLabels":{"app":"web","tier":"front"}})");
  check_lossless<rr::LabelSelector>(R"({"matchLabels":{},"matchExpressions":[]})");
  check_lossless<rr::LabelSelector>(
      R"({"matchExpressions":[{"key":"env","operator":"In","values":["a","b"]},{"key":"x","operator":"Exists"}],"unknown":1})");
  const auto s = rr::decode_text<rr::LabelSelector>(R"({"matchLabels":{},"matchExpressions":null})");
  CHECK(s.match_labels.has_value());  // absent != empty
  CHECK(s.match_labels->empty());
  CHECK_FALSE(s.match_expressions.has_value());
  try {
    (void)rr::decode_text<rr::LabelSelector>(R"({"matchExpressions":[{"key":"env"}]})");
    FAIL("no error");
  } catch (const rr::DecodeError& e) {
    CHECK(e.pointer() == "/matchExpressions/0/operator");
  }
}

TEST_CASE("ObjectReference, LocalObjectReference, TypeMeta, ListMeta") {
  check_lossless<rr::ObjectReference>(
      R"({"kind":"Pod","namespace":"ns","name":"p","uid":"u","apiVersion":"v1","resourceVersion":"1","fieldPath":"spec.containers{a}"})");
  check_lossless<rr::ObjectReference>(R"({"name":"","extra":true})");
  CHECK(rr::encode_text(rr::decode_text<rr::ObjectReference>(R"({"name":null})")) == "{}");
  check_lossless<rr::LocalObjectReference>(R"({"name":"secret"})");
  check_lossless<rr::LocalObjectReference>(R"({})");
  check_lossless<rr::TypeMeta>(R"({"apiVersion":"v1","kind":"Pod"})");
  check_lossless<rr::ListMeta>(R"({"resourceVersion":"12","continue":"tok","remainingItemCount":5})");
  CHECK(rr::decode_text<rr::ListMeta>(R"({"continue":"tok"})").continue_ == "tok");
}

TEST_CASE("ObjectMeta: Go metav1 semantics") {
  const std::string doc = R"({
    "name": "w", "generateName": "w-", "namespace": "default", "uid": "0b5c", "resourceVersion": "42",
    "generation": 3, "creationTimestamp": "2024-05-01T12:00:00Z", "deletionTimestamp": "2024-05-02T00:00:00Z",
    "deletionGracePeriodSeconds": 30,
    "labels": {"app": "web"}, "annotations": {"a/b": "c"},
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "d", "uid": "1", "controller": true,
                         "blockOwnerDeletion": false, "futureField": "x"}],
    "finalizers": ["example.com/cleanup"],
    "managedFields": [{"manager": "kubectl", "operation": "Apply", "apiVersion": "v1", "time": "2024-05-01T12:00:00Z",
                       "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}}}}],
    "newMetadataField": {"k": [1, 2]}
  })";
  check_lossless<rr::ObjectMeta>(doc);
  const auto m = rr::decode_text<rr::ObjectMeta>(doc);
  CHECK(m.namespace_ == "default");
  CHECK(m.generation == 3);
  CHECK(m.labels.at("app") == "web");
  REQUIRE(m.owner_references.size() == 1);
  CHECK(m.owner_references[0].controller == true);
  CHECK(m.owner_references[0].block_owner_deletion == false);
  CHECK(*m.owner_references[0].unknown_fields.find("futureField") == R"("x")");
  REQUIRE(m.managed_fields.size() == 1);
  CHECK(m.managed_fields[0].fields_v1_json == R"({"f:metadata":{"f:labels":{".":{},"f:app":{}}}})");
  CHECK(*m.unknown_fields.find("newMetadataField") == R"({"k":[1,2]})");
  CHECK(m.deletion_grace_period_seconds == 30);

  // omitempty: empty and zero members are left out; nulls leave zero values.
  const auto sparse = rr::decode_text<rr::ObjectMeta>(
      R"({"name":"","labels":{},"generation":0,"creationTimestamp":null,"finalizers":null,"annotations":null,"deletionTimestamp":null,"uid":null})");
  CHECK(sparse == rr::ObjectMeta{});
  CHECK(rr::encode_text(sparse) == "{}");
  CHECK(rr::encode_text(rr::decode_text<rr::ObjectMeta>("null")) == "{}");

  // OwnerReference writes its four identity strings even when empty (no omitempty in Go).
  CHECK(rr::encode_text(rr::OwnerReference{}) == R"({"apiVersion":"","kind":"","name":"","uid":""})");

  // Errors inside metadata carry the pointer.
  try {
    (void)rr::decode_text<rr::ObjectMeta>(R"({"labels":{"a":1}})");
    FAIL("no error");
  } catch (const rr::DecodeError& e) {
    CHECK(e.pointer() == "/labels/a");
  }
}

TEST_CASE("EmbeddedResource keeps everything but the typed header in body") {
  const std::string doc =
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"a":"b"}},"data":{"k":"v"},"binaryData":null})";
  check_lossless<rr::EmbeddedResource>(doc);
  const auto e = rr::decode_text<rr::EmbeddedResource>(doc);
  CHECK(e.api_version == "v1");
  CHECK(e.kind == "ConfigMap");
  REQUIRE(e.metadata);
  CHECK(e.metadata->name == "cm");
  CHECK(e.body.size() == 2);
  CHECK(*e.body.find("data") == R"({"k":"v"})");
  CHECK(rr::encode_text(e) == doc);
  check_lossless<rr::EmbeddedResource>(R"({"spec":{"x":1}})");
}

TEST_CASE("nlohmann ADL: to_json / from_json") {
  // (Designated initializers, not member assignments from short literals: GCC 12 at -O3 raises a
  // false -Wrestrict on `str = "R"`.)
  const rr::Condition c{.type = "Ready",
                        .status = "True",
                        .observed_generation = std::nullopt,
                        .last_transition_time = rr::Time("2024-05-01T12:00:00Z"),
                        .reason = "R",
                        .message = "m",
                        .unknown_fields = {}};
  const rr::Json j = c;
  CHECK(j["type"] == "Ready");
  CHECK_FALSE(j.contains("observedGeneration"));
  CHECK(j.get<rr::Condition>() == c);

  rr::ObjectMeta meta;
  meta.name = std::string("x");
  meta.labels.emplace("a", "b");
  const rr::Json mj = meta;
  CHECK(mj == rr::Json::parse(R"({"name":"x","labels":{"a":"b"}})"));
  CHECK(mj.get<rr::ObjectMeta>() == meta);
  CHECK_THROWS_AS(rr::Json::parse(R"({"type":"x"})").get<rr::Condition>(), rr::DecodeError);
}

// The codec above is generated (docs/runtime-schemas.md); these pin the Go details it must keep.
TEST_CASE("Go structs: null, absent and zero values") {
  // A null object is the zero value, in a list too.
  CHECK(rr::decode_text<rr::TypeMeta>("null") == rr::TypeMeta{});
  CHECK(rr::decode_text<rr::ListMeta>("null") == rr::ListMeta{});
  CHECK(rr::decode_text<rr::ManagedFieldsEntry>("null") == rr::ManagedFieldsEntry{});
  const auto owners = rr::decode_text<std::vector<rr::OwnerReference>>(R"([null,{"uid":"u"}])");
  REQUIRE(owners.size() == 2);
  CHECK(owners[0] == rr::OwnerReference{});
  CHECK(owners[1].uid == "u");

  // A null member resets what an earlier occurrence set (Go decodes members in order).
  const auto m = rr::decode_text<rr::ObjectMeta>(
      R"({"name":"a","name":null,"generation":4,"generation":null,"labels":{"x":"y"},"labels":null,)"
      R"("creationTimestamp":"2024-05-01T12:00:00Z","creationTimestamp":null,"deletionGracePeriodSeconds":null})");
  CHECK(m == rr::ObjectMeta{});
  CHECK(rr::encode_text(m) == "{}");

  // Pointers: null is absent; a zero value that is set is written.
  const auto l = rr::decode_text<rr::ListMeta>(R"({"remainingItemCount":0,"continue":null})");
  CHECK(l.remaining_item_count == 0);
  CHECK(rr::encode_text(l) == R"({"remainingItemCount":0})");
  CHECK_FALSE(rr::decode_text<rr::ListMeta>(R"({"remainingItemCount":null})").remaining_item_count);
  rr::OwnerReference o;
  o.controller = false;
  CHECK(rr::encode_text(o) == R"({"apiVersion":"","kind":"","name":"","uid":"","controller":false})");
  // The four identity members are written even when null came in; missing ones are no error.
  CHECK(rr::encode_text(rr::decode_text<rr::OwnerReference>(R"({"apiVersion":null,"extra":1})")) ==
        R"({"apiVersion":"","kind":"","name":"","uid":"","extra":1})");

  // Wrong types are still errors, with the pointer.
  try {
    (void)rr::decode_text<rr::ObjectMeta>(R"({"ownerReferences":[{"uid":7}]})");
    FAIL("no error");
  } catch (const rr::DecodeError& e) {
    CHECK(e.pointer() == "/ownerReferences/0/uid");
  }
  CHECK_THROWS_AS(rr::decode_text<rr::TypeMeta>("[]"), rr::DecodeError);
}

TEST_CASE("Go structs: omitempty, the empty Time, fieldsV1 text, unknown members") {
  rr::ObjectMeta m;
  m.creation_timestamp = rr::Time("");                 // empty: left out like Go's zero time
  m.deletion_timestamp = rr::Time("");                 // a pointer: written when set
  m.finalizers = {"b", "a"};
  CHECK(rr::encode_text(m) == R"({"deletionTimestamp":"","finalizers":["b","a"]})");

  // Order matters: a Go struct compares member by member, set lists included.
  rr::ObjectMeta swapped = m;
  swapped.finalizers = {"a", "b"};
  CHECK_FALSE(swapped == m);

  // The API server validates metadata itself: nothing to check here, even a bad timestamp.
  rr::Validator v("metadata");
  m.creation_timestamp = rr::Time("yesterday");
  validate(v, m);
  CHECK(v.errors().empty());

  const std::string entry =
      R"({"manager":"m","time":"","fieldsType":"FieldsV1","fieldsV1":{"f:spec": {"f:x" : [1, 2.50]}},"subresource":"status","z":null})";
  const auto e = rr::decode_text<rr::ManagedFieldsEntry>(entry);
  CHECK(e.fields_v1_json == R"({"f:spec":{"f:x":[1,2.50]}})");  // minified, numbers kept verbatim
  CHECK(e.time.str().empty());
  CHECK(*e.unknown_fields.find("z") == "null");
  CHECK(rr::encode_text(e) ==
        R"({"manager":"m","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:x":[1,2.50]}},"subresource":"status","z":null})");
  CHECK(rr::decode_text<rr::ManagedFieldsEntry>(R"({"fieldsV1":{"a":1},"fieldsV1":null})").fields_v1_json.empty());
  CHECK(rr::encode_text(rr::decode_text<rr::ManagedFieldsEntry>(R"({"fieldsV1":{}})")) == R"({"fieldsV1":{}})");

  // Unknown members of every shape survive, in order, after the known ones.
  check_lossless<rr::TypeMeta>(R"({"kind":"Pod","x":[1],"apiVersion":"v1","y":{}})");
  CHECK(rr::encode_text(rr::decode_text<rr::TypeMeta>(R"({"kind":"Pod","x":[1],"apiVersion":"v1","y":{}})")) ==
        R"({"apiVersion":"v1","kind":"Pod","x":[1],"y":{}})");
  check_lossless<rr::ListMeta>(R"({"future":true})");
}

TEST_CASE("Schema shapes: nulls, enum wording, body") {
  // Optional members take null as absent; required ones reject it.
  const auto r = rr::decode_text<rr::LabelSelectorRequirement>(R"({"key":"k","operator":"In","values":null})");
  CHECK_FALSE(r.values.has_value());
  CHECK_THROWS_AS(rr::decode_text<rr::LabelSelectorRequirement>(R"({"key":"k","operator":null})"), rr::DecodeError);
  CHECK_THROWS_AS(rr::decode_text<rr::LabelSelector>("null"), rr::DecodeError);  // no Go zero value here
  CHECK(rr::encode_text(rr::decode_text<rr::LocalObjectReference>(R"({"name":null,"n":2})")) == R"({"n":2})");

  // status is checked as text: the message quotes it the way Go's %q does.
  rr::Condition c = rr::decode_text<rr::Condition>(
      R"({"type":"Ready","status":"True","lastTransitionTime":"2024-05-01T12:00:00Z","reason":"R","message":""})");
  c.status = "Tr\xff" "e";
  rr::Validator v;
  validate(v, c);
  REQUIRE(v.errors().size() == 1);
  CHECK(v.errors()[0].message == R"(status: Unsupported value: "Tr\xffe": supported values: "True", "False", "Unknown")");

  // EmbeddedResource: members besides apiVersion/kind/metadata are the body, nulls included.
  const auto e = rr::decode_text<rr::EmbeddedResource>(R"({"spec":null,"kind":"K","metadata":null})");
  CHECK(e.kind == "K");
  CHECK_FALSE(e.metadata.has_value());
  CHECK(*e.body.find("spec") == "null");
  CHECK(rr::encode_text(e) == R"({"kind":"K","spec":null})");
  rr::Validator ev;
  validate(ev, rr::EmbeddedResource{});
  CHECK(ev.errors().empty());
}
