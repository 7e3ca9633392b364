// The kinds a local cluster serves before any CRD is applied.
#pragma once

namespace rr {

class Cluster;

// Registers every resource kind of Kubernetes 1.35 that rr::builtin carries and an API server
// stores (every group-version of schemas/kubernetes-1.35/; not the create-only reviews), each with
// its admission: the generated type's defaulting and validation (a CRD: the structural check of
// crd_kinds.hpp). Versions of one resource are stored apart (there is no conversion). A kind
// already registered keeps its registration (and admission). Creates the namespaces default,
// kube-system and kube-public (phase Active) when they are missing.
void register_builtin_kinds(Cluster& cluster);

}  // namespace rr
