// The webapp-operator sample's WebApp (samples/webapp-operator/crds/webapps.yaml) written as C++
// types with kubebuilder markers: `rrgen crd --group web.example.rrgen.dev` on this header gives a
// CRD from which `rrgen types` generates the same code as from the sample's hand-written CRD.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "rr/core/meta.hpp"
#include "rr/core/optional.hpp"

namespace webapp::v1 {

struct WebAppSpec {
  // The container image to run.
  // +kubebuilder:validation:MinLength=1
  std::string image;
  // How many pods to run.
  // +kubebuilder:validation:Minimum=0
  // +kubebuilder:default=1
  rr::Optional<std::int32_t> replicas;
  // The port the container listens on; the Service exposes it on port 80.
  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=65535
  // +kubebuilder:default=8080
  rr::Optional<std::int32_t> port;
  // A ConfigMap of the WebApp's namespace whose keys become the container's
  // environment. A change to it rolls the pods.
  rr::Optional<std::string> config_map_name;
  // A DNS name to publish for the WebApp (in the external DNS provider).
  // +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
  rr::Optional<std::string> hostname;
};

struct WebAppStatus {
  rr::Optional<std::int64_t> observed_generation;
  // +listType=map
  // +listMapKey=type
  rr::Optional<std::vector<rr::Condition>> conditions;
  // A hash of the ConfigMap's data the pods run with.
  rr::Optional<std::string> config_hash;
  rr::Optional<std::int32_t> available_replicas;
  // Where the WebApp answers inside the cluster.
  rr::Optional<std::string> url;
  // The DNS record published for spec.hostname.
  rr::Optional<std::string> dns_record;
};

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=wa
// +kubebuilder:printcolumn:name=Ready,type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name=URL,type=string,JSONPath=.status.url
struct WebApp {
  std::string api_version = "web.example.rrgen.dev/v1";
  std::string kind = "WebApp";
  rr::ObjectMeta metadata;
  rr::Optional<WebAppSpec> spec;
  rr::Optional<WebAppStatus> status;
};

}  // namespace webapp::v1

namespace webapp::v1alpha1 {

// The DNS record to publish (v1 has spec.hostname).
struct WebAppSpecDns {
  // A DNS name to publish for the WebApp.
  // +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
  rr::Optional<std::string> hostname;
};

struct WebAppSpec {
  // The container image to run.
  // +kubebuilder:validation:MinLength=1
  std::string image;
  // How many pods to run.
  // +kubebuilder:validation:Minimum=0
  // +kubebuilder:default=1
  rr::Optional<std::int32_t> replicas;
  // A ConfigMap of the WebApp's namespace whose keys become the container's environment.
  rr::Optional<std::string> config_map_name;
  rr::Optional<WebAppSpecDns> dns;
};

// The same status as v1's.
using WebAppStatus = v1::WebAppStatus;

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=wa
// +kubebuilder:printcolumn:name=Ready,type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name=URL,type=string,JSONPath=.status.url
struct WebApp {
  std::string api_version = "web.example.rrgen.dev/v1alpha1";
  std::string kind = "WebApp";
  rr::ObjectMeta metadata;
  rr::Optional<WebAppSpec> spec;
  rr::Optional<WebAppStatus> status;
};

}  // namespace webapp::v1alpha1
