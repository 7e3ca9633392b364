#include "rr/testing/admission_webhook_test.hpp"

#include <nlohmann/json.hpp>

#include "rr/testing/detail/case_run.hpp"
#include "rr/testing/json_diff.hpp"

namespace rr::testing {
namespace {

std::string string_at(const Json& object, const Json::json_pointer& pointer) {
  return object.contains(pointer) && object.at(pointer).is_string() ? object.at(pointer).get<std::string>() : "";
}

}  // namespace

webhook::AdmissionRequest request_of(const AdmissionWebhookTestCase& tc) {
  if (tc.request) return *tc.request;
  webhook::AdmissionRequest request;
  request.uid = "test-uid";
  request.operation = tc.operation;
  request.object = tc.object;
  request.old_object = tc.old_object;
  const Json& subject = tc.operation == webhook::Operation::Delete ? tc.old_object : tc.object;
  if (subject.is_object()) {
    try {
      request.kind = GroupVersionKind::from(string_at(subject, "/apiVersion"_json_pointer),
                                            string_at(subject, "/kind"_json_pointer));
    } catch (const std::invalid_argument&) {
      request.kind.kind = string_at(subject, "/kind"_json_pointer);  // a malformed apiVersion is the test's point
    }
    request.name = string_at(subject, "/metadata/name"_json_pointer);
    request.namespace_ = string_at(subject, "/metadata/namespace"_json_pointer);
  }
  return request;
}

Json response_json(const webhook::AdmissionResponse& response) {
  Json json = {{"uid", response.uid}, {"allowed", response.allowed}};
  if (response.status) {
    Json status = response.status->to_json();
    for (const char* envelope : {"kind", "apiVersion", "metadata", "status"}) status.erase(envelope);
    json["status"] = std::move(status);
  }
  if (!response.patch.is_null()) json["patch"] = response.patch;
  if (!response.warnings.empty()) json["warnings"] = response.warnings;
  if (!response.audit_annotations.empty()) json["auditAnnotations"] = response.audit_annotations;
  return json;
}

void run_case(const AdmissionWebhookTestCase& tc, const AdmissionWebhookFactory& factory, const FailureSink& sink) {
  if (tc.skip) return;
  detail::CaseRun run(sink, tc.now, tc.timeout);
  std::unique_ptr<detail::AtExit> clean_up;
  if (!detail::prepare_case(run, tc, clean_up)) return;

  auto configs = detail::build_configs(run, detail::expect_config_of(tc), {});
  if (!configs) return;
  TestedWebhook tested;
  try {
    tested = factory(tc, configs->config);
  } catch (...) {
    run.fatal("the webhook factory threw: " + detail::describe_current_exception());
    return;
  }
  if (!tested) {
    run.fatal("the webhook factory returned no webhook");
    return;
  }

  const webhook::AdmissionRequest request = request_of(tc);
  webhook::AdmissionResponse response;
  bool threw = false;
  try {
    response = tested.handle(request, webhook::HandleOptions{.now = run.now(), .log = run.logger()});
  } catch (...) {
    if (!tc.should_panic) {
      run.fatal("unexpected panic: " + detail::describe_current_exception());
      return;
    }
    threw = true;
  }
  if (tc.should_panic && !threw) run.error("expected the webhook to panic");
  if (!threw) {
    webhook::AdmissionResponse expected = tc.expected_response;
    if (expected.uid.empty()) expected.uid = request.uid;
    if (const std::string diff = diff_json(response_json(expected), response_json(response)); !diff.empty()) {
      run.error("ExpectedResponse differs (-expected, +actual):\n" + diff);
    }
    if (tc.verify) tc.verify(response);
  }
  detail::assert_configs(run, *configs);
}

void run(const AdmissionWebhookTestSuite& suite, const AdmissionWebhookFactory& factory, const FailureSink& sink,
         const char* file, int line) {
  const FailureSink out = sink ? sink : doctest_sink(file, line);
  detail::run_table<AdmissionWebhookTestCase>(
      suite, out, [&](const AdmissionWebhookTestCase& tc, const FailureSink& s) { run_case(tc, factory, s); });
}

void run(const AdmissionWebhookTests& tests, const AdmissionWebhookFactory& factory, const FailureSink& sink,
         const char* file, int line) {
  run(detail::named_cases(tests), factory, sink, file, line);
}

}  // namespace rr::testing
