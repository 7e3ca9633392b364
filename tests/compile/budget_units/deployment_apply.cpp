// What a unit that applies a Deployment includes (compile.budget.deployment_apply): the generated
// apply configuration and, through it, Client::apply. Preprocessed size is the guard; the code
// only makes the unit realistic.
#include "k8s/apps/v1/deployment_apply.hpp"

k8s::apps::v1::Deployment apply_replicas(rr::Client& client, std::int32_t replicas);

k8s::apps::v1::Deployment apply_replicas(rr::Client& client, std::int32_t replicas) {
  const k8s::apps::v1::DeploymentApply config{.metadata = {.name = "web", .namespace_ = "default"},
                                              .spec = k8s::apps::v1::DeploymentSpecApply{.replicas = replicas}};
  return client.apply(config, {.field_manager = "budget", .force = true});
}
