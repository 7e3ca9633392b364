// rr::Controller against the in-process cluster: informers → queue → workers → reconciler.
#include <doctest/doctest.h>

#include "controller_test_support.hpp"
#include "rr/controller/fake_clock.hpp"
#include "rr/reconcilers/terminal_error.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;
using Keys = std::vector<std::string>;

namespace {

ControllerOptions on_clock(FakeClock& clock) {
  ControllerOptions options;
  options.clock = &clock;
  return options;
}

}  // namespace

TEST_CASE("controller: creating an object reconciles it, once the caches have synced") {
  Harness h;
  h.cluster->create(parent_kind(), make(parent_kind(), "existing"));
  CHECK(h.controller->needs_leader_election());
  CHECK(h.controller->name() == "parent");
  CHECK_FALSE(h.controller->ready());
  CHECK(h.controller->for_kind() == parent_kind());
  CHECK(h.controller->watches().size() == 3);
  CHECK(h.cache->informers().size() == 3);  // created with the controller, synced by the cache

  h.run();
  REQUIRE(eventually([&] { return h.probe->count() == 1; }));
  CHECK(h.controller->ready());
  h.cluster->create(parent_kind(), make(parent_kind(), "p"));
  REQUIRE(eventually([&] { return h.probe->count() == 2; }));
  CHECK(h.probe->seen() == Keys{"default/existing", "default/p"});
  REQUIRE(eventually([&] { return h.reconciles("success") == 2; }));
  CHECK(h.reconciles("error") == 0);
  CHECK(h.sample("workqueue_adds_total{controller=\"parent\",name=\"parent\"}") == 2);
  CHECK(h.sample("controller_runtime_active_workers{controller=\"parent\"}") == 0);

  // The reconciler's config: cached client, API reader, tracker, recorder.
  CHECK(h.controller->config().client != h.api);
  CHECK(h.controller->config().api_reader == h.api);
  CHECK(h.controller->config().tracker != nullptr);
  CHECK(h.controller->config().recorder != nullptr);

  h.stop();
  CHECK_FALSE(h.controller->ready());
  CHECK_NOTHROW(h.controller_done.get());
}

TEST_CASE("controller: a change to an owned child enqueues its controller owner, and only that") {
  Harness h;
  h.run();
  REQUIRE(eventually([&] { return h.controller->ready(); }));
  auto child = [&](const std::string& name, const std::string& api_version, const std::string& kind,
                   const std::string& owner, bool controller) {
    Json c = make(child_kind(), name);
    c["metadata"]["ownerReferences"] = Json::array({{{"apiVersion", api_version},
                                                     {"kind", kind},
                                                     {"name", owner},
                                                     {"uid", "u-" + owner},
                                                     {"controller", controller}}});
    return h.cluster->create(child_kind(), c);
  };
  child("not-controller", "example.dev/v1", "Parent", "ignored-1", false);
  child("other-group", "other.dev/v1", "Parent", "ignored-2", true);
  child("other-kind", "example.dev/v1", "Thing", "ignored-3", true);
  child("mine", "example.dev/v2", "Parent", "owner", true);  // the version does not matter
  REQUIRE(eventually([&] { return h.probe->count() == 1; }));
  CHECK(h.probe->seen() == Keys{"default/owner"});

  REQUIRE(eventually([&] { return h.reconciles("success") == 1; }));  // done: a new event requeues it
  h.cluster->patch(child_kind(), {"default", "mine"}, PatchType::Merge, R"({"metadata":{"labels":{"x":"y"}}})");
  REQUIRE(eventually([&] { return h.reconciles("success") == 2; }));
  h.cluster->remove(child_kind(), {"default", "mine"});
  REQUIRE(eventually([&] { return h.probe->count() >= 3; }));
  std::this_thread::sleep_for(50ms);
  CHECK(h.probe->seen() == Keys{"default/owner", "default/owner", "default/owner"});
}

TEST_CASE("controller: a change to a tracked object enqueues the tracker's observer") {
  Harness h;
  h.probe->behaviour = [](const Request& request, const RequestOptions&, const Config& config) -> Outcome {
    config.tracker->track_reference({"", "ConfigMap", "default", "settings-" + request.name, std::nullopt}, request);
    return {};
  };
  h.cluster->create(parent_kind(), make(parent_kind(), "p"));
  h.cluster->create(parent_kind(), make(parent_kind(), "q"));
  h.run();
  REQUIRE(eventually([&] { return h.reconciles("success") == 2; }));  // both tracks are in place
  h.cluster->create(configmap_kind(), make(configmap_kind(), "settings-q"));
  REQUIRE(eventually([&] { return h.reconciles("success") == 3; }));
  h.cluster->create(configmap_kind(), make(configmap_kind(), "unrelated"));
  h.cluster->patch(configmap_kind(), {"default", "settings-q"}, PatchType::Merge, R"({"data":{"a":"b"}})");
  REQUIRE(eventually([&] { return h.probe->count() >= 4; }));
  std::this_thread::sleep_for(50ms);
  CHECK(h.probe->count_of("default/q") == 3);
  CHECK(h.probe->count_of("default/p") == 1);
}

TEST_CASE("controller: requeue_after brings the key back after the delay, counted as requeue_after") {
  FakeClock clock;
  Harness h(on_clock(clock));
  std::atomic<int> calls{0};
  h.probe->behaviour = [&](const Request&, const RequestOptions&, const Config&) -> Outcome {
    if (++calls == 1) return Result{.requeue = false, .requeue_after = 1h};
    return {};
  };
  h.cluster->create(parent_kind(), make(parent_kind(), "p"));
  h.run();
  REQUIRE(eventually([&] { return h.probe->count() == 1; }));
  // The key is waiting once the result is counted (after add_after): only then may the clock move,
  // or the delay would start from the moved clock.
  REQUIRE(eventually([&] { return h.reconciles("requeue_after") == 1; }));
  clock.advance(59min);
  std::this_thread::sleep_for(50ms);
  CHECK(h.probe->count() == 1);
  clock.advance(1min);
  REQUIRE(eventually([&] { return h.probe->count() == 2; }));
  REQUIRE(eventually([&] { return h.reconciles("success") == 1; }));
  CHECK(h.reconciles("requeue_after") == 1);
}

TEST_CASE("controller: errors back off per key (5 ms, 10 ms, ...) and quiet errors requeue silently") {
  FakeClock clock;
  ControllerOptions options;
  options.clock = &clock;
  std::vector<LogRecord> logged;
  std::mutex log_mutex;
  options.log = Logger(std::make_shared<const LogSink>([&](const LogRecord& r) {
    std::lock_guard lock(log_mutex);
    logged.push_back(r);
  }));
  Harness h(std::move(options));
  std::atomic<int> calls{0};
  h.probe->behaviour = [&](const Request&, const RequestOptions&, const Config&) -> Outcome {
    const int n = ++calls;
    if (n <= 2) return Error::make("boom " + std::to_string(n));
    if (n == 3) return err_quiet();
    return {};
  };
  h.cluster->create(parent_kind(), make(parent_kind(), "p"));
  h.run();
  REQUIRE(eventually([&] { return h.probe->count() == 1; }));
  std::this_thread::sleep_for(30ms);
  CHECK(h.probe->count() == 1);  // waits 5 ms of the queue's clock
  clock.advance(5ms);
  REQUIRE(eventually([&] { return h.probe->count() == 2; }));
  clock.advance(5ms);
  std::this_thread::sleep_for(30ms);
  CHECK(h.probe->count() == 2);  // the second failure waits 10 ms
  clock.advance(5ms);
  REQUIRE(eventually([&] { return h.probe->count() == 3; }));  // quiet: requeued after 20 ms
  clock.advance(20ms);
  REQUIRE(eventually([&] { return h.probe->count() == 4; }));
  REQUIRE(eventually([&] { return h.reconciles("success") == 1; }));
  CHECK(h.reconciles("error") == 2);
  CHECK(h.reconciles("requeue") == 1);
  CHECK(h.sample("controller_runtime_reconcile_errors_total{controller=\"parent\"}") == 2);
  CHECK(h.sample("workqueue_retries_total{controller=\"parent\",name=\"parent\"}") == 3);

  std::lock_guard lock(log_mutex);
  std::vector<std::string> errors;
  for (const auto& r : logged) {
    if (r.level == LogLevel::Error) errors.push_back(r.message + ": " + r.error);
  }
  CHECK(errors == std::vector<std::string>{"Reconciler error: boom 1", "Reconciler error: boom 2"});
  bool has_request_values = false;
  for (const auto& r : logged) {
    if (r.level != LogLevel::Error) continue;
    std::map<std::string, std::string> values(r.values.begin(), r.values.end());
    has_request_values = values["controller"] == "parent" && values["controllerKind"] == "Parent" &&
                         values["namespace"] == "default" && values["name"] == "p" && values["reconcileID"].size() == 36;
  }
  CHECK(has_request_values);
}

TEST_CASE("controller: a terminal error is logged and counted, and the key is not requeued") {
  FakeClock clock;
  Harness h(on_clock(clock));
  std::atomic<int> calls{0};
  h.probe->behaviour = [&](const Request&, const RequestOptions&, const Config&) -> Outcome {
    ++calls;
    return terminal_error(Error::make("spec.image is not an image reference"));
  };
  h.cluster->create(parent_kind(), make(parent_kind(), "p"));
  h.run();
  REQUIRE(eventually([&] { return h.reconciles("error") == 1; }));
  clock.advance(10s);  // any backoff would have run out
  std::this_thread::sleep_for(50ms);
  CHECK(calls == 1);
  CHECK(h.sample("controller_runtime_terminal_reconcile_errors_total{controller=\"parent\"}") == 1);
  CHECK(h.sample("controller_runtime_reconcile_errors_total{controller=\"parent\"}") == 1);
  CHECK(h.sample("workqueue_retries_total{controller=\"parent\",name=\"parent\"}") == 0);

  // A new event for the object brings it back.
  Json changed = h.cluster->get(parent_kind(), {"default", "p"});
  changed["metadata"]["labels"] = {{"fixed", "yes"}};
  h.cluster->update(parent_kind(), changed);
  REQUIRE(eventually([&] { return calls == 2; }));
}

TEST_CASE("controller: N workers reconcile different keys in parallel, never one key twice at once") {
  ControllerOptions options;
  options.max_concurrent_reconciles = 4;
  Harness h(std::move(options));
  h.probe->behaviour = [](const Request&, const RequestOptions&, const Config&) -> Outcome {
    std::this_thread::sleep_for(2ms);
    return {};
  };
  for (int i = 0; i < 6; ++i) h.cluster->create(parent_kind(), make(parent_kind(), "p" + std::to_string(i)));
  h.run();
  REQUIRE(eventually([&] { return h.controller->ready(); }));
  for (int round = 0; round < 100; ++round) {
    for (int i = 0; i < 6; ++i) h.controller->enqueue({"default", "p" + std::to_string(i)});
    std::this_thread::sleep_for(1ms);
  }
  REQUIRE(eventually([&] { return h.controller->ready() && h.probe->count() >= 60; }));
  h.stop();
  std::lock_guard lock(h.probe->mutex);
  CHECK_FALSE(h.probe->overlap);
  CHECK(h.probe->max_in_flight > 1);
  CHECK(h.probe->max_in_flight <= 4);
}

TEST_CASE("controller: stopping waits for the reconcile in progress, which sees the cancellation") {
  Harness h;
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> saw_cancel{false};
  std::atomic<bool> finished{false};
  h.probe->behaviour = [&](const Request&, const RequestOptions& options, const Config&) -> Outcome {
    entered.set_value();
    released.wait();
    saw_cancel = options.cancelled && options.cancelled->load();
    finished = true;
    return {};
  };
  h.cluster->create(parent_kind(), make(parent_kind(), "slow"));
  h.run();
  entered.get_future().wait();
  h.controller_thread.request_stop();
  CHECK(h.controller_done.wait_for(100ms) == std::future_status::timeout);  // still reconciling
  release.set_value();
  REQUIRE(h.controller_done.wait_for(5s) == std::future_status::ready);
  CHECK(finished);
  CHECK(saw_cancel);
  CHECK_NOTHROW(h.controller_done.get());
}

TEST_CASE("controller: stopping with a backlog finishes the reconciles in flight and drops the queued keys") {
  auto records = std::make_shared<std::vector<LogRecord>>();
  auto records_mutex = std::make_shared<std::mutex>();
  ControllerOptions options;
  options.max_concurrent_reconciles = 2;
  options.log = Logger(std::make_shared<const LogSink>([records, records_mutex](const LogRecord& r) {
    std::lock_guard lock(*records_mutex);
    records->push_back(r);
  }));
  Harness h(std::move(options));
  constexpr auto reconcile_time = 300ms;
  std::atomic<int> completed{0};
  h.probe->behaviour = [&](const Request&, const RequestOptions&, const Config&) -> Outcome {
    std::this_thread::sleep_for(reconcile_time);  // does not look at the cancellation: never cut short
    ++completed;
    return {};
  };
  constexpr int parents = 40;
  for (int i = 0; i < parents; ++i) h.cluster->create(parent_kind(), make(parent_kind(), "p" + std::to_string(i)));
  h.run();
  REQUIRE(eventually([&] {
    std::lock_guard lock(h.probe->mutex);
    return h.probe->in_flight.size() == 2;
  }));
  const auto stopping_at = std::chrono::steady_clock::now();
  h.controller_thread.request_stop();
  REQUIRE(h.controller_done.wait_for(5s) == std::future_status::ready);
  // Draining the backlog would take 19 × 300 ms more; only the two reconciles in flight are awaited.
  CHECK(std::chrono::steady_clock::now() - stopping_at < reconcile_time + 700ms);
  CHECK_NOTHROW(h.controller_done.get());
  CHECK(completed == 2);  // the reconciles in flight ran to their end
  CHECK(h.probe->count() == 2);  // and no queued key was reconciled
  CHECK(h.reconciles("success") == 2);
  std::lock_guard lock(*records_mutex);
  bool logged_drop = false;
  for (const LogRecord& r : *records) {
    logged_drop = logged_drop || (r.message == "Dropped the keys still queued" &&
                                  std::find(r.values.begin(), r.values.end(),
                                            std::pair<std::string, std::string>{"keys", std::to_string(parents - 2)}) !=
                                      r.values.end());
  }
  CHECK(logged_drop);
}

TEST_CASE("controller: an exception escaping reconcile is recovered, counted and retried") {
  Harness h;
  std::atomic<int> calls{0};
  h.probe->behaviour = [&](const Request&, const RequestOptions&, const Config&) -> Outcome {
    if (++calls == 1) throw std::runtime_error("kaboom");
    return {};
  };
  h.cluster->create(parent_kind(), make(parent_kind(), "p"));
  h.run();
  REQUIRE(eventually([&] { return h.probe->count() == 2; }));  // retried after 5 ms
  REQUIRE(eventually([&] { return h.reconciles("success") == 1; }));
  CHECK(h.sample("controller_runtime_reconcile_panics_total{controller=\"parent\"}") == 1);
  CHECK(h.reconciles("error") == 1);
}

TEST_CASE("controller: with recover_panic off, an exception stops the controller and start() rethrows it") {
  ControllerOptions options;
  options.recover_panic = false;
  Harness h(std::move(options));
  h.probe->behaviour = [](const Request&, const RequestOptions&, const Config&) -> Outcome {
    throw std::runtime_error("kaboom");
  };
  h.cluster->create(parent_kind(), make(parent_kind(), "p"));
  h.run();
  REQUIRE(h.controller_done.wait_for(5s) == std::future_status::ready);
  CHECK_THROWS_WITH_AS(h.controller_done.get(), "kaboom", std::runtime_error);
}

TEST_CASE("controller: construction checks the name, the reconciler and its watches") {
  auto cluster = std::make_shared<Cluster>();
  auto api = std::make_shared<ClusterClient>(cluster);
  auto cache = std::make_shared<InformerCache>(api);
  auto probe = std::make_shared<Probe>();
  auto with = [&](std::string name, Controller::ReconcilerFactory factory) {
    ControllerOptions options;
    options.name = std::move(name);
    return Controller(std::move(options), std::move(factory), api, cache);
  };
  CHECK_THROWS_AS(with("", [&](const Config& c) -> Reconciler { return ProbeReconciler{probe, c}; }), std::invalid_argument);
  CHECK_THROWS_AS(with("x", [&](const Config& c) -> Reconciler { return ProbeReconciler{nullptr, c}; }), ValidationError);

  struct NoFor {
    Outcome reconcile(const Request&, const RequestOptions&) const { return {}; }
    void validate(Validation&) const {}
    void setup(Setup& s) const { s.owns(child_kind()); }
    std::string display_name() const { return "NoFor"; }
  };
  CHECK_THROWS_WITH_AS(with("x", [](const Config&) -> Reconciler { return NoFor{}; }),
                       "controller x: the reconciler must watch exactly one For kind, not 0", std::invalid_argument);

  auto started = std::make_shared<Controller>(ControllerOptions{.name = "twice"},
                                              [&](const Config& c) -> Reconciler { return ProbeReconciler{probe, c}; },
                                              api, cache);
  std::stop_source stopped;
  stopped.request_stop();
  cluster->register_kind(parent_kind());
  cluster->register_kind(child_kind());
  cluster->register_kind(configmap_kind());
  started->start(stopped.get_token());  // stop already requested: returns at once
  CHECK_THROWS_AS(started->start(stopped.get_token()), std::logic_error);
}

TEST_CASE("controller: start fails when the caches do not sync in time") {
  auto cluster = std::make_shared<Cluster>();  // no kinds registered: every list fails
  auto api = std::make_shared<ClusterClient>(cluster);
  auto cache = std::make_shared<InformerCache>(api);
  auto probe = std::make_shared<Probe>();
  ControllerOptions options;
  options.name = "parent";
  options.cache_sync_timeout = 100ms;
  Controller controller(std::move(options), [&](const Config& c) -> Reconciler { return ProbeReconciler{probe, c}; },
                        api, cache);
  std::jthread running([&](std::stop_token stop) { cache->start(stop); });
  CHECK_THROWS_WITH_AS(controller.start({}),
                       "controller parent: timed out waiting for cache to be synced for Kind Parent.v1.example.dev",
                       std::runtime_error);
}
