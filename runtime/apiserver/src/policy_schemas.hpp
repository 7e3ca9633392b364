// The schemas admission policies are type-checked against (kube-apiserver's schema resolver:
// the built-in definitions first, then what discovery publishes for custom resources): a built-in
// kind's from the embedded 1.35 facts, a custom resource's from its stored CRD, with every $ref
// replaced by the definition it names.
#pragma once
#include <memory>
#include <string>

#include "rr/admission_policy/policy_status.hpp"
#include "rr/core/json.hpp"

namespace rr {
class Cluster;
}

namespace rr::apiserver_detail {

// resolver.PopulateRefs: the definition `root` of `definitions` ({name: schema}) with each $ref
// (also one wrapped in allOf) replaced by the schema it names, through properties,
// additionalProperties and items; a reference back to a definition being expanded becomes
// {type: object}. Built-in int-or-string fields (format int-or-string) get the CRD extension
// x-kubernetes-int-or-string, which CEL typing reads. nullopt when a name is missing.
std::optional<Json> inline_refs(const Json& definitions, const std::string& root);

// A kind's schema for type checking, from the facts or the cluster's CRDs (read when called).
admission_policy::SchemaResolver policy_schema_resolver(std::weak_ptr<Cluster> cluster);

}  // namespace rr::apiserver_detail
