// The WebApp admission webhooks, each on its own through the adapter the wiring builds
// (web_app_webhooks.hpp): a table of cases, each the request the API server would send, the world
// the hooks' client sees, and the exact response (allowed, status, warnings, JSON patch). This
// file is yours: `rrgen generate --scaffold` wrote it once and never overwrites it.
// docs/runtime/29-webhooks.md describes every field of a case.
#include <doctest/doctest.h>

#include "web_app_hooks.hpp"
#include "web_app_webhooks.hpp"
#include "rr/client/client.hpp"
#include "rr/testing/admission_webhook_test.hpp"
#include "rr/testing/registration.hpp"

namespace {

using webapp::WebApp;
using Case = rr::testing::AdmissionWebhookTestCase;
using rr::webhook::Operation;

// The WebApp the requests carry, as the API server sends it (JSON).
rr::Json given_web_app() {
  WebApp web_app;
  web_app.metadata.namespace_ = "test-namespace";
  web_app.metadata.name = "test-web-app";
  return rr::to_object_json(web_app);
}

}  // namespace

// The defaulting webhook, with default hooks. To test with fakes in the hooks, pass
// std::make_shared<const webapp::WebAppHooks>(...) as the second argument.
RR_ADMISSION_WEBHOOK_TESTS("WebAppDefaultingWebhook", [](const Case&, const rr::Config& config) -> rr::testing::TestedWebhook {
  return webapp::WebAppDefaultingWebhook(config);
}) {
  const rr::Json web_app = given_web_app();
  return rr::testing::AdmissionWebhookTests{
      {"as scaffolded, a new WebApp is allowed unchanged", {.operation = Operation::Create, .object = web_app}},
      // TODO(you): a case per default webhook_default sets, with the patch it makes, e.g.
      // {"defaults <field>", {
      //     .operation = Operation::Create,
      //     .object = web_app,
      //     .expected_response = {.patch = rr::Json::parse(R"([{"op":"add","path":"/spec/<field>","value":1}])")},
      // }},
  };
}

// The validating webhook, with default hooks. To test with fakes in the hooks, pass
// std::make_shared<const webapp::WebAppHooks>(...) as the second argument.
RR_ADMISSION_WEBHOOK_TESTS("WebAppValidationWebhook", [](const Case&, const rr::Config& config) -> rr::testing::TestedWebhook {
  return webapp::WebAppValidationWebhook(config);
}) {
  const rr::Json web_app = given_web_app();
  return rr::testing::AdmissionWebhookTests{
      {"as scaffolded, creating a WebApp is allowed", {.operation = Operation::Create, .object = web_app}},
      {"as scaffolded, updating a WebApp is allowed",
       {.operation = Operation::Update, .object = web_app, .old_object = web_app}},
      {"as scaffolded, deleting a WebApp is allowed", {.operation = Operation::Delete, .old_object = web_app}},
      // TODO(you): a case per rule the hooks enforce, allowed and denied, e.g.
      // {"denies <what>", {
      //     .operation = Operation::Create,
      //     .object = web_app,
      //     .expected_response = {.allowed = false, .status = forbidden("<the hook's message>")},
      // }},
      // where forbidden(message) is the rr::Status{code 403, reason Forbidden, message} a hook's
      // plain error becomes.
  };
}
