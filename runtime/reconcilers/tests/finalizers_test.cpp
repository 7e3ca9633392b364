// Finalizer helpers against the in-memory cluster. The patch bodies are the bytes reconciler.io
// sends (MergeFromWithOptimisticLock): only metadata.finalizers and metadata.resourceVersion;
// clearing the last finalizer sends "finalizers":null.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "rr/cluster/cluster.hpp"
#include "rr/reconcilers/finalizers.hpp"
#include "rr_reconcilers_test_api_types.hpp"

namespace {

using rrtest::v1::TestResource;

// A ClusterClient that remembers the merge patches sent through it.
class PatchRecordingClient : public rr::ClusterClient {
 public:
  using rr::ClusterClient::ClusterClient;
  std::vector<std::string> bodies;

 protected:
  rr::Json do_patch(const rr::KindInfo& kind, const rr::ObjectKey& key, rr::PatchType type, std::string_view body,
                    std::string_view subresource, const rr::WriteOptions& opts) override {
    bodies.emplace_back(body);
    return rr::ClusterClient::do_patch(kind, key, type, body, subresource, opts);
  }
};

class CapturingRecorder : public rr::EventRecorder {
 public:
  void record(const rr::Event& event) override { events.push_back(event); }
  std::vector<rr::Event> events;
};

struct FinalizersFixture {
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  std::shared_ptr<PatchRecordingClient> client = std::make_shared<PatchRecordingClient>(cluster);
  std::shared_ptr<CapturingRecorder> recorder = std::make_shared<CapturingRecorder>();

  FinalizersFixture() { cluster->register_kind<TestResource>(); }

  // Seeded as a test's given object: resourceVersion "999", generation 1.
  TestResource seed(std::vector<std::string> finalizers) {
    TestResource r;
    r.metadata.namespace_ = "test-namespace";
    r.metadata.name = "test-resource";
    r.metadata.resource_version = "999";
    r.metadata.generation = 1;
    r.metadata.finalizers = std::move(finalizers);
    cluster->seed(rr::kind_info_of<TestResource>(), rr::to_object_json(r));
    return rr::from_object_json<TestResource>(cluster->get(rr::kind_info_of<TestResource>(), rr::key_of(r)));
  }

  rr::Context context() {
    rr::Config config;
    config.client = client;
    config.recorder = recorder;
    rr::ContextOptions options;
    options.config = config;
    options.request = {"test-namespace", "test-resource"};
    options.resource_type = rr::kind_info_of<TestResource>();
    return rr::Context(std::move(options));
  }

  std::vector<std::string> stored_finalizers() const {
    return rr::from_object_json<TestResource>(
               cluster->get(rr::kind_info_of<TestResource>(), {"test-namespace", "test-resource"}))
        .metadata.finalizers;
  }
};

}  // namespace

TEST_CASE("add_finalizer: merge patch with the optimistic lock; server values copied back") {
  FinalizersFixture f;
  TestResource resource = f.seed({});
  rr::Context ctx = f.context();
  resource.spec.emplace().image = "local";  // an unsaved local change survives the patch

  REQUIRE(rr::add_finalizer(ctx, resource, "test.finalizer").ok());

  REQUIRE(f.client->bodies.size() == 1);
  CHECK(f.client->bodies[0] == R"({"metadata":{"finalizers":["test.finalizer"],"resourceVersion":"999"}})");
  CHECK(resource.metadata.finalizers == std::vector<std::string>{"test.finalizer"});
  CHECK(resource.metadata.resource_version == "1000");
  CHECK(resource.metadata.generation == 1);
  CHECK(resource.spec->image == "local");
  CHECK(f.stored_finalizers() == std::vector<std::string>{"test.finalizer"});

  REQUIRE(f.recorder->events.size() == 1);
  const rr::Event& event = f.recorder->events[0];
  CHECK(event.type == "Normal");
  CHECK(event.reason == "FinalizerPatched");
  CHECK(event.message == "Patched finalizer \"test.finalizer\"");
  CHECK(event.regarding.kind == "TestResource");
  CHECK(event.regarding.name == "test-resource");
  CHECK(event.regarding.resource_version == "999");  // the object as it was before the patch
}

TEST_CASE("add_finalizer appends after existing finalizers") {
  FinalizersFixture f;
  TestResource resource = f.seed({"other.finalizer"});
  rr::Context ctx = f.context();
  REQUIRE(rr::add_finalizer(ctx, resource, "test.finalizer").ok());
  CHECK(f.client->bodies.at(0) ==
        R"({"metadata":{"finalizers":["other.finalizer","test.finalizer"],"resourceVersion":"999"}})");
  CHECK(resource.metadata.finalizers == std::vector<std::string>{"other.finalizer", "test.finalizer"});
}

TEST_CASE("finalizer helpers do nothing when already in the wanted state or the name is empty") {
  FinalizersFixture f;
  TestResource with = f.seed({"test.finalizer"});
  rr::Context ctx = f.context();
  CHECK(rr::add_finalizer(ctx, with, "test.finalizer").ok());
  CHECK(rr::add_finalizer(ctx, with, "").ok());
  CHECK(rr::clear_finalizer(ctx, with, "absent.finalizer").ok());
  CHECK(rr::clear_finalizer(ctx, with, "").ok());
  CHECK(f.client->bodies.empty());
  CHECK(f.recorder->events.empty());
  CHECK(with.metadata.resource_version == "999");
}

TEST_CASE("clear_finalizer: the last one is cleared with null") {
  FinalizersFixture f;
  TestResource resource = f.seed({"test.finalizer"});
  rr::Context ctx = f.context();
  REQUIRE(rr::clear_finalizer(ctx, resource, "test.finalizer").ok());
  CHECK(f.client->bodies.at(0) == R"({"metadata":{"finalizers":null,"resourceVersion":"999"}})");
  CHECK(resource.metadata.finalizers.empty());
  CHECK(resource.metadata.resource_version == "1000");
  CHECK(f.stored_finalizers().empty());
  REQUIRE(f.recorder->events.size() == 1);
  CHECK(f.recorder->events[0].message == "Patched finalizer \"test.finalizer\"");
}

TEST_CASE("clear_finalizer keeps the others") {
  FinalizersFixture f;
  TestResource resource = f.seed({"a.finalizer", "test.finalizer", "z.finalizer"});
  rr::Context ctx = f.context();
  REQUIRE(rr::clear_finalizer(ctx, resource, "test.finalizer").ok());
  CHECK(f.client->bodies.at(0) ==
        R"({"metadata":{"finalizers":["a.finalizer","z.finalizer"],"resourceVersion":"999"}})");
  CHECK(resource.metadata.finalizers == std::vector<std::string>{"a.finalizer", "z.finalizer"});
}

TEST_CASE("a stale resourceVersion fails with a conflict, a Warning event, and the resource untouched") {
  FinalizersFixture f;
  TestResource resource = f.seed({});
  resource.metadata.resource_version = "998";
  rr::Context ctx = f.context();

  const rr::Error err = rr::add_finalizer(ctx, resource, "test.finalizer");
  REQUIRE(err);
  CHECK(rr::is_conflict(err));
  CHECK(resource.metadata.finalizers.empty());
  CHECK(resource.metadata.resource_version == "998");
  CHECK(f.stored_finalizers().empty());

  REQUIRE(f.recorder->events.size() == 1);
  CHECK(f.recorder->events[0].type == "Warning");
  CHECK(f.recorder->events[0].reason == "FinalizerPatchFailed");
  CHECK(f.recorder->events[0].message == "Failed to patch finalizer \"test.finalizer\": " + err.message());
}

TEST_CASE("finalizer helpers use the original config, not a nested replacement") {
  FinalizersFixture f;
  TestResource resource = f.seed({});
  rr::Context ctx = f.context();
  auto other_recorder = std::make_shared<CapturingRecorder>();
  rr::Config nested;  // no client at all: using it would throw
  nested.recorder = other_recorder;
  auto scope = ctx.with_config(nested);

  REQUIRE(rr::add_finalizer(ctx, resource, "test.finalizer").ok());
  CHECK(f.client->bodies.size() == 1);
  CHECK(f.recorder->events.size() == 1);
  CHECK(other_recorder->events.empty());
}

TEST_CASE("finalizer helpers on JSON objects") {
  FinalizersFixture f;
  f.seed({"keep"});
  rr::Context ctx = f.context();
  rr::Json resource = f.cluster->get(rr::kind_info_of<TestResource>(), {"test-namespace", "test-resource"});

  REQUIRE(rr::add_finalizer(ctx, rr::kind_info_of<TestResource>(), resource, "test.finalizer").ok());
  CHECK(resource["metadata"]["finalizers"] == rr::Json{"keep", "test.finalizer"});
  CHECK(resource["metadata"]["resourceVersion"] == "1000");

  REQUIRE(rr::clear_finalizer(ctx, rr::kind_info_of<TestResource>(), resource, "keep").ok());
  REQUIRE(rr::clear_finalizer(ctx, rr::kind_info_of<TestResource>(), resource, "test.finalizer").ok());
  CHECK_FALSE(resource["metadata"].contains("finalizers"));
  CHECK(resource["metadata"]["resourceVersion"] == "1002");
  CHECK(f.client->bodies.at(2) == R"({"metadata":{"finalizers":null,"resourceVersion":"1001"}})");
}

TEST_CASE("has_finalizer") {
  rr::ObjectMeta meta;
  meta.finalizers = {"a", "b"};
  CHECK(rr::has_finalizer(meta, "a"));
  CHECK_FALSE(rr::has_finalizer(meta, "c"));
  CHECK_FALSE(rr::has_finalizer(rr::ObjectMeta{}, "a"));
}
