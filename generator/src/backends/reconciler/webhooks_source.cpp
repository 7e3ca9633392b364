// <stem>_webhooks.hpp/.cpp: the spec's webhooks onto rr::webhook, calling the hooks of
// model/webhook_hooks.hpp. Validation follows controller-runtime's validating webhook: warnings go
// back either way, an error denies the request (its Status when it carries one, else 403
// Forbidden with its message).
#include <set>
#include <stdexcept>

#include "backends/reconciler/emit_webhooks.hpp"
#include "backends/reconciler/wiring_text.hpp"
#include "model/webhook_hooks.hpp"
#include "support/naming.hpp"
#include "support/text_template.hpp"

namespace rrgen {
namespace wiring {
namespace {

struct WebhookCtx {
  const Ctx& c;
  const WebhookNames& names;
  const std::vector<WebhookHook>& hooks;
  const ResolvedWebhooks& webhooks;
};

std::string webhook_concept_name(const WebhookHook& h) { return "Has" + pascal_case(h.name); }

std::string webhook_hook_check(const WebhookCtx& w, const WebhookHook& h) {
  std::vector<std::string> params{"const H& hooks"};
  std::string args;
  for (const HookParam& p : h.params) {
    params.push_back(p.type + " " + p.name);
    args += (args.empty() ? "" : ", ") + p.name;
  }
  const std::string message = "rrgen: webhook '" + h.webhook + "' (" + webhook_location(w.c.spec, h) +
                              ") needs hook '" + webhook_hook_signature(h, false) + "' in struct " +
                              w.c.names.hooks_struct + " (" + w.c.names.hooks_header + ")";
  Printer p("webhook hook check");
  p.print(R"(template <class H>
$concept$
  { $call$ } -> std::convertible_to<$ret$>;
};
static_assert($name$<$hooks$>,
              $message$);
)",
          {{"concept", wrap_parameters("concept " + webhook_concept_name(h) + " = requires", params, " {", 0)},
           {"call", "hooks." + h.name + "(" + args + ")"},
           {"ret", h.return_type},
           {"name", webhook_concept_name(h)},
           {"hooks", w.c.names.hooks_struct},
           {"message", cpp_string_literal(message)}});
  return p.take();
}

const WebhookHook* webhook_hook(const WebhookCtx& w, WebhookHookRole role, std::size_t spoke = 0) {
  for (const WebhookHook& h : w.hooks)
    if (h.role == role && h.spoke == spoke) return &h;
  return nullptr;
}

std::string adapter_type(const Ctx& c) {
  return "rr::webhook::AdmissionWebhookAdapter<" + c.names.resource_alias + ">";
}
std::string config_param() { return "const rr::Config& config"; }

// "defaulting  POST /mutate-...: webhook_default" lines for the header's comment.
std::string webhook_table(const WebhookCtx& w) {
  Printer p("webhook table");
  auto hook_list = [&](const std::string& webhook) {
    std::string out;
    for (const WebhookHook& h : w.hooks)
      if (h.webhook == webhook) out += (out.empty() ? "" : ", ") + h.name;
    return out;
  };
  if (w.webhooks.defaulting) {
    p.print("//   defaulting  $path$ (mutating; $ops$): $hooks$",
            {{"path", w.webhooks.defaulting->path},
             {"ops", join_operations(w.webhooks.defaulting->operations)},
             {"hooks", hook_list("defaulting")}});
  }
  if (w.webhooks.validation) {
    p.print("//   validation  $path$ ($ops$): $hooks$", {{"path", w.webhooks.validation->path},
                                                         {"ops", join_operations(w.webhooks.validation->operations)},
                                                         {"hooks", hook_list("validation")}});
  }
  if (w.webhooks.conversion) {
    p.print("//   conversion  $path$ (hub $hub$): $hooks$", {{"path", w.webhooks.conversion->path},
                                                             {"hub", w.webhooks.conversion->hub.version},
                                                             {"hooks", hook_list("conversion")}});
  }
  return p.take_block();
}

std::string header_declarations(const WebhookCtx& w) {
  const Ctx& c = w.c;
  const std::string hooks = hooks_param(c) + " = nullptr";
  Printer p("webhook declarations");
  p.print(R"(// Every webhook above on `server`, at the paths config/webhook/manifests.yaml and the CRD's
// conversion patch name. `hooks` serve every request, concurrently (nullptr: a default-constructed
// $hooks_struct$).
$register$)",
          {{"hooks_struct", c.names.hooks_struct},
           {"register", wrap_parameters("void " + w.names.register_function,
                                        {"rr::webhook::Server& server", config_param(), hooks}, ";", 0)}});
  if (w.webhooks.defaulting) {
    p.print(R"(
// The defaulting webhook on its own (tests: rr::testing::AdmissionWebhookTests).
$declaration$)",
            {{"declaration",
              wrap_parameters(adapter_type(c) + " " + w.names.defaulting_function, {config_param(), hooks}, ";", 0)}});
  }
  if (w.webhooks.validation) {
    p.print(R"(
// The validating webhook on its own (tests: rr::testing::AdmissionWebhookTests).
$declaration$)",
            {{"declaration",
              wrap_parameters(adapter_type(c) + " " + w.names.validation_function, {config_param(), hooks}, ";", 0)}});
  }
  if (w.webhooks.conversion) {
    p.print(R"(
// The conversion between the served versions, through the hub $hub$.
$declaration$)",
            {{"hub", w.names.hub_alias},
             {"declaration",
              wrap_parameters("rr::webhook::Conversion<" + w.names.hub_alias + "> " + w.names.conversion_function,
                              {hooks}, ";", 0)}});
  }
  return p.take_block();
}

std::string paths_struct(const WebhookCtx& w) {
  Printer members("paths");
  if (w.webhooks.defaulting)
    members.print("static constexpr std::string_view defaulting = $p$;",
                  {{"p", cpp_string_literal(w.webhooks.defaulting->path)}});
  if (w.webhooks.validation)
    members.print("static constexpr std::string_view validation = $p$;",
                  {{"p", cpp_string_literal(w.webhooks.validation->path)}});
  if (w.webhooks.conversion)
    members.print("static constexpr std::string_view conversion = $p$;",
                  {{"p", cpp_string_literal(w.webhooks.conversion->path)}});
  Printer p("paths struct");
  p.print(R"(// Where the webhook server serves each webhook (config/webhook names the same paths).
struct $name$WebhookPaths {
  $members$
};)",
          {{"name", w.c.names.name}, {"members", members.take_block()}});
  return p.take_block();
}

std::string emit_webhooks_header(const WebhookCtx& w) {
  const Ctx& c = w.c;
  std::set<std::string> local{c.names.reconciler_header, "rr/reconcilers/config.hpp", "rr/webhook/server.hpp"};
  if (w.webhooks.defaulting || w.webhooks.validation) local.insert("rr/webhook/admission_webhook_adapter.hpp");
  if (w.webhooks.conversion) local.insert("rr/webhook/conversion.hpp");
  Printer p("webhooks header");
  p.print(R"($banner$
// The $name$ webhooks, each calling hooks of struct $hooks$ ($hooks_header$, yours):
$table$
#pragma once
$includes$

$namespace_open$

$paths$

$declarations$

$namespace_close$)",
          {{"banner", banner(c)},
           {"name", c.names.name},
           {"hooks", c.names.hooks_struct},
           {"hooks_header", c.names.hooks_header},
           {"table", webhook_table(w)},
           {"includes", include_block({"memory", "string_view"}, local)},
           {"namespace_open", namespace_open(c.spec.cpp_namespace)},
           {"paths", paths_struct(w)},
           {"declarations", header_declarations(w)},
           {"namespace_close", namespace_close(c.spec.cpp_namespace)}});
  return p.take();
}

std::string defaulting_function(const WebhookCtx& w) {
  const Ctx& c = w.c;
  const std::string& t = c.names.resource_alias;
  const std::string& r = c.names.resource_param;
  Printer p("defaulting function");
  p.print(R"($signature$
  hooks = hooks_or_default(std::move(hooks));
  return $adapter${
      .name = $name$,
      .reconciler =
          rr::SyncReconciler<$t$>{
              .name = "Default",
              .sync_during_finalization = true,
              .sync = [hooks](rr::Context& ctx, $t$& $r$) -> rr::Error {
                return hooks->webhook_default(ctx, $r$);
              },
          },
      .config = config,
  };
})",
          {{"signature", wrap_parameters(adapter_type(c) + " " + w.names.defaulting_function,
                                         {config_param(), hooks_param(c)}, " {", 0)},
           {"adapter", adapter_type(c)},
           {"name", cpp_string_literal(c.names.name + "Defaulting")},
           {"t", t},
           {"r", r}});
  return p.take_block();
}

std::string validation_function(const WebhookCtx& w) {
  const Ctx& c = w.c;
  const std::string& t = c.names.resource_alias;
  const std::string& r = c.names.resource_param;
  Printer cases("validation cases");
  if (webhook_hook(w, WebhookHookRole::ValidateCreate)) {
    cases.print(R"(case rr::webhook::Operation::Create:
  err = hooks->webhook_validate_create(ctx, $r$, warnings);
  break;)",
                {{"r", r}});
  }
  if (webhook_hook(w, WebhookHookRole::ValidateUpdate)) {
    cases.print(R"(case rr::webhook::Operation::Update: {
  const $t$ old_$r$ = rr::from_object_json<$t$>(request.old_object);
  err = hooks->webhook_validate_update(ctx, old_$r$, $r$, warnings);
  break;
})",
                {{"t", t}, {"r", r}});
  }
  if (webhook_hook(w, WebhookHookRole::ValidateDelete)) {
    cases.print(R"(case rr::webhook::Operation::Delete:
  err = hooks->webhook_validate_delete(ctx, $r$, warnings);
  break;)",
                {{"r", r}});
  }
  cases.print(R"(default:  // an operation the spec does not list: config/webhook does not send it
  break;)");
  Printer p("validation function");
  p.print(R"($signature$
  hooks = hooks_or_default(std::move(hooks));
  return $adapter${
      .name = $name$,
      .reconciler =
          rr::SyncReconciler<$t$>{
              .name = "Validate",
              .sync_during_finalization = true,
              .sync = [hooks](rr::Context& ctx, $t$& $r$) -> rr::Error {
                const rr::webhook::AdmissionRequest& request = rr::webhook::admission_request(ctx);
                std::vector<std::string> warnings;
                rr::Error err;
                switch (request.operation) {
                  $cases$
                }
                return respond(ctx, std::move(warnings), err);
              },
          },
      .config = config,
  };
})",
          {{"signature", wrap_parameters(adapter_type(c) + " " + w.names.validation_function,
                                         {config_param(), hooks_param(c)}, " {", 0)},
           {"adapter", adapter_type(c)},
           {"name", cpp_string_literal(c.names.name + "Validation")},
           {"t", t},
           {"r", r},
           {"cases", cases.take_block()}});
  return p.take_block();
}

std::string conversion_function(const WebhookCtx& w) {
  const Ctx& c = w.c;
  const std::string& hub = w.names.hub_alias;
  Printer spokes("spokes");
  for (std::size_t i = 0; i < w.names.spoke_aliases.size(); ++i) {
    const std::string& spoke = w.names.spoke_aliases[i];
    spokes.print(R"(conversion.spoke<$spoke$>(
    [hooks](const $spoke$& from, $hub$& hub) -> rr::Error { return hooks->$to$(from, hub); },
    [hooks](const $hub$& hub, $spoke$& to) -> rr::Error { return hooks->$from$(hub, to); });)",
                 {{"spoke", spoke},
                  {"hub", hub},
                  {"to", webhook_hook(w, WebhookHookRole::ToHub, i)->name},
                  {"from", webhook_hook(w, WebhookHookRole::FromHub, i)->name}});
  }
  Printer p("conversion function");
  p.print(R"($signature$
  hooks = hooks_or_default(std::move(hooks));
  rr::webhook::Conversion<$hub$> conversion;
  $spokes$
  return conversion;
})",
          {{"signature", wrap_parameters("rr::webhook::Conversion<" + hub + "> " + w.names.conversion_function,
                                         {hooks_param(c)}, " {", 0)},
           {"hub", hub},
           {"spokes", spokes.take_block()}});
  return p.take_block();
}

std::string register_function(const WebhookCtx& w) {
  const Ctx& c = w.c;
  Printer calls("registrations");
  const std::string paths = c.names.name + "WebhookPaths";
  if (w.webhooks.defaulting)
    calls.print("server.handle_admission(std::string($paths$::defaulting), $f$(config, hooks).handler());",
                {{"paths", paths}, {"f", w.names.defaulting_function}});
  if (w.webhooks.validation)
    calls.print("server.handle_admission(std::string($paths$::validation), $f$(config, hooks).handler());",
                {{"paths", paths}, {"f", w.names.validation_function}});
  if (w.webhooks.conversion)
    calls.print("server.handle_conversion(std::string($paths$::conversion), $f$(hooks).handler());",
                {{"paths", paths}, {"f", w.names.conversion_function}});
  Printer p("register function");
  p.print(
      R"($signature$
  hooks = hooks_or_default(std::move(hooks));
  $calls$
})",
      {{"signature", wrap_parameters("void " + w.names.register_function,
                                     {"rr::webhook::Server& server",
                                      w.webhooks.defaulting || w.webhooks.validation ? config_param()
                                                                                     : "const rr::Config& /*config*/",
                                      hooks_param(c)},
                                     " {", 0)},
       {"calls", calls.take_block()}});
  return p.take_block();
}

std::string respond_helper(const WebhookCtx& w) {
  if (!w.webhooks.validation) return "";
  Printer p("respond");
  p.print(R"(// controller-runtime's validating webhook: the warnings go back either way; an error denies the
// request with its Status when it carries one (an rr::ApiError), else 403 Forbidden and its message.
rr::Error respond(rr::Context& ctx, std::vector<std::string> warnings, const rr::Error& err) {
  rr::webhook::AdmissionResponse& response = rr::webhook::admission_response(ctx);
  for (std::string& warning : warnings) response.warnings.push_back(std::move(warning));
  if (!err) return {};
  response.allowed = false;
  rr::Status forbidden;
  forbidden.message = err.message();
  forbidden.reason = "Forbidden";
  forbidden.code = 403;
  response.status = err.status().value_or(std::move(forbidden));
  return {};
}

)");
  return p.take_block();
}

std::string emit_webhooks_source(const WebhookCtx& w) {
  const Ctx& c = w.c;
  std::set<std::string> local{c.names.hooks_header};
  if (w.webhooks.defaulting || w.webhooks.validation) local.insert("rr/reconcilers/sync.hpp");
  if (w.webhooks.validation) local.insert("rr/client/client.hpp");
  Printer checks("webhook checks");
  for (const WebhookHook& h : w.hooks) checks.line(webhook_hook_check(w, h));
  Printer functions("webhook functions");
  functions.print("$f$\n", {{"f", register_function(w)}});
  if (w.webhooks.defaulting) functions.print("\n$f$\n", {{"f", defaulting_function(w)}});
  if (w.webhooks.validation) functions.print("\n$f$\n", {{"f", validation_function(w)}});
  if (w.webhooks.conversion) functions.print("\n$f$\n", {{"f", conversion_function(w)}});
  Printer p("webhooks source");
  p.print(R"($banner$
// The $name$ webhooks' wiring ($header$). Each hook they call is checked below: one
// that $hooks_header$ lacks, or declares with another signature, fails the build with a message
// naming it.
#include "$header$"

$includes$

$namespace_open$
namespace {

// The hooks the spec's webhooks require, each as the wiring calls it: through a const
// $hooks$& (a const or static member function).
$checks$
$hooks_or_default$

$respond$
}  // namespace

$functions$

$namespace_close$)",
          {{"banner", banner(c)},
           {"name", c.names.name},
           {"header", w.names.header},
           {"hooks_header", c.names.hooks_header},
           {"includes",
            include_block({"concepts", "memory", "stdexcept", "string", "type_traits", "utility", "vector"}, local)},
           {"namespace_open", namespace_open(c.spec.cpp_namespace)},
           {"hooks", c.names.hooks_struct},
           {"checks", checks.take_block()},
           {"hooks_or_default", hooks_or_default(c, w.names.register_function)},
           {"respond", respond_helper(w)},
           {"functions", functions.take_block()},
           {"namespace_close", namespace_close(c.spec.cpp_namespace)}});
  return p.take();
}

}  // namespace

std::string join_operations(const std::vector<std::string>& operations) {
  std::string out;
  for (const std::string& op : operations) out += (out.empty() ? "" : ", ") + op;
  return out;
}

}  // namespace wiring

OutputSet emit_webhooks(const ResolvedSpec& spec, const GenerateOptions& options) {
  OutputSet out;
  if (!spec.webhooks) return out;
  const WiringNames names = wiring_names(spec);
  const wiring::Ctx c{spec, names, options, required_hooks(spec, names), wiring::condition_constants(spec)};
  const WebhookNames webhook = webhook_names(spec, names);
  const std::vector<WebhookHook> hooks = webhook_hooks(spec, names);
  const wiring::WebhookCtx w{c, webhook, hooks, *spec.webhooks};
  out.files.push_back({webhook.header, wiring::emit_webhooks_header(w)});
  out.files.push_back({webhook.source, wiring::emit_webhooks_source(w)});
  return out;
}

}  // namespace rrgen
