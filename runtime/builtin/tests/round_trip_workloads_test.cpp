// apps/v1 Deployment (with the whole pod template) and coordination.k8s.io/v1 Lease: realistic
// objects round-trip; members of the 1.35 API are typed.
#include <doctest/doctest.h>

#include "k8s/apps/v1/deployment.hpp"
#include "k8s/coordination/v1/lease.hpp"
#include "lossless.hpp"

using builtin_test::check_lossless;

namespace {

// As `kubectl get deployment web -o json` prints it: server defaults filled in, status written by
// the deployment controller. Members not in schemas/*.yaml: resizePolicy, an init container's
// restartPolicy (sidecars), the `ephemeral` volume source, pod `os`, status.terminatingReplicas.
constexpr const char* kDeployment = R"({
  "apiVersion": "apps/v1",
  "kind": "Deployment",
  "metadata": {
    "name": "web", "namespace": "shop", "uid": "6f1e2d3c-0000-4000-8000-000000000001", "resourceVersion": "4100",
    "generation": 3, "creationTimestamp": "2024-05-01T12:00:00Z", "labels": {"app": "web"},
    "annotations": {"deployment.kubernetes.io/revision": "2"}
  },
  "spec": {
    "replicas": 3,
    "selector": {"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "tier", "operator": "In", "values": ["frontend"]}]},
    "template": {
      "metadata": {"labels": {"app": "web", "tier": "frontend"}, "annotations": {"prometheus.io/scrape": "true"}},
      "spec": {
        "initContainers": [
          {"name": "migrate", "image": "registry.example.com/shop/migrate:1.4.2", "command": ["/migrate"], "args": ["--up"],
           "envFrom": [{"configMapRef": {"name": "app-config"}}, {"prefix": "DB_", "secretRef": {"name": "db-credentials", "optional": false}}],
           "resources": {}, "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
           "imagePullPolicy": "IfNotPresent"},
          {"name": "log-shipper", "image": "fluent/fluent-bit:3.0", "restartPolicy": "Always", "resources": {}}
        ],
        "containers": [
          {
            "name": "web",
            "image": "registry.example.com/shop/web:2.0.1",
            "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}, {"name": "metrics", "containerPort": 9090, "protocol": "TCP"}],
            "env": [
              {"name": "LOG_LEVEL", "value": "info"},
              {"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}},
              {"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db-credentials", "key": "password"}}},
              {"name": "FEATURES", "valueFrom": {"configMapKeyRef": {"name": "app-config", "key": "features", "optional": true}}},
              {"name": "MEM_LIMIT", "valueFrom": {"resourceFieldRef": {"containerName": "web", "resource": "limits.memory", "divisor": "1Mi"}}}
            ],
            "resources": {"limits": {"cpu": "1", "memory": "512Mi"}, "requests": {"cpu": "250m", "memory": 268435456}},
            "resizePolicy": [{"resourceName": "cpu", "restartPolicy": "NotRequired"}],
            "volumeMounts": [{"name": "config", "mountPath": "/etc/shop", "readOnly": true},
                             {"name": "cache", "mountPath": "/var/cache/shop", "subPath": "web", "mountPropagation": "None"}],
            "livenessProbe": {"httpGet": {"path": "/healthz", "port": "http", "scheme": "HTTP",
                                          "httpHeaders": [{"name": "X-Probe", "value": "liveness"}]},
                              "initialDelaySeconds": 10, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3},
            "readinessProbe": {"tcpSocket": {"port": 8080}, "periodSeconds": 5},
            "startupProbe": {"exec": {"command": ["cat", "/tmp/ready"]}, "failureThreshold": 30},
            "lifecycle": {"preStop": {"exec": {"command": ["sleep", "5"]}}},
            "securityContext": {"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true, "runAsNonRoot": true,
                                "runAsUser": 10001, "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}},
            "terminationMessagePath": "/dev/termination-log",
            "terminationMessagePolicy": "FallbackToLogsOnError",
            "imagePullPolicy": "Always"
          }
        ],
        "volumes": [
          {"name": "config", "configMap": {"name": "app-config", "items": [{"key": "app.properties", "path": "app.properties", "mode": 420}],
                                           "defaultMode": 420}},
          {"name": "cache", "emptyDir": {"medium": "Memory", "sizeLimit": "256Mi"}},
          {"name": "tls", "secret": {"secretName": "web-tls", "defaultMode": 256, "optional": true}},
          {"name": "data", "persistentVolumeClaim": {"claimName": "web-data"}},
          {"name": "token", "projected": {"sources": [
            {"serviceAccountToken": {"audience": "vault", "expirationSeconds": 3600, "path": "token"}},
            {"downwardAPI": {"items": [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}}]}},
            {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}}
          ], "defaultMode": 420}},
          {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"],
                                                                             "resources": {"requests": {"storage": "1Gi"}}}}}}
        ],
        "restartPolicy": "Always",
        "terminationGracePeriodSeconds": 30,
        "dnsPolicy": "ClusterFirst",
        "nodeSelector": {"kubernetes.io/os": "linux"},
        "serviceAccountName": "web",
        "serviceAccount": "web",
        "securityContext": {"fsGroup": 10001, "fsGroupChangePolicy": "OnRootMismatch", "supplementalGroups": [10001]},
        "imagePullSecrets": [{"name": "registry"}],
        "affinity": {
          "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["eu-west-1a", "eu-west-1b"]}]}]}},
          "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}}]}
        },
        "schedulerName": "default-scheduler",
        "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "shop", "effect": "NoSchedule"},
                        {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}],
        "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "ScheduleAnyway",
                                       "labelSelector": {"matchLabels": {"app": "web"}}}],
        "os": {"name": "linux"}
      }
    },
    "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": 1}},
    "minReadySeconds": 5,
    "revisionHistoryLimit": 10,
    "paused": false,
    "progressDeadlineSeconds": 600
  },
  "status": {
    "observedGeneration": 3,
    "replicas": 3,
    "updatedReplicas": 3,
    "readyReplicas": 2,
    "availableReplicas": 2,
    "unavailableReplicas": 1,
    "terminatingReplicas": 0,
    "conditions": [
      {"type": "Available", "status": "False", "lastUpdateTime": "2024-05-01T12:01:00Z", "lastTransitionTime": "2024-05-01T12:01:00Z",
       "reason": "MinimumReplicasUnavailable", "message": "Deployment does not have minimum availability."},
      {"type": "Progressing", "status": "True", "lastUpdateTime": "2024-05-01T12:02:00Z", "lastTransitionTime": "2024-05-01T12:00:00Z",
       "reason": "NewReplicaSetAvailable", "message": "ReplicaSet \"web-7d4b9c\" has successfully progressed."}
    ],
    "collisionCount": 0
  }
})";

}  // namespace

TEST_CASE("Deployment round-trips with a full pod template, status and newer members") {
  const auto d = check_lossless<k8s::apps::v1::Deployment>(kDeployment);
  REQUIRE(d.spec);
  const auto& spec = *d.spec;
  CHECK(spec.replicas == 3);
  const rr::LabelSelector& selector = spec.selector;  // metav1.LabelSelector is the runtime's type
  CHECK(selector.match_labels->at("app") == "web");
  CHECK(selector.match_expressions->front().operator_ == "In");
  CHECK(spec.strategy->type == "RollingUpdate");
  CHECK(spec.strategy->rolling_update->max_unavailable->string_value() == "25%");
  CHECK(spec.strategy->rolling_update->max_surge->int_value() == 1);

  REQUIRE(spec.template_.spec);
  const auto& pod = *spec.template_.spec;
  CHECK(spec.template_.metadata->labels.at("tier") == "frontend");
  CHECK(pod.service_account_name == "web");
  CHECK(pod.restart_policy == "Always");
  CHECK(pod.node_selector->at("kubernetes.io/os") == "linux");
  CHECK(pod.os.has_value());  // a member of the 1.35 API, typed
  REQUIRE(pod.containers.size() == 1);
  const auto& web = pod.containers.front();
  CHECK(web.image == "registry.example.com/shop/web:2.0.1");
  CHECK(web.image_pull_policy == "Always");
  CHECK(web.resources->limits->at("memory").milli_value() == 512LL * 1024 * 1024 * 1000);
  CHECK(web.resources->requests->at("memory").was_number());
  CHECK(web.env->at(1).value_from->field_ref->field_path == "metadata.name");
  CHECK(web.env->at(4).value_from->resource_field_ref->divisor->str() == "1Mi");
  CHECK(web.liveness_probe->http_get->port.string_value() == "http");
  CHECK(web.resize_policy.has_value());  // a member of the 1.35 API, typed
  const auto* metrics = web.find_ports(9090, "TCP");
  REQUIRE(metrics != nullptr);
  CHECK(metrics->name == "metrics");
  CHECK(pod.init_containers->at(1).restart_policy.has_value());  // a member of the 1.35 API, typed
  REQUIRE(pod.volumes);
  CHECK(pod.volumes->at(0).config_map->items->front().mode == 420);
  CHECK(pod.volumes->at(1).empty_dir->size_limit->str() == "256Mi");
  CHECK(pod.volumes->at(4).projected->sources->at(0).service_account_token->audience == "vault");
  CHECK(pod.volumes->at(5).ephemeral.has_value());  // a member of the 1.35 API, typed
  CHECK(pod.image_pull_secrets->front().name == "registry");
  CHECK(pod.affinity->pod_anti_affinity->preferred_during_scheduling_ignored_during_execution->front().weight == 100);

  REQUIRE(d.status);
  CHECK(d.status->observed_generation == 3);
  CHECK(d.status->ready_replicas == 2);
  CHECK(d.status->conditions->at(1).reason == "NewReplicaSetAvailable");
  CHECK(d.status->conditions->at(1).last_update_time->valid());
  CHECK(d.status->terminating_replicas.has_value());  // a member of the 1.35 API, typed
  CHECK(d.validate().empty());
}

TEST_CASE("Deployment: a copy is deep and compares equal, a change is visible") {
  const auto d = k8s::apps::v1::Deployment::from_json_text(kDeployment);
  auto copy = d;
  CHECK(copy == d);
  copy.spec->template_.spec->containers.front().image = "registry.example.com/shop/web:2.0.2";
  CHECK_FALSE(copy == d);
  CHECK(d.spec->template_.spec->containers.front().image == "registry.example.com/shop/web:2.0.1");
}

TEST_CASE("Lease round-trips: MicroTime members keep their microseconds") {
  const auto lease = check_lossless<k8s::coordination::v1::Lease>(R"({
    "apiVersion": "coordination.k8s.io/v1",
    "kind": "Lease",
    "metadata": {"name": "shop-operator-leader", "namespace": "shop-system", "resourceVersion": "5521",
                 "creationTimestamp": "2024-05-01T11:00:00Z"},
    "spec": {
      "holderIdentity": "shop-operator-6b7c9d-x2x7q_4c1e6f0a",
      "leaseDurationSeconds": 15,
      "acquireTime": "2024-05-01T11:00:00.000000Z",
      "renewTime": "2024-05-01T12:00:07.123456Z",
      "leaseTransitions": 4,
      "preferredHolder": "shop-operator-6b7c9d-x2x7q_4c1e6f0a",
      "strategy": "OldestEmulationVersion"
    }
  })");
  REQUIRE(lease.spec);
  CHECK(lease.spec->holder_identity == "shop-operator-6b7c9d-x2x7q_4c1e6f0a");
  CHECK(lease.spec->lease_duration_seconds == 15);
  CHECK(lease.spec->lease_transitions == 4);
  CHECK(lease.spec->renew_time->str() == "2024-05-01T12:00:07.123456Z");
  CHECK(lease.spec->renew_time->valid());
  CHECK(lease.spec->preferred_holder.has_value());  // a member of the 1.35 API, typed
  CHECK(lease.validate().empty());

  // Built in code: only what was set is written.
  k8s::coordination::v1::Lease fresh;
  fresh.metadata.name = "leader";
  fresh.metadata.namespace_ = "default";
  fresh.spec.emplace();
  fresh.spec->holder_identity = "me";
  fresh.spec->lease_duration_seconds = 15;
  CHECK(rr::Json::parse(fresh.to_json_text()) ==
        rr::Json::parse(R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"leader","namespace":"default"},)"
                        R"("spec":{"holderIdentity":"me","leaseDurationSeconds":15}})"));
}
