// The WebApp webhooks' hooks (reconciler.yaml's webhooks:), called by the generated
// webapp_webhooks.cpp: defaulting, validation against a deny-list held in the cluster, and the
// typed conversion between v1alpha1 and the hub v1 (rr::webhook::Conversion copies the metadata
// before a hook runs).
#include <optional>
#include <sstream>
#include <string>

#include "rr/client/client.hpp"
#include "rr/core/go_quote.hpp"
#include "rr/core/json.hpp"
#include "webapp_hooks.hpp"

namespace webapp {

namespace {

// The deny-list entry `image` starts with, if any.
std::optional<std::string> denied_prefix(const ConfigMap& policy, const std::string& image) {
  if (!policy.data) return std::nullopt;
  const auto denied = policy.data->find("denied");
  if (denied == policy.data->end()) return std::nullopt;
  std::istringstream lines(denied->second);
  for (std::string prefix; std::getline(lines, prefix);) {
    if (!prefix.empty() && image.rfind(prefix, 0) == 0) return prefix;
  }
  return std::nullopt;
}

// Allowed, but worth saying.
void warn_zero_replicas(const WebApp& app, std::vector<std::string>& warnings) {
  if (app.spec && app.spec->replicas && *app.spec->replicas == 0) {
    warnings.push_back("spec.replicas is 0: the WebApp serves nothing until it is scaled up");
  }
}

// Checks spec.image against the namespace's deny-list (none: every image is allowed).
rr::Error check_image(rr::Context& ctx, const WebApp& app) {
  const std::string image = app.spec ? app.spec->image : std::string();
  const std::optional<ConfigMap> policy = ctx.config().api().try_get<ConfigMap>(
      {app.metadata.namespace_, std::string(image_policy_config_map)});
  if (policy) {
    if (const auto prefix = denied_prefix(*policy, image)) {
      return rr::Error::make("spec.image " + rr::go_quote(image) + " is denied by ConfigMap " +
                             app.metadata.namespace_ + "/" + std::string(image_policy_config_map) + " (prefix " +
                             rr::go_quote(*prefix) + ")");
    }
  }
  return {};
}

// Between the versions' identical structs (status): through their JSON.
template <class To, class From>
To same_shape(const From& from) {
  return rr::Json(from).get<To>();
}

}  // namespace

rr::Error WebAppHooks::webhook_default(rr::Context& /*ctx*/, WebApp& app) const {
  app.metadata.labels.try_emplace(std::string(app_label), app.metadata.name);
  return {};
}

rr::Error WebAppHooks::webhook_validate_create(rr::Context& ctx, const WebApp& app,
                                               std::vector<std::string>& warnings) const {
  warn_zero_replicas(app, warnings);
  return check_image(ctx, app);
}

rr::Error WebAppHooks::webhook_validate_update(rr::Context& ctx, const WebApp& old_app, const WebApp& app,
                                               std::vector<std::string>& warnings) const {
  warn_zero_replicas(app, warnings);
  const bool image_changed = !old_app.spec || !app.spec || old_app.spec->image != app.spec->image;
  return image_changed ? check_image(ctx, app) : rr::Error{};
}

rr::Error WebAppHooks::convert_v1alpha1_to_hub(const WebAppV1alpha1& from, WebApp& hub) const {
  if (from.spec) {
    v1::WebAppSpec& spec = hub.spec.emplace();
    spec.image = from.spec->image;
    spec.replicas = from.spec->replicas;
    spec.config_map_name = from.spec->config_map_name;
    if (from.spec->dns) spec.hostname = from.spec->dns->hostname;
    // spec.port: v1alpha1 has none. A v1 port comes back from the conversion's annotation.
  }
  if (from.status) hub.status = same_shape<v1::WebAppStatus>(*from.status);
  return {};
}

rr::Error WebAppHooks::convert_v1alpha1_from_hub(const WebApp& hub, WebAppV1alpha1& to) const {
  if (hub.spec) {
    v1alpha1::WebAppSpec& spec = to.spec.emplace();
    spec.image = hub.spec->image;
    spec.replicas = hub.spec->replicas;
    spec.config_map_name = hub.spec->config_map_name;
    if (hub.spec->hostname) spec.dns.emplace().hostname = hub.spec->hostname;
  }
  if (hub.status) to.status = same_shape<v1alpha1::WebAppStatus>(*hub.status);
  return {};
}

}  // namespace webapp
