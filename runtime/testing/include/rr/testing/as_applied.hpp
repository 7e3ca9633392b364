// The object the API server keeps after one manager applied a configuration: what a ChildApply
// step finds in sync (its managedFields are the server's), for a test's given objects. Light on
// purpose: the in-memory cluster that does the apply is out of line (as_applied.cpp), so a test
// unit does not parse rr/cluster.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "rr/client/apply.hpp"

namespace rr::testing {

// A client over a new, empty in-memory cluster (rr::Cluster behind a TestClient).
std::unique_ptr<Client> empty_cluster_client();

// `config` applied by `field_manager` (force) to an empty in-memory cluster, as the cluster then
// returns it: uid, resourceVersion, defaults and the manager's managedFields entry.
template <class A>
typename A::object_type as_applied(const A& config, std::string_view field_manager) {
  const std::unique_ptr<Client> server = empty_cluster_client();
  return server->apply(config, ApplyOptions{.field_manager = std::string(field_manager), .force = true});
}

}  // namespace rr::testing
