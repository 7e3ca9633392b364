// InMemoryGatewayReconciler: the tracker example. The table shows what is tracked and written;
// the last test plays the controller's part to show a ConfigMap change coming back through the
// tracker to the gateway that read it.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "fixtures.hpp"
#include "gateway_reconciler.hpp"
#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/event.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/testing/registration.hpp"

namespace {

using fnsample::InMemoryGateway;
using fntest::condition;
using fntest::config_map;
using fntest::with;
using k8s::core::v1::ConfigMap;
using rr::testing::new_event;

constexpr const char* test_namespace = "my-namespace";
constexpr const char* system_namespace = "my-system";

InMemoryGateway gateway_given() {
  InMemoryGateway g;
  g.metadata.namespace_ = test_namespace;
  g.metadata.name = "my-gateway";
  g.metadata.generation = 1;
  return g;
}

InMemoryGateway with_config_missing(InMemoryGateway g) {
  const std::string message = R"(configmaps "gateway" not found)";
  g.status.emplace().conditions = {
      condition("ConfigReady", "False", "ConfigMissing", message),
      condition("Ready", "False", "ConfigMissing", message),
  };
  return g;
}

}  // namespace

RR_RECONCILER_TESTS("InMemoryGatewayReconciler", [](const rr::testing::ReconcilerTestCase&, const rr::Config& config) {
  return fnsample::InMemoryGatewayReconciler(config, system_namespace);
}) {
  const rr::Request request{test_namespace, "my-gateway"};
  const InMemoryGateway gateway = gateway_given();
  const ConfigMap gateway_config = config_map(system_namespace, "gateway", {{"gatewayImage", "registry.example/gateway:1"}});
  const auto track_gateway_config =
      rr::testing::create_track_request("", "ConfigMap", system_namespace, "gateway").by(test_namespace, "my-gateway");

  return rr::testing::ReconcilerTests{
      {"copies the gateway image from the tracked ConfigMap",
       {
           .request = request,
           .given_objects = {gateway, gateway_config},
           .expect_tracks = {rr::testing::new_track_request(gateway_config, gateway)},
           .expect_events = {new_event(gateway, rr::event_normal, "StatusUpdated", "Updated status")},
           .expect_status_updates = {with(gateway,
                                          [](InMemoryGateway& g) {
                                            auto& s = g.status.emplace();
                                            s.observed_generation = 1;
                                            s.gateway_image = "registry.example/gateway:1";
                                            s.conditions = {condition("ConfigReady", "True", "ConfigLoaded"),
                                                            condition("Ready", "True", "Ready")};
                                          })},
       }},
      // The status write succeeds, so the root answers without the error (decision Q4): the
      // write's own watch event brings the gateway back, and then the error is returned (next case).
      {"the ConfigMap is missing: tracked anyway, ConfigReady=False on the status",
       {
           .request = request,
           .given_objects = {gateway},
           .expect_tracks = {track_gateway_config},
           .expect_events = {new_event(gateway, rr::event_normal, "StatusUpdated", "Updated status")},
           .expect_status_updates = {with_config_missing(gateway)},
       }},
      {"the ConfigMap is still missing and the status already says so: the error is returned",
       {
           .request = request,
           .given_objects = {with_config_missing(gateway)},
           .expect_tracks = {track_gateway_config},
           .should_err = true,
       }},
      {"a ConfigMap without gatewayImage: ConfigReady=False",
       {
           .request = request,
           .given_objects = {gateway, config_map(system_namespace, "gateway", {{"provisionerImage", "x"}})},
           .expect_tracks = {track_gateway_config},
           .expect_events = {new_event(gateway, rr::event_normal, "StatusUpdated", "Updated status")},
           .expect_status_updates = {with(gateway,
                                          [](InMemoryGateway& g) {
                                            const std::string message = R"(ConfigMap "my-system/gateway" has no gatewayImage)";
                                            g.status.emplace().conditions = {
                                                condition("ConfigReady", "False", "GatewayImageMissing", message),
                                                condition("Ready", "False", "GatewayImageMissing", message),
                                            };
                                          })},
       }},
  };
}

TEST_CASE("InMemoryGatewayReconciler: a change to the gateway ConfigMap re-drives the gateway through the tracker") {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<InMemoryGateway>();
  cluster->register_kind<ConfigMap>();
  cluster->register_kind<k8s::core::v1::Event>();
  auto client = std::make_shared<rr::ClusterClient>(cluster);
  const rr::Config config = rr::make_config(client);
  const rr::Reconciler reconciler = fnsample::InMemoryGatewayReconciler(config, system_namespace);

  // The controller watches ConfigMaps for the tracker's sake.
  rr::Setup setup(config);
  reconciler.setup(setup);
  const rr::WatchRequest tracked_config_maps{rr::kind_info_of<ConfigMap>(), rr::WatchRequest::Mode::Tracked};
  CHECK(std::count(setup.watches().begin(), setup.watches().end(), tracked_config_maps) == 1);

  client->create(config_map(system_namespace, "gateway", {{"gatewayImage", "registry.example/gateway:1"}}));
  client->create(config_map(system_namespace, "unrelated", {}));
  client->create(gateway_given());
  const rr::Request request{test_namespace, "my-gateway"};
  REQUIRE(reconciler.reconcile(request).error.ok());
  CHECK(client->get<InMemoryGateway>(request).status->gateway_image == "registry.example/gateway:1");

  ConfigMap changed = client->get<ConfigMap>(system_namespace, "gateway");
  (*changed.data)["gatewayImage"] = "registry.example/gateway:2";
  changed = client->update(changed);

  // What the tracked watch does with the change: enqueue the observers of the changed object.
  const std::vector<rr::ObjectKey> observers = config.tracker->get_observers(rr::to_object_json(changed));
  REQUIRE(observers == std::vector<rr::ObjectKey>{request});
  CHECK(config.tracker->get_observers(rr::to_object_json(client->get<ConfigMap>(system_namespace, "unrelated"))).empty());

  for (const auto& key : observers) REQUIRE(reconciler.reconcile(key).error.ok());
  CHECK(client->get<InMemoryGateway>(request).status->gateway_image == "registry.example/gateway:2");
}
