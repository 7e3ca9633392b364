// The lifecycle both harnesses share (reconciler.io testing/reconciler.go and subreconciler.go):
// failure accounting, the captured log, the pinned clock and deadline, the configs of a case,
// and the checks of the outcome. Not for direct use.
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rr/reconcilers/logger.hpp"
#include "rr/reconcilers/result.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"
#include "rr/testing/expect_config.hpp"
#include "rr/testing/failure.hpp"

namespace rr::testing::detail {

class CaseRun {
 public:
  CaseRun(FailureSink sink, std::optional<std::chrono::system_clock::time_point> now,
          std::optional<std::chrono::nanoseconds> timeout);
  // Dumps the reconciler's log as context when the case failed; stops the deadline.
  ~CaseRun();
  CaseRun(const CaseRun&) = delete;
  CaseRun& operator=(const CaseRun&) = delete;

  void error(std::string message);
  void fatal(std::string message);
  bool failed() const noexcept { return *failures_ > 0; }
  // A line of context, shown with the reconciler's log if the case fails.
  void note(std::string line) { log_lines_->push_back(std::move(line)); }
  // Said once, before the log, if the case fails.
  void explain_failure(std::string text) { failure_explanation_ = std::move(text); }
  // A sink that counts what goes through it as failures of this run.
  const FailureSink& sink() const noexcept { return sink_; }

  std::chrono::system_clock::time_point now() const noexcept { return now_; }
  Logger logger() const;
  std::shared_ptr<const std::atomic<bool>> cancelled() const noexcept { return cancelled_; }

 private:
  struct Deadline;
  std::shared_ptr<int> failures_ = std::make_shared<int>(0);
  FailureSink sink_;
  std::chrono::system_clock::time_point now_;
  std::shared_ptr<std::vector<std::string>> log_lines_ = std::make_shared<std::vector<std::string>>();
  std::shared_ptr<std::atomic<bool>> cancelled_ = std::make_shared<std::atomic<bool>>(false);
  std::unique_ptr<Deadline> deadline_;
  std::string failure_explanation_;
};

// The default config and the additional ones (named after their keys), all on the case's clock.
struct CaseConfigs {
  ExpectConfig main{};
  std::map<std::string, ExpectConfig> additional{};
  Config config{};
  std::map<std::string, Config> additional_configs{};
};

// A case's world and expected side effects, by pointer into the case (every table's case has
// these members, named alike).
struct CaseWorld {
  const std::vector<AnyObject>* given_objects = nullptr;
  const std::vector<AnyObject>* api_given_objects = nullptr;
  const std::vector<TrackRequest>* given_tracks = nullptr;
  const std::vector<Reactor>* with_reactors = nullptr;
  const std::optional<std::vector<GroupVersionKind>>* status_subresource_types = nullptr;
  const std::vector<AnyObject>* expect_creates = nullptr;
  const std::vector<AnyObject>* expect_updates = nullptr;
  const std::vector<PatchRef>* expect_patches = nullptr;
  const std::vector<DeleteRef>* expect_deletes = nullptr;
  const std::vector<DeleteCollectionRef>* expect_delete_collections = nullptr;
  const std::vector<AnyObject>* expect_status_updates = nullptr;
  const std::vector<PatchRef>* expect_status_patches = nullptr;
  const std::vector<ApplyRef>* expect_applies = nullptr;
  const std::vector<ApplyRef>* expect_status_applies = nullptr;
  const std::vector<Event>* expect_events = nullptr;
  const std::vector<TrackRequest>* expect_tracks = nullptr;
};

template <class Case>
CaseWorld world_of(const Case& tc) {
  return {&tc.given_objects,
          &tc.api_given_objects,
          &tc.given_tracks,
          &tc.with_reactors,
          &tc.status_subresource_types,
          &tc.expect_creates,
          &tc.expect_updates,
          &tc.expect_patches,
          &tc.expect_deletes,
          &tc.expect_delete_collections,
          &tc.expect_status_updates,
          &tc.expect_status_patches,
          &tc.expect_applies,
          &tc.expect_status_applies,
          &tc.expect_events,
          &tc.expect_tracks};
}

// The default config of a case: its world and expected side effects (out of line, so that the
// ExpectConfig is built and copied in rr_testing).
ExpectConfig expect_config_of(const CaseWorld& world);
template <class Case>
ExpectConfig expect_config_of(const Case& tc) {
  return expect_config_of(world_of(tc));
}

// nullopt after a fatal failure (a given object the store refused).
std::optional<CaseConfigs> build_configs(CaseRun& run, ExpectConfig main,
                                         const std::map<std::string, ExpectConfig>& additional);

// Validates a reconciler tree through its handle (Reconciler, SubReconciler<T>: each enters its
// own name); a finding is fatal, and false is returned. Warnings become context for a failure.
template <class Handle>
bool validate(CaseRun& run, const Handle& reconciler, const char* what) {
  try {
    Validation v(true);
    reconciler.validate(v);
    for (const auto& warning : v.warnings()) run.note(std::string(what) + " validation warning: " + warning);
    v.throw_if_failed();
    return true;
  } catch (const std::exception& e) {
    run.fatal(std::string(what) + " validation failed: " + e.what());
    return false;
  }
}

// ShouldErr, then ExpectedResult when there was no error (both sides normalised).
void check_outcome(CaseRun& run, const Outcome& outcome, bool should_err, const Result& expected_result);
// reconciler.io's normalizeResult: requeue_after ≠ 0 makes requeue redundant.
Result normalize_result(Result result);
// {"requeue": bool, "requeueAfter": "1m30s"}
Json result_json(const Result& result);
// Go's time.Duration.String(): "1h2m3s", "1.5s", "250ms", "0s".
std::string duration_text(std::chrono::nanoseconds d);

void assert_configs(CaseRun& run, CaseConfigs& configs);

std::string describe_current_exception();

// `text` as a JSON string literal (quoted, escaped): how case names appear in messages.
std::string json_quoted(const std::string& text);

// Calls a lifecycle hook (prepare, clean_up); an exception counts as its error.
template <class F>
Error hook_error(F&& f) {
  try {
    return std::forward<F>(f)();
  } catch (...) {
    return Error::make(describe_current_exception());
  }
}

// Runs a function when the scope ends, however it ends (Go's defer, for clean_up).
class AtExit {
 public:
  explicit AtExit(std::function<void()> f) : f_(std::move(f)) {}
  ~AtExit() {
    if (f_) f_();
  }
  AtExit(const AtExit&) = delete;
  AtExit& operator=(const AtExit&) = delete;

 private:
  std::function<void()> f_;
};

// A case's prepare hook (an error is fatal: false is returned), and its clean_up hook set to run
// when `clean_up` dies, whatever happened (Go's defer).
template <class Case>
bool prepare_case(CaseRun& run, const Case& tc, std::unique_ptr<AtExit>& clean_up) {
  if (tc.prepare) {
    if (Error err = hook_error([&] { return tc.prepare(tc); })) {
      run.fatal("error during prepare: " + err.message());
      return false;
    }
  }
  clean_up = std::make_unique<AtExit>([&run, &tc] {
    if (!tc.clean_up) return;
    if (Error err = hook_error([&] { return tc.clean_up(tc); })) run.error("error during clean up: " + err.message());
  });
  return true;
}

}  // namespace rr::testing::detail
