// A marker no call needs, and one that covers the call: only the first is reported.
#include "k8s/core/v1/secret.hpp"
#include "rr/client/client.hpp"

namespace cases {

// +kubebuilder:rbac:groups="",resources=secrets,verbs=get
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=create
k8s::core::v1::Secret read(rr::Client& client) { return client.get<k8s::core::v1::Secret>("ns", "db"); }

}  // namespace cases
