// The admission a CRD's schema gives its custom resources, as the API server's custom resource
// handler runs it: unknown fields pruned, defaults applied, then the schema's validation and its
// CEL rules with the old object (transition rules, ratcheting). And the CRD's own check: a schema
// the API server would refuse (not structural, a rule that does not compile or costs too much).
#pragma once
#include <string>
#include <vector>

#include "rr/cluster/cluster.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

// The admission of one served version's custom resources, its schema compiled once; empty when
// the version has no schema (or one that does not compile: the CRD's admission refused it).
Cluster::AdmissionFn schema_admission(const Json& crd, const std::string& version);

// What compiling each version's schema finds wrong, at spec.versions[i].schema.openAPIV3Schema...
std::vector<FieldError> check_crd_schemas(const Json& crd);

}  // namespace rr::apiserver_detail
