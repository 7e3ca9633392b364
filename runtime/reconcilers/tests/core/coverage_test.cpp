// Behaviours of the checklist (docs/runtime/behaviours-and-decisions.md) that no other test pins
// down: the finalizer helpers copy the server's generation back (7.1 #16), and the
// AggregateReconciler's config keeps every member but the tracker (Q9).
#include <doctest/doctest.h>

#include "rr/reconcilers/aggregate.hpp"
#include "rr/reconcilers/finalizers.hpp"
#include "support.hpp"

using namespace coretest;
using namespace std::chrono_literals;

TEST_CASE("finalizer helpers copy the server's resourceVersion and generation back (7.1 #16)") {
  Env env;
  const TestResource given = env.seed(make_resource());
  rr::Context ctx = env.context();
  TestResource local = given;
  // A generation the server does not have: only a copy-back can replace it.
  local.metadata.generation = 7;

  REQUIRE(rr::add_finalizer(ctx, local, "test.finalizer").ok());
  const TestResource added = env.stored<TestResource>(rr::key_of(given)).value();
  CHECK(local.metadata.resource_version == added.metadata.resource_version);
  CHECK(local.metadata.resource_version != given.metadata.resource_version);
  CHECK(local.metadata.generation == added.metadata.generation);
  CHECK(local.metadata.generation == 1);

  local.metadata.generation = 7;
  REQUIRE(rr::clear_finalizer(ctx, local, "test.finalizer").ok());
  const TestResource cleared = env.stored<TestResource>(rr::key_of(given)).value();
  CHECK(local.metadata.finalizers.empty());
  CHECK(local.metadata.resource_version == cleared.metadata.resource_version);
  CHECK(local.metadata.resource_version != added.metadata.resource_version);
  CHECK(local.metadata.generation == 1);
}

TEST_CASE("AggregateReconciler: desired_resource runs under a whole copy of the config, only the tracker replaced (Q9)") {
  Env env;
  rr::Config config = env.config();
  config.sync_period = 3h;  // not the default, so a rebuilt config would show
  rr::Config seen;
  rr::AggregateReconciler<TestChild> r{
      .request = {std::string(test_namespace), "settings"},
      .desired_resource = [&seen](rr::Context& ctx, TestChild resource) -> rr::Desired<TestChild> {
        seen = ctx.config();
        resource.spec.emplace().image = "image:1";
        return resource;
      },
      .aggregate_object_manager =
          rr::UpdatingObjectManager<TestChild>{.merge_before_update = [](TestChild& current, const TestChild& desired) {
            current.spec = desired.spec;
          }},
      .config = config,
  };
  REQUIRE_FALSE(r.reconcile({std::string(test_namespace), "settings"}, env.options()).error);

  CHECK(seen.client == config.client);
  CHECK(seen.api_reader == config.api_reader);
  CHECK(seen.recorder == config.recorder);
  CHECK(seen.sync_period == 3h);
  REQUIRE(seen.tracker != nullptr);
  CHECK(seen.tracker != config.tracker);
  // The object manager ran under that config too: its event reached our recorder.
  CHECK(env.recorder->lines() == std::vector<std::string>{"Normal Created Created TestChild \"settings\""});
}
