// The deployment controller's names and hashes: FNV-32a, SafeEncodeString, pod-template-hash,
// `<deployment>-<hash>` ReplicaSets with their annotations, pods from a set's template.
#include <doctest/doctest.h>

#include "replica_set_objects.hpp"

using namespace rr;
using namespace rr::apiserver_detail;

namespace {

Json web(const std::string& image, Json annotations = Json::object()) {
  return {{"apiVersion", "apps/v1"},
          {"kind", "Deployment"},
          {"metadata", {{"name", "web"}, {"namespace", "prod"}, {"uid", "u-1"}, {"annotations", annotations}}},
          {"spec",
           {{"replicas", 3},
            {"selector", {{"matchLabels", {{"app", "web"}}}}},
            {"template",
             {{"metadata", {{"labels", {{"app", "web"}}}}},
              {"spec", {{"containers", Json::array({{{"name", "main"}, {"image", image}}})}}}}}}}};
}

}  // namespace

TEST_CASE("FNV-32a and SafeEncodeString as Go computes them") {
  CHECK(fnv32a("") == 0x811c9dc5U);
  CHECK(fnv32a("a") == 0xe40c292cU);
  CHECK(fnv32a("foobar") == 0xbf9cf968U);
  CHECK(safe_encode("0123456789") == "456789bcdf");  // each byte mod 27 into "bcdfghjklmnpqrstvwxz2456789"
  CHECK(safe_encode("") == "");
}

TEST_CASE("pod-template-hash: the template's FNV-32a in decimal, safe-encoded; collision counts move it") {
  const Json pod_template = web("app:v1")["spec"]["template"];
  const std::string hash = pod_template_hash(pod_template);
  CHECK(hash == safe_encode(std::to_string(fnv32a(pod_template.dump()))));
  CHECK(hash.size() <= 10);
  CHECK(hash.find_first_not_of("456789bcdf") == std::string::npos);
  CHECK(pod_template_hash(pod_template) == hash);
  CHECK(pod_template_hash(web("app:v2")["spec"]["template"]) != hash);
  CHECK(pod_template_hash(pod_template, 0U) != hash);
  CHECK(pod_template_hash(pod_template, 1U) != pod_template_hash(pod_template, 0U));
  // The label a set's template carries does not count when templates are compared.
  Json labelled = pod_template;
  labelled["metadata"]["labels"]["pod-template-hash"] = hash;
  CHECK(template_without_hash(labelled) == pod_template);
  // Nor do the members omitempty leaves out: a template read back with explicit defaults is the same.
  Json explicit_defaults = labelled;
  explicit_defaults["spec"]["containers"][0]["tty"] = false;
  explicit_defaults["spec"]["hostNetwork"] = false;
  explicit_defaults["spec"]["nodeName"] = "";
  explicit_defaults["spec"]["securityContext"] = {{"runAsNonRoot", false}};
  CHECK(template_without_hash(explicit_defaults) == pod_template);
  CHECK(pod_template_hash(explicit_defaults) == hash);
  explicit_defaults["spec"]["containers"][0]["tty"] = true;
  CHECK(pod_template_hash(explicit_defaults) != hash);
}

TEST_CASE("a deployment's ReplicaSet: <deployment>-<hash>, labels, selector, annotations, controller") {
  const Json deployment = web(
      "app:v1",
      {{"team", "a"}, {"kubectl.kubernetes.io/last-applied-configuration", "{}"}, {revision_annotation, "4"}});
  const std::string hash = pod_template_hash(deployment["spec"]["template"]);
  const Json set = new_replica_set(deployment, hash, 5, 1);
  CHECK(set["metadata"]["name"] == "web-" + hash);
  CHECK(set["metadata"]["namespace"] == "prod");
  CHECK(set["metadata"]["labels"] == Json{{"app", "web"}, {"pod-template-hash", hash}});
  CHECK(set["spec"]["selector"]["matchLabels"] == Json{{"app", "web"}, {"pod-template-hash", hash}});
  CHECK(set["spec"]["template"]["metadata"]["labels"]["pod-template-hash"] == hash);
  CHECK(set["spec"]["replicas"] == 1);
  CHECK(set["metadata"]["annotations"] == Json{{"team", "a"},
                                               {revision_annotation, "5"},
                                               {desired_replicas_annotation, "3"},
                                               {max_replicas_annotation, "4"}});  // 3 + 25% rounded up
  const Json& owner = set["metadata"]["ownerReferences"][0];
  CHECK(owner == Json{{"apiVersion", "apps/v1"},
                      {"kind", "Deployment"},
                      {"name", "web"},
                      {"uid", "u-1"},
                      {"controller", true},
                      {"blockOwnerDeletion", true}});
  CHECK(revision_of_replica_set(set) == 5);

  Json stored = set;
  stored["metadata"]["uid"] = "u-2";
  const Json pod = new_replica_set_pod(stored);
  CHECK(pod["metadata"]["generateName"] == "web-" + hash + "-");
  CHECK_FALSE(pod["metadata"].contains("name"));
  CHECK(pod["metadata"]["labels"]["pod-template-hash"] == hash);
  CHECK(pod["metadata"]["ownerReferences"][0]["kind"] == "ReplicaSet");
  CHECK(pod["metadata"]["ownerReferences"][0]["uid"] == "u-2");
  CHECK(pod["spec"] == deployment["spec"]["template"]["spec"]);
}

TEST_CASE("rolling-update bounds: 25% surge up, 25% unavailable down, never both 0; Recreate none") {
  Json deployment = web("app:v1");
  auto bounds = [&](int replicas) {
    deployment["spec"]["replicas"] = replicas;
    const RolloutBounds b = rollout_bounds(deployment);
    return std::to_string(b.max_surge) + "/" + std::to_string(b.max_unavailable);
  };
  CHECK(bounds(2) == "1/0");
  CHECK(bounds(4) == "1/1");
  CHECK(bounds(10) == "3/2");
  deployment["spec"]["strategy"] = {{"type", "RollingUpdate"},
                                    {"rollingUpdate", {{"maxSurge", 0}, {"maxUnavailable", "0%"}}}};
  CHECK(bounds(4) == "0/1");
  deployment["spec"]["strategy"]["rollingUpdate"] = {{"maxSurge", 2}, {"maxUnavailable", "50%"}};
  CHECK(bounds(3) == "2/1");
  deployment["spec"]["strategy"] = {{"type", "Recreate"}};
  CHECK(bounds(4) == "0/0");
}
