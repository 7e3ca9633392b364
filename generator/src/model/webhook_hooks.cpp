#include "model/webhook_hooks.hpp"

#include <filesystem>

#include "support/naming.hpp"

namespace rrgen {
namespace webhook_contract {
namespace {

// "WebApp" + "v1alpha1" -> "WebAppV1alpha1": a version's alias beside the resource's.
std::string version_alias(const std::string& resource_alias, const std::string& version) {
  std::string v = version;
  if (!v.empty()) v[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(v[0])));
  return resource_alias + v;
}

WebhookHook make(WebhookHookRole role, std::string webhook, Location at, std::string name,
                 std::vector<HookParam> params, std::string doc, std::size_t spoke = 0) {
  return WebhookHook{role,          std::move(webhook), at, spoke, std::move(name), "rr::Error", std::move(params),
                     std::move(doc)};
}

}  // namespace
}  // namespace webhook_contract

WebhookNames webhook_names(const ResolvedSpec& spec, const WiringNames& names) {
  using namespace webhook_contract;
  WebhookNames n;
  n.header = names.stem + "_webhooks.hpp";
  n.source = names.stem + "_webhooks.cpp";
  n.register_function = "Register" + names.name + "Webhooks";
  n.defaulting_function = names.name + "DefaultingWebhook";
  n.validation_function = names.name + "ValidationWebhook";
  n.conversion_function = names.name + "Conversion";
  if (spec.webhooks && spec.webhooks->conversion) {
    const ResolvedConversion& c = *spec.webhooks->conversion;
    n.hub_alias = c.hub.cpp_type == spec.resource.cpp_type ? names.resource_alias
                                                           : version_alias(names.resource_alias, c.hub.version);
    for (const ResolvedKind& spoke : c.spokes)
      n.spoke_aliases.push_back(spoke.cpp_type == spec.resource.cpp_type
                                    ? names.resource_alias
                                    : version_alias(names.resource_alias, spoke.version));
  }
  return n;
}

std::vector<WebhookHook> webhook_hooks(const ResolvedSpec& spec, const WiringNames& names) {
  using namespace webhook_contract;
  std::vector<WebhookHook> out;
  if (!spec.webhooks) return out;
  const ResolvedWebhooks& w = *spec.webhooks;
  const std::string& t = names.resource_alias;
  const std::string& r = names.resource_param;
  const HookParam ctx{"rr::Context&", "ctx"};
  const HookParam warnings{"std::vector<std::string>&", "warnings"};
  if (w.defaulting) {
    out.push_back(make(WebhookHookRole::Default, "defaulting", w.defaulting->location, "webhook_default",
                       {ctx, {t + "&", r}},
                       "Sets the defaults of a " + t +
                           " being created or updated (the mutating webhook): what you "
                           "change becomes the JSON patch the API server applies. An error refuses the request."));
  }
  if (w.validation) {
    for (const std::string& op : w.validation->operations) {
      if (op == "CREATE") {
        out.push_back(make(WebhookHookRole::ValidateCreate, "validation", w.validation->location,
                           "webhook_validate_create", {ctx, {"const " + t + "&", r}, warnings},
                           "Whether a new " + t +
                               " may be created: an error denies it with its message (an rr::ApiError's "
                               "Status is sent as it is); warnings go back to the client either way."));
      } else if (op == "UPDATE") {
        out.push_back(
            make(WebhookHookRole::ValidateUpdate, "validation", w.validation->location, "webhook_validate_update",
                 {ctx, {"const " + t + "&", "old_" + r}, {"const " + t + "&", r}, warnings},
                 "Whether a " + t + " may change from old_" + r + " to " + r +
                     ": an error denies the update with its message; warnings go back to the client either way."));
      } else if (op == "DELETE") {
        out.push_back(make(WebhookHookRole::ValidateDelete, "validation", w.validation->location,
                           "webhook_validate_delete", {ctx, {"const " + t + "&", r}, warnings},
                           "Whether a " + t +
                               " may be deleted: an error denies the deletion with its message; warnings "
                               "go back to the client either way."));
      }
    }
  }
  if (w.conversion) {
    const WebhookNames n = webhook_names(spec, names);
    const ResolvedConversion& c = *w.conversion;
    for (std::size_t i = 0; i < c.spokes.size(); ++i) {
      const std::string& spoke = n.spoke_aliases[i];
      const std::string& version = c.spokes[i].version;
      out.push_back(make(WebhookHookRole::ToHub, "conversion", c.location, "convert_" + field_name(version) + "_to_hub",
                         {{"const " + spoke + "&", "from"}, {n.hub_alias + "&", "hub"}},
                         "Converts a " + version + " " + spec.resource.kind + " up to the hub version " +
                             c.hub.version + ". Metadata is copied for you; fields " + version +
                             " cannot hold come back from the "
                             "rrgen.dev/conversion-data annotation on their own.",
                         i));
      out.push_back(make(
          WebhookHookRole::FromHub, "conversion", c.location, "convert_" + field_name(version) + "_from_hub",
          {{"const " + n.hub_alias + "&", "hub"}, {spoke + "&", "to"}},
          "Converts the hub version " + c.hub.version + " down to " + version + ". Metadata is copied for you; what " +
              version + " cannot hold is kept in the rrgen.dev/conversion-data annotation.",
          i));
    }
  }
  return out;
}

std::string webhook_hook_signature(const WebhookHook& hook, bool with_names) {
  return hook_signature(Hook{0, HookRole::Sync, hook.name, hook.return_type, hook.params, hook.doc}, with_names);
}

std::string webhook_location(const ResolvedSpec& spec, const WebhookHook& hook) {
  const std::string file = hook.location.file ? *hook.location.file : spec.file;
  std::string out = file.empty() ? "reconciler.yaml" : std::filesystem::path(file).filename().string();
  if (hook.location.line > 0)
    out += ":" + std::to_string(hook.location.line) + ":" + std::to_string(hook.location.column);
  return out;
}

}  // namespace rrgen
