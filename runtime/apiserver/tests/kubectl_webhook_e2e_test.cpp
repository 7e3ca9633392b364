// Real kubectl against the local cluster's admission webhooks and CRD conversion: what a user
// sees when a webhook refuses, defaults, is down, and when an object written in one version is
// read in another.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kubectl_support.hpp"
#include "webhook_test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

bool webhook_has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct WebhookCluster {
  WebhookCluster() : t(ApiServerOptions{}, GizmoCluster::with_namespaces()), kubectl(*t.server) {}

  // kubectl apply of a webhook configuration with one webhook on configmaps (CREATE, UPDATE).
  Run configure(bool mutating, const std::string& name, const Json& client_config, const std::string& policy = "Fail") {
    const Json config = {{"apiVersion", "admissionregistration.k8s.io/v1"},
                         {"kind", mutating ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration"},
                         {"metadata", {{"name", name}}},
                         {"webhooks", Json::array({{{"name", name + ".rrgen.dev"},
                                                    {"clientConfig", client_config},
                                                    {"rules", Json::array({{{"operations", {"CREATE", "UPDATE"}},
                                                                            {"apiGroups", {""}},
                                                                            {"apiVersions", {"v1"}},
                                                                            {"resources", {"configmaps"}}}})},
                                                    {"failurePolicy", policy},
                                                    {"sideEffects", "None"},
                                                    {"admissionReviewVersions", {"v1"}}}})}};
    return kubectl("apply -f " + kubectl.write(name + ".json", config.dump()));
  }

  TestServer t;
  Kubectl kubectl;
  TestWebhook webhook;
};

int unused_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  socklen_t size = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  ::close(fd);
  return ntohs(address.sin_port);
}

}  // namespace

TEST_CASE("kubectl: a validating webhook's refusal shows its message; a mutating webhook's default appears") {
  SKIP_WITHOUT_KUBECTL();
  WebhookCluster w;
  w.webhook.on("/validate", [](const webhook::AdmissionRequest& request) {
    webhook::AdmissionResponse r;
    if (request.object.value("/data/forbidden"_json_pointer, std::string()) == "yes") {
      r.allowed = false;
      r.status = Status{};
      r.status->message = "forbidden=yes is not allowed here";
    }
    return r;
  });
  w.webhook.on("/mutate", [](const webhook::AdmissionRequest&) {
    webhook::AdmissionResponse r;
    r.patch = Json::parse(R"([{"op":"add","path":"/metadata/labels","value":{"defaulted-by":"webhook"}}])");
    return r;
  });
  Run validating = w.configure(false, "check", w.webhook.client_config("/validate"));
  INFO(validating.output);
  REQUIRE(validating.code == 0);
  REQUIRE(w.configure(true, "label", w.webhook.client_config("/mutate")).code == 0);

  Run refused = w.kubectl("create configmap bad --from-literal=forbidden=yes");
  INFO(refused.output);
  CHECK(refused.code != 0);
  CHECK(webhook_has(refused.output, "configmaps \"bad\" is forbidden: admission webhook \"check.rrgen.dev\" denied the "
                                    "request: forbidden=yes is not allowed here"));
  CHECK(w.kubectl("get configmap bad").code != 0);

  Run created = w.kubectl("create configmap good --from-literal=forbidden=no");
  INFO(created.output);
  REQUIRE(created.code == 0);
  const Json good = Json::parse(w.kubectl("get configmap good -o json").output);
  CHECK(good["metadata"]["labels"] == Json{{"defaulted-by", "webhook"}});
}

TEST_CASE("kubectl: a webhook that is down blocks writes under Fail and not under Ignore") {
  SKIP_WITHOUT_KUBECTL();
  WebhookCluster w;
  const Json down = {{"url", "https://127.0.0.1:" + std::to_string(unused_port()) + "/down"},
                     {"caBundle", w.webhook.ca_bundle()}};
  REQUIRE(w.configure(false, "down", down).code == 0);
  Run blocked = w.kubectl("create configmap blocked --from-literal=a=1");
  INFO(blocked.output);
  CHECK(blocked.code != 0);
  CHECK(webhook_has(blocked.output,
                    "Internal error occurred: failed calling webhook \"down.rrgen.dev\": failed to call "
                    "webhook: Post \"https://127.0.0.1:"));
  CHECK(webhook_has(blocked.output, "connect: connection refused"));

  REQUIRE(w.configure(false, "down", down, "Ignore").code == 0);
  Run through = w.kubectl("create configmap through --from-literal=a=1");
  INFO(through.output);
  CHECK(through.code == 0);
}

TEST_CASE("kubectl: an object written as one version reads back as the other") {
  SKIP_WITHOUT_KUBECTL();
  WebhookCluster w;
  const std::string crd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.test.rrgen.dev
spec:
  group: test.rrgen.dev
  names: {kind: Widget, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
  - name: v2
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
)";
  apply_crd(w.kubectl, w.kubectl.write("widgets.yaml", crd), "widgets.test.rrgen.dev");
  Run applied = w.kubectl("apply -f " + w.kubectl.write("w.yaml", "apiVersion: test.rrgen.dev/v1\nkind: Widget\n"
                                                                  "metadata:\n  name: w\nspec:\n  size: 3\n"));
  INFO(applied.output);
  REQUIRE(applied.code == 0);
  const Json as_v2 = Json::parse(w.kubectl("get widgets.v2.test.rrgen.dev w -o json").output);
  CHECK(as_v2["apiVersion"] == "test.rrgen.dev/v2");
  CHECK(as_v2["spec"]["size"] == 3);
  const Json as_v1 = Json::parse(w.kubectl("get widgets.v1.test.rrgen.dev w -o json").output);
  CHECK(as_v1["apiVersion"] == "test.rrgen.dev/v1");
  CHECK(as_v1["metadata"]["uid"] == as_v2["metadata"]["uid"]);
  // Applied again in v1: a merge patch through the conversion.
  Run reapplied = w.kubectl("apply -f " + w.kubectl.write("w2.yaml", "apiVersion: test.rrgen.dev/v1\nkind: Widget\n"
                                                                     "metadata:\n  name: w\nspec:\n  size: 4\n"));
  INFO(reapplied.output);
  REQUIRE(reapplied.code == 0);
  CHECK(Json::parse(w.kubectl("get widgets.v2.test.rrgen.dev w -o json").output)["spec"]["size"] == 4);
}
