// Every member type rrgen crd maps, and the markers on them (golden/all_members/): the CRD
// rrgen types then reads without a diagnostic.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rr/core/int_or_string.hpp"
#include "rr/core/meta.hpp"
#include "rr/core/nullable.hpp"
#include "rr/core/open_enum.hpp"
#include "rr/core/optional.hpp"
#include "rr/core/quantity.hpp"
#include "rr/core/time.hpp"

namespace sink::v1beta1 {

// How the sink stores what it receives.
// +kubebuilder:validation:Enum=Memory;Disk
enum class Storage { Memory, Disk, Unused };

enum class Level { Low, High };

struct Port {
  std::string name;
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=65535
  std::int32_t port;
  // +kubebuilder:default="TCP"
  rr::Optional<std::string> protocol;
};

// +kubebuilder:validation:XValidation:rule="self.minReplicas <= self.maxReplicas",message="min above max"
struct Scaling {
  // +kubebuilder:validation:ExclusiveMinimum=true
  // +kubebuilder:validation:Minimum=0
  std::int32_t min_replicas;
  std::int32_t max_replicas;
};

struct SinkSpec {
  bool enabled;
  std::int64_t size_bytes;
  std::uint32_t small_unsigned;
  // +kubebuilder:validation:MultipleOf=0.5
  double ratio;
  rr::Time not_before;
  rr::Quantity memory;
  rr::IntOrString max_unavailable;
  // Anything at all.
  rr::Json settings;
  Storage storage;
  rr::OpenEnum<Level> level;
  // +kubebuilder:validation:MinItems=1
  // +kubebuilder:validation:MaxItems=8
  // +listType=map
  // +listMapKey=name
  std::vector<Port> ports;
  // +listType=set
  std::optional<std::vector<std::string>> tags;
  // +mapType=granular
  // +kubebuilder:validation:MaxProperties=16
  std::map<std::string, std::string> labels;
  rr::Nullable<std::string> note;
  Scaling scaling;
  rr::LabelSelector selector;
  rr::Optional<rr::LocalObjectReference> secret_ref;
  // The JSON name given: rrgen types would name it url_template.
  // +json:name=URLTemplate
  rr::Optional<std::string> url_template;
  // +kubebuilder:default={"a": [1, 2], "b": "c"}
  rr::Optional<rr::Json> defaults;
  rr::Optional<std::string> namespace_;
};

// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,shortName=sk,categories=all
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.scaling.maxReplicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:printcolumn:name=Replicas,type=integer,JSONPath=.status.replicas,priority=1,description="Pods running"
struct Sink {
  rr::ObjectMeta metadata;
  SinkSpec spec;
  // +optional
  rr::Optional<rr::Json> status;
};

}  // namespace sink::v1beta1
