// The hooks of the Fleet reconciler (fleet_hooks.hpp). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it. Each hook
// starts as a harmless no-op marked TODO(you), and the scaffolded tests pass with
// them as they are. Fill them in one at a time, each with a case in its step's
// table (tests/<step>_test.cpp) that shows what it does.
#include "fleet_hooks.hpp"

namespace fleet {

rr::Outcome FleetHooks::inventory_sync(rr::Context& /*ctx*/, Fleet& /*resource*/) const {
  // TODO(you): bring the Fleet up to date for step Inventory: read what
  // it needs, do the work, record the outcome in its status (a condition says
  // how it went). An error stops the steps after this one and is retried
  // with backoff.
  return {};
}

rr::Outcome FleetHooks::inventory_finalize(rr::Context& /*ctx*/, Fleet& /*resource*/) const {
  // TODO(you): the Fleet is being deleted: undo what inventory_sync
  // did outside the cluster.
  // It runs only while another finalizer keeps the Fleet (this step adds none: give it `finalizer:`
  // in the spec for that).
  return {};
}

rr::DesiredChildren<ConfigMap> FleetHooks::shards_desired(rr::Context& /*ctx*/,
                                                          const Fleet& /*resource*/) const {
  // TODO(you): build the ConfigMaps this Fleet needs, each with its own
  // ID (shards_identify). As scaffolded, none: no ConfigMap of this step
  // should exist, existing ones are deleted.
  return {};
}

std::string FleetHooks::shards_identify(const ConfigMap& child) const {
  // TODO(you): a stable ID of the ConfigMap, the same for the desired object
  // and for it once created (a label desired sets, say). As scaffolded: its
  // name, so give desired children fixed names (not generateName).
  return child.metadata.name;
}

void FleetHooks::shards_merge(ConfigMap& current, const ConfigMap& desired) const {
  // TODO(you): copy onto current what this step owns in desired, and keep
  // what the server or other controllers set (a Service's clusterIP, say).
  // As scaffolded: the labels, binary_data, data and immutable.
  current.metadata.labels = desired.metadata.labels;
  current.binary_data = desired.binary_data;
  current.data = desired.data;
  current.immutable = desired.immutable;
}

void FleetHooks::shards_reflect(rr::Context& /*ctx*/, Fleet& /*resource*/,
                                const rr::ChildSetResult<ConfigMap>& /*result*/) const {
  // TODO(you): report the ConfigMaps on the Fleet's status.
  // result.children holds, per ID, the ConfigMap as persisted (none when
  // deleted or failed) and the error that was reflected;
  // result.aggregate_error() joins them. As scaffolded: nothing.
}

bool FleetHooks::shards_our_child(const Fleet& /*resource*/, const ConfigMap& /*child*/) const {
  // TODO(you): whether child belongs to this step and this Fleet. In
  // finalizer mode children carry no owner reference: mark them in desired (a
  // label) and recognise them here. As scaffolded: none is, so no ConfigMap
  // is ever found (nor deleted).
  return false;
}

rr::ListOptions FleetHooks::shards_list_options(rr::Context& /*ctx*/, const Fleet& resource) const {
  // TODO(you): where this step's ConfigMaps are listed before shards_our_child
  // picks its own (a label selector narrows it). As scaffolded: every namespace.
  rr::ListOptions options;
  options.namespace_ = resource.metadata.namespace_;
  return options;
}

}  // namespace fleet
