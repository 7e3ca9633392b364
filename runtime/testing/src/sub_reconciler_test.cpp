#include "rr/testing/sub_reconciler_test.hpp"

#include "rr/core/json.hpp"

namespace rr::testing::detail {

void check_resource(CaseRun& run, const client_detail::ObjectCodec& codec, const void* expected, const void* actual) {
  Json expected_json;
  Json actual_json;
  codec.encode(expected_json, expected);
  codec.encode(actual_json, actual);
  if (std::string diff = diff_objects(expected_json, actual_json, ObjectComparison::Resource); !diff.empty()) {
    run.error("ExpectResource differs (-expected, +actual):\n" + diff);
  }
}

void check_stash(CaseRun& run, const std::map<std::string, StashedValue>& expected, const Stash& stash) {
  for (const auto& [key, value] : expected) {
    if (std::string diff = value.compare(stash.find(key)); !diff.empty()) {
      run.error("ExpectStashedValues[" + json_quoted(key) + "] differs (-expected, +actual):\n" + diff);
    }
  }
}

void run_sub_case(const SubCaseFields& fields, SubCaseSteps& steps, const FailureSink& sink) {
  if (fields.skip) return;
  CaseRun run(sink, fields.now, fields.timeout);
  // Shown with the log when the case fails: what a step test does not exercise surprises most.
  run.explain_failure(
      "note: a sub-reconciler case runs this step alone; the ResourceReconciler's own steps do not run: "
      "apply_defaults(), conditions initialised as Initializing, the Ready condition summarised from the others, "
      "status.observedGeneration, the status write, a quiet error turned into a requeue. The step's Result and "
      "error are checked as it returns them (err_durable() is an error: should_err = true).");
  {
    const AnyObject given = steps.given();
    ExpectConfig main = expect_config_of(fields.world);
    main.given_objects.push_back(given);
    main.api_given_objects.push_back(given);
    auto configs = build_configs(run, std::move(main), *fields.additional_configs);
    if (!configs) return;
    if (!steps.make_reconciler(run, configs->config)) return;

    Context ctx(ContextOptions{
        .config = configs->config,
        .request = given.key(),
        .resource_type = given.kind(),
        .log = run.logger(),
        .now = run.now(),
        .cancelled = run.cancelled(),
        .additional_configs = configs->additional_configs,
    });
    for (const auto& [key, value] : *fields.given_stashed_values) {
      if (!value.is_absent()) ctx.stash().store(key, value.value());
    }
    if (steps.has_prepare()) {
      if (Error err = hook_error([&] { return steps.prepare(ctx); })) {
        run.fatal("error during prepare: " + err.message());
        return;
      }
    }
    AtExit clean_up([&] {
      if (!steps.has_clean_up()) return;
      if (Error err = hook_error([&] { return steps.clean_up(ctx); })) {
        run.error("error during clean up: " + err.message());
      }
    });

    Outcome outcome;
    bool threw = false;
    try {
      outcome = steps.reconcile(ctx);
    } catch (...) {
      if (!fields.should_panic) {
        run.fatal("unexpected panic: " + describe_current_exception());
        return;
      }
      threw = true;
    }
    if (fields.should_panic && !threw) run.error("expected Reconcile() to panic");

    check_outcome(run, outcome, fields.should_err, *fields.expected_result);
    if (*fields.verify) (*fields.verify)(outcome.result, outcome.error);
    steps.check_resource(run);
    check_stash(run, *fields.expect_stashed_values, ctx.stash());
    assert_configs(run, *configs);
  }
  for (std::size_t i = 0; i < steps.additional_reconciles(); ++i) {
    steps.run_additional(i, prefixed_sink(run.sink(), "AdditionalReconciles[" + std::to_string(i) + "] " +
                                                          json_quoted(steps.additional_name(i)) + ": "));
  }
}

}  // namespace rr::testing::detail
