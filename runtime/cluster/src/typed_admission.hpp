// The admission of a kind registered with a generated type's defaulting and validation (an AdmitFn).
#pragma once
#include "rr/cluster/cluster.hpp"

namespace rr::cluster_detail {

// The main resource only (a status write keeps the stored spec). A built-in kind the API server
// validates in Go (rr/validation/builtin.hpp) gets that validation instead of its schema's, on a
// copy with the API server's Go defaults, with the stored object on update (immutable fields):
// the stored object itself stays as the type defaulted it, so tables comparing objects see no
// member a test did not write.
Cluster::AdmissionFn typed_admission(const GroupVersionKind& gvk, Cluster::AdmitFn admit);

}  // namespace rr::cluster_detail
