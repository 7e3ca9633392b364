// The WebApp webhooks (reconciler.yaml's webhooks:), each through what the generated wiring builds:
// the defaulting and validating webhooks as AdmissionWebhookTests tables (the request in, the
// exact response out: allowed, Status, warnings, JSON patch), the conversion by converting
// objects between v1alpha1 and v1 and back.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "fixtures.hpp"
#include "rr/client/client.hpp"
#include "rr/testing/admission_webhook_test.hpp"
#include "rr/testing/registration.hpp"
#include "webapp_webhooks.hpp"

namespace {

using rr::webhook::AdmissionResponse;
using rr::webhook::Operation;
using webapp_test::ConfigMapDie;
using webapp_test::test_namespace;
using Case = rr::testing::AdmissionWebhookTestCase;

rr::testing::TestedWebhook defaulting(const Case&, const rr::Config& config) {
  return webapp::WebAppDefaultingWebhook(config, std::make_shared<const webapp::WebAppHooks>());
}
rr::testing::TestedWebhook validation(const Case&, const rr::Config& config) {
  return webapp::WebAppValidationWebhook(config, std::make_shared<const webapp::WebAppHooks>());
}

// The deny-list the validating webhook reads.
const ConfigMapDie image_policy = ConfigMapDie()
                                      .namespace_(test_namespace)
                                      .name("webapp-image-policy")
                                      .data({{"denied", "evil.example/\nregistry.example/hello:0."}});

AdmissionResponse denied(std::string message) {
  AdmissionResponse response;
  response.allowed = false;
  rr::Status& status = response.status.emplace();
  status.message = std::move(message);
  status.reason = "Forbidden";
  status.code = 403;
  return response;
}

AdmissionResponse allowed_with_warning(std::string warning) {
  AdmissionResponse response;
  response.warnings = {std::move(warning)};
  return response;
}

AdmissionResponse patched(const char* patch) {
  AdmissionResponse response;
  response.patch = rr::Json::parse(patch);
  return response;
}

}  // namespace

RR_ADMISSION_WEBHOOK_TESTS("WebAppDefaultingWebhook", defaulting) {
  const auto web_app = webapp_test::web_app();
  return rr::testing::AdmissionWebhookTests{
      {"a WebApp without the app label gets it, as a patch",
       {
           .operation = Operation::Create,
           .object = rr::to_object_json(web_app.get()),
           .expected_response = patched(
               R"([{"op":"add","path":"/metadata/labels","value":{"app.kubernetes.io/name":"test-webapp"}}])"),
       }},
      {"another label is kept and the app label added beside it",
       {
           .operation = Operation::Update,
           .object = rr::to_object_json(web_app.label("team", "web").get()),
           .old_object = rr::to_object_json(web_app.label("team", "web").get()),
           .expected_response = patched(
               R"([{"op":"add","path":"/metadata/labels/app.kubernetes.io~1name","value":"test-webapp"}])"),
       }},
      {"an app label already set is left as it is: no patch",
       {
           .operation = Operation::Create,
           .object = rr::to_object_json(web_app.label("app.kubernetes.io/name", "shop").get()),
       }},
  };
}

RR_ADMISSION_WEBHOOK_TESTS("WebAppValidationWebhook", validation) {
  const auto web_app = webapp_test::web_app();  // image registry.example/hello:1.0
  const auto old_image = web_app.spec_image("registry.example/hello:0.9");
  return rr::testing::AdmissionWebhookTests{
      {"no image policy in the namespace: every image is allowed",
       {.operation = Operation::Create, .object = rr::to_object_json(old_image.get())}},
      {"an image no denied prefix matches is allowed",
       {.operation = Operation::Create,
        .object = rr::to_object_json(web_app.get()),
        .given_objects = {image_policy.get()}}},
      {"an image on the deny-list is denied with the prefix that matched",
       {
           .operation = Operation::Create,
           .object = rr::to_object_json(old_image.get()),
           .given_objects = {image_policy.get()},
           .expected_response = denied(R"(spec.image "registry.example/hello:0.9" is denied by ConfigMap )"
                                       R"(test-namespace/webapp-image-policy (prefix "registry.example/hello:0."))"),
       }},
      {"an update to a denied image is denied",
       {
           .operation = Operation::Update,
           .object = rr::to_object_json(web_app.spec_image("evil.example/miner:1").get()),
           .old_object = rr::to_object_json(web_app.get()),
           .given_objects = {image_policy.get()},
           .expected_response = denied(R"(spec.image "evil.example/miner:1" is denied by ConfigMap )"
                                       R"(test-namespace/webapp-image-policy (prefix "evil.example/"))"),
       }},
      {"an update keeping an image denied since is allowed: the WebApp can still be scaled",
       {
           .operation = Operation::Update,
           .object = rr::to_object_json(old_image.spec_replicas(3).get()),
           .old_object = rr::to_object_json(old_image.get()),
           .given_objects = {image_policy.get()},
       }},
      {"zero replicas are allowed, with a warning",
       {
           .operation = Operation::Create,
           .object = rr::to_object_json(web_app.spec_replicas(0).get()),
           .expected_response = allowed_with_warning(
               "spec.replicas is 0: the WebApp serves nothing until it is scaled up"),
       }},
  };
}

TEST_CASE("WebAppConversion: v1alpha1's spec.dns.hostname is v1's spec.hostname, both ways") {
  const rr::webhook::Conversion<webapp::WebApp> conversion = webapp::WebAppConversion(
      std::make_shared<const webapp::WebAppHooks>());
  const rr::Json v1alpha1 = rr::Json::parse(R"({"apiVersion":"web.example.rrgen.dev/v1alpha1","kind":"WebApp",
      "metadata":{"name":"hello","namespace":"demo"},
      "spec":{"image":"hello:1","replicas":2,"dns":{"hostname":"hello.example.com"}}})");
  const rr::Json v1 = conversion.convert_object(v1alpha1, "web.example.rrgen.dev/v1");
  CHECK(v1 == rr::Json::parse(R"({"apiVersion":"web.example.rrgen.dev/v1","kind":"WebApp",
      "metadata":{"name":"hello","namespace":"demo"},
      "spec":{"image":"hello:1","replicas":2,"hostname":"hello.example.com"}})"));
  CHECK(conversion.convert_object(v1, "web.example.rrgen.dev/v1alpha1") == v1alpha1);
}

TEST_CASE("WebAppConversion: a v1 port, which v1alpha1 cannot hold, survives a round trip through v1alpha1") {
  const rr::webhook::Conversion<webapp::WebApp> conversion = webapp::WebAppConversion(
      std::make_shared<const webapp::WebAppHooks>());
  const rr::Json v1 = rr::Json::parse(R"({"apiVersion":"web.example.rrgen.dev/v1","kind":"WebApp",
      "metadata":{"name":"hello","namespace":"demo"},
      "spec":{"image":"hello:1","port":9090,"hostname":"hello.example.com"}})");
  const rr::Json down = conversion.convert_object(v1, "web.example.rrgen.dev/v1alpha1");
  CHECK(down.at("spec") == rr::Json::parse(R"({"image":"hello:1","dns":{"hostname":"hello.example.com"}})"));
  CHECK(down.at("metadata").at("annotations").contains("rrgen.dev/conversion-data"));
  CHECK(conversion.convert_object(down, "web.example.rrgen.dev/v1") == v1);
}

TEST_CASE("WebAppConversion: a whole review, and a version the CRD does not serve fails it") {
  const rr::webhook::Conversion<webapp::WebApp> conversion = webapp::WebAppConversion(
      std::make_shared<const webapp::WebAppHooks>());
  const rr::Json v1 = rr::Json::parse(R"({"apiVersion":"web.example.rrgen.dev/v1","kind":"WebApp",
      "metadata":{"name":"a"},"spec":{"image":"x"}})");
  const rr::webhook::ConversionResponse ok = conversion.convert({"uid-1", "web.example.rrgen.dev/v1alpha1", {v1, v1}});
  CHECK_FALSE(ok.failure);
  CHECK(ok.converted_objects.size() == 2);
  const rr::webhook::ConversionResponse failed = conversion.convert({"uid-2", "web.example.rrgen.dev/v2", {v1}});
  REQUIRE(failed.failure);
  CHECK(failed.failure->message ==
        R"(cannot convert WebApp to or from apiVersion "web.example.rrgen.dev/v2": the versions converted are )"
        R"(web.example.rrgen.dev/v1, web.example.rrgen.dev/v1alpha1)");
}
