// AdmissionWebhookAdapter over objects whose kind is known only at run time: rr::Unstructured
// (a defaulting webhook of any kind) and rr::ConditionsDuck, whose patch holds only what the tree
// changed: the members the duck does not declare are kept, so the patch never removes them.
#include <doctest/doctest.h>

#include "rr/client/duck.hpp"
#include "rr/client/unstructured.hpp"
#include "rr/reconcilers/sync.hpp"
#include "rr/testing/admission_webhook_test.hpp"
#include "rr/testing/registration.hpp"

using rr::Json;
using rr::testing::AdmissionWebhookTestCase;
using rr::webhook::AdmissionResponse;
using rr::webhook::AdmissionWebhookAdapter;

namespace {

const Json widget = Json::parse(R"({"apiVersion":"example.dev/v1","kind":"Widget",
  "metadata":{"name":"w","namespace":"ns","labels":{"team":"a"}},
  "spec":{"image":"nginx","ports":[80]},"status":{"phase":"New","conditions":[]}})");

AdmissionResponse dynamic_allowed_with_patch(Json patch) {
  AdmissionResponse response;
  response.patch = std::move(patch);
  return response;
}

AdmissionResponse denied(std::string message) {
  AdmissionResponse response;
  response.allowed = false;
  rr::Status status;
  status.code = 403;
  status.reason = "Forbidden";
  status.message = std::move(message);
  response.status = status;
  return response;
}

}  // namespace

// Defaults spec.replicas on any kind; an object without spec.image is denied.
RR_ADMISSION_WEBHOOK_TESTS("UnstructuredDefaultingWebhook", [](const AdmissionWebhookTestCase&, const rr::Config& c) {
  return rr::testing::TestedWebhook(AdmissionWebhookAdapter<rr::Unstructured>{
      .reconciler = rr::SyncReconciler<rr::Unstructured>{.sync = [](rr::Context& ctx,
                                                                    rr::Unstructured& object) -> rr::Error {
        Json& spec = object.member("spec");
        if (!spec.contains("image")) {
          auto& response = rr::webhook::admission_response(ctx);
          response.allowed = false;
          response.status = rr::Status{};
          response.status->code = 403;
          response.status->reason = "Forbidden";
          response.status->message = "spec.image is required";
          return {};
        }
        if (!spec.contains("replicas")) spec["replicas"] = 1;
        return {};
      }},
      .config = c,
  });
}) {
  Json without_image = widget;
  without_image["spec"].erase("image");
  Json with_replicas = widget;
  with_replicas["spec"]["replicas"] = 3;
  return rr::testing::AdmissionWebhookTests{
      {"defaults replicas: the patch adds only that",
       {.object = widget,
        .expected_response = dynamic_allowed_with_patch(
            Json::parse(R"([{"op":"add","path":"/spec/replicas","value":1}])"))}},
      {"nothing to default: no patch", {.object = with_replicas, .expected_response = AdmissionResponse{}}},
      {"denied without an image", {.object = without_image, .expected_response = denied("spec.image is required")}},
  };
}

// A duck webhook: marks the object with a Ready=Unknown condition; spec, labels and status.phase,
// which the duck does not declare, are not in the patch (a lossy duck would remove them).
RR_ADMISSION_WEBHOOK_TESTS("ConditionsDuckWebhook", [](const AdmissionWebhookTestCase&, const rr::Config& c) {
  return rr::testing::TestedWebhook(AdmissionWebhookAdapter<rr::ConditionsDuck>{
      .reconciler = rr::SyncReconciler<rr::ConditionsDuck>{.sync = [](rr::Context&,
                                                                      rr::ConditionsDuck& object) -> rr::Error {
        rr::Condition ready;
        ready.type = "Ready";
        ready.status = "Unknown";
        ready.reason = "Admitted";
        ready.message = "waiting";
        ready.last_transition_time = rr::Time("2024-01-01T00:00:00Z");
        rr::ensure_conditions(object).push_back(ready);
        return {};
      }},
      .config = c,
  });
}) {
  return rr::testing::AdmissionWebhookTests{
      {"the patch adds the condition and nothing else",
       {.object = widget,
        // (the adapter's diff replaces the empty list as a whole)
        .expected_response = dynamic_allowed_with_patch(
            Json::parse(R"([{"op":"replace","path":"/status/conditions","value":
            [{"lastTransitionTime":"2024-01-01T00:00:00Z","message":"waiting","reason":"Admitted","status":"Unknown",
              "type":"Ready"}]}])"))}},
  };
}
