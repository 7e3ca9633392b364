#include "rr/testing/reconciler_test.hpp"

#include "rr/testing/detail/case_run.hpp"
#include "rr/testing/detail/table.hpp"

namespace rr::testing {
namespace {

ExpectConfig expect_config_of(const ReconcilerTestCase& tc) {
  return ExpectConfig{
      .given_objects = tc.given_objects,
      .api_given_objects = tc.api_given_objects,
      .given_tracks = tc.given_tracks,
      .with_reactors = tc.with_reactors,
      .status_subresource_types = tc.status_subresource_types,
      .expect_creates = tc.expect_creates,
      .expect_updates = tc.expect_updates,
      .expect_patches = tc.expect_patches,
      .expect_deletes = tc.expect_deletes,
      .expect_delete_collections = tc.expect_delete_collections,
      .expect_status_updates = tc.expect_status_updates,
      .expect_status_patches = tc.expect_status_patches,
      .expect_events = tc.expect_events,
      .expect_tracks = tc.expect_tracks,
  };
}

}  // namespace

void run_case(const ReconcilerTestCase& tc, const ReconcilerFactory& factory, const FailureSink& sink) {
  if (tc.skip) return;
  detail::CaseRun run(sink, tc.now, tc.timeout);

  if (tc.prepare) {
    if (Error err = detail::hook_error([&] { return tc.prepare(tc); })) {
      run.fatal("error during prepare: " + err.message());
      return;
    }
  }
  detail::AtExit clean_up([&] {
    if (!tc.clean_up) return;
    if (Error err = detail::hook_error([&] { return tc.clean_up(tc); })) {
      run.error("error during clean up: " + err.message());
    }
  });

  auto configs = detail::build_configs(run, expect_config_of(tc), tc.additional_configs);
  if (!configs) return;

  Reconciler reconciler;
  try {
    reconciler = factory(tc, configs->config);
  } catch (...) {
    run.fatal("the reconciler factory threw: " + detail::describe_current_exception());
    return;
  }
  if (!reconciler) {
    run.fatal("the reconciler factory returned no reconciler");
    return;
  }
  if (!detail::validate(run, reconciler, "reconciler")) return;

  Outcome outcome;
  try {
    outcome = reconciler.reconcile(tc.request, RequestOptions{
                                                   .now = run.now(),
                                                   .log = run.logger(),
                                                   .cancelled = run.cancelled(),
                                                   .additional_configs = configs->additional_configs,
                                                   .prepare = tc.prepare_context,
                                               });
  } catch (...) {
    run.fatal("Reconcile() threw: " + detail::describe_current_exception());
    return;
  }

  detail::check_outcome(run, outcome, tc.should_err, tc.expected_result);
  if (tc.verify) tc.verify(outcome.result, outcome.error);
  detail::assert_configs(run, *configs);
}

void run(const ReconcilerTestSuite& suite, const ReconcilerFactory& factory, const FailureSink& sink, const char* file,
         int line) {
  const FailureSink out = sink ? sink : doctest_sink(file, line);
  detail::run_table<ReconcilerTestCase>(
      suite, out, [&](const ReconcilerTestCase& tc, const FailureSink& s) { run_case(tc, factory, s); });
}

void run(const ReconcilerTests& tests, const ReconcilerFactory& factory, const FailureSink& sink, const char* file,
         int line) {
  run(detail::named_cases(tests), factory, sink, file, line);
}

}  // namespace rr::testing
