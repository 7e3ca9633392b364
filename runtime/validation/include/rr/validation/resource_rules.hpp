// Which name rule each resource's validation gives ValidateObjectMeta, and the metadata checks the
// API server runs around a create or an update (rest.BeforeCreate / BeforeUpdate and the strategies).
#pragma once
#include <optional>
#include <span>
#include <string_view>

#include "rr/core/json.hpp"
#include "rr/validation/field_error.hpp"
#include "rr/validation/names.hpp"

namespace rr::validation {

struct MetadataRules {
  NameRule name = NameRule::DNSSubdomain;
  // The strategy validates ObjectMeta itself (with `name`); when false only the generic
  // path-segment check of rest.BeforeCreate applies (PodDisruptionBudget, core/v1 Event).
  bool strategy_validates_metadata = true;
  // pkg/apis/core/validation's wrapper: a finalizer without '/' must be a standard one. Built-in
  // kinds only; a custom resource gets warnings instead (custom_resource_finalizer_warnings).
  bool kube_finalizer_names = true;
  // The kind's own validation has a name rule beyond `name` that this layer does not apply yet
  // (an IPAddress named by its address, an APIService's <version>.<group>...).
  bool kind_specific_name_rule = false;
};

struct NameTableEntry {
  std::string_view group;     // "" for the core group
  std::string_view resource;  // the plural
  MetadataRules rules;
};

// The built-in resources of Kubernetes 1.35 that are stored (not the reviews), in group order.
std::span<const NameTableEntry> builtin_name_table();
// The rules of a built-in resource; nullopt when (group, resource) is not one.
std::optional<MetadataRules> builtin_metadata_rules(std::string_view group, std::string_view resource);
// A custom resource: NameIsDNSSubdomain (apiextensions-apiserver's customResourceValidator).
MetadataRules custom_resource_metadata_rules();

// rest.BeforeCreate's metadata checks, after name generation: the strategy's ObjectMeta validation
// (when it has one), and only if that found nothing, the generic one with path-segment names.
ErrorList validate_create_metadata(const Json& metadata, bool namespaced, const MetadataRules& rules);

// rest.BeforeUpdate's: the generic ObjectMeta validation with path-segment names and
// ValidateObjectMetaAccessorUpdate, plus the built-in kinds' finalizer names. Identical findings
// are reported once (upstream may repeat a cause when a kind's strategy runs the same check again;
// the Status message, which deduplicates, is the same).
ErrorList validate_update_metadata(const Json& new_metadata, const Json& old_metadata, bool namespaced,
                                   const MetadataRules& rules);

}  // namespace rr::validation
