// core/v1 kinds: realistic objects, as an API server returns them, decode into typed members
// and encode back to the same JSON. Members of the 1.35 API are typed; members no schema declares
// (invented ones, as a newer server would send) must survive the round trip in unknown_fields.
#include <doctest/doctest.h>

#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/event.hpp"
#include "k8s/core/v1/namespace.hpp"
#include "k8s/core/v1/secret.hpp"
#include "k8s/core/v1/service.hpp"
#include "k8s/core/v1/service_account.hpp"
#include "lossless.hpp"

using builtin_test::check_lossless;

TEST_CASE("ConfigMap round-trips: data, binaryData and unknown members are kept") {
  const auto cm = check_lossless<k8s::core::v1::ConfigMap>(R"({
    "apiVersion": "v1",
    "kind": "ConfigMap",
    "metadata": {
      "name": "app-config", "namespace": "shop", "uid": "0b5c6f0e-3f2a-4c1e-9f0e-2d3c4b5a6978",
      "resourceVersion": "81234", "creationTimestamp": "2024-05-01T12:00:00Z",
      "labels": {"app.kubernetes.io/name": "shop"},
      "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"}
    },
    "data": {"app.properties": "color=blue\nsize=3\n", "empty": ""},
    "binaryData": {"logo.png": "iVBORw0KGgo="},
    "immutable": false,
    "futureTopLevel": {"nested": [1, "two", null]}
  })");
  REQUIRE(cm.data);
  CHECK(cm.data->at("app.properties") == "color=blue\nsize=3\n");
  REQUIRE(cm.binary_data);
  CHECK(cm.binary_data->at("logo.png").decode() == std::string("\x89PNG\r\n\x1a\n", 8));
  CHECK(cm.immutable == false);
  CHECK(cm.metadata.labels.at("app.kubernetes.io/name") == "shop");
  CHECK(cm.unknown_fields.find("futureTopLevel") != nullptr);
  CHECK(cm.validate().empty());
}

TEST_CASE("Secret round-trips: data is kept as written and decodes as base64") {
  const auto s = check_lossless<k8s::core::v1::Secret>(R"({
    "apiVersion": "v1",
    "kind": "Secret",
    "metadata": {"name": "db-credentials", "namespace": "shop", "resourceVersion": "77"},
    "type": "kubernetes.io/basic-auth",
    "data": {"username": "YWRtaW4=", "password": "czNjcjN0"},
    "stringData": {"note": "written as text"},
    "immutable": true,
    "futureField": 42
  })");
  CHECK(s.type == "kubernetes.io/basic-auth");
  REQUIRE(s.data);
  CHECK(s.data->at("username").decode() == "admin");
  CHECK(s.data->at("password").str() == "czNjcjN0");
  CHECK(s.string_data->at("note") == "written as text");
  CHECK(s.validate().empty());
}

TEST_CASE("Service round-trips: ports, open enums and metav1.Conditions in status") {
  const auto svc = check_lossless<k8s::core::v1::Service>(R"({
    "apiVersion": "v1",
    "kind": "Service",
    "metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web"}},
    "spec": {
      "type": "LoadBalancer",
      "selector": {"app": "web"},
      "ports": [
        {"name": "http", "protocol": "TCP", "port": 80, "targetPort": "http", "nodePort": 30080},
        {"name": "dns", "protocol": "UDP", "port": 53, "targetPort": 5353, "appProtocol": "dns"}
      ],
      "clusterIP": "10.96.12.34",
      "clusterIPs": ["10.96.12.34"],
      "sessionAffinity": "None",
      "externalTrafficPolicy": "Local",
      "healthCheckNodePort": 31999,
      "ipFamilies": ["IPv4"],
      "ipFamilyPolicy": "SingleStack",
      "internalTrafficPolicy": "Cluster",
      "allocateLoadBalancerNodePorts": true,
      "trafficDistribution": "PreferClose"
    },
    "status": {
      "loadBalancer": {"ingress": [{"ip": "203.0.113.7", "ipMode": "VIP", "ports": [{"port": 80, "protocol": "TCP"}]}]},
      "conditions": [{"type": "LoadBalancerReady", "status": "True", "lastTransitionTime": "2024-05-01T12:00:00Z",
                      "reason": "Provisioned", "message": "", "observedGeneration": 1}]
    }
  })");
  REQUIRE(svc.spec);
  CHECK(svc.spec->type == "LoadBalancer");
  REQUIRE(svc.spec->ports);
  const auto* dns = svc.spec->find_ports(53, "UDP");
  REQUIRE(dns != nullptr);
  CHECK(dns->target_port->is_int());
  CHECK(svc.spec->ports->at(0).target_port->string_value() == "http");
  CHECK(svc.spec->traffic_distribution.has_value());  // a member of the 1.35 API, typed
  REQUIRE(svc.status);
  REQUIRE(svc.status->conditions);
  const rr::Condition& ready = svc.status->conditions->front();  // metav1.Condition is the runtime's type
  CHECK(ready.reason == "Provisioned");
  CHECK(svc.status->load_balancer->ingress->at(0).ip_mode.has_value());  // a member of the 1.35 API, typed
  CHECK(svc.validate().empty());
}

TEST_CASE("ServiceAccount round-trips: references map onto runtime types") {
  const auto sa = check_lossless<k8s::core::v1::ServiceAccount>(R"({
    "apiVersion": "v1",
    "kind": "ServiceAccount",
    "metadata": {"name": "builder", "namespace": "ci", "annotations": {"eks.amazonaws.com/role-arn": "arn:aws:iam::1:role/x"}},
    "automountServiceAccountToken": false,
    "imagePullSecrets": [{"name": "registry"}],
    "secrets": [{"name": "builder-token-abcde", "namespace": "ci"}]
  })");
  REQUIRE(sa.image_pull_secrets);
  const rr::LocalObjectReference& pull = sa.image_pull_secrets->front();
  CHECK(pull.name == "registry");
  const rr::ObjectReference& token = sa.secrets->front();
  CHECK(token.namespace_ == "ci");
  CHECK(sa.automount_service_account_token == false);
}

TEST_CASE("Event round-trips: timestamps (Time and MicroTime) are kept byte for byte") {
  const auto ev = check_lossless<k8s::core::v1::Event>(R"({
    "apiVersion": "v1",
    "kind": "Event",
    "metadata": {"name": "web.17c1a2b3c4d5e6f7", "namespace": "shop", "resourceVersion": "90210",
                 "creationTimestamp": "2024-05-01T12:00:00Z"},
    "involvedObject": {"kind": "Deployment", "namespace": "shop", "name": "web", "uid": "6f1e2d3c-0000-4000-8000-000000000001",
                       "apiVersion": "apps/v1", "resourceVersion": "4100"},
    "reason": "ScalingReplicaSet",
    "message": "Scaled up replica set web-7d4b9c to 3",
    "source": {"component": "deployment-controller", "host": "node-1"},
    "firstTimestamp": "2024-05-01T12:00:00Z",
    "lastTimestamp": "2024-05-01T12:05:00Z",
    "count": 2,
    "type": "Normal",
    "eventTime": "2024-05-01T12:00:00.123456Z",
    "series": {"count": 2, "lastObservedTime": "2024-05-01T12:05:00.000001Z"},
    "action": "Scaling",
    "related": {"kind": "ReplicaSet", "namespace": "shop", "name": "web-7d4b9c"},
    "reportingComponent": "deployment-controller",
    "reportingInstance": "kube-controller-manager-node-1",
    "futureField": {"x": true}
  })");
  CHECK(ev.involved_object.kind == "Deployment");
  CHECK(ev.involved_object.name == "web");
  CHECK(ev.count == 2);
  CHECK(ev.type == "Normal");
  REQUIRE(ev.event_time);
  CHECK(ev.event_time->str() == "2024-05-01T12:00:00.123456Z");
  CHECK(ev.event_time->valid());
  CHECK(ev.first_timestamp->valid());
  CHECK(ev.source->component == "deployment-controller");
  CHECK(ev.validate().empty());
}

TEST_CASE("Event: involvedObject is required") {
  const auto ev = k8s::core::v1::Event::from_json_text(
      R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"e"},"reason":"R"})");
  REQUIRE(ev.validate().size() == 1);
  CHECK(ev.validate()[0].message == "involvedObject: Required value");
}

TEST_CASE("Namespace round-trips: cluster-scoped object with spec and status") {
  const auto ns = check_lossless<k8s::core::v1::Namespace>(R"({
    "apiVersion": "v1",
    "kind": "Namespace",
    "metadata": {"name": "shop", "uid": "1a2b3c4d-0000-4000-8000-000000000002", "resourceVersion": "12",
                 "labels": {"kubernetes.io/metadata.name": "shop"}, "deletionTimestamp": "2024-05-02T08:00:00Z"},
    "spec": {"finalizers": ["kubernetes"]},
    "status": {
      "phase": "Terminating",
      "conditions": [{"type": "NamespaceDeletionContentFailure", "status": "False", "lastTransitionTime": "2024-05-02T08:00:01Z",
                      "reason": "ContentDeleted", "message": "All content successfully deleted"}]
    }
  })");
  CHECK(ns.metadata.namespace_.empty());
  CHECK(ns.spec->finalizers->front() == "kubernetes");
  CHECK(ns.status->phase == "Terminating");
  CHECK(ns.status->conditions->front().reason == "ContentDeleted");
}
