// Real kubectl's server-side apply by two field managers against the local cluster: the second
// gets kubectl's conflict error naming the first and the fields (a Deployment's fields typed by
// the 1.35 facts), takes them with --force-conflicts, and --show-managed-fields shows both.
#include <doctest/doctest.h>

#include "kubectl_support.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const char* kByA = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: registry.example/web:1
)";

const char* kByB = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: app
        image: registry.example/web:2
)";

// The entry of `manager` in the object's managedFields, or null.
Json entry_of(const Json& object, const std::string& manager) {
  for (const Json& entry : object["metadata"].value("managedFields", Json::array())) {
    if (entry.value("manager", "") == manager) return entry;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("kubectl apply --server-side by two field managers: conflict, --force-conflicts, both managers shown") {
  SKIP_WITHOUT_KUBECTL();
  TestServer t;
  Kubectl kubectl(*t.server);
  Run a = kubectl("apply --server-side --field-manager=a -f " + kubectl.write("a.yaml", kByA));
  INFO(a.output);
  REQUIRE(a.code == 0);

  Run b = kubectl("apply --server-side --field-manager=b -f " + kubectl.write("b.yaml", kByB));
  INFO(b.output);
  CHECK(b.code != 0);
  CHECK(b.output.find("error: Apply failed with 2 conflicts: conflicts with \"a\":\n"
                      "- .spec.replicas\n"
                      "- .spec.template.spec.containers[name=\"app\"].image\n") != std::string::npos);
  CHECK(b.output.find("--force-conflicts") != std::string::npos);  // kubectl's advice follows the server's text

  Run forced = kubectl("apply --server-side --field-manager=b --force-conflicts -f " + kubectl.path("b.yaml"));
  INFO(forced.output);
  REQUIRE(forced.code == 0);
  CHECK(forced.output.find("deployment.apps/web serverside-applied") != std::string::npos);

  Run yaml = kubectl("get deployment web -o yaml --show-managed-fields");
  REQUIRE(yaml.code == 0);
  CHECK(yaml.output.find("manager: a\n") != std::string::npos);
  CHECK(yaml.output.find("manager: b\n") != std::string::npos);
  const Json object = Json::parse(kubectl("get deployment web -o json --show-managed-fields").output);
  CHECK(object["spec"]["replicas"] == 3);
  CHECK(object["spec"]["template"]["spec"]["containers"][0]["image"] == "registry.example/web:2");
  const Json by_a = entry_of(object, "a");
  const Json by_b = entry_of(object, "b");
  REQUIRE(by_a.is_object());
  REQUIRE(by_b.is_object());
  CHECK(by_a["operation"] == "Apply");
  // a keeps what b did not take; the selector is atomic (one leaf), not owned label by label.
  CHECK(by_a["fieldsV1"]["f:spec"]["f:selector"] == Json::object());
  CHECK_FALSE(by_a["fieldsV1"]["f:spec"].contains("f:replicas"));
  CHECK(by_b["fieldsV1"]["f:spec"]["f:replicas"] == Json::object());
  CHECK(by_b["fieldsV1"]["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"app\"}"].contains("f:image"));
}
