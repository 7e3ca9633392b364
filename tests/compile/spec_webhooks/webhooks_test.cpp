// The spec_webhooks case's generated webhook wiring with its hooks as scaffolded, driven through the
// webhook server's respond() as the API server drives it (reviews in, reviews out, no network):
// every webhook answers at kubebuilder's path, the scaffolded hooks allow everything and patch
// nothing, and a v1alpha1 object converted to the hub v1 and back is unchanged.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/config.hpp"
#include "rr/webhook/server.hpp"
#include "web_app_hooks.hpp"
#include "web_app_webhooks.hpp"

namespace {

rr::Config test_config() {
  return rr::make_config(std::make_shared<rr::ClusterClient>(std::make_shared<rr::Cluster>()));
}

rr::Json web_app(const std::string& api_version, rr::Json spec) {
  return {{"apiVersion", api_version},
          {"kind", "WebApp"},
          {"metadata", {{"name", "hello"}, {"namespace", "demo"}, {"uid", "uid-1"}}},
          {"spec", std::move(spec)}};
}

rr::webhook::AdmissionRequest request(rr::webhook::Operation operation, rr::Json object, rr::Json old_object) {
  rr::webhook::AdmissionRequest r;
  r.uid = "review-1";
  r.kind = {"web.example.rrgen.dev", "v1", "WebApp"};
  r.resource = {"web.example.rrgen.dev", "v1", "webapps"};
  r.name = "hello";
  r.namespace_ = "demo";
  r.operation = operation;
  r.user_info.username = "tester";
  r.object = std::move(object);
  r.old_object = std::move(old_object);
  return r;
}

// What `path` answers to the review, decoded as the API server decodes it.
rr::webhook::AdmissionResponse admit(const rr::webhook::Server& server, std::string_view path,
                                     const rr::webhook::AdmissionRequest& r) {
  const rr::webhook::Reply reply = server.respond(path, "application/json", rr::webhook::encode_admission_review_request(r));
  REQUIRE(reply.status == 200);
  return rr::webhook::decode_admission_review_response(reply.body);
}

}  // namespace

TEST_CASE("registered at kubebuilder's paths, each answering its review") {
  rr::webhook::Server server;
  webapp::RegisterWebAppWebhooks(server, test_config());
  CHECK(server.has_handlers());
  CHECK(webapp::WebAppWebhookPaths::defaulting == "/mutate-web-example-rrgen-dev-v1-webapp");
  CHECK(webapp::WebAppWebhookPaths::validation == "/validate-web-example-rrgen-dev-v1-webapp");
  CHECK(webapp::WebAppWebhookPaths::conversion == "/convert");
  const rr::Json app = web_app("web.example.rrgen.dev/v1", {{"image", "hello:1"}, {"port", 8080}});

  const auto defaulted = admit(server, webapp::WebAppWebhookPaths::defaulting, request(rr::webhook::Operation::Create, app, nullptr));
  CHECK(defaulted.uid == "review-1");
  CHECK(defaulted.allowed);
  CHECK_FALSE(defaulted.status);
  CHECK((defaulted.patch.is_null() || defaulted.patch == rr::Json::array()));  // the scaffolded default changes nothing

  for (const auto operation : {rr::webhook::Operation::Create, rr::webhook::Operation::Update, rr::webhook::Operation::Delete}) {
    CAPTURE(rr::webhook::operation_name(operation));
    const rr::Json object = operation == rr::webhook::Operation::Delete ? rr::Json() : app;
    const rr::Json old_object = operation == rr::webhook::Operation::Create ? rr::Json() : app;
    const auto validated = admit(server, webapp::WebAppWebhookPaths::validation, request(operation, object, old_object));
    CHECK(validated.allowed);
    CHECK_FALSE(validated.status);
    CHECK(validated.warnings.empty());
  }
  CHECK(server.respond("/mutate-web-example-rrgen-dev-v1alpha1-webapp", "application/json", "{}").status == 404);
}

TEST_CASE("conversion: v1alpha1 up to the hub v1 and back down, nothing lost") {
  const rr::webhook::Conversion<webapp::WebApp> conversion = webapp::WebAppConversion();
  const rr::Json original = web_app("web.example.rrgen.dev/v1alpha1", {{"image", "hello:1"}, {"replicas", 2}});

  const rr::webhook::ConversionResponse up = conversion.convert({"convert-1", "web.example.rrgen.dev/v1", {original}});
  REQUIRE_FALSE(up.failure);
  CHECK(up.uid == "convert-1");
  REQUIRE(up.converted_objects.size() == 1);
  const rr::Json& hub = up.converted_objects[0];
  CHECK(hub.at("apiVersion") == "web.example.rrgen.dev/v1");
  CHECK(hub.at("spec").at("image") == "hello:1");
  CHECK(hub.at("spec").at("replicas") == 2);

  const rr::webhook::ConversionResponse down = conversion.convert({"convert-2", "web.example.rrgen.dev/v1alpha1", {hub}});
  REQUIRE_FALSE(down.failure);
  REQUIRE(down.converted_objects.size() == 1);
  CHECK(down.converted_objects[0] == original);
}
