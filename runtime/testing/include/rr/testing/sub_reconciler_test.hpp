// Table tests of one sub-reconciler in isolation (reconciler.io's SubReconcilerTestCase): the
// resource is handed in rather than looked up, and what the reconciler did to it is compared.
//
// Differences from ReconcilerTestCase:
// - `resource` is put in both the client's and the API reader's stores; its resourceVersion
//   defaults to "999", and so does the expected resource's.
// - `expect_resource` is the resource after the call (unset: unchanged), compared with
//   lastTransitionTime and apiVersion/kind ignored and empty == absent; resourceVersion and
//   creationTimestamp ARE compared.
// - The harness builds the Context (config, request from the resource's key, resource type,
//   pinned now) and seeds the stash from `given_stashed_values`; `expect_stashed_values` checks
//   only the keys it lists.
// - `should_panic`: an exception escaping reconcile() (a stash retrieve_or_die, say) is
//   expected; the checks then go on with an empty outcome, as reconciler.io's recover does.
// - `additional_reconciles` are further cases run with the SAME reconciler instance afterwards,
//   each with its own world and expectations (state kept on the reconciler).
#pragma once
#include <any>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rr/reconcilers/sub_reconciler.hpp"
#include "rr/testing/detail/case_run.hpp"
#include "rr/testing/detail/table.hpp"
#include "rr/testing/expect_config.hpp"
#include "rr/testing/stashed_value.hpp"

namespace rr::testing {

template <Object T>
struct SubReconcilerTestCase {
  std::string name{};
  bool focus = false;
  bool skip = false;
  std::map<std::string, std::any> metadata{};

  // --- inputs ---
  T resource{};
  std::map<std::string, StashedValue> given_stashed_values{};
  std::vector<AnyObject> given_objects{};
  std::vector<AnyObject> api_given_objects{};
  std::vector<TrackRequest> given_tracks{};
  std::vector<Reactor> with_reactors{};
  std::optional<std::vector<GroupVersionKind>> status_subresource_types{};

  // --- expected side effects ---
  std::optional<T> expect_resource{};
  std::map<std::string, StashedValue> expect_stashed_values{};
  std::vector<TrackRequest> expect_tracks{};
  std::vector<Event> expect_events{};
  std::vector<AnyObject> expect_creates{};
  std::vector<AnyObject> expect_updates{};
  std::vector<PatchRef> expect_patches{};
  std::vector<DeleteRef> expect_deletes{};
  std::vector<DeleteCollectionRef> expect_delete_collections{};
  std::vector<AnyObject> expect_status_updates{};
  std::vector<PatchRef> expect_status_patches{};
  std::map<std::string, ExpectConfig> additional_configs{};

  // --- outputs ---
  bool should_err = false;
  bool should_panic = false;
  Result expected_result{};
  std::function<void(const Result&, const Error&)> verify{};

  // --- lifecycle ---
  // Once the Context exists and the stash is seeded, before the reconciler runs; an error is fatal.
  std::function<Error(Context&, const SubReconcilerTestCase&)> prepare{};
  // At the end, whatever happened (unless prepare failed); an error fails the case.
  std::function<Error(Context&, const SubReconcilerTestCase&)> clean_up{};
  std::optional<std::chrono::system_clock::time_point> now{};
  std::optional<std::chrono::nanoseconds> timeout{};

  std::vector<SubReconcilerTestCase> additional_reconciles{};
};

template <Object T>
using SubReconcilerTests = std::map<std::string, SubReconcilerTestCase<T>>;  // runs in name order
template <Object T>
using SubReconcilerTestSuite = std::vector<SubReconcilerTestCase<T>>;  // runs in the order listed

template <Object T>
using SubReconcilerFactory = std::function<SubReconciler<T>(const SubReconcilerTestCase<T>&, const Config&)>;

// One case, reporting to `sink`.
template <Object T>
void run_case(const SubReconcilerTestCase<T>& tc, const SubReconcilerFactory<T>& factory, const FailureSink& sink);

// Every case of a table, inside the current doctest test case or into `sink`.
template <Object T>
void run(const SubReconcilerTestSuite<T>& suite, const SubReconcilerFactory<T>& factory, const FailureSink& sink = {},
         const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  const FailureSink out = sink ? sink : doctest_sink(file, line);
  detail::run_table<SubReconcilerTestCase<T>>(
      suite, out, [&](const SubReconcilerTestCase<T>& tc, const FailureSink& s) { run_case(tc, factory, s); });
}
template <Object T>
void run(const SubReconcilerTests<T>& tests, const SubReconcilerFactory<T>& factory, const FailureSink& sink = {},
         const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  run(detail::named_cases(tests), factory, sink, file, line);
}

// --- implementation ---

namespace detail {

template <Object T>
T with_default_resource_version(T resource) {
  if (resource.metadata.resource_version.empty()) resource.metadata.resource_version = "999";
  return resource;
}

template <Object T>
ExpectConfig sub_expect_config_of(const SubReconcilerTestCase<T>& tc, const T& given) {
  ExpectConfig c = expect_config_of(tc);
  c.given_objects.emplace_back(given);
  c.api_given_objects.emplace_back(given);
  return c;
}

// Checks what a sub-reconciler left behind: the resource (both typed objects of the kind `codec`
// encodes, compared as JSON out of line) and the listed stash keys.
void check_resource(CaseRun& run, const client_detail::ObjectCodec& codec, const void* expected, const void* actual);
void check_stash(CaseRun& run, const std::map<std::string, StashedValue>& expected, const Stash& stash);

// One case. The reconciler comes from `factory` over the case's config, or (additional
// reconciles) is the one the first case made.
template <Object T>
void run_with(const SubReconcilerTestCase<T>& tc, const SubReconcilerFactory<T>* factory, SubReconciler<T> reconciler,
              const FailureSink& sink) {
  if (tc.skip) return;
  CaseRun run(sink, tc.now, tc.timeout);
  {
    const T given = with_default_resource_version(tc.resource);
    auto configs = build_configs(run, sub_expect_config_of(tc, given), tc.additional_configs);
    if (!configs) return;
    if (factory) {
      try {
        reconciler = (*factory)(tc, configs->config);
      } catch (...) {
        run.fatal("the subreconciler factory threw: " + describe_current_exception());
        return;
      }
      if (!reconciler) {
        run.fatal("the subreconciler factory returned no reconciler");
        return;
      }
      if (!validate(run, reconciler, "subreconciler")) return;
    }

    T resource = given;
    Context ctx(ContextOptions{
        .config = configs->config,
        .request = key_of(resource),
        .resource_type = kind_info_of<T>(),
        .log = run.logger(),
        .now = run.now(),
        .cancelled = run.cancelled(),
        .additional_configs = configs->additional_configs,
    });
    for (const auto& [key, value] : tc.given_stashed_values) {
      if (!value.is_absent()) ctx.stash().store(key, value.value());
    }
    if (tc.prepare) {
      if (Error err = hook_error([&] { return tc.prepare(ctx, tc); })) {
        run.fatal("error during prepare: " + err.message());
        return;
      }
    }
    AtExit clean_up([&] {
      if (!tc.clean_up) return;
      if (Error err = hook_error([&] { return tc.clean_up(ctx, tc); })) {
        run.error("error during clean up: " + err.message());
      }
    });

    Outcome outcome;
    bool threw = false;
    try {
      outcome = reconciler.reconcile(ctx, resource);
    } catch (...) {
      if (!tc.should_panic) {
        run.fatal("unexpected panic: " + describe_current_exception());
        return;
      }
      threw = true;
    }
    if (tc.should_panic && !threw) run.error("expected Reconcile() to panic");

    check_outcome(run, outcome, tc.should_err, tc.expected_result);
    if (tc.verify) tc.verify(outcome.result, outcome.error);
    const T expected = with_default_resource_version(tc.expect_resource.value_or(tc.resource));
    check_resource(run, client_detail::codec_of<T>, &expected, &resource);
    check_stash(run, tc.expect_stashed_values, ctx.stash());
    assert_configs(run, *configs);
  }
  for (std::size_t i = 0; i < tc.additional_reconciles.size(); ++i) {
    const auto& next = tc.additional_reconciles[i];
    run_with<T>(
        next, nullptr, reconciler,
        prefixed_sink(run.sink(), "AdditionalReconciles[" + std::to_string(i) + "] " + json_quoted(next.name) + ": "));
  }
}

}  // namespace detail

template <Object T>
void run_case(const SubReconcilerTestCase<T>& tc, const SubReconcilerFactory<T>& factory, const FailureSink& sink) {
  detail::run_with<T>(tc, &factory, {}, sink);
}

}  // namespace rr::testing
