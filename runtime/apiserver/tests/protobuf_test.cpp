// Protobuf bodies, as client-go's typed clients send and ask for them: a request in the k8s
// envelope decodes through rr::builtin's codec; a response is protobuf when Accept prefers it.
#include <doctest/doctest.h>

#include "builtin_resources.hpp"
#include "rr/core/protobuf.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;
using rr::apiserver_detail::builtin_codec;

namespace {

constexpr const char* kProtobuf = "application/vnd.kubernetes.protobuf";

std::string envelope_of(const Json& object) {
  const KindCodec* codec = builtin_codec(object["apiVersion"].get<std::string>(), object["kind"].get<std::string>());
  REQUIRE(codec);
  REQUIRE(static_cast<bool>(codec->pb_from_json));
  return codec->pb_from_json(object.dump());
}

Json json_of(const std::string& envelope) {
  const PbEnvelope e = decode_envelope(envelope);
  const KindCodec* codec = builtin_codec(e.api_version, e.kind);
  REQUIRE(codec);
  return Json::parse(codec->pb_to_json(envelope));
}

const Json kConfigMapDocument = {{"apiVersion", "v1"},
                                 {"kind", "ConfigMap"},
                                 {"metadata", {{"name", "settings"}, {"labels", {{"app", "web"}}}}},
                                 {"data", {{"mode", "fast"}, {"level", "3"}}}};

}  // namespace

TEST_CASE("a protobuf create is stored as its JSON form, and answered in protobuf when asked") {
  TestServer t;
  auto c = t.client();
  httplib::Headers accept_pb = {{"Accept", std::string(kProtobuf) + ",application/json"}};
  auto created = c->Post("/api/v1/namespaces/default/configmaps", accept_pb, envelope_of(kConfigMapDocument),
                         kProtobuf);
  REQUIRE(created);
  CHECK(created->status == 201);
  CHECK(created->get_header_value("Content-Type") == kProtobuf);
  REQUIRE(created->body.substr(0, 4) == std::string("k8s\0", 4));
  const Json answer = json_of(created->body);
  CHECK(answer["kind"] == "ConfigMap");
  CHECK(answer["data"] == kConfigMapDocument["data"]);
  CHECK(answer["metadata"]["namespace"] == "default");
  CHECK_FALSE(answer["metadata"]["uid"].get<std::string>().empty());

  // The same object read as JSON (no Accept): what the protobuf said.
  const Json stored = body_of(c->Get("/api/v1/namespaces/default/configmaps/settings"));
  CHECK(stored["metadata"]["labels"]["app"] == "web");
  CHECK(stored["data"]["level"] == "3");

  // A list in protobuf is the List kind's message.
  auto list = c->Get("/api/v1/namespaces/default/configmaps", accept_pb);
  REQUIRE(list);
  CHECK(list->get_header_value("Content-Type") == kProtobuf);
  const Json items = json_of(list->body);
  CHECK(items["kind"] == "ConfigMapList");
  REQUIRE(items["items"].size() == 1);
  CHECK(items["items"][0]["metadata"]["name"] == "settings");
}

TEST_CASE("protobuf is answered only when Accept prefers it; a Table or JSON first keeps JSON") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post("/api/v1/namespaces/default/configmaps", kConfigMapDocument.dump(), "application/json")->status ==
          201);
  const std::string path = "/api/v1/namespaces/default/configmaps/settings";
  for (const char* accept : {"application/json, application/vnd.kubernetes.protobuf", "*/*",
                             "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"}) {
    CAPTURE(accept);
    auto res = c->Get(path, {{"Accept", accept}});
    REQUIRE(res);
    CHECK(res->get_header_value("Content-Type") == "application/json");
  }
  // Ranges in q order, as the API server orders them; q is not a parameter of the media type.
  for (const char* accept : {"application/json;q=0.5, application/vnd.kubernetes.protobuf",
                             "application/vnd.kubernetes.protobuf;q=0.9, application/json;q=0.8"}) {
    CAPTURE(accept);
    auto res = c->Get(path, {{"Accept", accept}});
    REQUIRE(res);
    CHECK(res->get_header_value("Content-Type") == kProtobuf);
  }
}

TEST_CASE("a protobuf update and a delete with protobuf DeleteOptions") {
  TestServer t;
  auto c = t.client();
  const std::string path = "/api/v1/namespaces/default/configmaps/settings";
  Json created = body_of(
      c->Post("/api/v1/namespaces/default/configmaps", kConfigMapDocument.dump(), "application/json"));
  created["data"]["mode"] = "slow";
  auto updated = c->Put(path, envelope_of(created), kProtobuf);
  REQUIRE(updated);
  CHECK(updated->status == 200);
  CHECK(body_of(c->Get(path))["data"]["mode"] == "slow");

  const Json options = {{"apiVersion", "v1"}, {"kind", "DeleteOptions"}, {"dryRun", {"All"}}};
  auto dry = c->Delete(path, envelope_of(options), kProtobuf);
  REQUIRE(dry);
  CHECK(dry->status == 200);
  CHECK(c->Get(path)->status == 200);  // a dry run deletes nothing
  CHECK(c->Delete(path)->status == 200);
  CHECK(c->Get(path)->status == 404);
}

TEST_CASE("protobuf a server cannot decode: a custom resource's kind is 415, a broken message 400") {
  TestServer t;
  auto c = t.client();
  PbEnvelope custom;
  custom.api_version = "example.rrgen.dev/v1";
  custom.kind = "Widget";
  auto widget = c->Post("/api/v1/namespaces/default/configmaps", encode_envelope(custom), kProtobuf);
  REQUIRE(widget);
  CHECK(widget->status == 415);
  CHECK(body_of(widget)["reason"] == "UnsupportedMediaType");

  PbEnvelope broken;
  broken.api_version = "v1";
  broken.kind = "ConfigMap";
  broken.raw = std::string("\x0a\xff\xff", 3);  // field 1 (metadata), a length past the end
  auto bad = c->Post("/api/v1/namespaces/default/configmaps", encode_envelope(broken), kProtobuf);
  REQUIRE(bad);
  CHECK(bad->status == 400);
}
