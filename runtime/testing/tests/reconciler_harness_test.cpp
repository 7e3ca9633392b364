// The root harness checked against itself: it passes what holds and fails, with reconciler.io's
// messages, what does not.
#include <doctest/doctest.h>

#include "strings_support.hpp"

#include <atomic>
#include <thread>

#include "harness_support.hpp"
#include "rr/testing/detail/case_run.hpp"
#include "rr/testing/json_diff.hpp"
#include "rr/testing/reconciler_test.hpp"

using harness::FakeRoot;
using rr::testing::CapturedFailures;
using rr::testing::ReconcilerTestCase;
using rr::testing::Severity;

namespace {

// A reconciler that does one of everything through its config: reads the resource, creates its
// child, tracks it, records an event and updates the status.
FakeRoot busy_reconciler(const rr::Config& config) {
  return FakeRoot{.fn = [config](const rr::Request& request, const rr::RequestOptions&) -> rr::Outcome {
    auto resource = config.api().get<harness::TestResource>(request);
    config.api().create(harness::child());
    config.tracker->track_object(harness::child(), request);
    config.recorder->event(resource, rr::event_normal, "Created", "Created TestChild \"r-child\"");
    resource.status.emplace().latest_image = "a";
    config.api().update_status(resource);
    return rr::Result{};
  }};
}

rr::testing::ReconcilerFactory busy_factory() {
  return [](const ReconcilerTestCase&, const rr::Config& c) -> rr::Reconciler { return busy_reconciler(c); };
}

// A factory whose reconciler only returns `outcome`.
rr::testing::ReconcilerFactory returning(rr::Outcome outcome) {
  return [outcome](const ReconcilerTestCase&, const rr::Config&) -> rr::Reconciler {
    return FakeRoot{.fn = [outcome](const rr::Request&, const rr::RequestOptions&) { return outcome; }};
  };
}

Strings failures_of(const ReconcilerTestCase& tc, const rr::testing::ReconcilerFactory& factory) {
  CapturedFailures captured;
  rr::testing::run_case(tc, factory, captured.sink());
  return captured.messages();
}

harness::TestResource with_status(harness::TestResource r) {
  r.status.emplace().latest_image = "a";
  return r;
}

}  // namespace

TEST_CASE("reconciler harness: a case whose expectations hold passes") {
  ReconcilerTestCase tc{
      .request = {"ns", "r"},
      .given_objects = {harness::resource()},
      .expect_tracks = {rr::testing::new_track_request(harness::child(), harness::resource())},
      .expect_events = {rr::testing::new_event(harness::resource(), rr::event_normal, "Created",
                                               "Created TestChild \"r-child\"")},
      .expect_creates = {harness::child()},
      .expect_status_updates = {with_status(harness::resource())},
  };
  CHECK(failures_of(tc, busy_factory()).empty());
}

TEST_CASE("reconciler harness: it fails on every side effect nobody expected") {
  ReconcilerTestCase tc{.request = {"ns", "r"}, .given_objects = {harness::resource()}};
  Strings failures = failures_of(tc, busy_factory());
  REQUIRE(failures.size() == 4);
  CHECK(failures[0].rfind("Unexpected Create observed: {", 0) == 0);
  CHECK(failures[1].rfind("Unexpected StatusUpdate observed: {", 0) == 0);
  CHECK(
      failures[2] ==
      R"(Unexpected Event observed: {"apiVersion":"testing.rrgen.dev/v1","kind":"TestResource","message":"Created TestChild \"r-child\"","name":"r","namespace":"ns","reason":"Created","type":"Normal"})");
  CHECK(
      failures[3] ==
      R"(Unexpected Track observed: {"by":{"name":"r","namespace":"ns"},"tracked":{"group":"testing.rrgen.dev","kind":"TestChild","name":"r-child","namespace":"ns","selector":""}})");
}

TEST_CASE("reconciler harness: should_err") {
  CHECK(failures_of({.should_err = false}, returning(rr::Error::make("boom"))) ==
        Strings{"Reconcile() error = boom, ShouldErr false"});
  CHECK(failures_of({.should_err = true}, returning(rr::Result{})) ==
        Strings{"Reconcile() error = <nil>, ShouldErr true"});
  CHECK(failures_of({.should_err = true}, returning(rr::Error::make("boom"))).empty());
}

TEST_CASE("reconciler harness: the result is compared when there is no error, requeue_after normalising requeue") {
  const rr::Result after_5s{.requeue = true, .requeue_after = std::chrono::seconds(5)};
  CHECK(failures_of({.expected_result = {.requeue_after = std::chrono::seconds(5)}}, returning(after_5s)).empty());
  CHECK(failures_of({.expected_result = after_5s}, returning(rr::Result{.requeue_after = std::chrono::seconds(5)}))
            .empty());
  CHECK(failures_of({}, returning(after_5s)) ==
        Strings{"ExpectedResult differs (-expected, +actual):\n  requeueAfter: -\"0s\" +\"5s\""});
  CHECK(failures_of({}, returning(rr::Result{.requeue = true})) ==
        Strings{"ExpectedResult differs (-expected, +actual):\n  requeue: -false +true"});
  CHECK(failures_of({.should_err = true}, returning(rr::Outcome(after_5s, rr::Error::make("x")))).empty());
}

TEST_CASE("reconciler harness: a validation finding is fatal; the reconciler does not run, clean_up does") {
  bool reconciled = false;
  bool cleaned_up = false;
  ReconcilerTestCase tc{.clean_up = [&](const ReconcilerTestCase&) {
    cleaned_up = true;
    return rr::Error{};
  }};
  CapturedFailures captured;
  rr::testing::run_case(
      tc,
      [&](const ReconcilerTestCase&, const rr::Config&) -> rr::Reconciler {
        return FakeRoot{.fn =
                            [&](const rr::Request&, const rr::RequestOptions&) {
                              reconciled = true;
                              return rr::Outcome{};
                            },
                        .invalid = "FakeRoot must define fn"};
      },
      captured.sink());
  REQUIRE(captured.messages().size() == 1);
  CHECK(captured.all().front().severity == Severity::Fatal);
  CHECK(captured.messages()[0].rfind("reconciler validation failed: ", 0) == 0);
  CHECK(captured.messages()[0].find("FakeRoot must define fn") != std::string::npos);
  CHECK_FALSE(reconciled);
  CHECK(cleaned_up);
}

TEST_CASE("reconciler harness: a prepare error is fatal, a clean_up error is reported") {
  bool cleaned_up = false;
  ReconcilerTestCase failing_prepare{
      .prepare = [](const ReconcilerTestCase&) { return rr::Error::make("nope"); },
      .clean_up =
          [&](const ReconcilerTestCase&) {
            cleaned_up = true;
            return rr::Error{};
          },
  };
  CHECK(failures_of(failing_prepare, returning(rr::Result{})) == Strings{"error during prepare: nope"});
  CHECK_FALSE(cleaned_up);  // as reconciler.io: clean_up is only deferred once prepare succeeded

  ReconcilerTestCase failing_clean_up{.clean_up = [](const ReconcilerTestCase&) { return rr::Error::make("later"); }};
  CHECK(failures_of(failing_clean_up, returning(rr::Result{})) == Strings{"error during clean up: later"});
}

TEST_CASE("reconciler harness: `now` is pinned for the request and the stores") {
  std::optional<std::chrono::system_clock::time_point> seen;
  std::string created_at;
  ReconcilerTestCase tc{.request = {"ns", "r"}, .expect_creates = {harness::child()}, .now = harness::fixed_now()};
  CHECK(failures_of(tc, [&](const ReconcilerTestCase&, const rr::Config& c) -> rr::Reconciler {
          return FakeRoot{.fn = [&, c](const rr::Request&, const rr::RequestOptions& options) {
            seen = options.now;
            created_at = c.api().create(harness::child()).metadata.creation_timestamp.str();
            return rr::Outcome{};
          }};
        }).empty());
  CHECK(seen == harness::fixed_now());
  CHECK(created_at == rr::Time::from(harness::fixed_now()).str());
}

TEST_CASE("reconciler harness: additional configs reach the reconciler and have their own expectations") {
  auto factory = [](const ReconcilerTestCase&, const rr::Config&) -> rr::Reconciler {
    return FakeRoot{.fn = [](const rr::Request&, const rr::RequestOptions& options) {
      options.additional_configs.at("other").api().create(harness::child());
      return rr::Outcome{};
    }};
  };
  CHECK(failures_of({.additional_configs = {{"other", {.expect_creates = {harness::child()}}}}}, factory).empty());

  Strings failures = failures_of({.additional_configs = {{"other", {}}}}, factory);
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].rfind(R"(Unexpected Create observed for config "other": )", 0) == 0);
}

TEST_CASE("reconciler harness: verify sees the result and the error; prepare_context sees the request's context") {
  rr::Error seen_error;
  std::string stashed;
  ReconcilerTestCase tc{
      .should_err = true,
      .verify = [&](const rr::Result&, const rr::Error& err) { seen_error = err; },
      .prepare_context = [](rr::Context& ctx) { ctx.stash().store("key", std::string("value")); },
  };
  CHECK(failures_of(tc, [&](const ReconcilerTestCase&, const rr::Config& c) -> rr::Reconciler {
          return FakeRoot{.fn = [&, c](const rr::Request& request, const rr::RequestOptions& options) {
            rr::ContextOptions context_options;
            context_options.config = c;
            context_options.request = request;
            rr::Context ctx(std::move(context_options));
            options.prepare(ctx);
            stashed = std::any_cast<std::string>(*ctx.stash().find("key"));
            return rr::Outcome{rr::Error::make("boom")};
          }};
        }).empty());
  CHECK(seen_error.message() == "boom");
  CHECK(stashed == "value");
}

TEST_CASE("reconciler harness: the log of a failing case is shown as context") {
  CapturedFailures captured;
  rr::testing::run_case(
      {.should_err = false},
      [](const ReconcilerTestCase&, const rr::Config&) -> rr::Reconciler {
        return FakeRoot{.fn = [](const rr::Request&, const rr::RequestOptions& options) {
          options.log.named("FakeRoot").info("hello");
          return rr::Outcome{rr::Error::make("boom")};
        }};
      },
      captured.sink());
  REQUIRE(captured.all().size() == 2);
  CHECK(captured.all()[1].severity == Severity::Info);
  CHECK(captured.all()[1].message == "reconciler log:\n  INFO FakeRoot: hello");
}

TEST_CASE("reconciler harness: a timeout sets the request's cancellation flag") {
  bool cancelled = false;
  ReconcilerTestCase tc{.timeout = std::chrono::milliseconds(10)};
  CHECK(failures_of(tc, [&](const ReconcilerTestCase&, const rr::Config&) -> rr::Reconciler {
          return FakeRoot{.fn = [&](const rr::Request&, const rr::RequestOptions& options) {
            for (int i = 0; i < 500 && !options.cancelled->load(); ++i) {
              std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            cancelled = options.cancelled->load();
            return rr::Outcome{};
          }};
        }).empty());
  CHECK(cancelled);
}

TEST_CASE("run(): every focused case runs, then the table fails (Q7)") {
  Strings ran;
  auto factory = [&](const ReconcilerTestCase& tc, const rr::Config&) -> rr::Reconciler {
    ran.push_back(tc.name);
    return FakeRoot{};
  };
  CapturedFailures captured;
  rr::testing::run(
      rr::testing::ReconcilerTestSuite{{.name = "a", .focus = true}, {.name = "b"}, {.name = "c", .focus = true}},
      factory, captured.sink());
  CHECK(ran == Strings{"a", "c"});
  CHECK(captured.messages() == Strings{"2 tests out of 3 are still focused, so the test suite fails"});
}

TEST_CASE("run(): map tables run in name order, skip is honoured, failures name their case") {
  Strings ran;
  auto factory = [&](const ReconcilerTestCase& tc, const rr::Config&) -> rr::Reconciler {
    ran.push_back(tc.name);
    return FakeRoot{};
  };
  CapturedFailures captured;
  rr::testing::run(rr::testing::ReconcilerTests{{"zeta", {}}, {"alpha", {.should_err = true}}, {"mid", {.skip = true}}},
                   factory, captured.sink());
  CHECK(ran == Strings{"alpha", "zeta"});
  CHECK(captured.messages() == Strings{"alpha: Reconcile() error = <nil>, ShouldErr true"});
}

TEST_CASE("duration_text formats as Go's time.Duration") {
  using rr::testing::detail::duration_text;
  using namespace std::chrono_literals;
  CHECK(duration_text(0s) == "0s");
  CHECK(duration_text(5s) == "5s");
  CHECK(duration_text(90s) == "1m30s");
  CHECK(duration_text(1h) == "1h0m0s");
  CHECK(duration_text(1500ms) == "1.5s");
  CHECK(duration_text(250ms) == "250ms");
  CHECK(duration_text(1500ns) == "1.5µs");
  CHECK(duration_text(-2s) == "-2s");
}
