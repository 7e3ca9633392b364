// Admission webhooks in the local cluster's write path, against a real HTTPS webhook: what is
// sent, what is applied, which webhooks are skipped, and the API server's errors.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "rr/webhook/server.hpp"
#include "test_server.hpp"
#include "webhook_test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const char* config_maps = "/api/v1/namespaces/default/configmaps";
const char* mutating_path = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations";
const char* validating_path = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";

Json config_map(const std::string& name, Json labels = Json::object()) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", std::move(labels)}}},
          {"data", {{"a", "1"}}}};
}

Json rule(Json resources = {"configmaps"}, Json operations = {"CREATE", "UPDATE"}, Json groups = {""}) {
  return {{"operations", std::move(operations)},
          {"apiGroups", std::move(groups)},
          {"apiVersions", {"v1"}},
          {"resources", std::move(resources)}};
}

Json hook(const std::string& name, Json client_config, Json rules = Json::array({rule()}),
          Json extra = Json::object()) {
  Json w = {{"name", name},
            {"clientConfig", std::move(client_config)},
            {"rules", std::move(rules)},
            {"sideEffects", "None"},
            {"admissionReviewVersions", {"v1"}}};
  w.update(extra);
  return w;
}

Json configuration(bool mutating, const std::string& name, Json webhooks) {
  return {{"apiVersion", "admissionregistration.k8s.io/v1"},
          {"kind", mutating ? "MutatingWebhookConfiguration" : "ValidatingWebhookConfiguration"},
          {"metadata", {{"name", name}}},
          {"webhooks", std::move(webhooks)}};
}

struct AdmissionWebhookFixture {
  TestServer t;
  TestWebhook webhook;
  std::unique_ptr<httplib::Client> c = t.client();

  int post(const char* path, const Json& body, Json* out = nullptr, httplib::Headers headers = {}) {
    auto r = c->Post(path, headers, body.dump(), "application/json");
    REQUIRE(r);
    if (out) *out = body_of(r);
    return r->status;
  }
  void configure(bool mutating, const std::string& name, Json webhooks) {
    Json body;
    const int code = post(mutating ? mutating_path : validating_path,
                          configuration(mutating, name, std::move(webhooks)), &body);
    REQUIRE_MESSAGE(code == 201, body.dump());
  }
};

webhook::AdmissionResponse allow() { return {}; }

// A port nothing listens on: bound to learn a free one, then closed.
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

webhook::AdmissionResponse patch(Json ops) {
  webhook::AdmissionResponse r;
  r.patch = std::move(ops);
  return r;
}

}  // namespace

TEST_CASE("a mutating webhook's patch is applied; the request carries kind, resource, user, objects and the timeout") {
  AdmissionWebhookFixture f;
  f.webhook.on("/mutate", [](const webhook::AdmissionRequest&) {
    auto r = patch(Json::parse(R"([{"op":"add","path":"/data/defaulted","value":"yes"}])"));
    r.warnings = {"defaulted data.defaulted"};
    return r;
  });
  f.configure(true, "defaulter", Json::array({hook("default.rrgen.dev", f.webhook.client_config("/mutate"))}));
  auto r = f.c->Post(config_maps, config_map("one").dump(), "application/json");
  REQUIRE(r);
  REQUIRE(r->status == 201);
  CHECK(body_of(r)["data"] == Json{{"a", "1"}, {"defaulted", "yes"}});
  CHECK(r->get_header_value("Warning") == "299 - \"defaulted data.defaulted\"");
  // Stored as mutated.
  CHECK(body_of(f.c->Get(std::string(config_maps) + "/one"))["data"]["defaulted"] == "yes");

  const auto seen = f.webhook.requests("/mutate");
  REQUIRE(seen.size() == 1);
  const auto& request = seen[0];
  CHECK(request.operation == webhook::Operation::Create);
  CHECK(request.kind == GroupVersionKind{"", "v1", "ConfigMap"});
  CHECK(request.resource == webhook::GroupVersionResource{"", "v1", "configmaps"});
  CHECK(request.name == "one");
  CHECK(request.namespace_ == "default");
  CHECK(request.user_info.username == "rrgen-admin");
  CHECK(std::find(request.user_info.groups.begin(), request.user_info.groups.end(), "system:masters") !=
        request.user_info.groups.end());
  CHECK(request.object["data"] == Json{{"a", "1"}});
  CHECK(request.old_object.is_null());
  CHECK_FALSE(request.dry_run);
  CHECK(request.options == Json{{"kind", "CreateOptions"}, {"apiVersion", "meta.k8s.io/v1"}});
  CHECK(f.webhook.timeout_query("/mutate") == "10s");

  // An update sends the old object too.
  Json stored = body_of(f.c->Get(std::string(config_maps) + "/one"));
  stored["data"]["a"] = "2";
  auto updated = f.c->Put(std::string(config_maps) + "/one", stored.dump(), "application/json");
  REQUIRE(updated);
  CHECK(updated->status == 200);
  const auto after = f.webhook.requests("/mutate");
  REQUIRE(after.size() == 2);
  CHECK(after[1].operation == webhook::Operation::Update);
  CHECK(after[1].old_object["data"]["a"] == "1");
  CHECK(after[1].object["data"]["a"] == "2");
}

TEST_CASE("a validating webhook's denial: the API server's message, the webhook's code or 403") {
  AdmissionWebhookFixture f;
  f.webhook.on("/validate", [](const webhook::AdmissionRequest& request) {
    webhook::AdmissionResponse r;
    if (request.object["data"].contains("bad")) {
      r.allowed = false;
      r.status = Status{};
      r.status->message = "data.bad is not allowed";
    }
    if (request.object["data"].contains("teapot")) {
      r.allowed = false;
      r.status = Status{};
      r.status->message = "short and stout";
      r.status->code = 418;
      r.status->reason = "Teapot";
    }
    return r;
  });
  f.configure(false, "checker", Json::array({hook("check.rrgen.dev", f.webhook.client_config("/validate"))}));
  Json bad = config_map("bad");
  bad["data"]["bad"] = "x";
  Json status;
  CHECK(f.post(config_maps, bad, &status) == 403);
  CHECK(status["message"] == "configmaps \"bad\" is forbidden: admission webhook \"check.rrgen.dev\" denied the "
                             "request: data.bad is not allowed");
  CHECK(status["reason"] == "Forbidden");
  CHECK(status["details"] == Json{{"name", "bad"}, {"kind", "configmaps"}});
  CHECK(f.c->Get(std::string(config_maps) + "/bad")->status == 404);

  Json teapot = config_map("teapot");
  teapot["data"]["teapot"] = "x";
  CHECK(f.post(config_maps, teapot, &status) == 418);
  CHECK(
      status["message"] ==
      "configmaps \"teapot\" is forbidden: admission webhook \"check.rrgen.dev\" denied the request: short and stout");
  CHECK(status["reason"] == "Teapot");

  CHECK(f.post(config_maps, config_map("good")) == 201);
}

TEST_CASE("rules, selectors and matchConditions that do not match skip the webhook") {
  AdmissionWebhookFixture f;
  f.webhook.on("/deny", [](const webhook::AdmissionRequest&) {
    webhook::AdmissionResponse r;
    r.allowed = false;
    return r;
  });
  const Json client = f.webhook.client_config("/deny");
  f.configure(
      false, "skips",
      Json::array({hook("secrets.rrgen.dev", client, Json::array({rule({"secrets"})})),
                   hook("delete-only.rrgen.dev", client, Json::array({rule({"configmaps"}, {"DELETE"})})),
                   hook("status-only.rrgen.dev", client, Json::array({rule({"configmaps/status"})})),
                   hook("object-selector.rrgen.dev", client, Json::array({rule()}),
                        {{"objectSelector", {{"matchLabels", {{"guarded", "true"}}}}}}),
                   hook("namespace-selector.rrgen.dev", client, Json::array({rule()}),
                        {{"namespaceSelector", {{"matchLabels", {{"env", "prod"}}}}}}),
                   hook("condition.rrgen.dev", client, Json::array({rule()}),
                        {{"matchConditions",
                          Json::array({{{"name", "only-x"}, {"expression", "object.metadata.name == 'x'"}}})}})}));
  CHECK(f.post(config_maps, config_map("free")) == 201);
  CHECK(f.webhook.calls("/deny") == 0);

  // Each selector matches once its labels are there.
  Json status;
  CHECK(f.post(config_maps, config_map("guarded", {{"guarded", "true"}}), &status) == 403);
  CHECK(status["message"] ==
        "configmaps \"guarded\" is forbidden: admission webhook \"object-selector.rrgen.dev\" denied the request "
        "without explanation");
  CHECK(f.post(config_maps, config_map("x"), &status) == 403);
  CHECK(status["message"] == "configmaps \"x\" is forbidden: admission webhook \"condition.rrgen.dev\" denied the "
                             "request without explanation");
  Json ns = body_of(f.c->Get("/api/v1/namespaces/default"));
  ns["metadata"]["labels"]["env"] = "prod";
  REQUIRE(f.c->Put("/api/v1/namespaces/default", ns.dump(), "application/json")->status == 200);
  CHECK(f.post(config_maps, config_map("in-prod"), &status) == 403);
  CHECK(status["message"] == "configmaps \"in-prod\" is forbidden: admission webhook \"namespace-selector.rrgen.dev\" "
                             "denied the request without explanation");
}

TEST_CASE("a matchCondition that fails to evaluate: Forbidden under Fail, skipped under Ignore") {
  AdmissionWebhookFixture f;
  f.webhook.on("/allow", [](const webhook::AdmissionRequest&) { return allow(); });
  const Json condition = {
      {"matchConditions", Json::array({{{"name", "missing"}, {"expression", "object.spec.replicas > 1"}}})}};
  f.configure(
      false, "conditions",
      Json::array({hook("broken.rrgen.dev", f.webhook.client_config("/allow"), Json::array({rule()}), condition)}));
  Json status;
  CHECK(f.post(config_maps, config_map("one"), &status) == 403);
  CHECK(status["message"].get<std::string>().rfind("configmaps \"one\" is forbidden: ", 0) == 0);
  CHECK(f.webhook.calls("/allow") == 0);

  Json ignore = condition;
  ignore["failurePolicy"] = "Ignore";
  f.configure(false, "conditions-ignored",
              Json::array({hook("ignored.rrgen.dev", f.webhook.client_config("/allow"),
                                Json::array({rule({"secrets"})}), ignore)}));
  Json secret = {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", "s"}, {"namespace", "default"}}}};
  CHECK(f.post("/api/v1/namespaces/default/secrets", secret) == 201);
}

TEST_CASE("a webhook that is down: failurePolicy Fail refuses the write with 500, Ignore lets it through") {
  AdmissionWebhookFixture f;
  const int closed_port = unused_port();
  const std::string url = "https://127.0.0.1:" + std::to_string(closed_port) + "/gone";
  f.configure(false, "down",
              Json::array({hook("down.rrgen.dev", {{"url", url}, {"caBundle", f.webhook.ca_bundle()}})}));
  Json status;
  CHECK(f.post(config_maps, config_map("blocked"), &status) == 500);
  CHECK(status["reason"] == "InternalError");
  CHECK(status["message"] ==
        "Internal error occurred: failed calling webhook \"down.rrgen.dev\": failed to call webhook: "
        "Post \"" +
            url + "?timeout=10s\": dial tcp 127.0.0.1:" + std::to_string(closed_port) +
            ": connect: connection refused");

  Json down = body_of(f.c->Get(std::string(validating_path) + "/down"));
  down["webhooks"][0]["failurePolicy"] = "Ignore";
  REQUIRE(f.c->Put(std::string(validating_path) + "/down", down.dump(), "application/json")->status == 200);
  CHECK(f.post(config_maps, config_map("let-through")) == 201);
}

TEST_CASE("a webhook slower than timeoutSeconds: context deadline exceeded") {
  AdmissionWebhookFixture f;
  f.webhook.on("/slow", [](const webhook::AdmissionRequest&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    return allow();
  });
  f.configure(false, "slow",
              Json::array({hook("slow.rrgen.dev", f.webhook.client_config("/slow"), Json::array({rule()}),
                                {{"timeoutSeconds", 1}})}));
  Json status;
  CHECK(f.post(config_maps, config_map("late"), &status) == 500);
  CHECK(status["message"] ==
        "Internal error occurred: failed calling webhook \"slow.rrgen.dev\": failed to call webhook: "
        "Post \"" +
            f.webhook.url("/slow") + "?timeout=1s\": context deadline exceeded");
}

TEST_CASE("dryRun reaches webhooks without side effects; one with side effects refuses it") {
  AdmissionWebhookFixture f;
  f.webhook.on("/allow", [](const webhook::AdmissionRequest&) { return allow(); });
  f.configure(false, "pure",
              Json::array({hook("pure.rrgen.dev", f.webhook.client_config("/allow"), Json::array({rule()}),
                                {{"sideEffects", "NoneOnDryRun"}})}));
  CHECK(f.post((std::string(config_maps) + "?dryRun=All").c_str(), config_map("dry")) == 201);
  const auto seen = f.webhook.requests("/allow");
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].dry_run);
  CHECK(f.c->Get(std::string(config_maps) + "/dry")->status == 404);

  // v1 refuses side effects other than None and NoneOnDryRun at create time...
  Json status;
  CHECK(f.post(validating_path,
               configuration(false, "effects",
                             Json::array({hook("effects.rrgen.dev", f.webhook.client_config("/allow"),
                                               Json::array({rule()}), {{"sideEffects", "Some"}})})),
               &status) == 422);
  CHECK(status["details"]["causes"][0]["message"] ==
        "Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\"");
  // ...and a stored one (v1beta1 days) makes a dry run a 400.
  auto kind = f.t.cluster->find_kind(
      GroupVersionKind{"admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"});
  REQUIRE(kind);
  f.t.cluster->seed(*kind, configuration(false, "effects",
                                         Json::array({hook("effects.rrgen.dev", f.webhook.client_config("/allow"),
                                                           Json::array({rule()}), {{"sideEffects", "Some"}})})));
  CHECK(f.post((std::string(config_maps) + "?dryRun=All").c_str(), config_map("dry"), &status) == 400);
  CHECK(status["message"] == "admission webhook \"effects.rrgen.dev\" does not support dry run");
}

TEST_CASE("reinvocationPolicy IfNeeded: a webhook runs again when a later one changed the object") {
  AdmissionWebhookFixture f;
  f.webhook.on("/first", [](const webhook::AdmissionRequest&) { return allow(); });
  f.webhook.on("/second", [](const webhook::AdmissionRequest& request) {
    if (request.object["data"].contains("second")) return allow();
    return patch(Json::parse(R"([{"op":"add","path":"/data/second","value":"x"}])"));
  });
  f.configure(true, "a-first",
              Json::array({hook("first.rrgen.dev", f.webhook.client_config("/first"), Json::array({rule()}),
                                {{"reinvocationPolicy", "IfNeeded"}})}));
  f.configure(true, "b-second", Json::array({hook("second.rrgen.dev", f.webhook.client_config("/second"))}));
  CHECK(f.post(config_maps, config_map("twice")) == 201);
  const auto first = f.webhook.requests("/first");
  REQUIRE(first.size() == 2);
  CHECK_FALSE(first[0].object["data"].contains("second"));
  CHECK(first[1].object["data"]["second"] == "x");
  CHECK(f.webhook.calls("/second") == 1);

  // Never (the default): once.
  Json config = body_of(f.c->Get(std::string(mutating_path) + "/a-first"));
  config["webhooks"][0]["reinvocationPolicy"] = "Never";
  REQUIRE(f.c->Put(std::string(mutating_path) + "/a-first", config.dump(), "application/json")->status == 200);
  CHECK(f.post(config_maps, config_map("once")) == 201);
  CHECK(f.webhook.calls("/first") == 3);
}

TEST_CASE("status writes reach webhooks registered for the status subresource, with subResource set") {
  AdmissionWebhookFixture f;
  REQUIRE(f.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", gizmo_crd()) == 201);
  f.webhook.on("/status", [](const webhook::AdmissionRequest& request) {
    webhook::AdmissionResponse r;
    if (request.object.value("/status/phase"_json_pointer, std::string()) == "Broken") {
      r.allowed = false;
      r.status = Status{};
      r.status->message = "no broken gizmos";
    }
    return r;
  });
  f.configure(false, "gizmo-status",
              Json::array({hook("status.rrgen.dev", f.webhook.client_config("/status"),
                                Json::array({rule({"gizmos/status"}, {"UPDATE"}, {"test.rrgen.dev"})}))}));
  const std::string gizmos = "/apis/test.rrgen.dev/v1/namespaces/default/gizmos";
  Json gizmo;
  REQUIRE(f.post(gizmos.c_str(),
                 {{"apiVersion", "test.rrgen.dev/v1"}, {"kind", "Gizmo"}, {"metadata", {{"name", "g"}}}},
                 &gizmo) == 201);
  CHECK(f.webhook.calls("/status") == 0);  // the main resource does not match gizmos/status
  gizmo["status"] = {{"phase", "Broken"}};
  auto r = f.c->Put(gizmos + "/g/status", gizmo.dump(), "application/json");
  REQUIRE(r);
  CHECK(r->status == 403);
  CHECK(body_of(r)["message"] == "gizmos.test.rrgen.dev \"g\" is forbidden: admission webhook \"status.rrgen.dev\" "
                                 "denied the request: no broken gizmos");
  const auto seen = f.webhook.requests("/status");
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].sub_resource == "status");
  CHECK(seen[0].operation == webhook::Operation::Update);
  gizmo["status"] = {{"phase", "Fine"}};
  CHECK(f.c->Put(gizmos + "/g/status", gizmo.dump(), "application/json")->status == 200);
}

TEST_CASE("configurations are validated at create time") {
  AdmissionWebhookFixture f;
  Json status;
  Json bad = hook("short", f.webhook.client_config("/x"), Json::array({rule()}), {{"timeoutSeconds", 31}});
  bad["admissionReviewVersions"] = {"v1beta1"};
  CHECK(f.post(validating_path, configuration(false, "bad", Json::array({bad})), &status) == 422);
  std::vector<std::string> messages;
  for (const Json& cause : status["details"]["causes"]) messages.push_back(cause["message"]);
  CHECK(messages == std::vector<std::string>{
                        "Invalid value: \"short\": should be a domain with at least three segments separated by dots",
                        "Invalid value: []string{\"v1beta1\"}: must include at least one of v1",
                        "Invalid value: 31: the timeout value must be between 1 and 30 seconds"});
  // Defaults are written.
  Json created;
  REQUIRE(f.post(mutating_path,
                 configuration(true, "defaults", Json::array({hook("d.rrgen.dev", f.webhook.client_config("/x"))})),
                 &created) == 201);
  const Json& w = created["webhooks"][0];
  CHECK(w["failurePolicy"] == "Fail");
  CHECK(w["matchPolicy"] == "Equivalent");
  CHECK(w["timeoutSeconds"] == 10);
  CHECK(w["reinvocationPolicy"] == "Never");
  CHECK(w["rules"][0]["scope"] == "*");
}

TEST_CASE("a webhook may call back into the cluster while it answers (the cluster's lock is released)") {
  AdmissionWebhookFixture f;
  REQUIRE(f.post(config_maps, config_map("limits", Json::object())) == 201);
  const int port = f.t.server->port();
  f.webhook.on("/lookup", [port](const webhook::AdmissionRequest&) {
    httplib::Client back("127.0.0.1", port);
    back.set_read_timeout(5);
    auto limits = back.Get("/api/v1/namespaces/default/configmaps/limits");
    webhook::AdmissionResponse r;
    r.allowed = limits && limits->status == 200;
    if (!r.allowed) {
      r.status = Status{};
      r.status->message = "could not read the limits";
    }
    return r;
  });
  f.configure(false, "lookup",
              Json::array({hook("lookup.rrgen.dev", f.webhook.client_config("/lookup"), Json::array({rule()}),
                                {{"timeoutSeconds", 3}})}));
  const auto started = std::chrono::steady_clock::now();
  CHECK(f.post(config_maps, config_map("checked")) == 201);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
}

TEST_CASE("a write whose object changed while its webhook was called: update conflicts, patch starts over") {
  AdmissionWebhookFixture f;
  Json stored;
  REQUIRE(f.post(config_maps, config_map("raced"), &stored) == 201);
  const int port = f.t.server->port();
  std::atomic<int> interfering{1};
  // The first call changes the object behind the write's back (through the API server).
  f.webhook.on("/race", [port, &interfering](const webhook::AdmissionRequest& request) {
    if (request.object["data"].contains("from-webhook") || interfering.fetch_sub(1) <= 0) return allow();
    httplib::Client back("127.0.0.1", port);
    back.Patch("/api/v1/namespaces/default/configmaps/raced", R"({"data":{"from-webhook":"1"}})",
               "application/merge-patch+json");
    return allow();
  });
  f.configure(false, "race", Json::array({hook("race.rrgen.dev", f.webhook.client_config("/race"))}));
  stored["data"]["a"] = "2";
  auto put = f.c->Put(std::string(config_maps) + "/raced", stored.dump(), "application/json");
  REQUIRE(put);
  CHECK(put->status == 409);
  CHECK(body_of(put)["reason"] == "Conflict");

  interfering = 1;
  auto patched = f.c->Patch(std::string(config_maps) + "/raced", R"({"data":{"b":"3"}})",
                            "application/merge-patch+json");
  REQUIRE(patched);
  CHECK(patched->status == 200);
  // Both writes are there: the webhook's and the patch, retried on top of it.
  CHECK(body_of(patched)["data"] == Json{{"a", "1"}, {"from-webhook", "1"}, {"b", "3"}});
}

TEST_CASE(
    "a service reference resolves to 127.0.0.1 and the service's targetPort, verified for <name>.<namespace>.svc") {
  TestServer t;
  TestWebhook webhook({"hook.default.svc"});
  auto c = t.client();
  webhook.on("/svc", [](const webhook::AdmissionRequest&) {
    webhook::AdmissionResponse r;
    r.allowed = false;
    r.status = Status{};
    r.status->message = "reached through the service";
    return r;
  });
  const Json service = {{"apiVersion", "v1"},
                        {"kind", "Service"},
                        {"metadata", {{"name", "hook"}, {"namespace", "default"}}},
                        {"spec", {{"ports", Json::array({{{"port", 443}, {"targetPort", webhook.port()}}})}}}};
  REQUIRE(c->Post("/api/v1/namespaces/default/services", service.dump(), "application/json")->status == 201);
  auto through = [&](const std::string& name) {
    return Json{{"service", {{"namespace", "default"}, {"name", name}, {"path", "/svc"}}},
                {"caBundle", webhook.ca_bundle()}};
  };
  const Json config = configuration(
      false, "by-service",
      Json::array({hook("svc.rrgen.dev", through("hook"), Json::array({rule({"configmaps"})})),
                   hook("missing.rrgen.dev", through("missing"), Json::array({rule({"secrets"})}))}));
  REQUIRE(c->Post(validating_path, config.dump(), "application/json")->status == 201);
  auto denied = c->Post(config_maps, config_map("x").dump(), "application/json");
  REQUIRE(denied);
  CHECK(denied->status == 403);
  CHECK(body_of(denied)["message"] == "configmaps \"x\" is forbidden: admission webhook \"svc.rrgen.dev\" denied the "
                                      "request: reached through the service");
  const Json secret = {
      {"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", "s"}, {"namespace", "default"}}}};
  auto missing = c->Post("/api/v1/namespaces/default/secrets", secret.dump(), "application/json");
  REQUIRE(missing);
  CHECK(missing->status == 500);
  CHECK(body_of(missing)["message"] ==
        "Internal error occurred: failed calling webhook \"missing.rrgen.dev\": failed to call webhook: Post "
        "\"https://missing.default.svc:443/svc?timeout=10s\": service \"missing\" not found");
}

TEST_CASE("a caBundle that does not sign the webhook's certificate: the call fails") {
  AdmissionWebhookFixture f;
  TestWebhook other;  // another throwaway CA
  f.webhook.on("/allow", [](const webhook::AdmissionRequest&) { return allow(); });
  Json client = f.webhook.client_config("/allow");
  client["caBundle"] = other.ca_bundle();
  f.configure(false, "untrusted", Json::array({hook("untrusted.rrgen.dev", client)}));
  Json status;
  CHECK(f.post(config_maps, config_map("x"), &status) == 500);
  CHECK(status["message"] == "Internal error occurred: failed calling webhook \"untrusted.rrgen.dev\": failed to call "
                             "webhook: Post \"" +
                                 f.webhook.url("/allow") +
                                 "?timeout=10s\": tls: failed to verify "
                                 "certificate: x509: certificate signed by unknown authority");
  CHECK(f.webhook.calls("/allow") == 0);
}

TEST_CASE("rr::webhook::Server behind a Service: the operator's own webhook server, reached as in a cluster") {
  TestServer t;
  auto c = t.client();
  const DevCertificates certs = make_dev_certificates("rrgen-admin", {"operator-webhook.default.svc"});
  const auto dir = std::filesystem::temp_directory_path() / ("rr-webhook-certs-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "tls.crt") << certs.server_cert_pem;
  std::ofstream(dir / "tls.key") << certs.server_key_pem;
  webhook::ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.cert_dir = dir.string();
  webhook::Server server(options);
  server.handle_admission("/mutate-v1-configmap", [](const webhook::AdmissionRequest& request) {
    webhook::AdmissionResponse r;
    r.uid = request.uid;
    r.patch = Json::parse(R"([{"op":"add","path":"/data/owner","value":"operator"}])");
    return r;
  });
  const int port = server.start();
  const Json service = {{"apiVersion", "v1"},
                        {"kind", "Service"},
                        {"metadata", {{"name", "operator-webhook"}, {"namespace", "default"}}},
                        {"spec", {{"ports", Json::array({{{"port", 443}, {"targetPort", port}}})}}}};
  REQUIRE(c->Post("/api/v1/namespaces/default/services", service.dump(), "application/json")->status == 201);
  const Json client = {
      {"service", {{"namespace", "default"}, {"name", "operator-webhook"}, {"path", "/mutate-v1-configmap"}}},
      {"caBundle", Bytes::encode(certs.ca_pem).str()}};
  REQUIRE(c->Post(mutating_path, configuration(true, "operator", Json::array({hook("mcm.rrgen.dev", client)})).dump(),
                  "application/json")
              ->status == 201);
  auto created = c->Post(config_maps, config_map("owned").dump(), "application/json");
  REQUIRE(created);
  CHECK(created->status == 201);
  CHECK(body_of(created)["data"] == Json{{"a", "1"}, {"owner", "operator"}});
  server.stop();
  std::filesystem::remove_all(dir);
}

TEST_CASE("under RBAC a patch is tried as a dry run for the escalation checks: its webhooks are called once") {
  ApiServerOptions options;
  options.authorization = AuthorizationMode::RBAC;
  TestServer t(options);
  TestWebhook webhook;
  auto c = t.client();
  webhook.on("/count", [](const webhook::AdmissionRequest&) { return allow(); });
  const Json config = configuration(false, "count",
                                    Json::array({hook("count.rrgen.dev", webhook.client_config("/count"))}));
  REQUIRE(c->Post(validating_path, config.dump(), "application/json")->status == 201);
  REQUIRE(c->Post(config_maps, config_map("p").dump(), "application/json")->status == 201);
  REQUIRE(webhook.calls("/count") == 1);
  auto patched = c->Patch(std::string(config_maps) + "/p", R"({"data":{"b":"2"}})", "application/merge-patch+json");
  REQUIRE(patched);
  CHECK(patched->status == 200);
  CHECK(webhook.calls("/count") == 2);
  CHECK_FALSE(webhook.requests("/count")[1].dry_run);
}
