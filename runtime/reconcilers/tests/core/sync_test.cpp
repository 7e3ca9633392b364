// SyncReconciler: which hooks run when, results and errors, validation.
#include "rr/reconcilers/sync.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

#include "support.hpp"

using namespace coretest;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> validate(const rr::SyncReconciler<TestResource>& r) {
  rr::Validation v;
  r.validate(v);
  return v.errors();
}

}  // namespace

TEST_CASE("SyncReconciler validation: exactly one sync hook, at most one finalize hook") {
  auto sync = [](rr::Context&, TestResource&) { return rr::Error{}; };
  auto with_result = [](rr::Context&, TestResource&) { return rr::Outcome{}; };

  CHECK(validate({.sync = sync}).empty());
  CHECK(validate({.sync_with_result = with_result}).empty());
  CHECK(validate({.name = "X"}) == std::vector<std::string>{"SyncReconciler \"X\" must implement sync or sync_with_result"});
  CHECK(validate({.name = "X", .sync = sync, .sync_with_result = with_result}) ==
        std::vector<std::string>{"SyncReconciler \"X\" may not implement both sync and sync_with_result"});
  CHECK(validate({.sync = sync, .finalize = sync, .finalize_with_result = with_result}) ==
        std::vector<std::string>{
            "SyncReconciler \"SyncReconciler\" may not implement both finalize and finalize_with_result"});
  CHECK(validate({.sync = sync, .finalize = sync}).empty());
}

TEST_CASE("SyncReconciler runs sync, and finalize while terminating") {
  Env env;
  rr::Context ctx = env.context();
  std::vector<std::string> calls;
  rr::SyncReconciler<TestResource> r{
      .sync_with_result =
          [&](rr::Context&, TestResource&) {
            calls.push_back("sync");
            return rr::Outcome{rr::Result{.requeue_after = 5s}};
          },
      .finalize_with_result =
          [&](rr::Context&, TestResource&) {
            calls.push_back("finalize");
            return rr::Outcome{rr::Result{.requeue_after = 3s}};
          },
  };
  TestResource resource = make_resource();

  SUBCASE("not terminating: sync only") {
    rr::Outcome out = r.reconcile(ctx, resource);
    CHECK(calls == std::vector<std::string>{"sync"});
    CHECK(out.result.requeue_after == 5s);
    CHECK_FALSE(out.error);
  }
  SUBCASE("terminating: finalize only") {
    resource.metadata.deletion_timestamp = terminating_since();
    rr::Outcome out = r.reconcile(ctx, resource);
    CHECK(calls == std::vector<std::string>{"finalize"});
    CHECK(out.result.requeue_after == 3s);
  }
  SUBCASE("terminating with sync_during_finalization: sync then finalize, results aggregated") {
    r.sync_during_finalization = true;
    resource.metadata.deletion_timestamp = terminating_since();
    rr::Outcome out = r.reconcile(ctx, resource);
    CHECK(calls == std::vector<std::string>{"sync", "finalize"});
    CHECK(out.result.requeue_after == 3s);
  }
}

TEST_CASE("SyncReconciler errors: a sync error stops before finalize; a thrown exception is an error") {
  Env env;
  rr::Context ctx = env.context();
  TestResource resource = make_resource();
  resource.metadata.deletion_timestamp = terminating_since();
  bool finalized = false;
  rr::SyncReconciler<TestResource> r{
      .sync_during_finalization = true,
      .sync_with_result = [](rr::Context&, TestResource&) { return rr::Outcome{rr::Result{.requeue = true}, rr::Error::make("boom")}; },
      .finalize = [&](rr::Context&, TestResource&) {
        finalized = true;
        return rr::Error{};
      },
  };
  rr::Outcome out = r.reconcile(ctx, resource);
  CHECK(out.error.message() == "boom");
  CHECK(out.result.requeue);
  CHECK_FALSE(finalized);

  rr::SyncReconciler<TestResource> throwing{
      .sync = [](rr::Context&, TestResource&) -> rr::Error { throw std::runtime_error("thrown"); },
  };
  resource.metadata.deletion_timestamp.reset();
  CHECK(throwing.reconcile(ctx, resource).error.message() == "thrown");
}

TEST_CASE("SyncReconciler mutates the resource it is given") {
  Env env;
  rr::Context ctx = env.context();
  TestResource resource = make_resource();
  rr::SubReconciler<TestResource> r = rr::SyncReconciler<TestResource>{
      .sync = [](rr::Context&, TestResource& res) {
        rr::ensure_status(res).latest_image = res.spec->image;
        return rr::Error{};
      },
  };
  CHECK(r.display_name() == "SyncReconciler");
  REQUIRE_FALSE(r.reconcile(ctx, resource).error);
  CHECK(resource.status->latest_image == "image:1");
}
