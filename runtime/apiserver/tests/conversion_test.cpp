// Multi-version CRDs: objects stored once, in the storage version, served in every version;
// strategy None and strategy Webhook (against a real HTTPS conversion webhook).
#include <doctest/doctest.h>

#include "test_server.hpp"
#include "webhook_test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const char* crds_path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const std::string v1_widgets = "/apis/test.rrgen.dev/v1/namespaces/default/widgets";
const std::string v2_widgets = "/apis/test.rrgen.dev/v2/namespaces/default/widgets";

// test.rrgen.dev Widget in v1 and v2, v2 stored.
Json widget_crd(const Json& conversion) {
  Json schema = {{"openAPIV3Schema", {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}};
  Json crd = {
      {"apiVersion", "apiextensions.k8s.io/v1"},
      {"kind", "CustomResourceDefinition"},
      {"metadata", {{"name", "widgets.test.rrgen.dev"}}},
      {"spec",
       {{"group", "test.rrgen.dev"},
        {"names", {{"kind", "Widget"}, {"plural", "widgets"}}},
        {"scope", "Namespaced"},
        {"versions", Json::array({{{"name", "v1"}, {"served", true}, {"storage", false}, {"schema", schema}},
                                  {{"name", "v2"}, {"served", true}, {"storage", true}, {"schema", schema}}})}}}};
  if (!conversion.is_null()) crd["spec"]["conversion"] = conversion;
  return crd;
}

Json widget(const std::string& version, const std::string& name, Json spec) {
  return {{"apiVersion", "test.rrgen.dev/" + version},
          {"kind", "Widget"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", std::move(spec)}};
}

KindInfo widget_kind(const std::string& version) {
  return KindInfo{.gvk = {"test.rrgen.dev", version, "Widget"},
                  .plural = "widgets",
                  .list_kind = "WidgetList",
                  .scope = Scope::Namespaced,
                  .has_status = false};
}

// v1 spec.size <-> v2 spec.replicas.
webhook::ConversionResponse size_replicas(const webhook::ConversionRequest& request) {
  webhook::ConversionResponse response;
  response.uid = request.uid;
  for (Json object : request.objects) {
    Json& spec = object["spec"];
    if (request.desired_api_version == "test.rrgen.dev/v2" && spec.contains("size")) {
      spec["replicas"] = spec["size"];
      spec.erase("size");
    } else if (request.desired_api_version == "test.rrgen.dev/v1" && spec.contains("replicas")) {
      spec["size"] = spec["replicas"];
      spec.erase("replicas");
    }
    object["apiVersion"] = request.desired_api_version;
    response.converted_objects.push_back(std::move(object));
  }
  return response;
}

}  // namespace

TEST_CASE("conversion None: stored once in the storage version, read, listed and watched in the other") {
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(crds_path, widget_crd(Json()).dump(), "application/json")->status == 201);
  // From the list's resourceVersion: every later event, however late the stream connects.
  const std::string from = body_of(c->Get(v1_widgets))["metadata"]["resourceVersion"];
  WatchReader watch(t.server->port(), v1_widgets + "?watch=true&timeoutSeconds=5&resourceVersion=" + from);

  auto created = c->Post(v1_widgets, widget("v1", "w", {{"size", 3}}).dump(), "application/json");
  REQUIRE(created);
  REQUIRE(created->status == 201);
  CHECK(body_of(created)["apiVersion"] == "test.rrgen.dev/v1");
  // One object, stored as v2; the v1 kind holds nothing of its own.
  CHECK(t.cluster->get(widget_kind("v2"), ObjectKey{"default", "w"})["apiVersion"] == "test.rrgen.dev/v2");
  CHECK(t.cluster->list(widget_kind("v1"), ListOptions{})["items"].empty());

  const Json as_v1 = body_of(c->Get(v1_widgets + "/w"));
  CHECK(as_v1["apiVersion"] == "test.rrgen.dev/v1");
  CHECK(as_v1["spec"] == Json{{"size", 3}});
  CHECK(body_of(c->Get(v2_widgets + "/w"))["apiVersion"] == "test.rrgen.dev/v2");
  const Json list = body_of(c->Get(v1_widgets));
  CHECK(list["apiVersion"] == "test.rrgen.dev/v1");
  CHECK(list["kind"] == "WidgetList");
  REQUIRE(list["items"].size() == 1);
  CHECK(list["items"][0]["apiVersion"] == "test.rrgen.dev/v1");

  // Written back in v1 (update and merge patch), unchanged otherwise.
  Json update = as_v1;
  update["spec"]["size"] = 4;
  auto updated = c->Put(v1_widgets + "/w", update.dump(), "application/json");
  REQUIRE(updated);
  CHECK(updated->status == 200);
  CHECK(body_of(updated)["spec"] == Json{{"size", 4}});
  auto patched = c->Patch(v1_widgets + "/w", R"({"spec":{"color":"red"}})", "application/merge-patch+json");
  REQUIRE(patched);
  CHECK(patched->status == 200);
  CHECK(body_of(patched)["spec"] == Json{{"size", 4}, {"color", "red"}});
  CHECK(body_of(patched)["apiVersion"] == "test.rrgen.dev/v1");

  REQUIRE(watch.wait_for(3));
  for (const Json& event : watch.events()) CHECK(event["object"]["apiVersion"] == "test.rrgen.dev/v1");

  const Json crd = body_of(c->Get(std::string(crds_path) + "/widgets.test.rrgen.dev"));
  CHECK(crd["status"]["storedVersions"] == Json::array({"v2"}));
  CHECK(c->Delete(v1_widgets + "/w")->status == 200);
  CHECK(c->Get(v2_widgets + "/w")->status == 404);
}

TEST_CASE("conversion Webhook: the CRD's webhook converts both ways, one review per list") {
  TestServer t;
  TestWebhook converter;
  converter.on_conversion("/convert", size_replicas);
  auto c = t.client();
  const Json conversion = {
      {"strategy", "Webhook"},
      {"webhook", {{"clientConfig", converter.client_config("/convert")}, {"conversionReviewVersions", {"v1"}}}}};
  REQUIRE(c->Post(crds_path, widget_crd(conversion).dump(), "application/json")->status == 201);

  REQUIRE(c->Post(v1_widgets, widget("v1", "a", {{"size", 1}}).dump(), "application/json")->status == 201);
  REQUIRE(c->Post(v2_widgets, widget("v2", "b", {{"replicas", 2}}).dump(), "application/json")->status == 201);
  // Stored in v2, converted by the webhook.
  CHECK(t.cluster->get(widget_kind("v2"), ObjectKey{"default", "a"})["spec"] == Json{{"replicas", 1}});

  const int before = converter.calls("/convert");
  const Json list = body_of(c->Get(v1_widgets));
  CHECK(converter.calls("/convert") == before + 1);
  REQUIRE(list["items"].size() == 2);
  CHECK(list["items"][0]["spec"] == Json{{"size", 1}});
  CHECK(list["items"][1]["spec"] == Json{{"size", 2}});
  CHECK(list["items"][1]["metadata"]["uid"] ==
        t.cluster->get(widget_kind("v2"), ObjectKey{"default", "b"})["metadata"]["uid"]);

  // Round trip: what v1 reads, v1 writes back unchanged.
  Json a = body_of(c->Get(v1_widgets + "/a"));
  auto put = c->Put(v1_widgets + "/a", a.dump(), "application/json");
  REQUIRE(put);
  CHECK(put->status == 200);
  CHECK(body_of(put) == a);

  WatchReader watch(t.server->port(), v1_widgets + "?watch=true&timeoutSeconds=5");
  REQUIRE(watch.wait_for(2));
  for (const Json& event : watch.events()) CHECK(event["object"]["spec"].contains("size"));
}

TEST_CASE("a conversion webhook's failure: the API server's 500 and message") {
  TestServer t;
  TestWebhook converter;
  converter.on_conversion("/convert", [](const webhook::ConversionRequest& request) {
    webhook::ConversionResponse response;
    response.uid = request.uid;
    if (request.desired_api_version == "test.rrgen.dev/v1") {
      response.failure = Status{};
      response.failure->message = "v1 is gone";
      return response;
    }
    return size_replicas(request);
  });
  auto c = t.client();
  const Json conversion = {
      {"strategy", "Webhook"},
      {"webhook", {{"clientConfig", converter.client_config("/convert")}, {"conversionReviewVersions", {"v1"}}}}};
  REQUIRE(c->Post(crds_path, widget_crd(conversion).dump(), "application/json")->status == 201);
  REQUIRE(c->Post(v2_widgets, widget("v2", "w", {{"replicas", 2}}).dump(), "application/json")->status == 201);
  auto r = c->Get(v1_widgets + "/w");
  REQUIRE(r);
  CHECK(r->status == 500);
  CHECK(body_of(r)["message"] == "conversion webhook for test.rrgen.dev/v2, Kind=Widget failed: v1 is gone");
  CHECK_FALSE(body_of(r).contains("reason"));
}

TEST_CASE("a CRD's conversion is checked at admission: a webhook exactly with strategy Webhook, speaking v1") {
  TestServer t;
  auto c = t.client();
  auto refused = [&](const Json& conversion) {
    auto r = c->Post(crds_path, widget_crd(conversion).dump(), "application/json");
    REQUIRE(r);
    CHECK(r->status == 422);
    return body_of(r)["details"]["causes"][0];
  };
  CHECK(refused({{"strategy", "Webhook"}})["message"] == "Required value: required when strategy is set to Webhook");
  CHECK(refused({{"strategy", "Magic"}})["message"] ==
        "Unsupported value: \"Magic\": supported values: \"None\", \"Webhook\"");
  const Json webhook = {{"clientConfig", {{"url", "https://127.0.0.1:1/convert"}}},
                        {"conversionReviewVersions", {"v1beta1"}}};
  CHECK(refused({{"strategy", "None"}, {"webhook", webhook}})["message"] ==
        "Forbidden: should not be set when strategy is not set to Webhook");
  const Json cause = refused({{"strategy", "Webhook"}, {"webhook", webhook}});
  CHECK(cause["field"] == "spec.conversion.webhook.conversionReviewVersions");
  CHECK(cause["message"] == "Invalid value: []string{\"v1beta1\"}: must include at least one of v1");
  // Defaulted to None.
  auto created = c->Post(crds_path, widget_crd(Json()).dump(), "application/json");
  REQUIRE(created);
  CHECK(body_of(created)["spec"]["conversion"] == Json{{"strategy", "None"}});
}

TEST_CASE("a new storage version takes over the objects the old one stored") {
  TestServer t;
  auto c = t.client();
  Json crd = widget_crd(Json());
  crd["spec"]["versions"][0]["storage"] = true;  // v1 stored first
  crd["spec"]["versions"][1]["storage"] = false;
  auto r = c->Post(crds_path, crd.dump(), "application/json");
  REQUIRE(r);
  REQUIRE(r->status == 201);
  REQUIRE(c->Post(v2_widgets, widget("v2", "w", {{"size", 1}}).dump(), "application/json")->status == 201);
  CHECK(t.cluster->get(widget_kind("v1"), ObjectKey{"default", "w"})["apiVersion"] == "test.rrgen.dev/v1");
  const Json before = body_of(c->Get(v2_widgets + "/w"));

  Json stored = body_of(c->Get(std::string(crds_path) + "/widgets.test.rrgen.dev"));
  stored["spec"]["versions"][0]["storage"] = false;
  stored["spec"]["versions"][1]["storage"] = true;
  auto updated = c->Put(std::string(crds_path) + "/widgets.test.rrgen.dev", stored.dump(), "application/json");
  REQUIRE(updated);
  REQUIRE(updated->status == 200);
  // Moved as stored: same uid and resourceVersion, now in v2.
  const Json moved = t.cluster->get(widget_kind("v2"), ObjectKey{"default", "w"});
  CHECK(moved["apiVersion"] == "test.rrgen.dev/v2");
  CHECK(moved["metadata"]["uid"] == before["metadata"]["uid"]);
  CHECK(moved["metadata"]["resourceVersion"] == before["metadata"]["resourceVersion"]);
  CHECK(t.cluster->list(widget_kind("v1"), ListOptions{})["items"].empty());
  CHECK(body_of(c->Get(v1_widgets + "/w"))["spec"] == Json{{"size", 1}});
  const Json crd_now = body_of(c->Get(std::string(crds_path) + "/widgets.test.rrgen.dev"));
  CHECK(crd_now["status"]["storedVersions"] == Json::array({"v1", "v2"}));
}

TEST_CASE("admission webhooks of a multi-version CRD: called in the version their rules name, patches converted back") {
  TestServer t;
  TestWebhook hooks;
  hooks.on_conversion("/convert", size_replicas);
  hooks.on("/v1-defaulter", [](const webhook::AdmissionRequest& request) {
    webhook::AdmissionResponse r;
    if (request.object["spec"].contains("size") && !request.object["spec"].contains("color")) {
      r.patch = Json::parse(R"([{"op":"add","path":"/spec/color","value":"blue"}])");
    }
    return r;
  });
  hooks.on("/v1-exact", [](const webhook::AdmissionRequest&) { return webhook::AdmissionResponse{}; });
  auto c = t.client();
  const Json conversion = {
      {"strategy", "Webhook"},
      {"webhook", {{"clientConfig", hooks.client_config("/convert")}, {"conversionReviewVersions", {"v1"}}}}};
  REQUIRE(c->Post(crds_path, widget_crd(conversion).dump(), "application/json")->status == 201);
  auto webhook_of = [&](const std::string& name, const std::string& path, const std::string& policy) {
    return Json{{"name", name},
                {"clientConfig", hooks.client_config(path)},
                {"rules", Json::array({{{"operations", {"CREATE"}},
                                        {"apiGroups", {"test.rrgen.dev"}},
                                        {"apiVersions", {"v1"}},
                                        {"resources", {"widgets"}}}})},
                {"matchPolicy", policy},
                {"sideEffects", "None"},
                {"admissionReviewVersions", {"v1"}}};
  };
  const Json mutating = {
      {"apiVersion", "admissionregistration.k8s.io/v1"},
      {"kind", "MutatingWebhookConfiguration"},
      {"metadata", {{"name", "widgets"}}},
      {"webhooks", Json::array({webhook_of("default.widgets.rrgen.dev", "/v1-defaulter", "Equivalent"),
                                webhook_of("exact.widgets.rrgen.dev", "/v1-exact", "Exact")})}};
  REQUIRE(c->Post("/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", mutating.dump(),
                  "application/json")
              ->status == 201);

  // Written in v2: the Equivalent webhook gets it as v1 (converted), its patch lands in v2.
  auto created = c->Post(v2_widgets, widget("v2", "a", {{"replicas", 2}}).dump(), "application/json");
  REQUIRE(created);
  REQUIRE(created->status == 201);
  CHECK(body_of(created)["spec"] == Json{{"replicas", 2}, {"color", "blue"}});
  auto seen = hooks.requests("/v1-defaulter");
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].kind == GroupVersionKind{"test.rrgen.dev", "v1", "Widget"});
  CHECK(seen[0].request_kind == GroupVersionKind{"test.rrgen.dev", "v2", "Widget"});
  CHECK(seen[0].object["apiVersion"] == "test.rrgen.dev/v1");
  CHECK(seen[0].object["spec"] == Json{{"size", 2}});
  CHECK(hooks.calls("/v1-exact") == 0);  // Exact: v2 is not v1

  // Written in v1: both are called in v1.
  REQUIRE(c->Post(v1_widgets, widget("v1", "b", {{"size", 3}}).dump(), "application/json")->status == 201);
  const auto exact = hooks.requests("/v1-exact");
  REQUIRE(exact.size() == 1);
  CHECK(exact[0].request_kind == GroupVersionKind{"test.rrgen.dev", "v1", "Widget"});
  CHECK(exact[0].object["spec"] == Json{{"size", 3}, {"color", "blue"}});
  CHECK(t.cluster->get(widget_kind("v2"), ObjectKey{"default", "b"})["spec"] ==
        Json{{"replicas", 3}, {"color", "blue"}});
}

TEST_CASE("conversion None: a write in the non-storage version is admitted with that version's schema") {
  // v1 (sent) defaults spec.mode and makes it immutable (a transition rule, so the old object is
  // read in v1 too); v2 (stored) has neither and caps spec.size, which a v1 write never meets.
  auto schema = [](Json spec_properties, Json rules) {
    Json spec{{"type", "object"}, {"properties", std::move(spec_properties)}};
    if (!rules.empty()) spec["x-kubernetes-validations"] = std::move(rules);
    return Json{{"openAPIV3Schema", {{"type", "object"}, {"properties", {{"spec", std::move(spec)}}}}}};
  };
  Json crd = widget_crd(Json());
  crd["spec"]["versions"][0]["schema"] = schema(
      {{"size", {{"type", "integer"}}}, {"mode", {{"type", "string"}, {"default", "fast"}}}},
      Json::array({{{"rule", "self.mode == oldSelf.mode"}, {"message", "mode is immutable"}}}));
  crd["spec"]["versions"][1]["schema"] = schema({{"size", {{"type", "integer"}}}, {"mode", {{"type", "string"}}}},
                                                Json::array({{{"rule", "self.size <= 10"}, {"message", "too big"}}}));
  TestServer t;
  auto c = t.client();
  REQUIRE(c->Post(crds_path, crd.dump(), "application/json")->status == 201);

  auto created = c->Post(v1_widgets, widget("v1", "w", {{"size", 30}}).dump(), "application/json");
  REQUIRE(created);
  CHECK(created->status == 201);                      // v2's cap is not v1's
  CHECK(body_of(created)["spec"]["mode"] == "fast");  // v1's default

  auto changed = c->Patch(v1_widgets + "/w", R"({"spec":{"mode":"slow"}})", "application/merge-patch+json");
  REQUIRE(changed);
  CHECK(changed->status == 422);
  CHECK(body_of(changed)["message"] ==
        "Widget.test.rrgen.dev \"w\" is invalid: spec: Invalid value: mode is immutable");

  // In the storage version its own rules apply, and v1's transition rule does not.
  Json stored = body_of(c->Get(v2_widgets + "/w"));
  stored["spec"]["mode"] = "slow";
  auto put = c->Put(v2_widgets + "/w", stored.dump(), "application/json");
  REQUIRE(put);
  CHECK(put->status == 422);
  CHECK(body_of(put)["message"] == "Widget.test.rrgen.dev \"w\" is invalid: spec: Invalid value: too big");
}
