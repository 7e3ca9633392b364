// ResourceReconciler: the request flow of reconciler.io's resource.go, step by step.
#include "rr/reconcilers/resource.hpp"

#include <doctest/doctest.h>

#include "rr/reconcilers/sync.hpp"
#include "support.hpp"

using namespace coretest;
using namespace std::chrono_literals;

namespace {

const rr::ObjectKey request{std::string(test_namespace), "test-resource"};

using Step = std::function<rr::Outcome(rr::Context&, TestResource&)>;

rr::SubReconciler<TestResource> sync(Step fn) {
  return rr::SyncReconciler<TestResource>{.sync_with_result = std::move(fn)};
}

// A step that changes the status (so the root has something to write) and returns `out`.
rr::SubReconciler<TestResource> set_latest_image(rr::Outcome out = {}) {
  return sync([out](rr::Context&, TestResource& r) {
    rr::ensure_status(r).latest_image = r.spec->image;
    return out;
  });
}

rr::ResourceReconciler<TestResource> reconciler_of(Env& env, rr::SubReconciler<TestResource> step) {
  return rr::ResourceReconciler<TestResource>{.reconciler = std::move(step), .config = env.config()};
}

std::optional<std::int64_t> stored_observed_generation(Env& env) {
  auto stored = env.stored<TestResource>(request);
  if (!stored || !stored->status) return std::nullopt;
  return stored->status->observed_generation;
}

}  // namespace

TEST_CASE("ResourceReconciler: NotFound → Result{}, no error, no event (7.1 #1)") {
  Env env;
  bool called = false;
  auto r = reconciler_of(env, sync([&](rr::Context&, TestResource&) {
                           called = true;
                           return rr::Outcome{};
                         }));
  rr::Outcome out = r.reconcile(request, env.options());
  CHECK_FALSE(out.error);
  CHECK(out.result == rr::Result{});
  CHECK_FALSE(called);
  CHECK(env.recorder->events.empty());
}

TEST_CASE("ResourceReconciler: a fetch failure other than NotFound is returned") {
  Env env;
  env.seed(make_resource());
  env.client->fail("get", "TestResource", rr::api_errors::internal_error("etcd is down"));
  auto r = reconciler_of(env, set_latest_image());
  rr::Outcome out = r.reconcile(request, env.options());
  CHECK(out.error);
  CHECK(rr::reason_of(out.error) == "InternalError");
}

TEST_CASE("ResourceReconciler: the context carries the request, type, config and pinned now") {
  Env env;
  env.seed(make_resource());
  bool prepared = false;
  rr::RequestOptions options = env.options();
  options.prepare = [&](rr::Context& ctx) {
    prepared = true;
    ctx.stash().store("seeded", std::string("by prepare"));
  };
  auto r = reconciler_of(env, sync([&](rr::Context& ctx, TestResource&) {
                           CHECK(ctx.request() == request);
                           CHECK(ctx.resource_type() == rr::kind_info_of<TestResource>());
                           CHECK(ctx.original_resource_type() == rr::kind_info_of<TestResource>());
                           CHECK(ctx.now() == env.now);
                           CHECK(ctx.config().client == env.client);
                           CHECK(ctx.original_config().recorder == env.recorder);
                           CHECK(ctx.stash().has("seeded"));
                           return rr::Outcome{};
                         }));
  CHECK_FALSE(r.reconcile(request, options).error);
  CHECK(prepared);
}

TEST_CASE("ResourceReconciler: defaulting, then conditions, before the sub-reconcilers (7.1 #2)") {
  Env env;
  TestResource given = make_resource();
  given.spec->replicas.reset();  // seeded as given: the server's default is not applied
  env.seed(given);
  std::optional<std::int32_t> replicas_seen;
  std::vector<rr::Condition> conditions_seen;
  rr::ResourceReconciler<TestResource> r{
      .conditions = rr::ConditionSet::living({"ImageReady"}),
      .reconciler = sync([&](rr::Context&, TestResource& res) {
        replicas_seen = res.spec->replicas;
        if (const auto* c = rr::conditions_of(res)) conditions_seen = *c;
        return rr::Outcome{};
      }),
      .config = env.config(),
  };
  rr::Outcome out = r.reconcile(request, env.options());
  CHECK_FALSE(out.error);
  CHECK(replicas_seen == 1);
  REQUIRE(conditions_seen.size() == 2);
  CHECK(conditions_seen[0].type == "ImageReady");
  CHECK(conditions_seen[0].status == "Unknown");
  CHECK(conditions_seen[0].reason == "Initializing");
  CHECK(conditions_seen[1].type == "Ready");
  CHECK(conditions_seen[1].status == "Unknown");
  // The initialised conditions and observedGeneration are written in one status update.
  CHECK(env.client->calls_of("update_status").size() == 1);
  auto stored = env.stored<TestResource>(request);
  REQUIRE(stored->status);
  CHECK(stored->status->conditions->size() == 2);
  CHECK(stored->status->observed_generation == 1);
  // Defaulting is not written back (only status is).
  CHECK(env.client->calls_of("update").empty());
}

TEST_CASE("ResourceReconciler: terminating resources (7.1 #3)") {
  Env env;
  std::vector<std::string> calls;
  rr::SyncReconciler<TestResource> step{
      .sync = [&](rr::Context&, TestResource&) {
        calls.push_back("sync");
        return rr::Error{};
      },
      .finalize = [&](rr::Context&, TestResource&) {
        calls.push_back("finalize");
        return rr::Error{};
      },
  };
  TestResource given = make_resource();
  given.metadata.deletion_timestamp = terminating_since();
  given.metadata.finalizers = {"test.finalizer"};
  env.seed(given);

  SUBCASE("with finalizers: the tree runs, finalize instead of sync") {
    auto r = reconciler_of(env, step);
    CHECK_FALSE(r.reconcile(request, env.options()).error);
    CHECK(calls == std::vector<std::string>{"finalize"});
  }
  SUBCASE("with finalizers and sync_during_finalization: sync, then finalize") {
    step.sync_during_finalization = true;
    auto r = reconciler_of(env, step);
    CHECK_FALSE(r.reconcile(request, env.options()).error);
    CHECK(calls == std::vector<std::string>{"sync", "finalize"});
  }
  SUBCASE("without finalizers: nothing runs") {
    // A cache may still show a resource whose last finalizer is gone.
    env.client->mutate_reads = [](rr::Json& o) { o["metadata"].erase("finalizers"); };
    auto r = reconciler_of(env, step);
    rr::Outcome out = r.reconcile(request, env.options());
    CHECK_FALSE(out.error);
    CHECK(out.result == rr::Result{});
    CHECK(calls.empty());
  }
}

TEST_CASE("ResourceReconciler: observedGeneration on success or halt only (7.1 #4)") {
  Env env;
  TestResource given = make_resource();
  given.metadata.generation = 4;
  rr::ensure_status(given).observed_generation = 1;
  env.seed(given);

  SUBCASE("success") {
    auto r = reconciler_of(env, sync([](rr::Context&, TestResource&) { return rr::Outcome{}; }));
    CHECK_FALSE(r.reconcile(request, env.options()).error);
    CHECK(stored_observed_generation(env) == 4);
  }
  SUBCASE("halted") {
    auto r = reconciler_of(env, sync([](rr::Context&, TestResource&) { return rr::Outcome{rr::err_halt_sub_reconcilers()}; }));
    rr::Outcome out = r.reconcile(request, env.options());
    CHECK_FALSE(out.error);  // the status write answers Result{} (Q4)
    CHECK(stored_observed_generation(env) == 4);
  }
  SUBCASE("failed") {
    auto r = reconciler_of(env, set_latest_image(rr::Error::make("failed")));
    CHECK_FALSE(r.reconcile(request, env.options()).error);  // status changed: written, error dropped
    CHECK(stored_observed_generation(env) == 1);
    CHECK(env.stored<TestResource>(request)->status->latest_image == "image:1");
  }
}

TEST_CASE("ResourceReconciler: the status is written once, only when it changed (7.1 #6)") {
  Env env;
  env.seed(make_resource());
  auto r = reconciler_of(env, set_latest_image());

  CHECK_FALSE(r.reconcile(request, env.options()).error);
  CHECK(env.client->calls_of("update_status").size() == 1);
  CHECK(env.recorder->lines() == std::vector<std::string>{"Normal StatusUpdated Updated status"});

  // Nothing changed the second time: no write, no event.
  CHECK_FALSE(r.reconcile(request, env.options()).error);
  CHECK(env.client->calls_of("update_status").size() == 1);
  CHECK(env.recorder->events.size() == 1);

  SUBCASE("a change that does not serialise is no change") {
    auto emplace_only = reconciler_of(env, sync([](rr::Context&, TestResource& res) {
                                        rr::ensure_status(res).fields.emplace();  // an empty map
                                        return rr::Outcome{};
                                      }));
    CHECK_FALSE(emplace_only.reconcile(request, env.options()).error);
    CHECK(env.client->calls_of("update_status").size() == 1);
  }
}

TEST_CASE("ResourceReconciler: no status write while terminating unless sync_status_during_finalization") {
  Env env;
  TestResource given = make_resource();
  given.metadata.deletion_timestamp = terminating_since();
  given.metadata.finalizers = {"test.finalizer"};
  env.seed(given);
  rr::SyncReconciler<TestResource> step{
      .sync = [](rr::Context&, TestResource&) { return rr::Error{}; },
      .finalize = [](rr::Context&, TestResource& r) {
        rr::ensure_status(r).latest_image = "finalizing";
        return rr::Error{};
      },
  };
  auto r = reconciler_of(env, step);
  CHECK_FALSE(r.reconcile(request, env.options()).error);
  CHECK(env.client->calls_of("update_status").empty());

  r.sync_status_during_finalization = true;
  CHECK_FALSE(r.reconcile(request, env.options()).error);
  CHECK(env.client->calls_of("update_status").size() == 1);
  CHECK(env.stored<TestResource>(request)->status->latest_image == "finalizing");
}

TEST_CASE("ResourceReconciler: err_skip_status_update and skip_status_update prevent the write") {
  Env env;
  env.seed(make_resource());

  SUBCASE("a plain err_skip_status_update is returned as the error") {
    auto r = reconciler_of(env, set_latest_image(rr::err_skip_status_update()));
    rr::Outcome out = r.reconcile(request, env.options());
    CHECK(out.error.is(rr::err_skip_status_update()));
    CHECK(env.client->calls_of("update_status").empty());
  }
  SUBCASE("joined with err_quiet: a silent requeue, no write") {
    auto r = reconciler_of(env, set_latest_image(rr::Error::join({rr::err_skip_status_update(), rr::err_quiet()})));
    rr::Outcome out = r.reconcile(request, env.options());
    CHECK_FALSE(out.error);
    CHECK(out.result == rr::Result{.requeue = true});
    CHECK(env.client->calls_of("update_status").empty());
  }
  SUBCASE("skip_status_update: the tree's outcome, no write") {
    auto r = reconciler_of(env, set_latest_image(rr::Result{.requeue_after = 7s}));
    r.skip_status_update = true;
    rr::Outcome out = r.reconcile(request, env.options());
    CHECK_FALSE(out.error);
    CHECK(out.result.requeue_after == 7s);
    CHECK(env.client->calls_of("update_status").empty());
  }
}

TEST_CASE("ResourceReconciler: status write failures (7.1 #7)") {
  Env env;
  env.seed(make_resource());
  auto r = reconciler_of(env, set_latest_image());

  SUBCASE("409 Conflict → a quiet rate-limited requeue: no error, no event (Q6)") {
    env.client->fail("update_status", "TestResource",
                     rr::api_errors::conflict("testresources", "testing.rrgen.dev", "test-resource",
                                              "the object has been modified"));
    rr::Outcome out = r.reconcile(request, env.options());
    CHECK_FALSE(out.error);
    CHECK(out.result == rr::Result{.requeue = true});
    CHECK(env.recorder->events.empty());
  }
  SUBCASE("other failures → Warning StatusUpdateFailed and the error") {
    const rr::Status failure = rr::api_errors::internal_error("no space left");
    env.client->fail("update_status", "TestResource", failure);
    rr::Outcome out = r.reconcile(request, env.options());
    REQUIRE(out.error);
    CHECK(rr::reason_of(out.error) == "InternalError");
    CHECK(env.recorder->lines() ==
          std::vector<std::string>{"Warning StatusUpdateFailed Failed to update status: " + rr::Error::api(failure).message()});
  }
}

TEST_CASE("ResourceReconciler: a successful status write drops the tree's result and error (Q4)") {
  Env env;
  env.seed(make_resource());
  auto r = reconciler_of(env, set_latest_image(rr::Outcome{rr::Result{.requeue_after = 1s}, rr::Error::make("lost")}));
  rr::Outcome out = r.reconcile(request, env.options());
  CHECK_FALSE(out.error);
  CHECK(out.result == rr::Result{});
  CHECK(env.recorder->lines() == std::vector<std::string>{"Normal StatusUpdated Updated status"});

  // Without a status change the error stands.
  rr::Outcome again = r.reconcile(request, env.options());
  CHECK(again.error.message() == "lost");
}

TEST_CASE("ResourceReconciler: quiet errors become a silent requeue at the root (7.1 #8, Q5)") {
  Env env;
  env.seed(make_resource());
  auto unchanged = [](rr::Outcome out) {
    return sync([out](rr::Context&, TestResource&) { return out; });
  };
  // observedGeneration is already reflected, so nothing changes status.
  {
    auto settle = reconciler_of(env, unchanged({}));
    REQUIRE_FALSE(settle.reconcile(request, env.options()).error);
  }
  const auto writes = env.client->calls_of("update_status").size();

  SUBCASE("halt without a status change") {
    rr::Outcome out = reconciler_of(env, unchanged(rr::err_halt_sub_reconcilers())).reconcile(request, env.options());
    CHECK_FALSE(out.error);
    CHECK(out.result == rr::Result{.requeue = true});
  }
  SUBCASE("durable") {
    rr::Outcome out = reconciler_of(env, unchanged(rr::err_durable())).reconcile(request, env.options());
    CHECK_FALSE(out.error);
    CHECK(out.result == rr::Result{.requeue = true});
  }
  SUBCASE("a wrapped quiet error") {
    rr::Outcome out = reconciler_of(env, unchanged(rr::err_quiet().wrap("waiting"))).reconcile(request, env.options());
    CHECK_FALSE(out.error);
    CHECK(out.result.requeue);
  }
  SUBCASE("a requeue_after asked for is kept") {
    rr::Outcome out = reconciler_of(env, unchanged(rr::Outcome{rr::Result{.requeue_after = 30s}, rr::err_quiet()}))
                          .reconcile(request, env.options());
    CHECK_FALSE(out.error);
    CHECK(out.result == rr::Result{.requeue_after = 30s});
  }
  SUBCASE("a loud error stays an error") {
    rr::Outcome out = reconciler_of(env, unchanged(rr::Error::make("loud"))).reconcile(request, env.options());
    CHECK(out.error.message() == "loud");
    CHECK_FALSE(out.result.requeue);
  }
  CHECK(env.client->calls_of("update_status").size() == writes);
}

TEST_CASE("ResourceReconciler: unchanged conditions keep their lastTransitionTime (7.1 #5)") {
  Env env;
  TestResource given = make_resource();
  rr::Condition ready;
  ready.type = "Ready";
  ready.status = "True";
  ready.reason = "Ready";
  ready.last_transition_time = rr::Time("2024-01-01T00:00:00Z");
  rr::ensure_conditions(given).push_back(ready);
  rr::ensure_status(given).observed_generation = 1;
  env.seed(given);

  auto mark = [](std::string status) {
    return sync([status](rr::Context& ctx, TestResource& r) {
      // Rewritten with a new time: restored when nothing else changed.
      rr::Condition& c = rr::conditions_of(r)->at(0);
      c.status = status;
      c.last_transition_time = ctx.now_time();
      return rr::Outcome{};
    });
  };
  CHECK_FALSE(reconciler_of(env, mark("True")).reconcile(request, env.options()).error);
  CHECK(env.client->calls_of("update_status").empty());

  CHECK_FALSE(reconciler_of(env, mark("False")).reconcile(request, env.options()).error);
  REQUIRE(env.client->calls_of("update_status").size() == 1);
  const auto stored = env.stored<TestResource>(request);
  CHECK(stored->status->conditions->at(0).status == "False");
  CHECK(stored->status->conditions->at(0).last_transition_time.str() == "2024-05-01T12:00:00Z");
}

TEST_CASE("ResourceReconciler: skip_request, skip_resource, before_reconcile, after_reconcile") {
  Env env;
  env.seed(make_resource());
  bool ran = false;
  auto r = reconciler_of(env, sync([&](rr::Context&, TestResource&) {
                           ran = true;
                           return rr::Outcome{rr::Result{.requeue_after = 20s}};
                         }));

  SUBCASE("skip_request") {
    r.skip_request = [](rr::Context&, const rr::Request& req) { return req.name == "test-resource"; };
    CHECK(r.reconcile(request, env.options()).result == rr::Result{});
    CHECK_FALSE(ran);
    CHECK(env.client->calls.empty());  // not even fetched
  }
  SUBCASE("skip_resource sees the fetched resource") {
    r.skip_resource = [](rr::Context&, const TestResource& res) { return res.spec->image == "image:1"; };
    CHECK(r.reconcile(request, env.options()).result == rr::Result{});
    CHECK_FALSE(ran);
  }
  SUBCASE("before_reconcile: an error ends the request as it is, even a quiet one") {
    r.before_reconcile = [](rr::Context&, const rr::Request&) {
      return rr::Outcome{rr::Result{.requeue_after = 1s}, rr::err_quiet()};
    };
    rr::Outcome out = r.reconcile(request, env.options());
    CHECK(out.error.is(rr::err_quiet()));
    CHECK(out.result.requeue_after == 1s);
    CHECK_FALSE(ran);
  }
  SUBCASE("after_reconcile sees before's result aggregated with the tree's, and decides") {
    r.skip_status_update = true;
    r.before_reconcile = [](rr::Context& ctx, const rr::Request&) {
      ctx.stash().store("before", true);
      return rr::Outcome{rr::Result{.requeue_after = 10s}};
    };
    r.after_reconcile = [](rr::Context& ctx, const rr::Request&, rr::Result result, rr::Error err) {
      CHECK(ctx.stash().has("before"));
      CHECK(result.requeue_after == 10s);  // the smaller non-zero of 10s and 20s
      CHECK_FALSE(err);
      return rr::Outcome{result, rr::err_quiet()};
    };
    rr::Outcome out = r.reconcile(request, env.options());
    CHECK(ran);
    CHECK_FALSE(out.error);  // quiet → requeue, the requeue_after kept
    CHECK(out.result == rr::Result{.requeue_after = 10s});
  }
}

TEST_CASE("ResourceReconciler: an exception escaping the tree is an error") {
  Env env;
  env.seed(make_resource());
  auto r = reconciler_of(env, sync([](rr::Context&, TestResource&) -> rr::Outcome { throw std::runtime_error("oops"); }));
  r.skip_status_update = true;
  CHECK(r.reconcile(request, env.options()).error.message() == "oops");
}

TEST_CASE("ResourceReconciler: validation and setup") {
  Env env;
  SUBCASE("the reconciler is required; status pitfalls are warnings") {
    rr::ResourceReconciler<TestResource> r{.name = "Res"};
    rr::Validation v;
    r.validate(v);
    CHECK(v.errors() == std::vector<std::string>{"ResourceReconciler \"Res\" must define reconciler"});
    CHECK(v.warnings() ==
          std::vector<std::string>{"ResourceReconciler \"Res\": conditions is not set, TestResource conditions will not "
                                   "be initialised"});
    CHECK_THROWS_AS(validate_reconciler(r), rr::ValidationError);
  }
  SUBCASE("a status without conditions: a warning, and conditions cannot be set") {
    rr::ResourceReconciler<TestResourceNoStatus> r{
        .reconciler = rr::SyncReconciler<TestResourceNoStatus>{
            .sync = [](rr::Context&, TestResourceNoStatus&) { return rr::Error{}; }},
    };
    rr::Validation v;
    r.validate(v);
    CHECK(v.errors().empty());
    CHECK(v.warnings() == std::vector<std::string>{"ResourceReconciler \"TestResourceNoStatusResourceReconciler\": "
                                                   "TestResourceNoStatus status has no conditions, lastTransitionTime "
                                                   "will not be managed"});
    r.conditions = rr::ConditionSet::living({});
    rr::Validation v2;
    r.validate(v2);
    CHECK(v2.errors().size() == 1);
  }
  SUBCASE("nested reconcilers are validated when recursive") {
    rr::ResourceReconciler<TestResource> r{.conditions = rr::ConditionSet::living({}),
                                           .reconciler = rr::SyncReconciler<TestResource>{.name = "Inner"}};
    rr::Validation shallow(false);
    r.validate(shallow);
    CHECK(shallow.errors().empty());
    rr::Validation deep(true);
    r.validate(deep);
    CHECK(deep.errors().size() == 1);
  }
  SUBCASE("setup: for_kind, on_setup, then the tree; an invalid tree throws") {
    rr::ResourceReconciler<TestResource> r{
        .on_setup = [](rr::Setup& s) { s.watches_tracked(rr::kind_info_of<TestChild>()); },
        .conditions = rr::ConditionSet::living({}),
        .reconciler = set_latest_image(),
        .config = env.config(),
    };
    rr::Setup s;
    r.setup(s);
    REQUIRE(s.watches().size() == 2);
    CHECK(s.watches()[0] == rr::WatchRequest{rr::kind_info_of<TestResource>(), rr::WatchRequest::Mode::For});
    CHECK(s.watches()[1] == rr::WatchRequest{rr::kind_info_of<TestChild>(), rr::WatchRequest::Mode::Tracked});
    CHECK(r.display_name() == "TestResourceResourceReconciler");

    CHECK(s.warnings().empty());

    r.reconciler = rr::SyncReconciler<TestResource>{};
    rr::Setup s2;
    CHECK_THROWS_AS(r.setup(s2), rr::ValidationError);
  }
  SUBCASE("setup hands the validation warnings to the controller") {
    rr::ResourceReconciler<TestResource> r{.reconciler = set_latest_image(), .config = env.config()};
    rr::Setup s;
    r.setup(s);
    CHECK(s.warnings() == std::vector<std::string>{"TestResourceResourceReconciler: ResourceReconciler "
                                                   "\"TestResourceResourceReconciler\": conditions is not set, "
                                                   "TestResource conditions will not be initialised"});
  }
  SUBCASE("a root handle") {
    rr::Reconciler root = reconciler_of(env, set_latest_image());
    env.seed(make_resource());
    CHECK_FALSE(root.reconcile(request, env.options()).error);
    CHECK(env.client->calls_of("update_status").size() == 1);
  }
}
