// Table tests of an admission webhook (reconciler.io's AdmissionWebhookTestCase): a row gives the
// admission request, the world the webhook's client sees, and what the webhook must answer and do.
//
// - The request is `request`, or, when that is unset, built from the shortcuts `operation`,
//   `object` and `old_object`: uid "test-uid", kind from the object's apiVersion and kind (the
//   old object's for a DELETE), name and namespace from its metadata (no resource).
// - `expected_response` is compared with the response as a whole: allowed, status (code,
//   reason, message, details), warnings, audit annotations and the patch, operation by operation;
//   its uid defaults to the request's. A difference fails the case with a field-level diff:
//
//     ExpectedResponse differs (-expected, +actual):
//       patch[0].value: -"nginx:2" +"nginx:3"
//
// - The factory builds the webhook over the case's Config (an AdmissionWebhookAdapter<T>, handled
//   with the case's pinned `now` and the harness's logger, or any AdmissionHandler).
// - Client calls, events and tracks are expected as in the other tables (ExpectConfig).
// - `should_panic`: an exception escaping the webhook is expected (the adapter itself turns a
//   tree's exceptions into a denial).
//
// Registration: RR_ADMISSION_WEBHOOK_TESTS (rr/testing/registration.hpp) registers a table's
// cases through AdmissionWebhookTable and register_admission_webhook_tests below.
#pragma once
#include <doctest/doctest.h>

#include <any>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rr/testing/detail/table.hpp"
#include "rr/testing/expect_config.hpp"
#include "rr/webhook/admission_webhook_adapter.hpp"

namespace rr::testing {

// The webhook a factory returns: an adapter (run with the case's clock and logger) or a handler.
class TestedWebhook {
 public:
  TestedWebhook() = default;  // none: the case fails
  template <class T>
  TestedWebhook(webhook::AdmissionWebhookAdapter<T> adapter)  // NOLINT(google-explicit-constructor)
      : handle_([adapter = std::move(adapter)](const webhook::AdmissionRequest& request,
                                               const webhook::HandleOptions& options) {
          return adapter.handle(request, options);
        }) {}
  TestedWebhook(webhook::AdmissionHandler handler)  // NOLINT(google-explicit-constructor)
      : handle_([handler = std::move(handler)](const webhook::AdmissionRequest& request,
                                               const webhook::HandleOptions&) { return handler(request); }) {}

  explicit operator bool() const noexcept { return static_cast<bool>(handle_); }
  webhook::AdmissionResponse handle(const webhook::AdmissionRequest& request,
                                    const webhook::HandleOptions& options) const {
    return handle_(request, options);
  }

 private:
  std::function<webhook::AdmissionResponse(const webhook::AdmissionRequest&, const webhook::HandleOptions&)> handle_;
};

struct AdmissionWebhookTestCase {
  std::string name{};
  bool focus = false;
  bool skip = false;
  std::map<std::string, std::any> metadata{};

  // --- inputs ---
  std::optional<webhook::AdmissionRequest> request{};
  webhook::Operation operation = webhook::Operation::Create;  // the shortcuts, when `request` is unset
  Json object{};
  Json old_object{};
  std::vector<AnyObject> given_objects{};
  std::vector<AnyObject> api_given_objects{};
  std::vector<TrackRequest> given_tracks{};
  std::vector<Reactor> with_reactors{};
  std::optional<std::vector<GroupVersionKind>> status_subresource_types{};

  // --- expected side effects ---
  std::vector<TrackRequest> expect_tracks{};
  std::vector<Event> expect_events{};
  std::vector<AnyObject> expect_creates{};
  std::vector<AnyObject> expect_updates{};
  std::vector<PatchRef> expect_patches{};
  std::vector<DeleteRef> expect_deletes{};
  std::vector<DeleteCollectionRef> expect_delete_collections{};
  std::vector<AnyObject> expect_status_updates{};
  std::vector<PatchRef> expect_status_patches{};
  std::vector<ApplyRef> expect_applies{};  // server-side applies (refs.hpp new_apply)
  std::vector<ApplyRef> expect_status_applies{};

  // --- outputs ---
  bool should_panic = false;
  webhook::AdmissionResponse expected_response{};
  std::function<void(const webhook::AdmissionResponse&)> verify{};

  // --- lifecycle ---
  std::function<Error(const AdmissionWebhookTestCase&)> prepare{};   // an error is fatal
  std::function<Error(const AdmissionWebhookTestCase&)> clean_up{};  // an error fails the case
  std::optional<std::chrono::system_clock::time_point> now{};
  std::optional<std::chrono::nanoseconds> timeout{};
};

using AdmissionWebhookTests = std::map<std::string, AdmissionWebhookTestCase>;  // runs in name order
using AdmissionWebhookTestSuite = std::vector<AdmissionWebhookTestCase>;        // runs in the order listed
using AdmissionWebhookFactory = std::function<TestedWebhook(const AdmissionWebhookTestCase&, const Config&)>;

// The request a case sends (see the header comment).
webhook::AdmissionRequest request_of(const AdmissionWebhookTestCase& tc);
// A response as the harness compares it: the AdmissionResponse members, as JSON.
Json response_json(const webhook::AdmissionResponse& response);

void run_case(const AdmissionWebhookTestCase& tc, const AdmissionWebhookFactory& factory, const FailureSink& sink);
void run(const AdmissionWebhookTestSuite& suite, const AdmissionWebhookFactory& factory, const FailureSink& sink = {},
         const char* file = __builtin_FILE(), int line = __builtin_LINE());
void run(const AdmissionWebhookTests& tests, const AdmissionWebhookFactory& factory, const FailureSink& sink = {},
         const char* file = __builtin_FILE(), int line = __builtin_LINE());

// A table as RR_ADMISSION_WEBHOOK_TESTS takes it: either form converts.
struct AdmissionWebhookTable {
  AdmissionWebhookTable(const AdmissionWebhookTests& tests) : cases(detail::named_cases(tests)) {}  // NOLINT
  AdmissionWebhookTable(AdmissionWebhookTestSuite suite) : cases(std::move(suite)) {}               // NOLINT
  std::vector<AdmissionWebhookTestCase> cases{};
};

int register_admission_webhook_tests(const char* suite, AdmissionWebhookFactory factory,
                                     AdmissionWebhookTable (*table)(), const char* file, int line,
                                     const doctest::detail::TestSuite& doctest_suite);

}  // namespace rr::testing
