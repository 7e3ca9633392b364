// Conversion<Hub> over Gadget: v1 is the hub, v1alpha1 a spoke that has no color, tags or memory
// limit and spells the size as text.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "rr/webhook/conversion.hpp"
#include "rrwebhooktest/v1/gadget.hpp"
#include "rrwebhooktest/v1alpha1/gadget.hpp"

using rr::Json;
using namespace rr::webhook;
namespace v1 = rrwebhooktest::v1;
namespace v1alpha1 = rrwebhooktest::v1alpha1;

namespace {

Conversion<v1::Gadget> gadget_conversion() {
  Conversion<v1::Gadget> conversion;
  conversion.spoke<v1alpha1::Gadget>(
      [](const v1alpha1::Gadget& from, v1::Gadget& hub) -> rr::Error {
        if (from.spec) {
          v1::GadgetSpec& spec = hub.spec.emplace();
          if (from.spec->size_text) {
            if (*from.spec->size_text == "huge") return rr::Error::make("size \"huge\" is not a number");
            spec.size = std::stoi(*from.spec->size_text);
          }
          if (from.spec->limits) spec.limits.emplace().cpu = from.spec->limits->cpu;
        }
        if (from.status) hub.status.emplace().ready = from.status->ready;
        return {};
      },
      [](const v1::Gadget& hub, v1alpha1::Gadget& to) -> rr::Error {
        if (hub.spec) {
          v1alpha1::GadgetSpec& spec = to.spec.emplace();
          if (hub.spec->size) spec.size_text = std::to_string(*hub.spec->size);
          if (hub.spec->limits) spec.limits.emplace().cpu = hub.spec->limits->cpu;
        }
        if (hub.status) to.status.emplace().ready = hub.status->ready;
        return {};
      });
  return conversion;
}

const Json full_hub = Json::parse(R"({"apiVersion":"webhook.rrgen.dev/v1","kind":"Gadget",
  "metadata":{"name":"g","namespace":"ns","labels":{"app":"x"},"resourceVersion":"7"},
  "spec":{"size":3,"color":"red","tags":["a","b"],"limits":{"cpu":"1","memory":"2Gi"}},
  "status":{"ready":true}})");

const Json simple_spoke = Json::parse(R"({"apiVersion":"webhook.rrgen.dev/v1alpha1","kind":"Gadget",
  "metadata":{"name":"g","namespace":"ns","annotations":{"note":"kept"}},
  "spec":{"sizeText":"7","limits":{"cpu":"500m"}},"status":{"ready":false}})");

Json annotation_of(const Json& object) {
  const auto at = Json::json_pointer("/metadata/annotations") / std::string(conversion_data_annotation);
  return object.contains(at) ? Json::parse(object.at(at).get<std::string>()) : Json();
}

}  // namespace

TEST_CASE("hub to spoke to hub keeps every field: what the spoke cannot hold rides in the annotation") {
  const auto conversion = gadget_conversion();
  const Json spoke = conversion.convert_object(full_hub, "webhook.rrgen.dev/v1alpha1");
  CHECK(spoke["apiVersion"] == "webhook.rrgen.dev/v1alpha1");
  CHECK(spoke["spec"] == Json::parse(R"({"sizeText":"3","limits":{"cpu":"1"}})"));
  CHECK(spoke["metadata"]["labels"] == Json::parse(R"({"app":"x"})"));
  Json without_metadata = full_hub;
  without_metadata.erase("metadata");
  CHECK(annotation_of(spoke) == without_metadata);
  const Json back = conversion.convert_object(spoke, "webhook.rrgen.dev/v1");
  CHECK(back == full_hub);  // the annotation is gone again, every field is back
}

TEST_CASE("spoke to hub to spoke keeps every field, and needs no annotation") {
  const auto conversion = gadget_conversion();
  const Json hub = conversion.convert_object(simple_spoke, "webhook.rrgen.dev/v1");
  CHECK(hub == Json::parse(R"({"apiVersion":"webhook.rrgen.dev/v1","kind":"Gadget",
    "metadata":{"name":"g","namespace":"ns","annotations":{"note":"kept"}},
    "spec":{"size":7,"limits":{"cpu":"500m"}},"status":{"ready":false}})"));
  const Json back = conversion.convert_object(hub, "webhook.rrgen.dev/v1alpha1");
  CHECK(back == simple_spoke);
}

TEST_CASE("a spoke edited after converting down: its values win, what it cannot hold comes back") {
  const auto conversion = gadget_conversion();
  Json spoke = conversion.convert_object(full_hub, "webhook.rrgen.dev/v1alpha1");
  spoke["spec"]["sizeText"] = "9";
  spoke["spec"]["limits"]["cpu"] = "4";
  const Json hub = conversion.convert_object(spoke, "webhook.rrgen.dev/v1");
  CHECK(hub["spec"] == Json::parse(R"({"size":9,"color":"red","tags":["a","b"],"limits":{"cpu":"4","memory":"2Gi"}})"));
  CHECK_FALSE(hub["metadata"].contains("annotations"));
}

TEST_CASE("a ConversionReview converts each object in order; the same version passes through") {
  const auto conversion = gadget_conversion();
  const ConversionResponse response = conversion.convert({"uid-9", "webhook.rrgen.dev/v1", {simple_spoke, full_hub}});
  CHECK(response.uid == "uid-9");
  CHECK_FALSE(response.failure);
  REQUIRE(response.converted_objects.size() == 2);
  CHECK(response.converted_objects[0]["spec"]["size"] == 7);
  CHECK(response.converted_objects[1] == full_hub);
  CHECK(conversion.versions() == std::vector<std::string>{"webhook.rrgen.dev/v1", "webhook.rrgen.dev/v1alpha1"});
}

TEST_CASE("failures fail the whole request with a message that says which and why") {
  const auto conversion = gadget_conversion();
  const auto failure_of = [&](const Json& object, const char* desired) {
    const ConversionResponse response = conversion.convert({"u", desired, {simple_spoke, object}});
    CHECK(response.converted_objects.empty());
    return response.failure ? response.failure->message : std::string("(converted)");
  };
  CHECK(
      failure_of(full_hub, "webhook.rrgen.dev/v2") ==
      R"(cannot convert Gadget to or from apiVersion "webhook.rrgen.dev/v2": the versions converted are webhook.rrgen.dev/v1, webhook.rrgen.dev/v1alpha1)");
  Json other = full_hub;
  other["kind"] = "Widget";
  CHECK(failure_of(other, "webhook.rrgen.dev/v1alpha1") ==
        R"(cannot convert kind "Widget": this webhook converts Gadget)");
  Json huge = simple_spoke;
  huge["spec"]["sizeText"] = "huge";
  CHECK(failure_of(huge, "webhook.rrgen.dev/v1") ==
        R"(converting webhook.rrgen.dev/v1alpha1 to webhook.rrgen.dev/v1: size "huge" is not a number)");
  Json words = simple_spoke;
  words["spec"]["sizeText"] = "seven";  // std::stoi throws: the exception is the function's error
  CHECK(failure_of(words, "webhook.rrgen.dev/v1") ==
        "converting webhook.rrgen.dev/v1alpha1 to webhook.rrgen.dev/v1: stoi");
  Json undecodable = full_hub;
  undecodable["spec"]["size"] = "three";
  CHECK(
      failure_of(undecodable, "webhook.rrgen.dev/v1alpha1").starts_with("cannot decode webhook.rrgen.dev/v1 Gadget: "));
}

TEST_CASE("a spoke is registered once; handler() serves ConversionReviews") {
  auto conversion = gadget_conversion();
  CHECK_THROWS_WITH_AS(
      conversion.spoke<v1alpha1::Gadget>([](const v1alpha1::Gadget&, v1::Gadget&) { return rr::Error{}; },
                                         [](const v1::Gadget&, v1alpha1::Gadget&) { return rr::Error{}; }),
      "rr::webhook::Conversion: webhook.rrgen.dev/v1alpha1 is registered already", std::invalid_argument);
  Server server;
  server.handle_conversion("/convert", conversion.handler());
  const Reply reply = server.respond(
      "/convert", "application/json",
      encode_conversion_review_request({"uid-1", "webhook.rrgen.dev/v1alpha1", {full_hub}}));
  const ConversionResponse response = decode_conversion_review_response(reply.body);
  CHECK(response.uid == "uid-1");
  REQUIRE(response.converted_objects.size() == 1);
  CHECK(response.converted_objects[0]["spec"]["sizeText"] == "3");
}
