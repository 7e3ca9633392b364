#include "rr/testing/detail/case_run.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

#include "rr/client/api_error.hpp"
#include "rr/core/json.hpp"
#include "rr/testing/json_diff.hpp"

namespace rr::testing::detail {

// Sets the cancellation flag when the case runs past its timeout (reconciler.io derives a
// context deadline from the test's).
struct CaseRun::Deadline {
  Deadline(std::chrono::nanoseconds timeout, std::shared_ptr<std::atomic<bool>> cancelled)
      : thread([this, timeout, cancelled = std::move(cancelled)] {
          std::unique_lock lock(mutex);
          if (!done.wait_for(lock, timeout, [this] { return finished; })) cancelled->store(true);
        }) {}
  ~Deadline() {
    {
      std::lock_guard lock(mutex);
      finished = true;
    }
    done.notify_all();
    thread.join();
  }
  std::mutex mutex;
  std::condition_variable done;
  bool finished = false;
  std::thread thread;
};

namespace {

std::string log_line(const LogRecord& r) {
  std::string line = r.level == LogLevel::Error ? "ERROR" : r.level == LogLevel::Debug ? "DEBUG" : "INFO";
  if (!r.logger.empty()) line += " " + r.logger + ":";
  line += " " + r.message;
  if (!r.error.empty()) line += " error=" + Json(r.error).dump();
  for (const auto& [key, value] : r.values) line += " " + key + "=" + value;
  return line;
}

}  // namespace

CaseRun::CaseRun(FailureSink sink, std::optional<std::chrono::system_clock::time_point> now,
                 std::optional<std::chrono::nanoseconds> timeout)
    : now_(now.value_or(std::chrono::system_clock::now())) {
  sink_ = [inner = std::move(sink), failures = failures_](const Failure& f) {
    if (f.severity != Severity::Info) ++*failures;
    inner(f);
  };
  if (timeout) deadline_ = std::make_unique<Deadline>(*timeout, cancelled_);
}

CaseRun::~CaseRun() {
  deadline_.reset();
  if (failed() && !failure_explanation_.empty()) sink_({Severity::Info, failure_explanation_});
  if (!failed() || log_lines_->empty()) return;
  std::string text = "reconciler log:";
  for (const auto& line : *log_lines_) text += "\n  " + line;
  sink_({Severity::Info, std::move(text)});
}

void CaseRun::error(std::string message) { sink_({Severity::Error, std::move(message)}); }
void CaseRun::fatal(std::string message) { sink_({Severity::Fatal, std::move(message)}); }

Logger CaseRun::logger() const {
  auto lines = log_lines_;
  return Logger(std::make_shared<const LogSink>([lines](const LogRecord& r) { lines->push_back(log_line(r)); }));
}

ExpectConfig expect_config_of(const CaseWorld& world) {
  return ExpectConfig{
      .given_objects = *world.given_objects,
      .api_given_objects = *world.api_given_objects,
      .given_tracks = *world.given_tracks,
      .with_reactors = *world.with_reactors,
      .status_subresource_types = *world.status_subresource_types,
      .expect_creates = *world.expect_creates,
      .expect_updates = *world.expect_updates,
      .expect_patches = *world.expect_patches,
      .expect_deletes = *world.expect_deletes,
      .expect_delete_collections = *world.expect_delete_collections,
      .expect_status_updates = *world.expect_status_updates,
      .expect_status_patches = *world.expect_status_patches,
      .expect_applies = *world.expect_applies,
      .expect_status_applies = *world.expect_status_applies,
      .expect_events = *world.expect_events,
      .expect_tracks = *world.expect_tracks,
  };
}

std::optional<CaseConfigs> build_configs(CaseRun& run, ExpectConfig main,
                                         const std::map<std::string, ExpectConfig>& additional) {
  CaseConfigs out;
  out.main = std::move(main);
  out.main.name = "default";
  out.main.now = run.now();
  try {
    out.config = out.main.config();
    for (const auto& [name, expect] : additional) {
      ExpectConfig copy = expect;
      copy.name = name;
      copy.state.reset();
      if (!copy.now) copy.now = run.now();
      out.additional_configs[name] = copy.config();
      out.additional.emplace(name, std::move(copy));
    }
  } catch (...) {
    run.fatal("unable to set up the test's configs: " + describe_current_exception());
    return std::nullopt;
  }
  return out;
}

void check_outcome(CaseRun& run, const Outcome& outcome, bool should_err, const Result& expected_result) {
  if (static_cast<bool>(outcome.error) != should_err) {
    run.error("Reconcile() error = " + (outcome.error ? outcome.error.message() : std::string("<nil>")) +
              ", ShouldErr " + (should_err ? "true" : "false"));
  }
  if (outcome.error) return;  // the result only counts when there was no error
  if (std::string diff =
          diff_json(result_json(normalize_result(expected_result)), result_json(normalize_result(outcome.result)));
      !diff.empty()) {
    run.error("ExpectedResult differs (-expected, +actual):\n" + diff);
  }
}

Result normalize_result(Result result) {
  if (result.requeue_after.count() != 0) result.requeue = false;
  return result;
}

Json result_json(const Result& result) {
  return {{"requeue", result.requeue}, {"requeueAfter", duration_text(result.requeue_after)}};
}

namespace {

// The value `v` scaled down by 10^digits, with the fraction's trailing zeros trimmed.
std::string scaled(std::int64_t v, int digits) {
  std::int64_t unit = 1;
  for (int i = 0; i < digits; ++i) unit *= 10;
  std::string out = std::to_string(v / unit);
  std::string fraction = std::to_string(v % unit);
  fraction.insert(0, static_cast<std::size_t>(digits) - fraction.size(), '0');
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  if (!fraction.empty()) out += "." + fraction;
  return out;
}

}  // namespace

std::string duration_text(std::chrono::nanoseconds d) {
  std::int64_t ns = d.count();
  if (ns == 0) return "0s";
  std::string sign = ns < 0 ? "-" : "";
  if (ns < 0) ns = -ns;
  constexpr std::int64_t us = 1000, ms = 1000 * us, s = 1000 * ms, min = 60 * s, h = 60 * min;
  if (ns < us) return sign + std::to_string(ns) + "ns";
  if (ns < ms) return sign + scaled(ns, 3) + "µs";
  if (ns < s) return sign + scaled(ns, 6) + "ms";
  std::string out = scaled(ns % min, 9) + "s";
  if (ns >= min) out = std::to_string((ns / min) % 60) + "m" + out;
  if (ns >= h) out = std::to_string(ns / h) + "h" + out;
  return sign + out;
}

void assert_configs(CaseRun& run, CaseConfigs& configs) {
  configs.main.assert_expectations(run.sink());
  for (auto& [name, expect] : configs.additional) expect.assert_expectations(run.sink());
}

std::string json_quoted(const std::string& text) { return Json(text).dump(); }

std::string describe_current_exception() {
  try {
    throw;
  } catch (const ApiError& e) {
    return std::string(e.what()) + " (" + std::string(e.reason()) + ")";
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

}  // namespace rr::testing::detail
