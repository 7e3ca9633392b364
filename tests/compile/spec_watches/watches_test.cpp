// The generated GatewayControllerOptions (tests/golden/cases/spec_watches) run by a controller
// against the in-process cluster: the spec's reconcile timeout, GenerationChanged on the
// Gateways, the ConfigMap watch mapped to Gateways by the hook, behind its label selector and
// hook predicate, and the metadata-only Pod watch, whose hooks get the Pods' metadata. The reconciler is a probe with
// the watches the generated tree has, so the test sees which requests the options let through.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gateway_hooks.hpp"
#include "gateway_reconciler.hpp"
#include "rr/client/client.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/controller.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/core/json.hpp"

namespace gateway {

// The watch hooks in place of the scaffolded no-ops: foreign-* objects are not ours; a settings
// ConfigMap names its Gateways in data.gateways ("a,b"); a Pod names its Gateway in the annotation
// net.example.rrgen.dev/gateway.
bool GatewayHooks::ours_predicate(rr::EventType /*type*/, const Secret* /*old_object*/, const Secret& object) const {
  return !object.metadata.name.starts_with("foreign-");
}
bool GatewayHooks::ours_predicate(rr::EventType /*type*/, const ConfigMap* /*old_object*/,
                                  const ConfigMap& object) const {
  return !object.metadata.name.starts_with("foreign-");
}
std::vector<rr::ObjectKey> GatewayHooks::settings_to_gateways_map(const ConfigMap& object) const {
  std::vector<rr::ObjectKey> keys;
  if (!object.data || !object.data->contains("gateways")) return keys;
  const std::string& names = object.data->at("gateways");
  for (std::size_t start = 0; start < names.size();) {
    const std::size_t comma = std::min(names.find(',', start), names.size());
    keys.push_back({object.metadata.namespace_, names.substr(start, comma - start)});
    start = comma + 1;
  }
  return keys;
}
bool GatewayHooks::ours_predicate(rr::EventType /*type*/, const rr::ObjectMeta* /*old_metadata*/,
                                  const rr::ObjectMeta& metadata) const {
  return !metadata.name.starts_with("foreign-");
}
std::vector<rr::ObjectKey> GatewayHooks::pods_to_gateways_map(const rr::ObjectMeta& metadata) const {
  const auto gateway = metadata.annotations.find("net.example.rrgen.dev/gateway");
  if (gateway == metadata.annotations.end()) return {};
  return {{metadata.namespace_, gateway->second}};
}

}  // namespace gateway

namespace {

using namespace std::chrono_literals;

struct Seen {
  std::mutex mutex;
  std::vector<std::string> keys;
  std::size_t count(const std::string& key) {
    std::lock_guard lock(mutex);
    return static_cast<std::size_t>(std::count(keys.begin(), keys.end(), key));
  }
};

// Watches what the generated tree watches (the wiring test checks those), and records requests.
struct Probe {
  std::shared_ptr<Seen> seen;
  rr::Outcome reconcile(const rr::Request& request, const rr::RequestOptions&) const {
    std::lock_guard lock(seen->mutex);
    seen->keys.push_back(request.str());
    return rr::Outcome{};
  }
  void validate(rr::Validation&) const {}
  void setup(rr::Setup& s) const {
    s.for_kind(rr::kind_info_of<gateway::Gateway>());
    s.watches_tracked(rr::kind_info_of<gateway::Secret>());
    s.owns(rr::kind_info_of<gateway::Deployment>());
    s.watches_tracked(rr::kind_info_of<gateway::Deployment>());
  }
  std::string display_name() const { return "Probe"; }
};

bool eventually(const std::function<bool()>& pred) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return pred();
}

rr::Json object(const rr::KindInfo& kind, const std::string& name, rr::Json labels = rr::Json::object()) {
  return rr::Json{{"apiVersion", kind.gvk.api_version()},
                  {"kind", kind.gvk.kind},
                  {"metadata", {{"namespace", "edge"}, {"name", name}, {"labels", std::move(labels)}}}};
}

}  // namespace

TEST_CASE("generated watches: the options the spec sets") {
  rr::ControllerOptions options;
  gateway::GatewayControllerOptions(options);
  CHECK(options.reconcile_timeout == 45s);
  REQUIRE(options.predicates.size() == 3);
  CHECK(options.predicates[0].mode == rr::WatchRequest::Mode::For);
  CHECK(options.predicates[1].mode == rr::WatchRequest::Mode::Tracked);
  CHECK(options.predicates[1].kind.kind == "Secret");
  CHECK(options.predicates[2].mode == rr::WatchRequest::Mode::Owns);
  CHECK(options.predicates[2].kind.kind == "Deployment");
  REQUIRE(options.watches.size() == 2);
  CHECK(options.watches[0].kind.plural == "configmaps");
  CHECK(options.watches[0].predicates.size() == 2);
  CHECK_FALSE(options.watches[0].metadata_only);
  CHECK(options.watches[1].kind.gvk.kind == "Pod");
  CHECK(options.watches[1].kind.plural == "pods");
  CHECK(options.watches[1].kind.list_kind == "PodList");
  CHECK(options.watches[1].kind.namespaced());
  CHECK(options.watches[1].predicates.size() == 2);
  CHECK(options.watches[1].metadata_only);
}

TEST_CASE("generated watches: a controller with the options filters and maps as the spec says") {
  auto cluster = std::make_shared<rr::Cluster>();
  for (const auto& kind : {rr::kind_info_of<gateway::Gateway>(), rr::kind_info_of<gateway::Secret>(),
                           rr::kind_info_of<gateway::Deployment>(), rr::kind_info_of<gateway::ConfigMap>()}) {
    cluster->register_kind(kind);
  }
  rr::ControllerOptions options;
  options.name = "gateway";
  gateway::GatewayControllerOptions(options);
  const rr::KindInfo pod_kind = options.watches.at(1).kind;
  cluster->register_kind(pod_kind);
  auto api = std::make_shared<rr::ClusterClient>(cluster);
  rr::InformerCacheOptions cache_options;
  cache_options.informer.poll_interval = 20ms;
  auto cache = std::make_shared<rr::InformerCache>(api, cache_options);
  auto seen = std::make_shared<Seen>();
  auto controller = std::make_shared<rr::Controller>(
      std::move(options), [seen](const rr::Config&) -> rr::Reconciler { return Probe{seen}; }, api, cache);
  std::jthread cache_thread([cache](std::stop_token stop) { cache->start(stop); });
  std::jthread controller_thread([controller](std::stop_token stop) { controller->start(stop); });
  REQUIRE(eventually([&] { return controller->ready(); }));

  rr::Json gw = object(rr::kind_info_of<gateway::Gateway>(), "a");
  gw["spec"] = {{"replicas", 1}};
  cluster->create(rr::kind_info_of<gateway::Gateway>(), gw);
  REQUIRE(eventually([&] { return seen->count("edge/a") == 1; }));

  // GenerationChanged: a label-only change of the Gateway is filtered.
  cluster->patch(rr::kind_info_of<gateway::Gateway>(), {"edge", "a"}, rr::PatchType::Merge,
                 R"({"metadata":{"labels":{"x":"y"}}})");
  // The ConfigMap watch: mapped by the hook when the settings label exists and the hook passes it.
  const rr::Json settings_label = {{"net.example.rrgen.dev/settings", "1"}};
  rr::Json settings = object(rr::kind_info_of<gateway::ConfigMap>(), "settings", settings_label);
  settings["data"] = {{"gateways", "b,c"}};
  cluster->create(rr::kind_info_of<gateway::ConfigMap>(), settings);
  rr::Json unlabelled = object(rr::kind_info_of<gateway::ConfigMap>(), "plain");
  unlabelled["data"] = {{"gateways", "d"}};
  cluster->create(rr::kind_info_of<gateway::ConfigMap>(), unlabelled);
  rr::Json foreign = object(rr::kind_info_of<gateway::ConfigMap>(), "foreign-settings", settings_label);
  foreign["data"] = {{"gateways", "e"}};
  cluster->create(rr::kind_info_of<gateway::ConfigMap>(), foreign);
  REQUIRE(eventually([&] { return seen->count("edge/b") == 1 && seen->count("edge/c") == 1; }));
  std::this_thread::sleep_for(200ms);  // what was filtered would have arrived by now
  CHECK(seen->count("edge/a") == 1);
  CHECK(seen->count("edge/d") == 0);
  CHECK(seen->count("edge/e") == 0);

  cluster->patch(rr::kind_info_of<gateway::Gateway>(), {"edge", "a"}, rr::PatchType::Merge,
                 R"({"spec":{"replicas":2}})");
  REQUIRE(eventually([&] { return seen->count("edge/a") == 2; }));

  // The metadata-only Pod watch: mapped from the annotation by the hook, which gets the metadata;
  // a spec change leaves the annotations as they were (AnnotationChanged), a foreign Pod is not ours.
  rr::Json pod = object(pod_kind, "web-0");
  pod["metadata"]["annotations"] = {{"net.example.rrgen.dev/gateway", "f"}};
  pod["spec"] = {{"containers", rr::Json::array({{{"name", "web"}, {"image", "nginx"}}})}};
  cluster->create(pod_kind, pod);
  rr::Json foreign_pod = object(pod_kind, "foreign-0");
  foreign_pod["metadata"]["annotations"] = {{"net.example.rrgen.dev/gateway", "g"}};
  cluster->create(pod_kind, foreign_pod);
  REQUIRE(eventually([&] { return seen->count("edge/f") == 1; }));
  cluster->patch(pod_kind, {"edge", "web-0"}, rr::PatchType::Merge, R"({"spec":{"activeDeadlineSeconds":5}})");
  cluster->patch(pod_kind, {"edge", "web-0"}, rr::PatchType::Merge,
                 R"({"metadata":{"annotations":{"net.example.rrgen.dev/gateway":"h"}}})");
  REQUIRE(eventually([&] { return seen->count("edge/h") == 1; }));
  std::this_thread::sleep_for(200ms);
  CHECK(seen->count("edge/f") == 2);  // the old metadata's Gateway, once more for the annotation change
  CHECK(seen->count("edge/g") == 0);
  // The Pods' informer is metadata-only: it keeps no spec.
  auto pods = cache->metadata_informer(pod_kind);
  REQUIRE(pods->get({"edge", "web-0"}).has_value());
  CHECK_FALSE(pods->get({"edge", "web-0"})->contains("spec"));
}
