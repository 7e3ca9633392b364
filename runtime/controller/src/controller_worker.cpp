// The controller's workers: take a key, reconcile it, and let the outcome decide what the queue
// does with it (controller-runtime's reconcileHandler).
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>

#include "controller_impl.hpp"
#include "rr/client/call_deadline.hpp"
#include "rr/reconcilers/stop_token.hpp"
#include "rr/reconcilers/terminal_error.hpp"

namespace rr {

namespace {

// A random UUID (version 4) per reconcile, as controller-runtime's reconcileID.
std::string reconcile_id() {
  thread_local std::mt19937_64 random{std::random_device{}()};
  const std::uint64_t hi = (random() & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;
  const std::uint64_t lo = (random() & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
  char text[37];
  std::snprintf(text, sizeof text, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0xffff),
                static_cast<unsigned>(lo >> 48), static_cast<unsigned long long>(lo & 0xffffffffffffULL));
  return text;
}

std::string what_of(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& ex) {
    return ex.what();
  } catch (...) {
    return "unknown exception";
  }
}

}  // namespace

void Controller::Impl::work() {
  // Stopping: the shut-down queue would still hand out what is queued, but only the reconciles
  // already in flight finish; the rest is dropped (the next leader's or process's initial list
  // brings every object back), so a backlog cannot hold the grace period up.
  while (!cancelled->load()) {
    std::optional<WorkQueue::Item> item = queue->get_with_priority();
    if (!item) return;
    if (cancelled->load()) {  // woken by the shutdown with a key still queued
      queue->done(item->key);
      dropped.fetch_add(1);
      return;
    }
    reconcile_one(item->key, item->priority);
    queue->done(item->key);
  }
}

void Controller::Impl::reconcile_one(const ObjectKey& key, int priority) {
  using metrics::ReconcileResult;
  const Logger log = options.log.with("controllerGroup", for_kind.gvk.group)
                         .with("controllerKind", for_kind.gvk.kind)
                         .with("namespace", key.namespace_)
                         .with("name", key.name)
                         .with("reconcileID", reconcile_id());
  RequestOptions request;
  request.log = log;
  request.cancelled = cancelled;
  // The reconcile's stop token: the controller's stop, and its deadline with a reconcile_timeout.
  std::stop_source stop;
  std::stop_callback on_stopping(stopping.get_token(), [&stop] { stop.request_stop(); });
  request.stop = make_reconcile_stop(stop.get_token());
  std::optional<std::uint64_t> deadline_id;
  std::optional<CallDeadline> call_deadline;  // the HTTP client's calls end there too
  if (deadlines) {
    const auto timeout = std::chrono::duration_cast<Clock::duration>(options.reconcile_timeout);
    const Clock& clock = options.clock ? *options.clock : Clock::real();
    deadline_id = deadlines->schedule(clock.now() + timeout, stop);
    request.deadline = std::chrono::steady_clock::now() + timeout;
    call_deadline.emplace(*request.deadline);
  }

  if (metrics) metrics->worker_started();
  const auto began = std::chrono::steady_clock::now();
  Outcome outcome;
  try {
    outcome = reconciler.reconcile(key, request);
  } catch (...) {
    std::exception_ptr thrown = std::current_exception();
    if (metrics) metrics->panic();
    if (!options.recover_panic) {
      if (deadline_id) deadlines->cancel(*deadline_id);
      if (metrics) metrics->worker_finished();
      log.error(Error::make("panic: " + what_of(thrown)), "Observed a panic");
      {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = thrown;
      }
      failed.request_stop();
      return;
    }
    outcome = Outcome(Error::make("panic: " + what_of(thrown) + " [recovered]"));
  }
  call_deadline.reset();
  if (deadline_id && !deadlines->cancel(*deadline_id)) {
    // The deadline fired: counted and retried with backoff, as controller-runtime's reconcile
    // returns context.DeadlineExceeded. A reconcile that ended well anyway is retried too: it
    // may have been cut short where it did not check.
    if (metrics) metrics->timeout();
    log.with("timeout", std::to_string(std::chrono::duration<double>(options.reconcile_timeout).count()) + "s")
        .info("Reconcile timed out");
    if (!outcome.error) outcome = Outcome(outcome.result, Error::make("context deadline exceeded"));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  if (metrics) metrics->worker_finished();

  auto observe = [&](ReconcileResult result) {
    if (metrics) metrics->observe(result, seconds);
  };
  const Result& result = outcome.result;
  if (result.priority) priority = *result.priority;  // else the priority the key was taken at
  if (outcome.error) {
    if (outcome.error.is(err_quiet())) {
      // A quiet error is reconciler.io's silent, rate-limited requeue (the root reconcilers turn
      // it into Result{requeue}; one that gets here is treated the same way).
      queue->add_rate_limited(key, priority);
      observe(ReconcileResult::requeue);
      return;
    }
    if (outcome.error.is(err_terminal())) {
      // Retrying cannot fix it: counted, not requeued (controller-runtime's TerminalError).
      if (metrics) metrics->terminal_error();
    } else {
      queue->add_rate_limited(key, priority);
    }
    if (!result.empty()) {
      log.info("Warning: Reconciler returned both a result with either requeue_after or requeue set and an error; "
               "the result is ignored");
    }
    observe(ReconcileResult::error);
    log.error(outcome.error, "Reconciler error");
  } else if (result.requeue_after.count() > 0) {
    queue->forget(key);
    queue->add_after(key, std::chrono::duration_cast<Clock::duration>(result.requeue_after), priority);
    observe(ReconcileResult::requeue_after);
  } else if (result.requeue) {
    queue->add_rate_limited(key, priority);
    observe(ReconcileResult::requeue);
  } else {
    queue->forget(key);
    observe(ReconcileResult::success);
  }
}

}  // namespace rr
