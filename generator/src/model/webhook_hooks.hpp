// The webhook side of the hooks contract (docs/reconciler-spec.md#webhooks): the names the
// generated webhook wiring (<stem>_webhooks.hpp/.cpp), its scaffolds and config/webhook share,
// and the hooks each webhook of the spec requires, members of the same struct <Name>Hooks as
// the reconciler's hooks, called through a `const <Name>Hooks&`:
//
//   defaulting  rr::Error webhook_default(rr::Context&, T&)
//   validation  rr::Error webhook_validate_create(rr::Context&, const T&, std::vector<std::string>& warnings)
//               rr::Error webhook_validate_update(rr::Context&, const T& old, const T&, std::vector<std::string>&
//               warnings) rr::Error webhook_validate_delete(rr::Context&, const T&, std::vector<std::string>& warnings)
//               (one per operation the spec lists; an error denies the request with its message)
//   conversion  rr::Error convert_<spoke>_to_hub(const Spoke&, Hub&)
//               rr::Error convert_<spoke>_from_hub(const Hub&, Spoke&)
//               (one pair per served version besides the hub)
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "model/hooks.hpp"
#include "model/reconciler.hpp"

namespace rrgen {

enum class WebhookHookRole { Default, ValidateCreate, ValidateUpdate, ValidateDelete, ToHub, FromHub };

struct WebhookHook {
  WebhookHookRole role = WebhookHookRole::Default;
  std::string webhook;      // "defaulting", "validation", "conversion": the spec's key
  Location location;        // of that key's mapping
  std::size_t spoke = 0;    // ToHub / FromHub: index into ResolvedConversion::spokes
  std::string name;         // "webhook_default"
  std::string return_type;  // "rr::Error"
  std::vector<HookParam> params;
  std::string doc;  // what the hook decides
};

struct WebhookNames {
  std::string header;                      // "web_app_webhooks.hpp"
  std::string source;                      // "web_app_webhooks.cpp"
  std::string register_function;           // "RegisterWebAppWebhooks": every webhook onto a server
  std::string defaulting_function;         // "WebAppDefaultingWebhook": the adapter, for tests
  std::string validation_function;         // "WebAppValidationWebhook"
  std::string conversion_function;         // "WebAppConversion": rr::webhook::Conversion<Hub>
  std::string hub_alias;                   // "WebApp" (the resource's alias when the hub is its version)
  std::vector<std::string> spoke_aliases;  // parallel to spokes: "WebAppV1alpha1"
};

WebhookNames webhook_names(const ResolvedSpec& spec, const WiringNames& names);

// Every hook the spec's webhooks require: defaulting, validation by operation, conversion by spoke.
std::vector<WebhookHook> webhook_hooks(const ResolvedSpec& spec, const WiringNames& names);

// "rr::Error webhook_default(rr::Context& ctx, WebApp& web_app) const" (with_names) or without names.
std::string webhook_hook_signature(const WebhookHook& hook, bool with_names);

// "reconciler.yaml:21:15": where the webhook is written, with the spec file's base name.
std::string webhook_location(const ResolvedSpec& spec, const WebhookHook& hook);

}  // namespace rrgen
