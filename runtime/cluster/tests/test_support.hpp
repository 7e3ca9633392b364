// Shared fixtures of the cluster tests: a pinned clock, a few unstructured kinds, and a helper
// that runs a call expected to fail and returns the Status it failed with.
#pragma once
#include <doctest/doctest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"

namespace cluster_test {

using rr::Json;

// 2024-05-01T12:00:00Z, with a tick the test can advance.
struct PinnedClock {
  std::chrono::system_clock::time_point now = std::chrono::system_clock::time_point(std::chrono::seconds(1714564800));
};
inline constexpr const char* pinned_time = "2024-05-01T12:00:00Z";

// ConfigMap-like: core group, namespaced, no status subresource, no admission.
inline rr::KindInfo config_map_kind() {
  return {.gvk = {"", "v1", "ConfigMap"}, .plural = "configmaps", .list_kind = "ConfigMapList"};
}
// A custom resource with the status subresource and no admission.
inline rr::KindInfo thing_kind() {
  return {.gvk = {"things.test", "v1", "Thing"}, .plural = "things", .list_kind = "ThingList", .has_status = true};
}
// The same shape without the status subresource.
inline rr::KindInfo plain_thing_kind() {
  return {.gvk = {"things.test", "v1", "PlainThing"}, .plural = "plainthings", .list_kind = "PlainThingList"};
}
// Cluster-scoped.
inline rr::KindInfo namespace_kind() {
  return {.gvk = {"", "v1", "Namespace"}, .plural = "namespaces", .list_kind = "NamespaceList",
          .scope = rr::Scope::Cluster, .has_status = true};
}
inline rr::KindInfo cluster_thing_kind() {
  return {.gvk = {"things.test", "v1", "ClusterThing"}, .plural = "clusterthings",
          .list_kind = "ClusterThingList", .scope = rr::Scope::Cluster};
}

// Options with one member changed (designated initializers trip -Wmissing-field-initializers).
inline rr::ClusterOptions seeded(std::uint64_t seed) {
  rr::ClusterOptions o;
  o.seed = seed;
  return o;
}
inline rr::ClusterOptions counter_names() {
  rr::ClusterOptions o;
  o.counter_generate_name = true;
  return o;
}
inline rr::ClusterOptions with_namespaces() {
  rr::ClusterOptions o;
  o.require_namespaces = true;
  return o;
}
// A watch starting after resourceVersion `rv`.
inline rr::ListOptions since(std::string rv) {
  rr::ListOptions o;
  o.resource_version = std::move(rv);
  return o;
}
inline rr::WriteOptions dry_run() {
  rr::WriteOptions o;
  o.dry_run = true;
  return o;
}

// A cluster with the pinned clock and every unstructured kind above registered.
inline std::shared_ptr<rr::Cluster> make_cluster(rr::ClusterOptions options = {},
                                                 std::shared_ptr<PinnedClock> clock = std::make_shared<PinnedClock>()) {
  options.clock = [clock] { return clock->now; };
  auto cluster = std::make_shared<rr::Cluster>(std::move(options));
  for (const auto& kind :
       {config_map_kind(), thing_kind(), plain_thing_kind(), namespace_kind(), cluster_thing_kind()}) {
    cluster->register_kind(kind);
  }
  return cluster;
}

inline Json config_map(const std::string& ns, const std::string& name, Json data = Json::object()) {
  return Json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"namespace", ns}, {"name", name}}},
              {"data", std::move(data)}};
}

inline const Json& managed_fields(const Json& object) { return object["metadata"]["managedFields"]; }

// Write options of a server-side apply (or any write) by field manager `name`.
inline rr::WriteOptions manager(std::string name, bool force = false) {
  rr::WriteOptions o;
  o.field_manager = std::move(name);
  o.force = force;
  return o;
}

inline Json thing(const std::string& ns, const std::string& name) {
  return Json{{"apiVersion", "things.test/v1"}, {"kind", "Thing"}, {"metadata", {{"namespace", ns}, {"name", name}}},
              {"spec", {{"size", 1}}}};
}

inline Json plain_thing(const std::string& ns, const std::string& name) {
  Json j = thing(ns, name);
  j["kind"] = "PlainThing";
  return j;
}

// The Status a call fails with; fails the test when it does not throw rr::ApiError.
inline rr::Status failure_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const rr::ApiError& e) {
    return e.status();
  }
  FAIL("expected the call to fail with an rr::ApiError");
  return {};
}

inline std::string rv_of(const Json& object) { return object["metadata"]["resourceVersion"].get<std::string>(); }
inline std::int64_t generation_of(const Json& object) {
  return object["metadata"].value("generation", std::int64_t{0});
}

// An ownerReference to `owner`.
inline Json owner_ref(const Json& owner, bool controller = false, bool block_owner_deletion = false) {
  Json ref = {{"apiVersion", owner["apiVersion"]},
              {"kind", owner["kind"]},
              {"name", owner["metadata"]["name"]},
              {"uid", owner["metadata"]["uid"]}};
  if (controller) ref["controller"] = true;
  if (block_owner_deletion) ref["blockOwnerDeletion"] = true;
  return ref;
}

}  // namespace cluster_test
