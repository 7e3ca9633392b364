// AdmissionWebhookAdapter: reconciler.io's semantics over rrtest::TestResource and rr::Json.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "rr/cluster/cluster.hpp"
#include "rr/reconcilers/sync.hpp"
#include "rr/webhook/admission_webhook_adapter.hpp"
#include "rr_reconcilers_test_api_types.hpp"

using rr::Json;
using rrtest::v1::TestResource;
using namespace rr::webhook;

namespace {

// As the API server sends it: defaulted already (replicas).
const Json sent = Json::parse(R"({"apiVersion":"testing.rrgen.dev/v1","kind":"TestResource",
  "metadata":{"name":"r","namespace":"ns"},"spec":{"image":"nginx:1","replicas":1}})");

AdmissionRequest request_for(Operation operation, Json object, Json old_object = nullptr) {
  AdmissionRequest request;
  request.uid = "uid-1";
  request.kind = {"testing.rrgen.dev", "v1", "TestResource"};
  request.resource = {"testing.rrgen.dev", "v1", "testresources"};
  request.name = "r";
  request.namespace_ = "ns";
  request.operation = operation;
  request.object = std::move(object);
  request.old_object = std::move(old_object);
  return request;
}

AdmissionWebhookAdapter<TestResource> adapter_with(std::function<rr::Error(rr::Context&, TestResource&)> sync) {
  return {.name = {}, .reconciler = rr::SyncReconciler<TestResource>{.sync = std::move(sync)}};
}

// A reconciler of unstructured objects.
struct JsonStep {
  std::function<rr::Error(rr::Context&, Json&)> fn;
  rr::Outcome reconcile(rr::Context& ctx, Json& object) const { return fn(ctx, object); }
  void validate(rr::Validation&) const {}
  void setup(rr::Setup&) const {}
  std::string display_name() const { return "JsonStep"; }
};

}  // namespace

TEST_CASE("a mutation becomes the JSON patch from the object as sent; the response stays allowed") {
  const auto adapter = adapter_with([](rr::Context&, TestResource& resource) {
    resource.metadata.labels = {{"app", "web"}};
    resource.spec->image = "nginx:2";
    return rr::Error{};
  });
  CHECK(adapter.display_name() == "TestResourceAdmissionWebhookAdapter");
  const AdmissionResponse response = adapter.handle(request_for(Operation::Create, sent));
  CHECK(response.uid == "uid-1");
  CHECK(response.allowed);
  CHECK_FALSE(response.status);
  CHECK(response.patch == Json::parse(R"([
    {"op":"add","path":"/metadata/labels","value":{"app":"web"}},
    {"op":"replace","path":"/spec/image","value":"nginx:2"}])"));
}

TEST_CASE("no change, no patch: defaulting alone does not count, but shows in a patch the tree causes") {
  Json undefaulted = sent;
  undefaulted["spec"].erase("replicas");
  const auto unchanged = adapter_with([](rr::Context&, TestResource&) { return rr::Error{}; });
  CHECK(unchanged.handle(request_for(Operation::Create, undefaulted)).patch.is_null());
  const auto changing = adapter_with([](rr::Context&, TestResource& resource) {
    resource.spec->image = "nginx:2";
    return rr::Error{};
  });
  CHECK(changing.handle(request_for(Operation::Create, undefaulted)).patch == Json::parse(R"([
    {"op":"replace","path":"/spec/image","value":"nginx:2"},
    {"op":"add","path":"/spec/replicas","value":1}])"));
}

TEST_CASE("an error denies with code 500 and its message; a status the tree set is kept") {
  const auto failing = adapter_with([](rr::Context&, TestResource&) { return rr::Error::make("image not allowed"); });
  const AdmissionResponse denied = failing.handle(request_for(Operation::Create, sent));
  CHECK_FALSE(denied.allowed);
  REQUIRE(denied.status);
  CHECK(denied.status->code == 500);
  CHECK(denied.status->message == "image not allowed");
  CHECK(denied.patch.is_null());

  const auto forbidding = adapter_with([](rr::Context& ctx, TestResource&) {
    rr::Status& status = admission_response(ctx).status.emplace();
    status.code = 403;
    status.reason = "Forbidden";
    status.message = "no";
    return rr::Error::make("denied");
  });
  const AdmissionResponse forbidden = forbidding.handle(request_for(Operation::Create, sent));
  CHECK_FALSE(forbidden.allowed);
  CHECK(forbidden.status->code == 403);
  CHECK(forbidden.status->message == "no");

  const auto throwing = adapter_with(
      [](rr::Context&, TestResource&) -> rr::Error { throw std::runtime_error("boom"); });
  CHECK(throwing.handle(request_for(Operation::Create, sent)).status->message == "boom");
}

TEST_CASE("a reconciler may deny without an error, add warnings, and read the request") {
  const auto adapter = adapter_with([](rr::Context& ctx, TestResource& resource) {
    const AdmissionRequest& request = admission_request(ctx);
    AdmissionResponse& response = admission_response(ctx);
    response.warnings.push_back(std::string(operation_name(request.operation)) + " " + resource.metadata.name);
    if (resource.spec->image == "bad") response.allowed = false;
    CHECK(ctx.request().name == "r");
    CHECK(ctx.request().namespace_ == "ns");
    CHECK(ctx.resource_type().plural == "testresources");
    return rr::Error{};
  });
  const AdmissionResponse allowed = adapter.handle(request_for(Operation::Update, sent, sent));
  CHECK(allowed.allowed);
  CHECK(allowed.warnings == std::vector<std::string>{"UPDATE r"});
  Json bad = sent;
  bad["spec"]["image"] = "bad";
  CHECK_FALSE(adapter.handle(request_for(Operation::Create, bad)).allowed);
}

TEST_CASE("a DELETE reconciles the old object") {
  std::string seen;
  const auto adapter = adapter_with([&seen](rr::Context&, TestResource& resource) {
    seen = resource.spec->image.value_or("");
    return rr::Error{};
  });
  Json old_object = sent;
  old_object["spec"]["image"] = "old";
  const AdmissionResponse response = adapter.handle(request_for(Operation::Delete, nullptr, old_object));
  CHECK(response.allowed);
  CHECK(seen == "old");
}

TEST_CASE("an object that does not decode denies the request") {
  const auto adapter = adapter_with([](rr::Context&, TestResource&) { return rr::Error{}; });
  const AdmissionResponse response = adapter.handle(
      request_for(Operation::Create, Json::parse(R"({"metadata":{"name":7}})")));
  CHECK_FALSE(response.allowed);
  CHECK(response.status->code == 500);
  CHECK_FALSE(response.status->message.empty());
}

TEST_CASE("before_handle and after_handle see the request and may change the response") {
  auto adapter = adapter_with([](rr::Context& ctx, TestResource&) {
    admission_response(ctx).warnings.push_back("tree saw " + rr::Stasher<std::string>("who").retrieve_or_die(ctx));
    return rr::Error{};
  });
  adapter.before_handle = [](rr::Context& ctx, const AdmissionRequest& request, AdmissionResponse& response) {
    rr::Stasher<std::string>("who").store(ctx, request.uid);
    response.audit_annotations["before"] = "yes";
  };
  adapter.after_handle = [](rr::Context&, const AdmissionRequest&, AdmissionResponse& response) {
    response.warnings.push_back("after");
  };
  const AdmissionResponse response = adapter.handle(request_for(Operation::Create, sent));
  CHECK(response.warnings == std::vector<std::string>{"tree saw uid-1", "after"});
  CHECK(response.audit_annotations.at("before") == "yes");
}

TEST_CASE("a before_handle that denies still runs the tree; one that throws denies without it") {
  bool ran = false;
  auto adapter = adapter_with([&ran](rr::Context&, TestResource&) {
    ran = true;
    return rr::Error{};
  });
  adapter.before_handle = [](rr::Context&, const AdmissionRequest&, AdmissionResponse& response) {
    response.allowed = false;
  };
  CHECK_FALSE(adapter.handle(request_for(Operation::Create, sent)).allowed);
  CHECK(ran);
  ran = false;
  adapter.before_handle = [](rr::Context&, const AdmissionRequest&, AdmissionResponse&) {
    throw std::runtime_error("before broke");
  };
  const AdmissionResponse response = adapter.handle(request_for(Operation::Create, sent));
  CHECK_FALSE(response.allowed);
  CHECK(response.status->message == "before broke");
  CHECK_FALSE(ran);
}

TEST_CASE("unstructured: any kind as rr::Json, the resource type from the request") {
  const AdmissionWebhookAdapter<Json> adapter{
      .name = "Labeler",
      .reconciler = JsonStep{[](rr::Context& ctx, Json& object) {
        CHECK(ctx.resource_type().gvk.kind == "ConfigMap");
        CHECK(ctx.resource_type().plural == "configmaps");
        object["metadata"]["labels"]["seen"] = "true";
        return rr::Error{};
      }},
  };
  AdmissionRequest request = request_for(Operation::Create, Json::parse(R"({"apiVersion":"v1","kind":"ConfigMap",
    "metadata":{"name":"c","labels":{"a":"b"}},"data":{"k":"v"}})"));
  request.kind = {"", "v1", "ConfigMap"};
  request.resource = {"", "v1", "configmaps"};
  CHECK(adapter.handle(request).patch ==
        Json::parse(R"([{"op":"add","path":"/metadata/labels/seen","value":"true"}])"));
}

TEST_CASE("handler() on the webhook server: an AdmissionReview in, one with the patch out") {
  Server server;
  server.handle_admission("/mutate", adapter_with([](rr::Context&, TestResource& resource) {
                                       resource.spec->image = "nginx:2";
                                       return rr::Error{};
                                     }).handler());
  const Reply reply = server.respond("/mutate", "application/json",
                                     encode_admission_review_request(request_for(Operation::Create, sent)));
  CHECK(reply.status == 200);
  const AdmissionResponse response = decode_admission_review_response(reply.body);
  CHECK(response.uid == "uid-1");
  CHECK(response.patch == Json::parse(R"([{"op":"replace","path":"/spec/image","value":"nginx:2"}])"));
}

TEST_CASE("outside an admission webhook the request and response are not there") {
  rr::Context ctx(rr::ContextOptions{});
  CHECK_FALSE(handling_admission(ctx));
  CHECK_THROWS_WITH_AS(admission_request(ctx), "rr::webhook::admission_request: not handling an admission request",
                       rr::StashError);
  CHECK_THROWS_AS(admission_response(ctx), rr::StashError);
}

namespace {

// Counts the events a tree records.
struct CountingRecorder : rr::EventRecorder {
  int recorded = 0;
  void record(const rr::Event&) override { ++recorded; }
};

}  // namespace

TEST_CASE("a dryRun request's writes are dry runs and record no events; without dryRun they happen") {
  const rr::KindInfo config_maps{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", rr::Scope::Namespaced, false};
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind(config_maps);
  auto recorder = std::make_shared<CountingRecorder>();
  AdmissionWebhookAdapter<TestResource> adapter{
      .name = {},
      .reconciler =
          rr::SyncReconciler<TestResource>{
              .sync =
                  [&](rr::Context& ctx, TestResource& resource) {
                    // A side effect: a ConfigMap named after the resource, and an event.
                    const Json created = ctx.config().api().create(
                        config_maps, Json{{"apiVersion", "v1"},
                                          {"kind", "ConfigMap"},
                                          {"metadata", {{"name", resource.metadata.name}, {"namespace", "ns"}}}});
                    CHECK(created["metadata"]["name"] == "r");  // answered as if stored
                    ctx.config().recorder->event(resource, "Normal", "Seen", "seen");
                    return rr::Error{};
                  }},
      .config = rr::Config{.client = std::make_shared<rr::ClusterClient>(cluster), .recorder = recorder},
  };
  AdmissionRequest dry = request_for(Operation::Create, sent);
  dry.dry_run = true;
  CHECK(adapter.handle(dry).allowed);
  CHECK(cluster->list(config_maps, {}).at("items").empty());
  CHECK(recorder->recorded == 0);

  CHECK(adapter.handle(request_for(Operation::Create, sent)).allowed);
  CHECK(cluster->list(config_maps, {}).at("items").size() == 1);
  CHECK(recorder->recorded == 1);
}
