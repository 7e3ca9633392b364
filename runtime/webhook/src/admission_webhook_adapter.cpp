// The non-template parts of AdmissionWebhookAdapter (see admission_webhook_adapter.hpp).
#include "rr/webhook/admission_webhook_adapter.hpp"

#include <nlohmann/json.hpp>

namespace rr::webhook {
namespace {

// reconciler.io's stash keys for the same two values; the stash holds pointers to them.
const Stasher<const AdmissionRequest*> request_stasher("reconciler.io/runtime:admission-request");
const Stasher<AdmissionResponse*> response_stasher("reconciler.io/runtime:admission-response");

}  // namespace

const AdmissionRequest& admission_request(const Context& ctx) {
  const std::optional<const AdmissionRequest*> request = request_stasher.retrieve(ctx);
  if (!request || *request == nullptr) {
    throw StashError("rr::webhook::admission_request: not handling an admission request");
  }
  return **request;
}

AdmissionResponse& admission_response(Context& ctx) {
  const std::optional<AdmissionResponse*> response = response_stasher.retrieve(ctx);
  if (!response || *response == nullptr) {
    throw StashError("rr::webhook::admission_response: not handling an admission request");
  }
  return **response;
}

bool handling_admission(const Context& ctx) { return request_stasher.has(ctx); }

namespace adapter_detail {

void stash(Context& ctx, const AdmissionRequest& request, AdmissionResponse& response) {
  request_stasher.store(ctx, &request);
  response_stasher.store(ctx, &response);
}

Logger request_logger(const Logger& base, std::string_view name, const AdmissionRequest& request) {
  const std::string resource = request.resource.group.empty()
                                   ? request.resource.resource
                                   : request.resource.resource + "." + request.resource.group;
  return base.named("controller-runtime.webhook.webhooks")
      .named(name)
      .with("UID", request.uid)
      .with("kind", gvk_text(request.kind))
      .with("resource", resource)
      .with("operation", std::string(operation_name(request.operation)));
}

KindInfo kind_of(const AdmissionRequest& request) {
  KindInfo kind;
  kind.gvk = request.kind;
  kind.plural = request.resource.resource;
  kind.scope = request.namespace_.empty() ? Scope::Cluster : Scope::Namespaced;
  return kind;
}

void deny(AdmissionResponse& response, const Error& err) {
  response.allowed = false;
  if (response.status) return;
  Status& status = response.status.emplace();
  status.code = 500;
  status.message = err.message();
}

}  // namespace adapter_detail
}  // namespace rr::webhook
