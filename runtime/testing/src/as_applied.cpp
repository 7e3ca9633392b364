#include "rr/testing/as_applied.hpp"

#include "rr/cluster/cluster.hpp"
#include "rr/testing/test_client.hpp"

namespace rr::testing {

std::unique_ptr<Client> empty_cluster_client() { return std::make_unique<TestClient>(std::make_shared<Cluster>()); }

}  // namespace rr::testing
