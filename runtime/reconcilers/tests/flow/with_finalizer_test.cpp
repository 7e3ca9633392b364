#include "rr/reconcilers/with_finalizer.hpp"

#include <doctest/doctest.h>

#include "flow_support.hpp"
#include "rr/cluster/cluster.hpp"

using namespace flowtest;

namespace {

// Forwards to the cluster and records the body of every patch.
class RecordingClient : public rr::ClusterClient {
 public:
  using rr::ClusterClient::ClusterClient;
  std::vector<std::pair<rr::PatchType, std::string>> patches;

 protected:
  rr::Json do_patch(const rr::KindInfo& kind, const rr::ObjectKey& key, rr::PatchType type, std::string_view body,
                    std::string_view subresource, const rr::WriteOptions& opts) override {
    patches.push_back({type, std::string(body)});
    return rr::ClusterClient::do_patch(kind, key, type, body, subresource, opts);
  }
};

struct CapturingRecorder : rr::EventRecorder {
  void record(const rr::Event& e) override { events.push_back(e); }
  std::vector<rr::Event> events;
};

struct WithFinalizerFixture {
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  std::shared_ptr<RecordingClient> client = std::make_shared<RecordingClient>(cluster);
  std::shared_ptr<CapturingRecorder> recorder = std::make_shared<CapturingRecorder>();

  WithFinalizerFixture() { cluster->register_kind<TestResource>(); }

  rr::Config config() const {
    rr::Config c;
    c.client = client;
    c.recorder = recorder;
    c.tracker = rr::make_tracker(std::chrono::hours(1));
    return c;
  }

  // Seeds the resource (resourceVersion "999") and returns it as the cluster has it.
  TestResource given(std::vector<std::string> finalizers, bool terminating) {
    TestResource r;
    r.metadata.namespace_ = "default";
    r.metadata.name = "resource";
    r.metadata.finalizers = std::move(finalizers);
    if (terminating) r.metadata.deletion_timestamp = rr::Time::from(std::chrono::system_clock::time_point{});
    cluster->seed(resource_kind(), rr::to_object_json(r));
    return stored();
  }
  TestResource stored() const { return rr::from_object_json<TestResource>(cluster->get(resource_kind(), {"default", "resource"})); }
};

}  // namespace

TEST_CASE("WithFinalizer adds its finalizer with an optimistic-lock merge patch before the nested reconciler") {
  WithFinalizerFixture f;
  TestResource r = f.given({}, false);
  REQUIRE(r.metadata.resource_version == "999");
  std::vector<std::string> finalizers_seen_by_nested;
  Step<> nested;
  nested.fn = [&](rr::Context&, TestResource& res) {
    finalizers_seen_by_nested = res.metadata.finalizers;
    return rr::Outcome{requeue_after(1s)};
  };
  rr::WithFinalizer<TestResource> with{.finalizer = "x", .reconciler = nested};
  auto ctx = make_context(f.config());
  rr::Outcome out = with.reconcile(ctx, r);

  CHECK(out.error.ok());
  CHECK(out.result == requeue_after(1s));
  REQUIRE(f.client->patches.size() == 1);
  CHECK(f.client->patches[0].first == rr::PatchType::Merge);
  CHECK(f.client->patches[0].second == R"({"metadata":{"finalizers":["x"],"resourceVersion":"999"}})");
  CHECK(finalizers_seen_by_nested == std::vector<std::string>{"x"});
  CHECK(r.metadata.resource_version == f.stored().metadata.resource_version);
  CHECK(r.metadata.resource_version != "999");
  CHECK(f.stored().metadata.finalizers == std::vector<std::string>{"x"});
  CHECK(with.display_name() == "WithFinalizer");

  SUBCASE("already there: no patch") {
    f.client->patches.clear();
    CHECK(with.reconcile(ctx, r).error.ok());
    CHECK(f.client->patches.empty());
  }
}

TEST_CASE("WithFinalizer: when adding the finalizer fails the request fails and the nested reconciler does not run") {
  WithFinalizerFixture f;
  TestResource r = f.given({}, false);
  r.metadata.resource_version = "1";  // stale: the optimistic lock answers 409
  std::vector<std::string> trace;
  rr::WithFinalizer<TestResource> with{.finalizer = "x", .reconciler = traced(trace, "nested", requeue())};
  auto ctx = make_context(f.config());
  rr::Outcome out = with.reconcile(ctx, r);
  CHECK(rr::is_conflict(out.error));
  CHECK(trace.empty());
  CHECK(f.stored().metadata.finalizers.empty());
}

TEST_CASE("WithFinalizer clears its finalizer once the terminating resource is cleaned up") {
  WithFinalizerFixture f;
  TestResource r = f.given({"x", "other"}, true);
  std::vector<std::string> trace;
  rr::WithFinalizer<TestResource> with{.finalizer = "x", .reconciler = traced(trace, "cleanup")};
  auto ctx = make_context(f.config());
  rr::Outcome out = with.reconcile(ctx, r);
  CHECK(out.error.ok());
  CHECK(trace == std::vector<std::string>{"cleanup"});
  REQUIRE(f.client->patches.size() == 1);
  CHECK(f.client->patches[0].second == R"({"metadata":{"finalizers":["other"],"resourceVersion":"999"}})");
  CHECK(r.metadata.finalizers == std::vector<std::string>{"other"});
  CHECK(f.stored().metadata.finalizers == std::vector<std::string>{"other"});
}

TEST_CASE("WithFinalizer keeps the finalizer while the cleanup fails or is not ready, and never adds it when terminating") {
  WithFinalizerFixture f;
  auto ctx = make_context(f.config());

  SUBCASE("nested error") {
    TestResource r = f.given({"x"}, true);
    rr::Error failed = rr::Error::make("cleanup failed");
    std::vector<std::string> trace;
    rr::WithFinalizer<TestResource> with{.finalizer = "x", .reconciler = traced(trace, "cleanup", failed)};
    CHECK(with.reconcile(ctx, r).error.same(failed));
    CHECK(f.client->patches.empty());
    CHECK(f.stored().metadata.finalizers == std::vector<std::string>{"x"});
  }
  SUBCASE("not ready to clear") {
    TestResource r = f.given({"x"}, true);
    std::vector<std::string> trace;
    rr::WithFinalizer<TestResource> with{
        .finalizer = "x",
        .reconciler = traced(trace, "cleanup"),
        .ready_to_clear_finalizer = [](rr::Context&, const TestResource&) { return false; },
    };
    CHECK(with.reconcile(ctx, r).error.ok());
    CHECK(trace.size() == 1);
    CHECK(f.client->patches.empty());
    CHECK(f.stored().metadata.finalizers == std::vector<std::string>{"x"});
  }
  SUBCASE("terminating without the finalizer: nothing to add, nothing to clear") {
    TestResource r = f.given({"other"}, true);
    std::vector<std::string> trace;
    rr::WithFinalizer<TestResource> with{.finalizer = "x", .reconciler = traced(trace, "cleanup")};
    CHECK(with.reconcile(ctx, r).error.ok());
    CHECK(trace.size() == 1);
    CHECK(f.client->patches.empty());
  }
}

TEST_CASE("WithFinalizer validation") {
  rr::WithFinalizer<TestResource> empty{};
  CHECK(findings(empty) == std::vector<std::string>{"WithFinalizer: WithFinalizer must define finalizer",
                                                    "WithFinalizer: WithFinalizer must implement reconciler"});
}
