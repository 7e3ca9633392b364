// The scale subresource (autoscaling/v1 Scale) of a kind that has one: where its replicas and
// selector live, the Scale read from an object, and a Scale written back into it.
#pragma once
#include <optional>
#include <string>

#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

struct ScalePaths {
  Json::json_pointer spec_replicas{"/spec/replicas"};
  Json::json_pointer status_replicas{"/status/replicas"};
  // A built-in kind's selector is its spec.selector (a LabelSelector, or ReplicationController's
  // map); a CRD names a string member (labelSelectorPath), or none.
  std::optional<Json::json_pointer> selector_string;
  bool builtin = true;
};

// A CRD version's subresources.scale; nullopt when it declares none. Its paths are JSONPaths
// (".spec.replicas"); one that is not a plain member path gives nullopt too.
std::optional<ScalePaths> crd_scale_paths(const Json& crd, const std::string& version);

// The Scale of an object (metadata: name, namespace, uid, resourceVersion, creationTimestamp).
Json scale_of(const Json& object, const ScalePaths& paths);

// metav1.FormatLabelSelector: "app=web,tier in (a,b),!debug"; "" for no selector.
std::string format_label_selector(const Json& selector);

}  // namespace rr::apiserver_detail
