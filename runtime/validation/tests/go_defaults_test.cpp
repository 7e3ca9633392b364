// The Go defaulting functions' defaults on the common built-in kinds (rr/validation/defaults.hpp), one row per
// default, and the rule that a member already set is kept.
#include <doctest/doctest.h>

#include <string>

#include "rr/validation/defaults.hpp"

using rr::Json;

namespace {

struct GroupVersionKind {
  std::string group, version, kind;
};

struct Row {
  const char* name;
  GroupVersionKind gvk;
  const char* object;   // before
  const char* pointer;  // where the default lands
  Json expected;
};

Json defaulted(const GroupVersionKind& gvk, const char* text) {
  Json object = Json::parse(text);
  rr::validation::apply_builtin_defaults(gvk.group, gvk.version, gvk.kind, object);
  return object;
}

const GroupVersionKind deployment{"apps", "v1", "Deployment"};
const GroupVersionKind stateful_set{"apps", "v1", "StatefulSet"};
const GroupVersionKind pod{"", "v1", "Pod"};

const char* kTemplate = R"({"spec":{"template":{"spec":{"containers":[{"name":"c","image":"nginx:1.27"}]}}}})";

}  // namespace

TEST_CASE("Go defaults of the common kinds") {
  const Row rows[] = {
      {"deployment replicas", deployment, kTemplate, "/spec/replicas", 1},
      {"deployment strategy",
       deployment,
       kTemplate,
       "/spec/strategy",
       {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxSurge", "25%"}, {"maxUnavailable", "25%"}}}}},
      {"deployment history", deployment, kTemplate, "/spec/revisionHistoryLimit", 10},
      {"deployment deadline", deployment, kTemplate, "/spec/progressDeadlineSeconds", 600},
      {"deployment's pod restartPolicy", deployment, kTemplate, "/spec/template/spec/restartPolicy", "Always"},
      {"deployment's container pull policy", deployment, kTemplate, "/spec/template/spec/containers/0/imagePullPolicy",
       "IfNotPresent"},
      {"statefulset updateStrategy",
       stateful_set,
       kTemplate,
       "/spec/updateStrategy",
       {{"type", "RollingUpdate"}, {"rollingUpdate", {{"partition", 0}}}}},
      {"statefulset podManagementPolicy", stateful_set, kTemplate, "/spec/podManagementPolicy", "OrderedReady"},
      {"statefulset retention",
       stateful_set,
       kTemplate,
       "/spec/persistentVolumeClaimRetentionPolicy",
       {{"whenDeleted", "Retain"}, {"whenScaled", "Retain"}}},
      {"daemonset updateStrategy",
       {"apps", "v1", "DaemonSet"},
       kTemplate,
       "/spec/updateStrategy",
       {{"type", "RollingUpdate"}, {"rollingUpdate", {{"maxSurge", 0}, {"maxUnavailable", 1}}}}},
      {"job completions", {"batch", "v1", "Job"}, kTemplate, "/spec/completions", 1},
      {"job backoffLimit", {"batch", "v1", "Job"}, kTemplate, "/spec/backoffLimit", 6},
      {"job completionMode", {"batch", "v1", "Job"}, kTemplate, "/spec/completionMode", "NonIndexed"},
      {"cronjob concurrencyPolicy",
       {"batch", "v1", "CronJob"},
       R"({"spec":{"schedule":"* * * * *"}})",
       "/spec/concurrencyPolicy",
       "Allow"},
      {"cronjob history", {"batch", "v1", "CronJob"}, R"({"spec":{}})", "/spec/successfulJobsHistoryLimit", 3},
      {"pod dnsPolicy", pod, R"({"spec":{"containers":[{"name":"c","image":"nginx"}]}})", "/spec/dnsPolicy",
       "ClusterFirst"},
      {"untagged image: Always", pod, R"({"spec":{"containers":[{"name":"c","image":"nginx"}]}})",
       "/spec/containers/0/imagePullPolicy", "Always"},
      {":latest: Always", pod, R"({"spec":{"containers":[{"name":"c","image":"nginx:latest"}]}})",
       "/spec/containers/0/imagePullPolicy", "Always"},
      {"registry port is not a tag", pod, R"({"spec":{"containers":[{"name":"c","image":"reg:5000/app"}]}})",
       "/spec/containers/0/imagePullPolicy", "Always"},
      {"digest: IfNotPresent", pod, R"({"spec":{"containers":[{"name":"c","image":"app@sha256:0a"}]}})",
       "/spec/containers/0/imagePullPolicy", "IfNotPresent"},
      {"termination message path", pod, R"({"spec":{"initContainers":[{"name":"i","image":"x:1"}]}})",
       "/spec/initContainers/0/terminationMessagePath", "/dev/termination-log"},
      {"service type", {"", "v1", "Service"}, R"({"spec":{"ports":[{"port":80}]}})", "/spec/type", "ClusterIP"},
      {"service targetPort",
       {"", "v1", "Service"},
       R"({"spec":{"ports":[{"port":80}]}})",
       "/spec/ports/0/targetPort",
       80},
      {"service status",
       {"", "v1", "Service"},
       R"({"spec":{"ports":[{"port":80}]}})",
       "/status/loadBalancer",
       Json::object()},
      {"job selector",
       {"batch", "v1", "Job"},
       R"({"metadata":{"name":"j","uid":"u-1"},"spec":{"template":{"spec":{}}}})",
       "/spec/selector/matchLabels/batch.kubernetes.io~1controller-uid",
       "u-1"},
      {"job template labels",
       {"batch", "v1", "Job"},
       R"({"metadata":{"name":"j","uid":"u-1"},"spec":{"template":{"spec":{}}}})",
       "/spec/template/metadata/labels/job-name",
       "j"},
      {"secret type", {"", "v1", "Secret"}, R"({"data":{}})", "/type", "Opaque"},
      {"pvc volumeMode", {"", "v1", "PersistentVolumeClaim"}, R"({"spec":{}})", "/spec/volumeMode", "Filesystem"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const Json object = defaulted(row.gvk, row.object);
    const Json::json_pointer at(row.pointer);
    REQUIRE(object.contains(at));
    CHECK(object.at(at) == row.expected);
  }
}

TEST_CASE("Go defaults keep what is set, and leave other kinds and versions alone") {
  const Json recreate = defaulted(deployment,
                                  R"({"spec":{"replicas":0,"strategy":{"type":"Recreate"},"template":{"spec":{}}}})");
  CHECK(recreate["spec"]["replicas"] == 0);
  CHECK(recreate["spec"]["strategy"] == Json{{"type", "Recreate"}});  // no rollingUpdate for Recreate
  const Json never = defaulted(
      pod,
      R"({"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"a:1","imagePullPolicy":"Always"}]}})");
  CHECK(never["spec"]["restartPolicy"] == "Never");
  CHECK(never["spec"]["containers"][0]["imagePullPolicy"] == "Always");
  const Json parallel = defaulted({"batch", "v1", "Job"}, R"({"spec":{"parallelism":3}})");
  CHECK_FALSE(parallel["spec"].contains("completions"));  // Go sets completions only when neither is set
  const char* config_map = R"({"data":{"a":"b"}})";
  CHECK(defaulted({"", "v1", "ConfigMap"}, config_map) == Json::parse(config_map));
  const char* hpa_like = R"({"spec":{"template":{"spec":{}}}})";
  CHECK(defaulted({"apps", "v1beta1", "Deployment"}, hpa_like) == Json::parse(hpa_like));
}

TEST_CASE("a Job's selector is generated only without manualSelector and without a selector of its own") {
  const Json manual = defaulted(
      {"batch", "v1", "Job"},
      R"({"metadata":{"name":"j","uid":"u-1"},"spec":{"manualSelector":true,"template":{"spec":{}}}})");
  CHECK_FALSE(manual["spec"].contains("selector"));
  const Json own = defaulted(
      {"batch", "v1", "Job"},
      R"({"metadata":{"name":"j","uid":"u-1"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"spec":{}}}})");
  CHECK(own["spec"]["selector"] == Json{{"matchLabels", {{"a", "b"}}}});
}
