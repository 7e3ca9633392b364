// The admission webhook harness checked against itself: a row that holds passes, and each wrong
// expectation fails with the message saying what differs.
#include <doctest/doctest.h>

#include "strings_support.hpp"

#include <nlohmann/json.hpp>

#include "harness_support.hpp"
#include "rr/reconcilers/sync.hpp"
#include "rr/testing/admission_webhook_test.hpp"
#include "rr/testing/registration.hpp"

using harness::TestChild;
using harness::TestResource;
using rr::Json;
using rr::testing::AdmissionWebhookFactory;
using rr::testing::AdmissionWebhookTestCase;
using rr::testing::CapturedFailures;
using rr::webhook::AdmissionResponse;
using rr::webhook::AdmissionWebhookAdapter;
using rr::webhook::Operation;

namespace {

const Json sent = Json::parse(R"({"apiVersion":"testing.rrgen.dev/v1","kind":"TestResource",
  "metadata":{"name":"r","namespace":"ns"},"spec":{"image":"a","replicas":1}})");

// A mutating webhook: the image comes from the TestChild "r-child" when there is one (read
// through the config's client), and "bad" images are denied with a warning.
AdmissionWebhookFactory image_webhook() {
  return [](const AdmissionWebhookTestCase&, const rr::Config& config) -> rr::testing::TestedWebhook {
    return AdmissionWebhookAdapter<TestResource>{
        .name = "Images",
        .reconciler = rr::SyncReconciler<TestResource>{.sync = [](rr::Context& ctx,
                                                                  TestResource& resource) -> rr::Error {
          if (resource.spec->image == "bad") {
            rr::webhook::admission_response(ctx).warnings.push_back("bad image");
            return rr::Error::make("image \"bad\" is not allowed");
          }
          if (auto child = ctx.config().api().try_get<TestChild>(rr::ObjectKey{"ns", "r-child"})) {
            resource.spec->image = "from-child";
          }
          return rr::Error{};
        }},
        .config = config,
    };
  };
}

Strings failures_of(const AdmissionWebhookTestCase& tc, const AdmissionWebhookFactory& factory) {
  CapturedFailures captured;
  rr::testing::run_case(tc, factory, captured.sink());
  return captured.messages();
}

AdmissionResponse allowed_with_patch(Json patch) {
  AdmissionResponse response;
  response.patch = std::move(patch);
  return response;
}

}  // namespace

TEST_CASE("webhook harness: a row whose expectations hold passes; the shortcuts build the request") {
  rr::webhook::AdmissionRequest seen;
  AdmissionWebhookTestCase tc{
      .object = sent,
      .expected_response = AdmissionResponse{},
      .verify = [](const AdmissionResponse& response) { CHECK(response.uid == "test-uid"); },
  };
  CHECK(failures_of(tc, image_webhook()).empty());
  const rr::webhook::AdmissionRequest request = rr::testing::request_of(tc);
  CHECK(request.uid == "test-uid");
  CHECK(request.kind == rr::GroupVersionKind{"testing.rrgen.dev", "v1", "TestResource"});
  CHECK(request.name == "r");
  CHECK(request.namespace_ == "ns");
  CHECK(request.operation == Operation::Create);
  CHECK(rr::testing::request_of({.operation = Operation::Delete, .old_object = sent}).name == "r");
}

TEST_CASE("webhook harness: given objects are in the client's store; the exact patch is expected") {
  AdmissionWebhookTestCase tc{
      .object = sent,
      .given_objects = {harness::child()},
      .expected_response = allowed_with_patch(
          Json::parse(R"([{"op":"replace","path":"/spec/image","value":"from-child"}])")),
  };
  CHECK(failures_of(tc, image_webhook()).empty());

  tc.expected_response.patch = Json::parse(R"([{"op":"replace","path":"/spec/image","value":"other"}])");
  CHECK(failures_of(tc, image_webhook()) ==
        Strings{"ExpectedResponse differs (-expected, +actual):\n  patch[0].value: -\"other\" +\"from-child\""});

  tc.expected_response.patch = nullptr;
  CHECK(failures_of(tc, image_webhook()) ==
        Strings{"ExpectedResponse differs (-expected, +actual):\n"
                "  patch: -(absent) +[{\"op\":\"replace\",\"path\":\"/spec/image\",\"value\":\"from-child\"}]"});
}

TEST_CASE("webhook harness: allowed, status and warnings are compared") {
  Json bad = sent;
  bad["spec"]["image"] = "bad";
  AdmissionResponse denied;
  denied.allowed = false;
  denied.status.emplace().code = 500;
  denied.status->message = "image \"bad\" is not allowed";
  denied.warnings = {"bad image"};
  AdmissionWebhookTestCase tc{.object = bad, .expected_response = denied};
  CHECK(failures_of(tc, image_webhook()).empty());

  tc.expected_response = AdmissionResponse{};
  CHECK(failures_of(tc, image_webhook()) ==
        Strings{"ExpectedResponse differs (-expected, +actual):\n"
                "  allowed: -true +false\n"
                "  status: -(absent) +{\"code\":500,\"message\":\"image \\\"bad\\\" is not allowed\"}\n"
                "  warnings: -(absent) +[\"bad image\"]"});

  tc.expected_response = denied;
  tc.expected_response.status->code = 403;
  tc.expected_response.status->reason = "Forbidden";
  CHECK(failures_of(tc, image_webhook()) == Strings{"ExpectedResponse differs (-expected, +actual):\n"
                                                    "  status.code: -403 +500\n"
                                                    "  status.reason: -\"Forbidden\" +(absent)"});
}

TEST_CASE("webhook harness: client calls are expected as in the other tables") {
  const AdmissionWebhookFactory creating = [](const AdmissionWebhookTestCase&, const rr::Config& config) {
    return rr::testing::TestedWebhook(AdmissionWebhookAdapter<TestResource>{
        .name = "Creates",
        .reconciler = rr::SyncReconciler<TestResource>{.sync = [](rr::Context& ctx, TestResource&) -> rr::Error {
          ctx.config().api().create(harness::child());
          return rr::Error{};
        }},
        .config = config,
    });
  };
  CHECK(failures_of({.object = sent, .expect_creates = {harness::child()}}, creating).empty());
  const Strings failures = failures_of({.object = sent}, creating);
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].rfind("Unexpected Create observed: {", 0) == 0);
}

TEST_CASE("webhook harness: a plain handler, the request as given, panics and factory mistakes") {
  rr::webhook::AdmissionRequest request;
  request.uid = "given";
  const AdmissionWebhookFactory echo = [](const AdmissionWebhookTestCase&, const rr::Config&) {
    return rr::testing::TestedWebhook(rr::webhook::AdmissionHandler([](const rr::webhook::AdmissionRequest& r) {
      if (r.uid == "panic") throw std::runtime_error("handler broke");
      AdmissionResponse response;
      response.uid = r.uid;
      return response;
    }));
  };
  CHECK(failures_of({.request = request}, echo).empty());
  request.uid = "panic";
  CHECK(failures_of({.request = request, .should_panic = true}, echo).empty());
  CHECK(failures_of({.request = request}, echo) == Strings{"unexpected panic: handler broke"});
  request.uid = "fine";
  CHECK(failures_of({.request = request, .should_panic = true}, echo) == Strings{"expected the webhook to panic"});
  const AdmissionWebhookFactory none = [](const AdmissionWebhookTestCase&, const rr::Config&) {
    return rr::testing::TestedWebhook();
  };
  CHECK(failures_of({.request = request}, none) == Strings{"the webhook factory returned no webhook"});
}

RR_ADMISSION_WEBHOOK_TESTS("RegisteredWebhook", image_webhook()) {
  return rr::testing::AdmissionWebhookTests{
      {"allows an unchanged resource", {.object = sent}},
      {"takes the image from the child",
       {.object = sent,
        .given_objects = {harness::child()},
        .expected_response = allowed_with_patch(
            Json::parse(R"([{"op":"replace","path":"/spec/image","value":"from-child"}])"))}},
  };
}
