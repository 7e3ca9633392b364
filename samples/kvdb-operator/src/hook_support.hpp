// What the hooks of every step share: the children's labels, the condition manager, and how a
// child the cluster refused is reported.
#pragma once
#include <map>
#include <string>
#include <string_view>

#include "kvdb_hooks.hpp"
#include "rr/reconcilers/conditions.hpp"

namespace kvdb::support {

// The labels the pods are selected by: one store's pods, not another's.
std::map<std::string, std::string> selector_labels(const KeyValueStore& store);
// The selector labels, the store's own labels and managed-by: what every child carries.
std::map<std::string, std::string> child_labels(const KeyValueStore& store);

rr::ConditionManager conditions_of(rr::Context& ctx, KeyValueStore& store);

// A child that is not there, reported on condition `type`: one the cluster refused (`err`:
// AlreadyExists, someone else's object holds the name; Forbidden; Invalid) is False with the
// error's reason, one not created yet (`exists` false) Unknown NotCreated. False when there is a
// child to reflect.
bool mark_missing_child(rr::ConditionManager& conditions, std::string_view type, const rr::Error& err, bool exists,
                        std::string_view kind, const std::string& name);

}  // namespace kvdb::support
