#include "rr/controller/leader_election.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>

#include "k8s/coordination/v1/lease.hpp"
#include "rr/client/client.hpp"

namespace rr {
namespace {

using k8s::coordination::v1::Lease;
using k8s::coordination::v1::LeaseSpec;

// client-go's leaderelection.JitterFactor.
constexpr double jitter_factor = 1.2;

// metav1.MicroTime text: RFC 3339 in UTC with microseconds.
Time micro_time(std::chrono::system_clock::time_point tp) {
  using namespace std::chrono;
  const auto secs = floor<seconds>(tp);
  const auto micros = duration_cast<microseconds>(tp - secs).count();
  const std::time_t t = system_clock::to_time_t(secs);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
  char fraction[32];
  std::snprintf(fraction, sizeof fraction, ".%06lld", static_cast<long long>(micros));
  return Time(std::string(date) + fraction + "Z");
}

// The API server rejects leaseDurationSeconds <= 0, so sub-second durations record 1 s.
std::int32_t whole_seconds(Clock::duration d) {
  const auto s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  return s < 1 ? 1 : static_cast<std::int32_t>(s);
}

// wait.Jitter(d, 1.2): d plus a random share of up to 1.2·d.
Clock::duration jittered(Clock::duration d) {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  std::uniform_real_distribution<double> share(0.0, jitter_factor);
  return d + std::chrono::duration_cast<Clock::duration>(d * share(rng));
}

}  // namespace

void LeaderElectionConfig::validate() const {
  const auto retry_jittered = std::chrono::duration_cast<Clock::duration>(retry_period * jitter_factor);
  if (lease_duration <= renew_deadline)
    throw std::invalid_argument("leaseDuration must be greater than renewDeadline");
  if (renew_deadline <= retry_jittered)
    throw std::invalid_argument("renewDeadline must be greater than retryPeriod*JitterFactor");
  if (lease_duration <= Clock::duration::zero())
    throw std::invalid_argument("leaseDuration must be greater than zero");
  if (renew_deadline <= Clock::duration::zero())
    throw std::invalid_argument("renewDeadline must be greater than zero");
  if (retry_period <= Clock::duration::zero())
    throw std::invalid_argument("retryPeriod must be greater than zero");
  if (identity.empty()) throw std::invalid_argument("Lock identity is empty");
  if (name.empty()) throw std::invalid_argument("lease name is empty");
  if (namespace_.empty()) throw std::invalid_argument("lease namespace is empty");
}

struct LeaderElector::State {
  // The lease as last read or written, with its resourceVersion (client-go's LeaseLock cache).
  // Touched only by the step functions, which run on one thread at a time.
  std::optional<Lease> lease;
  // Wall time = wall_origin + clock.now(), so FakeClock jumps show in acquireTime/renewTime.
  std::chrono::system_clock::time_point wall_origin;

  mutable std::mutex mutex;  // guards what is below (is_leader() etc. read it from other threads)
  LeaseSpec observed;         // the record as last seen or written
  Clock::time_point observed_time{};  // on our clock, when `observed` last changed
  std::string last_error;
  // Set by run() for its duration; called by the step functions (on run()'s thread).
  std::function<void(const std::string& what, const std::string& error)> on_error;
};

LeaderElector::LeaderElector(std::shared_ptr<Client> client, LeaderElectionConfig config, Clock& clock)
    : client_(std::move(client)), config_(std::move(config)), clock_(clock), state_(std::make_unique<State>()) {
  if (!client_) throw std::invalid_argument("Lock client must not be nil");
  config_.validate();
  state_->wall_origin = std::chrono::system_clock::now() -
                        std::chrono::duration_cast<std::chrono::system_clock::duration>(clock_.now().time_since_epoch());
}

LeaderElector::~LeaderElector() = default;

bool LeaderElector::is_leader() const {
  std::lock_guard guard(state_->mutex);
  return state_->observed.holder_identity.value_or("") == config_.identity;
}

std::string LeaderElector::leader() const {
  std::lock_guard guard(state_->mutex);
  return state_->observed.holder_identity.value_or("");
}

std::string LeaderElector::last_error() const {
  std::lock_guard guard(state_->mutex);
  return state_->last_error;
}

bool LeaderElector::try_acquire_or_renew() {
  State& s = *state_;
  const auto now = clock_.now();
  const Time stamp = micro_time(s.wall_origin + std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                                    now.time_since_epoch()));
  LeaseSpec mine;
  mine.holder_identity = config_.identity;
  mine.lease_duration_seconds = whole_seconds(config_.lease_duration);
  mine.acquire_time = stamp;
  mine.renew_time = stamp;

  auto failed = [&](const std::exception& e) {
    std::lock_guard guard(s.mutex);
    s.last_error = e.what();
    return false;
  };
  // A failure that ends the round: reported as well.
  auto round_failed = [&](const std::string& what, const std::exception& e) {
    failed(e);
    if (s.on_error) s.on_error(what, e.what());
    return false;
  };
  auto observe = [&](const LeaseSpec& spec) {
    std::lock_guard guard(s.mutex);
    if (!(spec == s.observed)) {
      s.observed = spec;
      s.observed_time = now;
    }
  };
  // isLeaseValid: expiry counts from when WE saw the record change, not from its renewTime.
  auto lease_valid = [&] {
    std::lock_guard guard(s.mutex);
    return s.observed_time + std::chrono::seconds(s.observed.lease_duration_seconds.value_or(0)) > now;
  };
  auto write = [&](const LeaseSpec& spec) {
    Lease next = *s.lease;
    next.spec = spec;
    s.lease = client_->update(next);
    std::lock_guard guard(s.mutex);
    s.observed = s.lease->spec.value_or(LeaseSpec{});
    s.observed_time = now;
  };

  // 1. Fast path: the leader renews against the lease it wrote last, without a read.
  if (is_leader() && lease_valid() && s.lease) {
    LeaseSpec renewal = mine;
    {
      std::lock_guard guard(s.mutex);
      renewal.acquire_time = s.observed.acquire_time;
      renewal.lease_transitions = s.observed.lease_transitions;
    }
    try {
      write(renewal);
      return true;
    } catch (const std::exception& e) {
      failed(e);  // falls back to the slow path, as client-go does
    }
  }

  // 2. Read the lease, or create it.
  std::optional<Lease> current;
  try {
    current = client_->try_get<Lease>(ObjectKey{config_.namespace_, config_.name});
  } catch (const std::exception& e) {
    return round_failed("error retrieving resource lock " + config_.namespace_ + "/" + config_.name, e);
  }
  if (!current) {
    Lease fresh;
    fresh.metadata.namespace_ = config_.namespace_;
    fresh.metadata.name = config_.name;
    mine.lease_transitions = 0;
    fresh.spec = mine;
    try {
      s.lease = client_->create(fresh);
    } catch (const std::exception& e) {
      // AlreadyExists: another candidate created it first.
      return round_failed("error initially creating leader election record", e);
    }
    observe(s.lease->spec.value_or(LeaseSpec{}));
    return true;
  }
  s.lease = std::move(current);
  const LeaseSpec remote = s.lease->spec.value_or(LeaseSpec{});

  // 3. Held by someone else and not expired on our clock: not this round.
  observe(remote);
  if (!remote.holder_identity.value_or("").empty() && lease_valid() && !is_leader()) return false;

  // 4. Ours, expired or free: take it (a new holder counts one more transition).
  if (is_leader()) {
    mine.acquire_time = remote.acquire_time;
    mine.lease_transitions = remote.lease_transitions;
  } else {
    mine.lease_transitions = remote.lease_transitions.value_or(0) + 1;
  }
  try {
    write(mine);
  } catch (const std::exception& e) {
    return round_failed("Failed to update lock", e);  // 409: another candidate wrote between our read and update
  }
  return true;
}

bool LeaderElector::release() {
  if (!is_leader()) return true;
  State& s = *state_;
  const auto now = clock_.now();
  std::optional<Lease> current;
  try {
    current = client_->try_get<Lease>(ObjectKey{config_.namespace_, config_.name});
  } catch (const std::exception& e) {
    std::lock_guard guard(s.mutex);
    s.last_error = e.what();
    return false;
  }
  if (!current) return false;  // client-go: "lease lock not found"
  s.lease = std::move(current);
  const LeaseSpec remote = s.lease->spec.value_or(LeaseSpec{});
  if (remote.holder_identity.value_or("") != config_.identity) {
    // Someone took over already: there is nothing of ours to clear.
    std::lock_guard guard(s.mutex);
    s.observed = remote;
    s.observed_time = now;
    return true;
  }
  const Time stamp = micro_time(s.wall_origin + std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                                    now.time_since_epoch()));
  LeaseSpec released;
  released.holder_identity = std::string();
  released.lease_duration_seconds = 1;
  released.acquire_time = stamp;
  released.renew_time = stamp;
  released.lease_transitions = remote.lease_transitions;
  Lease next = *s.lease;
  next.spec = released;
  try {
    s.lease = client_->update(next);
  } catch (const std::exception& e) {
    std::lock_guard guard(s.mutex);
    s.last_error = e.what();
    return false;
  }
  std::lock_guard guard(s.mutex);
  s.observed = s.lease->spec.value_or(LeaseSpec{});
  s.observed_time = now;
  return true;
}

bool LeaderElector::sleep_for(const std::stop_token& stop, Clock::duration d) {
  std::mutex mutex;
  std::condition_variable cv;
  auto wake = [&] {
    std::lock_guard guard(mutex);
    cv.notify_all();
  };
  std::stop_callback on_stop(stop, wake);
  clock_.add_waker(this, wake);  // a FakeClock's jumps end the wait too
  const auto deadline = clock_.now() + d;
  {
    std::unique_lock lock(mutex);
    while (!stop.stop_requested() && clock_.now() < deadline) clock_.wait_until(cv, lock, deadline);
  }
  clock_.remove_waker(this);
  return !stop.stop_requested();
}

// wait.PollImmediateUntil(retryPeriod, tryAcquireOrRenew) bounded by renewDeadline.
bool LeaderElector::renew_within_deadline(const std::stop_token& stop) {
  const auto deadline = clock_.now() + config_.renew_deadline;
  while (true) {
    if (try_acquire_or_renew()) return true;
    const auto left = deadline - clock_.now();
    if (left <= Clock::duration::zero() || stop.stop_requested()) return false;
    if (!sleep_for(stop, std::min(config_.retry_period, left))) return false;
    if (clock_.now() >= deadline) return false;
  }
}

void LeaderElector::run(std::stop_token stop, LeaderElectionCallbacks callbacks) {
  std::string reported;
  auto report_transition = [&] {
    std::string holder = leader();
    if (holder == reported) return;
    reported = holder;
    if (callbacks.on_new_leader) callbacks.on_new_leader(reported);
  };

  state_->on_error = callbacks.on_error;
  bool acquired = false;
  while (!stop.stop_requested()) {
    acquired = try_acquire_or_renew();
    report_transition();
    if (acquired || !sleep_for(stop, jittered(config_.retry_period))) break;
  }

  if (acquired) {
    std::stop_source leading;
    if (callbacks.on_started_leading) callbacks.on_started_leading(leading.get_token());
    while (!stop.stop_requested()) {
      const bool renewed = renew_within_deadline(stop);
      report_transition();
      if (!renewed || !sleep_for(stop, config_.retry_period)) break;
    }
    leading.request_stop();
    if (config_.release_on_cancel) release();
  }
  state_->on_error = nullptr;
  if (callbacks.on_stopped_leading) callbacks.on_stopped_leading();
}

}  // namespace rr
