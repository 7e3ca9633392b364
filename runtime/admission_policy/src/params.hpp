// The param objects a binding gives its policy (generic.CollectParams): none when the policy has
// no paramKind or the binding no paramRef (the policy then runs once, with null params), the one
// named or every one selected, in the binding's namespace, the request's, or cluster-wide.
#pragma once
#include <string>
#include <vector>

#include "compiled_policy.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::admission_policy::detail {

struct Params {
  std::vector<Json> objects;  // each run of the policy gets one (null: no params)
  std::string error;          // a configuration error ("failed to configure binding: " + error)
};

Params collect_params(const CompiledPolicy& policy, const CompiledBinding& binding, const StoreReader& store,
                      const std::string& request_namespace);

}  // namespace rr::admission_policy::detail
