// What the API server's ValidatingAdmissionPolicy status controller writes: each policy's
// status.observedGeneration and status.typeChecking.expressionWarnings (the type checking of
// type_checking.hpp against the matched kinds' schemas, and expressions that do not compile at
// all, with their field paths). One thread watching the policies (and the CRDs, whose schemas
// type checking reads); the destructor stops it.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/core/json.hpp"

namespace rr {
class Cluster;
}

namespace rr::admission_policy {

// A kind's OpenAPI schema with every $ref replaced by what it names (resolver.SchemaResolver):
// built-in kinds from the 1.35 facts, custom resources from their CRD. nullopt: no schema.
using SchemaResolver = std::function<std::optional<Json>(const GroupVersionKind&)>;

// The status a stored policy should have now; `served` are the kinds the cluster serves (the
// RESTMapper), `resolve` their schemas (unset: no type checking).
Json policy_status(const Json& policy, const std::vector<KindInfo>& served = {}, const SchemaResolver& resolve = {});

class PolicyStatusWriter {
 public:
  // Needs the v1 ValidatingAdmissionPolicy kind registered (std::invalid_argument otherwise).
  // With a resolver, policies are type-checked, and checked again when a CRD changes.
  explicit PolicyStatusWriter(std::shared_ptr<Cluster> cluster, SchemaResolver resolve = {});
  ~PolicyStatusWriter();
  PolicyStatusWriter(const PolicyStatusWriter&) = delete;
  PolicyStatusWriter& operator=(const PolicyStatusWriter&) = delete;
  void stop();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace rr::admission_policy
