// What `rrgen analyze` finds in an operator's sources: the API calls it makes through the rr
// runtime (call_finder.cpp reads them with Clang) and the kubebuilder RBAC markers in its comments
// (markers.cpp). Plain data, so nothing above the Clang-facing file needs Clang's headers.
#pragma once
#include <string>
#include <vector>

#include "model/rbac_model.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

// One call site and what it asks of the API server. A call in a template is reported once per
// distinct kind its instantiations give it.
struct ApiCall {
  Location location;               // the call's file:line:col (the callee's name)
  std::string callee;              // "rr::Client::get<k8s::core::v1::Secret>", "rr::track_and_get<...>"
  std::vector<std::string> verbs;  // "get", "list", "create" ...: what it needs, all of them
  // A read through a client the analysis cannot tell is the controller's cached one or the direct
  // one (a Client& parameter, say): `verbs` (direct) or, instead, all of these (list and watch: the
  // informer of a cached read) grant it. Empty: only `verbs`.
  std::vector<std::string> or_verbs;
  bool resolved = false;  // false: the kind is chosen at run time (see unresolved_reason)
  std::string group;      // "" = core
  std::string version;
  std::string kind;         // "Secret"
  std::string subresource;  // "status", "finalizers", "" = the resource itself
  std::string resource;     // "secrets", "webapps/status": plural[/subresource], once resolved
  bool cluster_scoped = false;
  std::string unresolved_reason;  // for !resolved: what the analysis could not see
  // A call of the event recorder: its group follows the Event API the operator writes
  // (follow_events_api()); events.k8s.io as found.
  bool event_recorder = false;
};

// One `+kubebuilder:rbac:...` marker, as controller-gen reads it.
struct RbacMarker {
  Location location;  // of the '+'
  std::string text;   // the marker as written, from '+' to the end of the line
  PolicyRule rule;
  std::string namespace_;  // namespace=...: a Role in that namespace; "" = the ClusterRole
};

}  // namespace rrgen
