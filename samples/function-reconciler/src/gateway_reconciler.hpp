// The tracker example of reconciler.io's README (projectriff's streaming/inmemorygateway_reconciler.go):
// an InMemoryGateway runs the image named by the "gateway" ConfigMap of the system namespace. The
// ConfigMap is tracked, so changing it re-drives every gateway that read it.
#pragma once
#include <string>
#include <string_view>

#include "fnsample/v1/in_memory_gateway.hpp"
#include "rr/reconcilers/conditions.hpp"
#include "rr/reconcilers/root.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace fnsample {

using v1::InMemoryGateway;

inline constexpr std::string_view gateway_config_map = "gateway";
inline constexpr std::string_view gateway_image_key = "gatewayImage";
inline constexpr std::string_view condition_config_ready = "ConfigReady";

// Ready follows ConfigReady.
const rr::ConditionSet& gateway_conditions();

rr::Reconciler InMemoryGatewayReconciler(const rr::Config& config, std::string system_namespace);

// track_and_get's the ConfigMap "gateway" of `system_namespace` and copies data["gatewayImage"]
// to status.gatewayImage; a missing ConfigMap or key is ConfigReady=False and the error. Its setup
// asks for a tracked watch of ConfigMaps (reconciler.io's EnqueueTracked).
rr::SubReconciler<InMemoryGateway> InMemoryGatewaySyncConfigReconciler(std::string system_namespace);

}  // namespace fnsample
