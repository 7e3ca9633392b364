// What the WebApp tables share: the WebApp they start from, its children as the cluster should
// receive them, its conditions, and the per-case DNS provider. Objects are built with the
// generated dies (webapp_dies.hpp); the expected children are written out field by field, not
// computed by the hooks under test.
#pragma once
#include <any>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "k8s/apps/v1/deployment_apply.hpp"
#include "k8s/core/v1/service_apply.hpp"
#include "rr/client/apply.hpp"
#include "rr/core/int_or_string.hpp"
#include "rr/testing/as_applied.hpp"
#include "rr/testing/refs.hpp"
#include "rr/testing/test_client.hpp"
#include "webapp_dies.hpp"
#include "webapp_hooks.hpp"

namespace webapp_test {

using webapp::dies::condition;
using webapp::dies::ConfigMapDie;
using webapp::dies::DeploymentDie;
using webapp::dies::ServiceDie;
using webapp::dies::WebAppDie;

inline constexpr const char* test_namespace = "test-namespace";
inline constexpr const char* app_name = "test-webapp";
inline constexpr const char* app_image = "registry.example/hello:1.0";
// Where the Service answers: what status.url and the DNS record point at.
inline constexpr const char* service_host = "test-webapp.test-namespace.svc.cluster.local";
inline constexpr const char* dns_finalizer = "web.example.rrgen.dev/dns-record";

// A WebApp as the API server hands it out: uid (for owner references), generation, an image,
// and the CRD's defaults applied (replicas 1, port 8080). The test cluster stores given objects
// as they are and defaults them on their next write: a WebApp given without its defaults would
// have its spec changed, and its generation bumped, by the finalizer patch.
inline WebAppDie web_app() {
  return WebAppDie()
      .namespace_(test_namespace)
      .name(app_name)
      .uid("webapp-uid")
      .generation(1)
      .spec_image(app_image)
      .spec_replicas(1)
      .spec_port(8080);
}

// --- conditions ---

// The five conditions the manager keeps, sorted by type. Each starts as the root reconciler
// initialises it (Unknown, Initializing); a case names only those it expects to differ.
struct Conditions {
  rr::Condition config = condition("ConfigReady", "Unknown", "Initializing");
  rr::Condition deployment = condition("DeploymentReady", "Unknown", "Initializing");
  rr::Condition dns = condition("DnsReady", "Unknown", "Initializing");
  rr::Condition ready = condition("Ready", "Unknown", "Initializing");
  rr::Condition service = condition("ServiceReady", "Unknown", "Initializing");
};

inline std::vector<rr::Condition> conditions(const Conditions& c) {
  return {c.config, c.deployment, c.dns, c.ready, c.service};
}

// The message of a child condition when an object of the child's name is not the WebApp's.
inline std::string not_owned(const std::string& kind) {
  return "There is an existing " + kind + " \"" + std::string(app_name) + "\" that the WebApp does not own.";
}

// Every condition True, Ready with its happy reason.
inline std::vector<rr::Condition> all_ready(std::string config_reason = "NoConfig") {
  return conditions({
      .config = condition("ConfigReady", "True", std::move(config_reason)),
      .deployment = condition("DeploymentReady", "True", "Available"),
      .dns = condition("DnsReady", "True", "Published"),
      .ready = condition("Ready", "True", "Ready"),
      .service = condition("ServiceReady", "True", "Exposed"),
  });
}

// --- children ---

// The labels both children carry.
inline std::map<std::string, std::string> child_labels() {
  return {{"app.kubernetes.io/managed-by", "webapp-operator"}, {"app.kubernetes.io/name", app_name}};
}

// What the Deployment runs, as the WebApp's spec and status say.
struct Workload {
  std::string image = app_image;
  std::int32_t replicas = 1;
  std::int32_t port = 8080;
  std::string config_map{};   // "": no envFrom
  std::string config_hash{};  // "": no annotation on the pod template
};

// The Deployment "test-webapp" as the reconciler submits it (controlled by web_app()).
inline DeploymentDie deployment(const Workload& w = {}) {
  return DeploymentDie()
      .namespace_(test_namespace)
      .name(app_name)
      .metadata([](rr::ObjectMeta& m) { m.labels = child_labels(); })
      .controlled_by(web_app())
      .spec([&](k8s::apps::v1::DeploymentSpec& spec) {
        spec.replicas = w.replicas;
        spec.selector.match_labels = std::map<std::string, std::string>{{"app.kubernetes.io/name", app_name}};
        auto& meta = spec.template_.metadata.emplace();
        meta.labels = child_labels();
        if (!w.config_hash.empty()) meta.annotations = {{"web.example.rrgen.dev/config-hash", w.config_hash}};
        k8s::core::v1::Container container;
        container.name = "app";
        container.image = w.image;
        k8s::core::v1::ContainerPort port;
        port.name = "http";
        port.container_port = w.port;
        port.protocol = "TCP";
        container.ports = std::vector<k8s::core::v1::ContainerPort>{port};
        if (!w.config_map.empty()) {
          k8s::core::v1::EnvFromSource from;
          from.config_map_ref.emplace().name = w.config_map;
          container.env_from = std::vector<k8s::core::v1::EnvFromSource>{from};
        }
        spec.template_.spec.emplace().containers = {container};
      });
}

// The Service "test-webapp" as the reconciler submits it: port 80 to `target_port` of the pods.
inline ServiceDie service(std::int32_t target_port = 8080) {
  k8s::core::v1::ServicePort port;
  port.name = "http";
  port.port = 80;
  port.target_port = rr::IntOrString(target_port);
  port.protocol = "TCP";
  return ServiceDie()
      .namespace_(test_namespace)
      .name(app_name)
      .metadata([](rr::ObjectMeta& m) { m.labels = child_labels(); })
      .controlled_by(web_app())
      .spec_selector({{"app.kubernetes.io/name", app_name}})
      .spec_ports({port});
}

// --- the children as applied (write: apply) ---

inline constexpr const char* field_manager = "webapp";  // the controller's name

// The metadata both applied configurations carry: name, namespace, the labels and the controller
// reference to web_app() that the step adds.
inline rr::ObjectMetaApply applied_metadata() {
  rr::OwnerReference owner;
  owner.api_version = "web.example.rrgen.dev/v1";
  owner.kind = "WebApp";
  owner.name = app_name;
  owner.uid = "webapp-uid";
  owner.controller = true;
  owner.block_owner_deletion = true;
  return {.name = app_name,
          .namespace_ = test_namespace,
          .labels = child_labels(),
          .owner_references = std::vector<rr::OwnerReference>{owner}};
}

// The Deployment's apply configuration the step sends for `w`.
inline webapp::DeploymentApply deployment_apply(const Workload& w = {}) {
  webapp::DeploymentApply d;
  d.metadata = applied_metadata();
  auto& spec = d.spec.emplace();
  spec.replicas = w.replicas;
  rr::LabelSelector selector;
  selector.match_labels = std::map<std::string, std::string>{{"app.kubernetes.io/name", app_name}};
  spec.selector = selector;
  auto& tmpl = spec.template_.emplace();
  auto& meta = tmpl.metadata.emplace();
  meta.labels = child_labels();
  if (!w.config_hash.empty()) {
    meta.annotations = std::map<std::string, std::string>{{"web.example.rrgen.dev/config-hash", w.config_hash}};
  }
  k8s::core::v1::ContainerApply container;
  container.name = "app";
  container.image = w.image;
  k8s::core::v1::ContainerPortApply port;
  port.name = "http";
  port.container_port = w.port;
  port.protocol = "TCP";
  container.ports = std::vector<k8s::core::v1::ContainerPortApply>{port};
  if (!w.config_map.empty()) {
    k8s::core::v1::EnvFromSourceApply from;
    from.config_map_ref.emplace().name = w.config_map;
    container.env_from = std::vector<k8s::core::v1::EnvFromSourceApply>{from};
  }
  tmpl.spec.emplace().containers = std::vector<k8s::core::v1::ContainerApply>{container};
  return d;
}

// The Service's apply configuration: port 80 to `target_port` of the pods.
inline webapp::ServiceApply service_apply(std::int32_t target_port = 8080) {
  webapp::ServiceApply s;
  s.metadata = applied_metadata();
  auto& spec = s.spec.emplace();
  spec.selector = std::map<std::string, std::string>{{"app.kubernetes.io/name", app_name}};
  k8s::core::v1::ServicePortApply port;
  port.name = "http";
  port.port = 80;
  port.target_port = rr::IntOrString(target_port);
  port.protocol = "TCP";
  spec.ports = std::vector<k8s::core::v1::ServicePortApply>{port};
  return s;
}

// What the step's apply sends, as expect_applies lists it.
template <class A>
rr::testing::ApplyRef applied(const A& config) {
  return rr::testing::new_apply(config, field_manager);
}

// The child as the API server keeps it after the step applied `config`: applied to an in-memory
// cluster of its own, so managedFields are the server's (the step then finds it in sync).
template <class A>
typename A::object_type as_applied(const A& config) {
  return rr::testing::as_applied(config, field_manager);
}

// --- the DNS provider ---

// Each case that reaches DNS gets its own provider, handed to the factory through the case's
// metadata under this key and checked by the case's `verify`.
inline constexpr const char* dns_key = "dns";

inline std::shared_ptr<webapp::InMemoryDns> dns_of(const std::map<std::string, std::any>& metadata) {
  return std::any_cast<std::shared_ptr<webapp::InMemoryDns>>(metadata.at(dns_key));
}

// A provider that already has `hostname -> target` (which counts as one change).
inline std::shared_ptr<webapp::InMemoryDns> dns_with(const std::string& hostname, const std::string& target) {
  auto dns = std::make_shared<webapp::InMemoryDns>();
  dns->upsert(hostname, target);
  return dns;
}

// The hooks the wiring calls, publishing to the case's provider.
inline std::shared_ptr<const webapp::WebAppHooks> hooks_with(std::shared_ptr<webapp::DnsProvider> dns) {
  auto hooks = std::make_shared<webapp::WebAppHooks>();
  hooks->dns = std::move(dns);
  return hooks;
}

// --- the finalizer patches (exact bytes, locked on the given resourceVersion "999") ---

inline rr::testing::PatchRef finalizer_patch(const char* body) {
  return rr::testing::PatchRef{.group = "web.example.rrgen.dev",
                               .kind = "WebApp",
                               .namespace_ = test_namespace,
                               .name = app_name,
                               .patch_type = rr::PatchType::Merge,
                               .patch = body};
}
inline rr::testing::PatchRef add_finalizer_patch() {
  return finalizer_patch(R"({"metadata":{"finalizers":["web.example.rrgen.dev/dns-record"],"resourceVersion":"999"}})");
}
inline rr::testing::PatchRef clear_finalizer_patch() {
  return finalizer_patch(R"({"metadata":{"finalizers":null,"resourceVersion":"999"}})");
}

}  // namespace webapp_test
