#include "rr/testing/reconciler_test.hpp"

#include "rr/testing/detail/case_run.hpp"
#include "rr/testing/detail/table.hpp"

namespace rr::testing {

void run_case(const ReconcilerTestCase& tc, const ReconcilerFactory& factory, const FailureSink& sink) {
  if (tc.skip) return;
  detail::CaseRun run(sink, tc.now, tc.timeout);

  std::unique_ptr<detail::AtExit> clean_up;
  if (!detail::prepare_case(run, tc, clean_up)) return;

  auto configs = detail::build_configs(run, detail::expect_config_of(tc), tc.additional_configs);
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
