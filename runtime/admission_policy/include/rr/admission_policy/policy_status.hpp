// What the API server's ValidatingAdmissionPolicy status controller writes: each policy's
// status.observedGeneration and status.typeChecking.expressionWarnings (here: the expressions
// that do not compile, with their field paths). One thread watching the policies; the
// destructor stops it.
#pragma once
#include <chrono>
#include <memory>

#include "rr/core/json.hpp"

namespace rr {
class Cluster;
}

namespace rr::admission_policy {

// The status a stored policy should have now.
Json policy_status(const Json& policy);

class PolicyStatusWriter {
 public:
  // Needs the v1 ValidatingAdmissionPolicy kind registered (std::invalid_argument otherwise).
  explicit PolicyStatusWriter(std::shared_ptr<Cluster> cluster);
  ~PolicyStatusWriter();
  PolicyStatusWriter(const PolicyStatusWriter&) = delete;
  PolicyStatusWriter& operator=(const PolicyStatusWriter&) = delete;
  void stop();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace rr::admission_policy
