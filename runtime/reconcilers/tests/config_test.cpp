// make_config and the tracking reads (track_and_get / track_and_try_get / track_and_list)
// against the in-memory cluster.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "rr/cluster/cluster.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr_reconcilers_test_api_types.hpp"

namespace {

using rrtest::v1::TestChild;
using rrtest::v1::TestResource;

const rr::ObjectKey request{"test-namespace", "parent"};

struct ConfigFixture {
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  std::shared_ptr<rr::ClusterClient> client = std::make_shared<rr::ClusterClient>(cluster);
  rr::Config config = rr::make_config(client);

  ConfigFixture() {
    cluster->register_kind<TestResource>();
    cluster->register_kind<TestChild>();
  }

  void seed_child(const std::string& ns, const std::string& name, std::map<std::string, std::string> labels = {}) {
    TestChild child;
    child.metadata.namespace_ = ns;
    child.metadata.name = name;
    child.metadata.labels = std::move(labels);
    cluster->seed(rr::kind_info_of<TestChild>(), rr::to_object_json(child));
  }

  rr::Context context() {
    rr::ContextOptions options;
    options.config = config;
    options.request = request;
    options.resource_type = rr::kind_info_of<TestResource>();
    return rr::Context(std::move(options));
  }

  std::vector<rr::ObjectKey> observers_of_child(const std::string& ns, const std::string& name,
                                                std::map<std::string, std::string> labels = {}) {
    TestChild child;
    child.metadata.namespace_ = ns;
    child.metadata.name = name;
    child.metadata.labels = std::move(labels);
    return config.tracker->get_observers(rr::to_object_json(child));
  }
};

}  // namespace

TEST_CASE("make_config: client, reader, tracker and recorder") {
  ConfigFixture f;
  CHECK(&f.config.api() == f.client.get());
  CHECK(&f.config.reader() == f.client.get());
  CHECK(f.config.tracker != nullptr);
  CHECK(f.config.recorder != nullptr);
  CHECK(f.config.sync_period == std::chrono::hours(10));

  auto other = std::make_shared<rr::ClusterClient>(f.cluster);
  f.config.api_reader = other;
  CHECK(&f.config.reader() == other.get());

  // Each config has its own tracker (one tracker per controller).
  CHECK(rr::make_config(f.client).tracker != rr::make_config(f.client).tracker);
}

TEST_CASE("track_and_get tracks before the get, so a missing object is tracked too") {
  ConfigFixture f;
  rr::Context ctx = f.context();
  CHECK_THROWS_AS(rr::track_and_get<TestChild>(ctx, {"test-namespace", "missing"}), rr::ApiError);
  CHECK(f.observers_of_child("test-namespace", "missing") == std::vector<rr::ObjectKey>{request});

  f.seed_child("test-namespace", "child");
  const TestChild child = rr::track_and_get<TestChild>(ctx, {"test-namespace", "child"});
  CHECK(child.metadata.name == "child");
  CHECK(f.observers_of_child("test-namespace", "child") == std::vector<rr::ObjectKey>{request});
  CHECK(f.observers_of_child("test-namespace", "unrelated").empty());
}

TEST_CASE("track_and_try_get answers nullopt on NotFound and still tracks") {
  ConfigFixture f;
  rr::Context ctx = f.context();
  CHECK_FALSE(rr::track_and_try_get<TestChild>(ctx, {"test-namespace", "later"}).has_value());
  CHECK(f.observers_of_child("test-namespace", "later") == std::vector<rr::ObjectKey>{request});

  f.seed_child("test-namespace", "later");
  CHECK(rr::track_and_try_get<TestChild>(ctx, {"test-namespace", "later"}).has_value());
}

TEST_CASE("track_and_list tracks the selector in the namespace, then lists") {
  ConfigFixture f;
  f.seed_child("test-namespace", "web-1", {{"app", "web"}});
  f.seed_child("test-namespace", "db-1", {{"app", "db"}});
  f.seed_child("elsewhere", "web-2", {{"app", "web"}});
  rr::Context ctx = f.context();

  rr::ListOptions opts;
  opts.namespace_ = "test-namespace";
  opts.label_selector = "app=web";
  const auto web = rr::track_and_list<TestChild>(ctx, opts);
  REQUIRE(web.size() == 1);
  CHECK(web[0].metadata.name == "web-1");

  CHECK(f.observers_of_child("test-namespace", "web-new", {{"app", "web"}}) == std::vector<rr::ObjectKey>{request});
  CHECK(f.observers_of_child("test-namespace", "db-new", {{"app", "db"}}).empty());
  CHECK(f.observers_of_child("elsewhere", "web-new", {{"app", "web"}}).empty());
}

TEST_CASE("track_and_list without a selector tracks everything, in every namespace when none is given") {
  ConfigFixture f;
  f.seed_child("a", "one");
  f.seed_child("b", "two");
  rr::Context ctx = f.context();
  CHECK(rr::track_and_list<TestChild>(ctx, rr::ListOptions{}).size() == 2);
  CHECK(f.observers_of_child("c", "anything", {{"x", "y"}}) == std::vector<rr::ObjectKey>{request});
  CHECK(f.config.tracker->get_observers(rr::to_object_json(TestResource{})).empty());  // another kind
}

TEST_CASE("tracking reads without a tracker only read") {
  ConfigFixture f;
  f.seed_child("test-namespace", "child");
  auto tracker = f.config.tracker;
  f.config.tracker = nullptr;
  rr::Context ctx = f.context();
  CHECK(rr::track_and_get<TestChild>(ctx, {"test-namespace", "child"}).metadata.name == "child");
  CHECK(rr::track_and_list<TestChild>(ctx, rr::ListOptions{}).size() == 1);
  CHECK(tracker->get_observers(rr::to_object_json(TestChild{})).empty());
}

TEST_CASE("tracking reads use the config in effect") {
  ConfigFixture f;
  f.seed_child("test-namespace", "child");
  rr::Context ctx = f.context();
  rr::Config nested = rr::make_config(f.client);
  {
    auto scope = ctx.with_config(nested);
    rr::track_and_get<TestChild>(ctx, {"test-namespace", "child"});
  }
  CHECK(f.observers_of_child("test-namespace", "child").empty());
  CHECK(nested.tracker->get_observers(rr::to_object_json(ctx.config().api().get<TestChild>("test-namespace", "child"))) ==
        std::vector<rr::ObjectKey>{request});
}
