#include "gateway_reconciler.hpp"

#include <string>
#include <utility>

#include "config_data.hpp"
#include "rr/reconcilers/resource.hpp"
#include "rr/reconcilers/sync.hpp"

namespace fnsample {

using k8s::core::v1::ConfigMap;

const rr::ConditionSet& gateway_conditions() {
  static const rr::ConditionSet set = rr::ConditionSet::living({std::string(condition_config_ready)});
  return set;
}

rr::Reconciler InMemoryGatewayReconciler(const rr::Config& config, std::string system_namespace) {
  return rr::ResourceReconciler<InMemoryGateway>{
      .name = "InMemoryGateway",
      .conditions = gateway_conditions(),
      .reconciler = InMemoryGatewaySyncConfigReconciler(std::move(system_namespace)),
      .config = config,
  };
}

rr::SubReconciler<InMemoryGateway> InMemoryGatewaySyncConfigReconciler(std::string system_namespace) {
  return rr::SyncReconciler<InMemoryGateway>{
      .name = "SyncConfig",
      // Changes to tracked ConfigMaps enqueue the gateways tracking them.
      .on_setup = [](rr::Setup& s) { s.watches_tracked(rr::kind_info_of<ConfigMap>()); },
      .sync = [system_namespace = std::move(system_namespace)](rr::Context& ctx, InMemoryGateway& gateway) -> rr::Error {
        rr::ConditionManager conditions = gateway_conditions().manage(rr::ensure_conditions(gateway), ctx.now());
        ConfigMap config;
        // track_and_get tracks before it reads: a gateway waiting for a missing ConfigMap is
        // re-driven when the ConfigMap is created.
        if (rr::Error err = rr::call_hook([&] {
              config = rr::track_and_get<ConfigMap>(ctx, {system_namespace, std::string(gateway_config_map)});
              return rr::Error{};
            })) {
          conditions.mark_false(condition_config_ready, rr::is_not_found(err) ? "ConfigMissing" : "ConfigUnavailable",
                                err.message());
          return err;
        }
        std::string image = config_value(config, gateway_image_key);
        if (image.empty()) {
          const std::string why = "ConfigMap " + rr::go_quote(system_namespace + "/" + std::string(gateway_config_map)) +
                                  " has no " + std::string(gateway_image_key);
          conditions.mark_false(condition_config_ready, "GatewayImageMissing", why);
          return rr::Error::make(why);
        }
        rr::ensure_status(gateway).gateway_image = std::move(image);
        conditions.mark_true(condition_config_ready, "ConfigLoaded");
        return {};
      },
  };
}

}  // namespace fnsample
