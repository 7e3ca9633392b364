#include "rr/reconcilers/suppress_transient_errors.hpp"

#include <doctest/doctest.h>

#include "flow_support.hpp"
#include "rr/cluster/cluster.hpp"

using namespace flowtest;

namespace {

// A nested reconciler whose outcome the test sets before each request.
struct Scripted {
  std::shared_ptr<rr::Outcome> next = std::make_shared<rr::Outcome>();
  Step<> step() const {
    Step<> s;
    s.fn = [next = next](rr::Context&, TestResource&) { return *next; };
    return s;
  }
};

TestResource resource(std::string uid, std::int64_t generation = 1) {
  TestResource r;
  r.metadata.namespace_ = "default";
  r.metadata.name = "r-" + uid;
  r.metadata.uid = std::move(uid);
  r.metadata.generation = generation;
  return r;
}

bool suppressed(const rr::Error& e) { return e.is(rr::err_skip_status_update()) && e.is(rr::err_quiet()); }

}  // namespace

TEST_CASE("SuppressTransientErrors hides an error from status until it has repeated threshold times") {
  Scripted nested;
  rr::Error failed = rr::Error::make("flaky");
  *nested.next = rr::Outcome{requeue(), failed};
  rr::SuppressTransientErrors<TestResource> suppress{.reconciler = nested.step()};
  auto ctx = make_context();
  TestResource r = resource("a");

  rr::Outcome first = suppress.reconcile(ctx, r);
  CHECK(suppressed(first.error));
  CHECK(first.error.is(failed));
  CHECK(first.result == requeue());
  CHECK(suppressed(suppress.reconcile(ctx, r).error));
  rr::Outcome third = suppress.reconcile(ctx, r);
  CHECK(third.error.same(failed));  // the third in a row goes through as it is
  CHECK(suppress.reconcile(ctx, r).error.same(failed));  // and so do the ones after it
  CHECK(suppress.display_name() == "SuppressTransientErrors");
}

TEST_CASE("SuppressTransientErrors starts counting again after a success, a durable error or a new generation") {
  Scripted nested;
  rr::Error failed = rr::Error::make("flaky");
  rr::SuppressTransientErrors<TestResource> suppress{.threshold = 2, .reconciler = nested.step()};
  auto ctx = make_context();
  TestResource r = resource("a");

  *nested.next = rr::Outcome{failed};
  CHECK(suppressed(suppress.reconcile(ctx, r).error));

  SUBCASE("success") {
    *nested.next = rr::Outcome{};
    CHECK(suppress.reconcile(ctx, r).error.ok());
  }
  SUBCASE("durable error, returned as it is") {
    *nested.next = rr::Outcome{rr::err_durable()};
    rr::Outcome out = suppress.reconcile(ctx, r);
    CHECK(out.error.same(rr::err_durable()));
  }
  SUBCASE("new generation") {
    r.metadata.generation = 2;
  }
  *nested.next = rr::Outcome{failed};
  CHECK(suppressed(suppress.reconcile(ctx, r).error));
  CHECK(suppress.reconcile(ctx, r).error.same(failed));
}

TEST_CASE("SuppressTransientErrors counts each resource on its own") {
  Scripted nested;
  rr::Error failed = rr::Error::make("flaky");
  *nested.next = rr::Outcome{failed};
  rr::SuppressTransientErrors<TestResource> suppress{.threshold = 2, .reconciler = nested.step()};
  auto ctx = make_context();
  TestResource a = resource("a");
  TestResource b = resource("b");
  CHECK(suppressed(suppress.reconcile(ctx, a).error));
  CHECK(suppressed(suppress.reconcile(ctx, b).error));
  CHECK(suppress.reconcile(ctx, a).error.same(failed));
}

TEST_CASE("SuppressTransientErrors drops the counters of deleted resources once a day") {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<TestResource>();
  rr::Config config;
  config.client = std::make_shared<rr::ClusterClient>(cluster);
  TestResource live = resource("live");
  cluster->seed(resource_kind(), rr::to_object_json(live));
  live = rr::from_object_json<TestResource>(cluster->get(resource_kind(), {"default", "r-live"}));

  Scripted nested;
  rr::Error failed = rr::Error::make("flaky");
  rr::SuppressTransientErrors<TestResource> suppress{.threshold = 2, .reconciler = nested.step()};
  const auto t0 = std::chrono::system_clock::time_point{} + std::chrono::hours(24 * 365);
  auto context_at = [&](std::chrono::system_clock::time_point now) {
    rr::ContextOptions options;
    options.config = config;
    options.now = now;
    return rr::Context(std::move(options));
  };

  TestResource gone = resource("gone");  // never in the cluster: deleted since its error
  *nested.next = rr::Outcome{failed};
  auto early = context_at(t0);
  CHECK(suppressed(suppress.reconcile(early, gone).error));
  CHECK(suppressed(suppress.reconcile(early, live).error));
  CHECK(suppress.counters->size() == 2);

  auto same_day = context_at(t0 + std::chrono::hours(23));
  *nested.next = rr::Outcome{requeue()};
  CHECK(suppress.reconcile(same_day, live).error.ok());
  CHECK(suppress.counters->size() == 1);  // success reset "live"; no purge yet

  auto next_day = context_at(t0 + std::chrono::hours(25));
  *nested.next = rr::Outcome{failed};
  CHECK(suppressed(suppress.reconcile(next_day, live).error));
  CHECK(suppress.counters->size() == 1);  // "gone" purged, "live" counted
  CHECK(suppressed(suppress.reconcile(next_day, gone).error));  // counting from zero again
}

TEST_CASE("SuppressTransientErrors validation") {
  rr::SuppressTransientErrors<TestResource> empty{.threshold = 0};
  CHECK(findings(empty) == std::vector<std::string>{
                               "SuppressTransientErrors: SuppressTransientErrors must implement reconciler",
                               "SuppressTransientErrors: SuppressTransientErrors threshold must be at least 1"});
}
