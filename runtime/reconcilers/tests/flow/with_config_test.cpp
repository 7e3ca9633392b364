#include "rr/reconcilers/with_config.hpp"

#include <stdexcept>

#include <doctest/doctest.h>

#include "flow_support.hpp"
#include "rr/cluster/cluster.hpp"

using namespace flowtest;

namespace {
struct NullRecorder : rr::EventRecorder {
  void record(const rr::Event&) override {}
};

// A full config: every member set, so a dropped one shows.
rr::Config full_config() {
  rr::Config c;
  c.client = std::make_shared<rr::ClusterClient>(std::make_shared<rr::Cluster>());
  c.api_reader = std::make_shared<rr::ClusterClient>(std::make_shared<rr::Cluster>());
  c.tracker = rr::make_tracker(std::chrono::hours(1));
  c.recorder = std::make_shared<NullRecorder>();
  c.sync_period = std::chrono::hours(3);
  return c;
}

// The other cluster the nested reconcilers talk to: only the client and reader change.
rr::Config other_cluster(const rr::Config& current) {
  rr::Config next = current;
  next.client = std::make_shared<rr::ClusterClient>(std::make_shared<rr::Cluster>());
  next.api_reader = next.client;
  return next;
}
}  // namespace

TEST_CASE("WithConfig: the nested reconciler sees the new config; the original one stays, and comes back after") {
  rr::Config original = full_config();
  rr::Config nested_config;
  rr::Config nested_original;
  Step<> nested;
  nested.fn = [&](rr::Context& ctx, TestResource&) {
    nested_config = ctx.config();
    nested_original = ctx.original_config();
    return rr::Outcome{requeue()};
  };
  rr::Config given_current;
  rr::WithConfig<TestResource> with{
      .config =
          [&](rr::Context&, const rr::Config& current) {
            given_current = current;
            return other_cluster(current);
          },
      .reconciler = nested,
  };
  auto ctx = make_context(original);
  TestResource r;
  rr::Outcome out = with.reconcile(ctx, r);
  CHECK(out.error.ok());
  CHECK(out.result == requeue());

  // Q9: the hook gets the current config whole, and the nested reconciler gets what it returned whole.
  CHECK(given_current.client == original.client);
  CHECK(given_current.api_reader == original.api_reader);
  CHECK(given_current.tracker == original.tracker);
  CHECK(given_current.recorder == original.recorder);
  CHECK(given_current.sync_period == original.sync_period);
  CHECK(nested_config.client != original.client);
  CHECK(nested_config.api_reader == nested_config.client);
  CHECK(nested_config.tracker == original.tracker);
  CHECK(nested_config.recorder == original.recorder);
  CHECK(nested_config.sync_period == std::chrono::hours(3));

  CHECK(nested_original.client == original.client);  // what loaded the resource
  CHECK(ctx.config().client == original.client);     // restored
  CHECK(with.display_name() == "WithConfig");
}

TEST_CASE("WithConfig: a config hook that throws is the error, and the nested reconciler does not run") {
  std::vector<std::string> trace;
  rr::WithConfig<TestResource> with{
      .config = [](rr::Context&, const rr::Config&) -> rr::Config { throw std::runtime_error("no kubeconfig"); },
      .reconciler = traced(trace, "nested"),
  };
  auto ctx = make_context(full_config());
  TestResource r;
  CHECK(with.reconcile(ctx, r).error.message() == "no kubeconfig");
  CHECK(trace.empty());
}

TEST_CASE("WithConfig sets up the nested reconciler with the new config") {
  rr::Config original = full_config();
  rr::Config setup_config;
  int hook_calls = 0;
  struct SetupProbe {
    rr::Config* seen;
    std::string display_name() const { return "Probe"; }
    rr::Outcome reconcile(rr::Context&, TestResource&) const { return {}; }
    void validate(rr::Validation&) const {}
    void setup(rr::Setup& s) const {
      *seen = s.config();
      s.owns(child_kind());
    }
  };
  rr::WithConfig<TestResource> with{
      .config =
          [&](rr::Context&, const rr::Config& current) {
            ++hook_calls;
            return other_cluster(current);
          },
      .reconciler = SetupProbe{&setup_config},
  };
  auto w = watches_of(with, original);
  CHECK(hook_calls == 1);
  CHECK(setup_config.client != nullptr);
  CHECK(setup_config.client != original.client);
  CHECK(setup_config.recorder == original.recorder);
  REQUIRE(w.size() == 1);
  CHECK(w[0] == rr::WatchRequest{child_kind(), rr::WatchRequest::Mode::Owns});
}

TEST_CASE("WithConfig validation") {
  rr::WithConfig<TestResource> empty{};
  CHECK(findings(empty) ==
        std::vector<std::string>{"WithConfig: WithConfig must implement config", "WithConfig: WithConfig must implement reconciler"});
}
