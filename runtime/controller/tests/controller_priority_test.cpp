// The controller's priority queue and reconcile timeout, end to end against the in-process cluster.
#include <doctest/doctest.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>

#include "controller_test_support.hpp"
#include "rr/reconcilers/stop_token.hpp"
#include "rr/client/call_deadline.hpp"
#include "rr/controller/fake_clock.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;

namespace {

constexpr int kInitialItems = 10000;

// The first reconcile waits for `released`; the others return at once.
void hold_first_reconcile(Harness& h, std::shared_future<void> released) {
  auto first = std::make_shared<std::atomic<bool>>(true);
  h.probe->behaviour = [first, released](const Request&, const RequestOptions&, const Config&) -> Outcome {
    if (first->exchange(false)) released.wait();
    return {};
  };
}

// 10,000 parents exist before the controller starts; its one worker is held in the first
// reconcile while a new parent is created. Returns where that new parent was reconciled, counting
// from 0 (index 0 is the held reconcile).
std::size_t position_of_change(bool use_priority_queue) {
  ControllerOptions options;
  options.use_priority_queue = use_priority_queue;
  Harness h(std::move(options));
  for (int i = 0; i < kInitialItems; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "p%05d", i);
    h.cluster->create(parent_kind(), make(parent_kind(), name));
  }
  std::promise<void> release;
  hold_first_reconcile(h, release.get_future().share());
  h.run();
  REQUIRE(eventually([&] { return h.probe->count() == 1; }, 30s));
  h.cluster->create(parent_kind(), make(parent_kind(), "changed"));
  // Queued once the watch delivered it: the 10,001st add.
  REQUIRE(eventually([&] { return h.sample(R"(workqueue_adds_total{controller="parent",name="parent"})") == 10001; }));
  release.set_value();
  REQUIRE(eventually([&] { return h.probe->count() == kInitialItems + 1; }, 30s));
  const auto seen = h.probe->seen();
  return static_cast<std::size_t>(std::find(seen.begin(), seen.end(), "default/changed") - seen.begin());
}

}  // namespace

TEST_CASE("slow: controller: a real change is served before 10,000 initial-list keys, after them without priorities") {
  const std::size_t with = position_of_change(true);
  const std::size_t without = position_of_change(false);
  MESSAGE("position of the change: " << with << " with the priority queue, " << without << " without");
  CHECK(with <= 2);                 // right after the reconcile that was running
  CHECK(without == kInitialItems);  // behind every initial key
}

TEST_CASE("controller: the initial list is queued at low priority, a real change at 0") {
  Harness h;
  h.cluster->create(parent_kind(), make(parent_kind(), "a"));
  h.cluster->create(parent_kind(), make(parent_kind(), "b"));
  std::promise<void> release;
  hold_first_reconcile(h, release.get_future().share());
  h.run();
  REQUIRE(eventually([&] { return h.probe->count() == 1; }));
  const std::string depth = R"(workqueue_depth{controller="parent",name="parent",priority=)";
  CHECK(h.sample(depth + R"("-100"})") == 1);  // the other initial key waits low
  h.cluster->create(parent_kind(), make(parent_kind(), "c"));
  CHECK(eventually([&] { return h.sample(depth + R"("0"})") == 1; }));
  release.set_value();
  REQUIRE(eventually([&] { return h.probe->count() == 3; }));
  CHECK(h.probe->seen()[1] == "default/c");
}

TEST_CASE("controller: a reconcile past reconcile_timeout is stopped, counted and requeued with backoff") {
  ControllerOptions options;
  options.reconcile_timeout = 50ms;
  Harness h(std::move(options));
  std::atomic<bool> stopped_by_token{false};
  std::atomic<bool> had_call_deadline{false};
  std::atomic<bool> had_deadline{false};
  h.probe->behaviour = [&](const Request&, const RequestOptions& request, const Config&) -> Outcome {
    if (h.probe->count() > 1) return {};  // the retry is quick
    had_deadline = request.deadline.has_value();
    had_call_deadline = CallDeadline::current().has_value();
    // A hook stuck on something slow, waiting on its stop token.
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    REQUIRE(request.stop != nullptr);
    const std::stop_token token = request.stop->token;
    stopped_by_token = cv.wait_for(lock, token, 10s, [] { return false; }) || token.stop_requested();
    return {};  // returns "success": still a timeout, retried
  };
  h.cluster->create(parent_kind(), make(parent_kind(), "stuck"));
  const auto began = std::chrono::steady_clock::now();
  h.run();
  REQUIRE(eventually([&] { return h.probe->count_of("default/stuck") == 2; }));
  CHECK(std::chrono::steady_clock::now() - began < 5s);
  CHECK(stopped_by_token);
  CHECK(had_deadline);
  CHECK(had_call_deadline);
  REQUIRE(eventually([&] { return h.reconciles("success") == 1; }));
  CHECK(h.sample(R"(controller_runtime_reconcile_timeouts_total{controller="parent"})") == 1);
  CHECK(h.reconciles("error") == 1);  // context deadline exceeded, requeued through the rate limiter
  CHECK(h.sample(R"(workqueue_retries_total{controller="parent",name="parent"})") == 1);
}

TEST_CASE("controller: without reconcile_timeout a reconcile has no deadline, and a negative one is refused") {
  Harness h;
  std::atomic<bool> had_deadline{true};
  h.probe->behaviour = [&](const Request&, const RequestOptions& request, const Config&) -> Outcome {
    had_deadline = request.deadline.has_value() || CallDeadline::current().has_value();
    return {};
  };
  h.cluster->create(parent_kind(), make(parent_kind(), "a"));
  h.run();
  REQUIRE(eventually([&] { return h.probe->count() == 1; }));
  CHECK_FALSE(had_deadline);

  ControllerOptions negative;
  negative.reconcile_timeout = -1s;
  CHECK_THROWS_WITH_AS(Harness(std::move(negative)), "controller parent: reconcile_timeout must not be negative",
                       std::invalid_argument);
}

TEST_CASE("informer: the initial list and the replay to a late handler go to on_initial_add") {
  Harness h;
  h.cluster->create(parent_kind(), make(parent_kind(), "a"));
  InformerOptions options;
  options.poll_interval = 20ms;
  auto informer = std::make_shared<Informer>(h.api, parent_kind(), options);
  std::mutex m;
  std::vector<std::string> events;
  auto record = [&](std::string what) {
    std::lock_guard lock(m);
    events.push_back(std::move(what));
  };
  auto seen = [&] {
    std::lock_guard lock(m);
    return events;
  };
  InformerHandlers both;
  both.on_add = [&](const Json& o) { record("add " + key_of(o).name); };
  both.on_initial_add = [&](const Json& o) { record("initial " + key_of(o).name); };
  informer->add_handlers(both);
  InformerHandlers plain;  // without on_initial_add, on_add gets the initial list too
  plain.on_add = [&](const Json& o) { record("plain add " + key_of(o).name); };
  informer->add_handlers(plain);
  std::jthread thread([informer](std::stop_token stop) { informer->run(stop); });
  REQUIRE(informer->wait_for_sync(thread.get_stop_token(), 5s));
  h.cluster->create(parent_kind(), make(parent_kind(), "b"));
  REQUIRE(eventually([&] { return seen().size() == 4; }));
  CHECK(seen() == std::vector<std::string>{"initial a", "plain add a", "add b", "plain add b"});

  InformerHandlers late;
  late.on_add = [&](const Json& o) { record("late add " + key_of(o).name); };
  late.on_initial_add = [&](const Json& o) { record("late initial " + key_of(o).name); };
  informer->add_handlers(late);
  const auto all = seen();
  CHECK(std::vector<std::string>(all.begin() + 4, all.end()) ==
        std::vector<std::string>{"late initial a", "late initial b"});
}

TEST_CASE("controller: Result::priority sets the requeue's priority, served before a change at 0") {
  FakeClock clock;
  ControllerOptions options;
  options.clock = &clock;
  Harness h(std::move(options));
  h.cluster->create(parent_kind(), make(parent_kind(), "a"));
  h.cluster->create(parent_kind(), make(parent_kind(), "b"));
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  h.probe->behaviour = [&](const Request& request, const RequestOptions&, const Config&) -> Outcome {
    if (request.name == "a" && h.probe->count_of("default/a") == 1) {
      return Result{.requeue_after = std::chrono::seconds(1), .priority = 7};
    }
    if (request.name == "b") released.wait();  // holds the one worker
    return {};
  };
  h.run();
  REQUIRE(eventually([&] { return h.probe->count() == 2; }));  // a (requeued in 1 s), then b, held
  REQUIRE(h.probe->seen() == std::vector<std::string>{"default/a", "default/b"});
  h.cluster->create(parent_kind(), make(parent_kind(), "c"));
  const std::string depth = R"(workqueue_depth{controller="parent",name="parent",priority=)";
  REQUIRE(eventually([&] { return h.sample(depth + R"("0"})") == 1; }));
  clock.advance(std::chrono::seconds(1));
  CHECK(eventually([&] { return h.sample(depth + R"("7"})") == 1; }));
  release.set_value();
  REQUIRE(eventually([&] { return h.probe->count() == 4; }));
  CHECK(h.probe->seen() == std::vector<std::string>{"default/a", "default/b", "default/a", "default/c"});
}
