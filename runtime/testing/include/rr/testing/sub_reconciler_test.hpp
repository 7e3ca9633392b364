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
  std::vector<ApplyRef> expect_applies{};  // server-side applies (refs.hpp new_apply)
  std::vector<ApplyRef> expect_status_applies{};
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
// The run itself (configs, Context, stash, hooks, checks) is rr_testing's run_sub_case; a kind
// only supplies the steps that touch its type (TypedSubCase<T>), so a test unit instantiates
// little per kind.

namespace detail {

template <Object T>
T with_default_resource_version(T resource) {
  if (resource.metadata.resource_version.empty()) resource.metadata.resource_version = "999";
  return resource;
}

// Checks what a sub-reconciler left behind: the resource (both typed objects of the kind `codec`
// encodes, compared as JSON out of line) and the listed stash keys.
void check_resource(CaseRun& run, const client_detail::ObjectCodec& codec, const void* expected, const void* actual);
void check_stash(CaseRun& run, const std::map<std::string, StashedValue>& expected, const Stash& stash);

// The members of a SubReconcilerTestCase<T> that do not depend on T, by pointer into the case.
struct SubCaseFields {
  bool skip = false;
  std::optional<std::chrono::system_clock::time_point> now{};
  std::optional<std::chrono::nanoseconds> timeout{};
  CaseWorld world{};
  const std::map<std::string, ExpectConfig>* additional_configs = nullptr;
  const std::map<std::string, StashedValue>* given_stashed_values = nullptr;
  const std::map<std::string, StashedValue>* expect_stashed_values = nullptr;
  bool should_err = false;
  bool should_panic = false;
  const Result* expected_result = nullptr;
  const std::function<void(const Result&, const Error&)>* verify = nullptr;
};

// The steps of a sub-reconciler case that touch the resource's type.
class SubCaseSteps {
 public:
  // The resource as handed in (resourceVersion defaulted), for both stores, the request and the kind.
  virtual AnyObject given() const = 0;
  // The reconciler for this case: from the factory over `config` (validated) or the one the first
  // case made; false after a fatal failure (reported to `run`).
  virtual bool make_reconciler(CaseRun& run, const Config& config) = 0;
  virtual bool has_prepare() const = 0;
  virtual Error prepare(Context& ctx) const = 0;
  virtual bool has_clean_up() const = 0;
  virtual Error clean_up(Context& ctx) const = 0;
  // Reconciles the case's copy of the resource (what it throws escapes).
  virtual Outcome reconcile(Context& ctx) = 0;
  // ExpectResource (unset: the resource as given) against the copy after reconcile().
  virtual void check_resource(CaseRun& run) const = 0;
  virtual std::size_t additional_reconciles() const = 0;
  virtual const std::string& additional_name(std::size_t i) const = 0;
  // Runs additional_reconciles[i] with this case's reconciler.
  virtual void run_additional(std::size_t i, const FailureSink& sink) const = 0;

 protected:
  SubCaseSteps() = default;
  SubCaseSteps(const SubCaseSteps&) = default;
  SubCaseSteps& operator=(const SubCaseSteps&) = default;
  ~SubCaseSteps() = default;
};

// One case (reconciler.io testing/subreconciler.go's run), reporting to `sink`.
void run_sub_case(const SubCaseFields& fields, SubCaseSteps& steps, const FailureSink& sink);

template <Object T>
void run_with(const SubReconcilerTestCase<T>& tc, const SubReconcilerFactory<T>* factory, SubReconciler<T> reconciler,
              const FailureSink& sink);

template <Object T>
class TypedSubCase final : public SubCaseSteps {
 public:
  TypedSubCase(const SubReconcilerTestCase<T>& tc, const SubReconcilerFactory<T>* factory, SubReconciler<T> reconciler)
      : tc_(tc),
        factory_(factory),
        reconciler_(std::move(reconciler)),
        resource_(with_default_resource_version(tc.resource)) {}

  AnyObject given() const override { return AnyObject(with_default_resource_version(tc_.resource)); }
  bool make_reconciler(CaseRun& run, const Config& config) override {
    if (!factory_) return true;
    try {
      reconciler_ = (*factory_)(tc_, config);
    } catch (...) {
      run.fatal("the subreconciler factory threw: " + describe_current_exception());
      return false;
    }
    if (!reconciler_) {
      run.fatal("the subreconciler factory returned no reconciler");
      return false;
    }
    return validate(run, reconciler_, "subreconciler");
  }
  bool has_prepare() const override { return static_cast<bool>(tc_.prepare); }
  Error prepare(Context& ctx) const override { return tc_.prepare(ctx, tc_); }
  bool has_clean_up() const override { return static_cast<bool>(tc_.clean_up); }
  Error clean_up(Context& ctx) const override { return tc_.clean_up(ctx, tc_); }
  Outcome reconcile(Context& ctx) override { return reconciler_.reconcile(ctx, resource_); }
  void check_resource(CaseRun& run) const override {
    const T expected = with_default_resource_version(tc_.expect_resource.value_or(tc_.resource));
    detail::check_resource(run, client_detail::codec_of<T>, &expected, &resource_);
  }
  std::size_t additional_reconciles() const override { return tc_.additional_reconciles.size(); }
  const std::string& additional_name(std::size_t i) const override { return tc_.additional_reconciles[i].name; }
  void run_additional(std::size_t i, const FailureSink& sink) const override {
    run_with<T>(tc_.additional_reconciles[i], nullptr, reconciler_, sink);
  }

 private:
  const SubReconcilerTestCase<T>& tc_;
  const SubReconcilerFactory<T>* factory_;
  SubReconciler<T> reconciler_;
  T resource_;
};

// One case. The reconciler comes from `factory` over the case's config, or (additional
// reconciles) is the one the first case made.
template <Object T>
void run_with(const SubReconcilerTestCase<T>& tc, const SubReconcilerFactory<T>* factory, SubReconciler<T> reconciler,
              const FailureSink& sink) {
  TypedSubCase<T> steps(tc, factory, std::move(reconciler));
  run_sub_case(
      SubCaseFields{
          .skip = tc.skip,
          .now = tc.now,
          .timeout = tc.timeout,
          .world = world_of(tc),
          .additional_configs = &tc.additional_configs,
          .given_stashed_values = &tc.given_stashed_values,
          .expect_stashed_values = &tc.expect_stashed_values,
          .should_err = tc.should_err,
          .should_panic = tc.should_panic,
          .expected_result = &tc.expected_result,
          .verify = &tc.verify,
      },
      steps, sink);
}

}  // namespace detail

template <Object T>
void run_case(const SubReconcilerTestCase<T>& tc, const SubReconcilerFactory<T>& factory, const FailureSink& sink) {
  detail::run_with<T>(tc, &factory, {}, sink);
}

}  // namespace rr::testing
