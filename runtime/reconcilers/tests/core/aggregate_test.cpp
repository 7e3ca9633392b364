// AggregateReconciler: one named object, created, updated and deleted as desired.
#include "rr/reconcilers/aggregate.hpp"

#include <doctest/doctest.h>

#include "rr/reconcilers/sync.hpp"
#include "support.hpp"

using namespace coretest;
using namespace std::chrono_literals;

namespace {

const rr::ObjectKey settings{std::string(test_namespace), "settings"};

void merge(TestChild& current, const TestChild& desired) { current.spec = desired.spec; }

rr::AggregateReconciler<TestChild> aggregate(Env& env, std::string image) {
  return {
      .request = settings,
      .desired_resource = [image](rr::Context&, TestChild resource) -> rr::Desired<TestChild> {
        if (!resource.spec) resource.spec.emplace();
        resource.spec->image = image;
        return resource;
      },
      .aggregate_object_manager = rr::UpdatingObjectManager<TestChild>{.merge_before_update = merge},
      .config = env.config(),
  };
}

TestChild existing(const std::string& image) {
  TestChild c;
  c.metadata.namespace_ = settings.namespace_;
  c.metadata.name = settings.name;
  c.spec.emplace().image = image;
  c.spec->mode = "standard";
  return c;
}

}  // namespace

TEST_CASE("AggregateReconciler: other requests are ignored") {
  Env env;
  auto r = aggregate(env, "image:1");
  rr::Outcome out = r.reconcile({std::string(test_namespace), "other"}, env.options());
  CHECK_FALSE(out.error);
  CHECK(out.result == rr::Result{});
  CHECK(env.client->calls.empty());
}

TEST_CASE("AggregateReconciler: a missing object is created with the requested name") {
  Env env;
  auto r = aggregate(env, "image:1");
  REQUIRE_FALSE(r.reconcile(settings, env.options()).error);
  auto stored = env.stored<TestChild>(settings);
  REQUIRE(stored);
  CHECK(stored->spec->image == "image:1");
  CHECK(env.recorder->lines() == std::vector<std::string>{"Normal Created Created TestChild \"settings\""});
  CHECK(env.recorder->events[0].regarding.name == "settings");
}

TEST_CASE("AggregateReconciler: an existing object is updated when it drifts, else left alone") {
  Env env;
  env.seed(existing("image:0"));
  auto r = aggregate(env, "image:1");
  REQUIRE_FALSE(r.reconcile(settings, env.options()).error);
  CHECK(env.client->writes() == std::vector<std::string>{"update TestChild settings"});
  CHECK(env.stored<TestChild>(settings)->spec->image == "image:1");

  REQUIRE_FALSE(r.reconcile(settings, env.options()).error);
  CHECK(env.client->writes().size() == 1);
}

TEST_CASE("AggregateReconciler: no desired object → deleted; terminating → left alone") {
  Env env;
  SUBCASE("deleted") {
    env.seed(existing("image:0"));
    auto r = aggregate(env, "image:1");
    r.desired_resource = [](rr::Context&, TestChild) -> rr::Desired<TestChild> { return std::nullopt; };
    REQUIRE_FALSE(r.reconcile(settings, env.options()).error);
    CHECK(env.client->writes() == std::vector<std::string>{"remove TestChild settings"});
    CHECK_FALSE(env.stored<TestChild>(settings));
  }
  SUBCASE("terminating") {
    TestChild dying = existing("image:0");
    dying.metadata.deletion_timestamp = terminating_since();
    dying.metadata.finalizers = {"keep"};
    env.seed(dying);
    auto r = aggregate(env, "image:1");
    REQUIRE_FALSE(r.reconcile(settings, env.options()).error);
    CHECK(env.client->writes().empty());
  }
}

TEST_CASE("AggregateReconciler: the tree runs first; its errors other than halt skip the manage step") {
  Env env;
  auto r = aggregate(env, "image:1");
  std::string stashed_image = "image:from-tree";
  r.reconciler = rr::SyncReconciler<TestChild>{.sync_with_result = [&](rr::Context& ctx, TestChild&) {
    ctx.stash().store("image", stashed_image);
    return rr::Outcome{rr::Result{.requeue_after = 5s}};
  }};
  r.desired_resource = [](rr::Context& ctx, TestChild resource) -> rr::Desired<TestChild> {
    if (!resource.spec) resource.spec.emplace();
    resource.spec->image = std::any_cast<std::string>(*ctx.stash().find("image"));
    return resource;
  };

  SUBCASE("success: the tree's result is kept") {
    rr::Outcome out = r.reconcile(settings, env.options());
    REQUIRE_FALSE(out.error);
    CHECK(out.result.requeue_after == 5s);
    CHECK(env.stored<TestChild>(settings)->spec->image == "image:from-tree");
  }
  SUBCASE("an error: returned, nothing managed") {
    r.reconciler = rr::SyncReconciler<TestChild>{.sync = [](rr::Context&, TestChild&) { return rr::Error::make("no"); }};
    CHECK(r.reconcile(settings, env.options()).error.message() == "no");
    CHECK(env.client->writes().empty());
  }
  SUBCASE("halt: managed anyway") {
    r.reconciler = rr::SyncReconciler<TestChild>{.sync = [](rr::Context& ctx, TestChild&) {
      ctx.stash().store("image", std::string("image:halted"));
      return rr::err_halt_sub_reconcilers();
    }};
    CHECK_FALSE(r.reconcile(settings, env.options()).error);
    CHECK(env.stored<TestChild>(settings)->spec->image == "image:halted");
  }
}

TEST_CASE("AggregateReconciler: quiet errors requeue, from before_reconcile too") {
  Env env;
  auto r = aggregate(env, "image:1");
  r.before_reconcile = [](rr::Context&, const rr::Request&) { return rr::Outcome{rr::err_quiet()}; };
  rr::Outcome out = r.reconcile(settings, env.options());
  CHECK_FALSE(out.error);
  CHECK(out.result == rr::Result{.requeue = true});
  CHECK(env.client->calls.empty());

  r.before_reconcile = nullptr;
  r.after_reconcile = [](rr::Context&, const rr::Request&, rr::Result, rr::Error) {
    return rr::Outcome{rr::err_durable()};
  };
  out = r.reconcile(settings, env.options());
  CHECK_FALSE(out.error);
  CHECK(out.result.requeue);
}

TEST_CASE("AggregateReconciler: the object manager's tracks are not kept") {
  Env env;
  auto r = aggregate(env, "image:1");
  r.aggregate_object_manager = rr::UpdatingObjectManager<TestChild>{.track_desired = true, .merge_before_update = merge};
  REQUIRE_FALSE(r.reconcile(settings, env.options()).error);
  CHECK(env.tracker->get_observers(rr::to_object_json(*env.stored<TestChild>(settings))).empty());
}

TEST_CASE("AggregateReconciler: validation and setup") {
  Env env;
  rr::AggregateReconciler<TestChild> r{.name = "Settings"};
  rr::Validation v;
  r.validate(v);
  CHECK(v.errors() == std::vector<std::string>{"AggregateReconciler \"Settings\" must define request",
                                               "AggregateReconciler \"Settings\" must define reconciler and/or desired_resource",
                                               "AggregateReconciler \"Settings\" must define aggregate_object_manager"});
  rr::Setup invalid;
  CHECK_THROWS_AS(r.setup(invalid), rr::ValidationError);

  auto valid = aggregate(env, "image:1");
  rr::Setup s;
  valid.setup(s);
  CHECK(s.watches() == std::vector<rr::WatchRequest>{{rr::kind_info_of<TestChild>(), rr::WatchRequest::Mode::For}});
  CHECK(valid.display_name() == "TestChildAggregateReconciler");
  rr::Reconciler root = valid;
  CHECK_FALSE(root.reconcile(settings, env.options()).error);
}
