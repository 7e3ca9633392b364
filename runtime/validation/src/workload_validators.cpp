#include "workload_validators.hpp"

#include <array>

namespace rr::validation::detail {

std::span<const BuiltinValidator> workload_validators() {
  static constexpr std::array<BuiltinValidator, 9> kTable = {{
      {"", "v1", "Pod", validate_pod_create, validate_pod_update},
      {"", "v1", "PodTemplate", validate_pod_template, validate_pod_template_update},
      {"", "v1", "ReplicationController", validate_replication_controller, validate_replication_controller_update},
      {"apps", "v1", "DaemonSet", validate_daemon_set_create, validate_daemon_set_update},
      {"apps", "v1", "Deployment", validate_deployment_create, validate_deployment_update},
      {"apps", "v1", "ReplicaSet", validate_replica_set_create, validate_replica_set_update},
      {"apps", "v1", "StatefulSet", validate_stateful_set_create, validate_stateful_set_update},
      {"batch", "v1", "CronJob", validate_cron_job_create, validate_cron_job_update},
      {"batch", "v1", "Job", validate_job_create, validate_job_update},
  }};
  return kTable;
}

}  // namespace rr::validation::detail
