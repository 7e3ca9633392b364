// The pods-and-workloads family of the built-in validators' table: core/v1 Pod, PodTemplate and
// ReplicationController,
// apps/v1 Deployment, ReplicaSet, StatefulSet and DaemonSet, batch/v1 Job and CronJob.
#pragma once
#include <span>

#include "rr/validation/builtin.hpp"

namespace rr::validation::detail {

std::span<const BuiltinValidator> workload_validators();

// Each kind's create and update, as the table lists them (ObjectMeta excluded).
ErrorList validate_pod_create(const Json& pod);
ErrorList validate_pod_update(const Json& pod, const Json& old_pod);
ErrorList validate_pod_template(const Json& pod_template);
ErrorList validate_pod_template_update(const Json& pod_template, const Json& old_pod_template);
ErrorList validate_replication_controller(const Json& replication_controller);
ErrorList validate_replication_controller_update(const Json& replication_controller, const Json& old);
ErrorList validate_deployment_create(const Json& deployment);
ErrorList validate_deployment_update(const Json& deployment, const Json& old_deployment);
ErrorList validate_replica_set_create(const Json& replica_set);
ErrorList validate_replica_set_update(const Json& replica_set, const Json& old_replica_set);
ErrorList validate_stateful_set_create(const Json& stateful_set);
ErrorList validate_stateful_set_update(const Json& stateful_set, const Json& old_stateful_set);
ErrorList validate_daemon_set_create(const Json& daemon_set);
ErrorList validate_daemon_set_update(const Json& daemon_set, const Json& old_daemon_set);
ErrorList validate_job_create(const Json& job);
ErrorList validate_job_update(const Json& job, const Json& old_job);
ErrorList validate_cron_job_create(const Json& cron_job);
ErrorList validate_cron_job_update(const Json& cron_job, const Json& old_cron_job);

}  // namespace rr::validation::detail
