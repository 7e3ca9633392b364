// The webhook wiring of a spec with `webhooks:` (docs/reconciler-spec.md#webhooks), regenerated on
// every run beside the reconciler's; nothing for a spec without webhooks:
//
//   <stem>_webhooks.hpp   Register<Name>Webhooks(server, config, hooks) and one function per
//                         webhook: <Name>DefaultingWebhook and <Name>ValidationWebhook
//                         (rr::webhook::AdmissionWebhookAdapter<T>), <Name>Conversion
//                         (rr::webhook::Conversion<Hub>); the paths config/webhook names
//   <stem>_webhooks.cpp   a concept and a static_assert per webhook hook (a missing or mistyped
//                         hook fails the build naming it), then the adapters over the hooks
#pragma once
#include "model/reconciler.hpp"
#include "support/generate_options.hpp"
#include "support/output.hpp"

namespace rrgen {

OutputSet emit_webhooks(const ResolvedSpec& spec, const GenerateOptions& options);

}  // namespace rrgen
