// LeaderElector against the in-process cluster: the step functions under a FakeClock, and run()
// under the real clock with short durations.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "k8s/coordination/v1/lease.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/fake_clock.hpp"
#include "rr/controller/leader_election.hpp"

using k8s::coordination::v1::Lease;
using namespace std::chrono_literals;

namespace {

// A ClusterClient that runs a hook just before each update, to stage a race.
class HookedClient : public rr::ClusterClient {
 public:
  using rr::ClusterClient::ClusterClient;
  std::function<void()> before_update;

 protected:
  rr::Json do_update(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override {
    if (auto hook = std::exchange(before_update, nullptr)) hook();
    return rr::ClusterClient::do_update(kind, object, opts);
  }
};

std::shared_ptr<rr::Cluster> lease_cluster() {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<Lease>();
  return cluster;
}

rr::LeaderElectionConfig config_for(std::string identity) {
  rr::LeaderElectionConfig c;
  c.namespace_ = "kube-system";
  c.name = "my-operator";
  c.identity = std::move(identity);
  return c;
}

Lease stored_lease(rr::Client& client) { return client.get<Lease>("kube-system", "my-operator"); }

}  // namespace

TEST_CASE("the first candidate creates the lease and leads") {
  auto client = std::make_shared<rr::ClusterClient>(lease_cluster());
  rr::FakeClock clock;
  rr::LeaderElector a(client, config_for("a"), clock);
  CHECK_FALSE(a.is_leader());
  CHECK(a.try_acquire_or_renew());
  CHECK(a.is_leader());
  CHECK(a.leader() == "a");
  const Lease lease = stored_lease(*client);
  REQUIRE(lease.spec);
  CHECK(lease.spec->holder_identity == "a");
  CHECK(lease.spec->lease_duration_seconds == 15);
  CHECK(lease.spec->lease_transitions == 0);
  REQUIRE(lease.spec->renew_time);
  CHECK(lease.spec->renew_time->valid());
  CHECK(lease.spec->acquire_time == lease.spec->renew_time);

  // A renewal moves renewTime and keeps acquireTime.
  clock.advance(2s);
  CHECK(a.try_acquire_or_renew());
  const Lease renewed = stored_lease(*client);
  CHECK(renewed.spec->acquire_time == lease.spec->acquire_time);
  CHECK(renewed.spec->renew_time != lease.spec->renew_time);
  CHECK(*renewed.spec->renew_time->time_point() - *lease.spec->renew_time->time_point() == 2s);
}

TEST_CASE("a second candidate waits while the leader renews, then takes over an expired lease") {
  auto client = std::make_shared<rr::ClusterClient>(lease_cluster());
  rr::FakeClock clock_a;
  // B's clock reads a thousand hours later: expiry must count on B's clock from when B saw the
  // record change, never from the remote renewTime.
  rr::FakeClock clock_b(rr::Clock::time_point{} + 1000h);
  rr::LeaderElector a(client, config_for("a"), clock_a);
  rr::LeaderElector b(client, config_for("b"), clock_b);
  auto advance_both = [&](rr::Clock::duration d) {
    clock_a.advance(d);
    clock_b.advance(d);
  };

  REQUIRE(a.try_acquire_or_renew());
  CHECK_FALSE(b.try_acquire_or_renew());
  CHECK(b.leader() == "a");
  CHECK_FALSE(b.is_leader());

  for (int i = 0; i < 10; ++i) {  // 20 s of renewals: longer than the lease, yet A keeps it
    advance_both(2s);
    CHECK(a.try_acquire_or_renew());
    CHECK_FALSE(b.try_acquire_or_renew());
  }
  // A stops renewing. B last saw a change just now: 14 s later the lease is still valid to B...
  advance_both(14s);
  CHECK_FALSE(b.try_acquire_or_renew());
  // ...and past 15 s it has expired.
  advance_both(2s);
  CHECK(b.try_acquire_or_renew());
  CHECK(b.is_leader());
  const Lease lease = stored_lease(*client);
  CHECK(lease.spec->holder_identity == "b");
  CHECK(lease.spec->lease_transitions == 1);

  // A comes back: it reads B's record, which is new to A, so A stands down.
  CHECK_FALSE(a.try_acquire_or_renew());
  CHECK_FALSE(a.is_leader());
  CHECK(a.leader() == "b");
}

TEST_CASE("release clears the holder so another candidate takes over at once") {
  auto client = std::make_shared<rr::ClusterClient>(lease_cluster());
  rr::FakeClock clock;
  rr::LeaderElector a(client, config_for("a"), clock);
  rr::LeaderElector b(client, config_for("b"), clock);
  REQUIRE(a.try_acquire_or_renew());
  CHECK_FALSE(b.try_acquire_or_renew());

  CHECK(a.release());
  CHECK_FALSE(a.is_leader());
  CHECK(a.leader().empty());
  const Lease released = stored_lease(*client);
  CHECK(released.spec->holder_identity == "");
  CHECK(released.spec->lease_duration_seconds == 1);

  CHECK(b.try_acquire_or_renew());  // no time has passed
  CHECK(stored_lease(*client).spec->holder_identity == "b");
  CHECK(stored_lease(*client).spec->lease_transitions == 1);
  CHECK(b.release());
  CHECK(b.release());  // not leader any more: nothing to give up
}

TEST_CASE("release does not clear a lease someone else took over") {
  auto client = std::make_shared<rr::ClusterClient>(lease_cluster());
  rr::FakeClock clock;
  rr::LeaderElector a(client, config_for("a"), clock);
  rr::LeaderElector b(client, config_for("b"), clock);
  REQUIRE(a.try_acquire_or_renew());
  REQUIRE_FALSE(b.try_acquire_or_renew());
  clock.advance(16s);
  REQUIRE(b.try_acquire_or_renew());
  CHECK(a.is_leader());  // A has not looked yet
  CHECK(a.release());
  CHECK(a.leader() == "b");
  CHECK(stored_lease(*client).spec->holder_identity == "b");
}

TEST_CASE("a conflicting update is a failed round, not an exception") {
  auto cluster = lease_cluster();
  auto plain = std::make_shared<rr::ClusterClient>(cluster);
  auto hooked = std::make_shared<HookedClient>(cluster);
  rr::FakeClock clock;
  rr::LeaderElector old_leader(plain, config_for("old"), clock);
  rr::LeaderElector a(plain, config_for("a"), clock);
  rr::LeaderElector b(hooked, config_for("b"), clock);
  REQUIRE(old_leader.try_acquire_or_renew());
  REQUIRE_FALSE(a.try_acquire_or_renew());
  REQUIRE_FALSE(b.try_acquire_or_renew());
  clock.advance(16s);  // the old leader is gone; A and B both see the lease expired

  // B reads the lease; before B's update lands, A takes the lease: B's write is stale (409).
  hooked->before_update = [&] { CHECK(a.try_acquire_or_renew()); };
  bool b_won = true;
  CHECK_NOTHROW(b_won = b.try_acquire_or_renew());
  CHECK_FALSE(b_won);
  CHECK(b.last_error().find("the object has been modified") != std::string::npos);
  CHECK(stored_lease(*plain).spec->holder_identity == "a");
  CHECK(stored_lease(*plain).spec->lease_transitions == 1);

  // Next round B reads A's fresh record and waits.
  CHECK_FALSE(b.try_acquire_or_renew());
  CHECK(b.leader() == "a");
}

TEST_CASE("a leader whose fast-path renewal conflicts falls back to a read") {
  auto cluster = lease_cluster();
  auto hooked = std::make_shared<HookedClient>(cluster);
  auto plain = std::make_shared<rr::ClusterClient>(cluster);
  rr::FakeClock clock;
  rr::LeaderElector a(hooked, config_for("a"), clock);
  REQUIRE(a.try_acquire_or_renew());
  // Someone touches the lease (a label), so A's cached resourceVersion is stale.
  hooked->before_update = [&] {
    Lease touched = stored_lease(*plain);
    touched.metadata.labels = std::map<std::string, std::string>{{"touched", "yes"}};
    plain->update(touched);
  };
  clock.advance(2s);
  CHECK(a.try_acquire_or_renew());
  CHECK(stored_lease(*plain).spec->holder_identity == "a");
  CHECK(stored_lease(*plain).spec->lease_transitions == 0);
}

TEST_CASE("configuration is validated with client-go's messages") {
  auto client = std::make_shared<rr::ClusterClient>(lease_cluster());
  auto message_of = [&](rr::LeaderElectionConfig c) -> std::string {
    try {
      rr::LeaderElector e(client, std::move(c));
    } catch (const std::invalid_argument& err) {
      return err.what();
    }
    return "";
  };
  CHECK(message_of(config_for("a")).empty());
  auto c = config_for("a");
  c.lease_duration = 10s;
  CHECK(message_of(c) == "leaseDuration must be greater than renewDeadline");
  c = config_for("a");
  c.retry_period = 9s;  // 9 s * 1.2 > 10 s
  CHECK(message_of(c) == "renewDeadline must be greater than retryPeriod*JitterFactor");
  c = config_for("a");
  c.retry_period = 0s;
  CHECK(message_of(c) == "retryPeriod must be greater than zero");
  c = config_for("a");
  c.identity.clear();
  CHECK(message_of(c) == "Lock identity is empty");
  c = config_for("a");
  c.name.clear();
  CHECK(message_of(c) == "lease name is empty");
}

TEST_CASE("run leads, and stopping it releases the lease and reports the stop") {
  auto client = std::make_shared<rr::ClusterClient>(lease_cluster());
  auto c = config_for("a");
  c.lease_duration = 300ms;
  c.renew_deadline = 200ms;
  c.retry_period = 50ms;
  rr::LeaderElector a(client, c);

  std::atomic<bool> started{false}, stopped{false};
  std::atomic<int> new_leader_calls{0};
  std::stop_token leading_token;
  std::mutex token_mutex;
  rr::LeaderElectionCallbacks callbacks;
  callbacks.on_started_leading = [&](std::stop_token t) {
    std::lock_guard guard(token_mutex);
    leading_token = t;
    started = true;
  };
  callbacks.on_stopped_leading = [&] { stopped = true; };
  callbacks.on_new_leader = [&](const std::string& id) {
    if (id == "a") ++new_leader_calls;
  };

  const auto begin = std::chrono::steady_clock::now();
  std::jthread runner([&](std::stop_token stop) { a.run(stop, callbacks); });
  while (!started && std::chrono::steady_clock::now() - begin < 1s) std::this_thread::sleep_for(5ms);
  REQUIRE(started);
  CHECK(a.is_leader());
  CHECK(new_leader_calls == 1);
  std::this_thread::sleep_for(150ms);  // a few renewals
  CHECK(a.is_leader());
  CHECK(stored_lease(*client).spec->holder_identity == "a");

  runner.request_stop();
  runner.join();
  CHECK(stopped);
  {
    std::lock_guard guard(token_mutex);
    CHECK(leading_token.stop_requested());
  }
  CHECK_FALSE(a.is_leader());
  CHECK(stored_lease(*client).spec->holder_identity == "");
  CHECK(std::chrono::steady_clock::now() - begin < 2s);
}

TEST_CASE("run stops leading when renewal fails past the renew deadline") {
  auto cluster = lease_cluster();
  auto client = std::make_shared<rr::ClusterClient>(cluster);
  auto c = config_for("a");
  c.lease_duration = 300ms;
  c.renew_deadline = 200ms;
  c.retry_period = 50ms;
  rr::LeaderElector a(client, c);
  std::atomic<bool> started{false}, stopped{false};
  rr::LeaderElectionCallbacks callbacks;
  callbacks.on_started_leading = [&](std::stop_token) { started = true; };
  callbacks.on_stopped_leading = [&] { stopped = true; };

  const auto begin = std::chrono::steady_clock::now();
  std::jthread runner([&](std::stop_token stop) { a.run(stop, callbacks); });
  while (!started && std::chrono::steady_clock::now() - begin < 1s) std::this_thread::sleep_for(5ms);
  REQUIRE(started);
  // An intruder overwrites the holder: A's renewals now see a valid lease held by someone else.
  // A renews every 50 ms, so the intruder's write may meet a newer resourceVersion (409): it
  // re-reads and re-applies, as client-go's RetryOnConflict.
  for (int attempt = 1;; ++attempt) {
    Lease stolen = stored_lease(*client);
    stolen.spec->holder_identity = "intruder";
    stolen.spec->lease_duration_seconds = 60;
    try {
      client->update(stolen);
      break;
    } catch (const rr::ApiError& e) {
      REQUIRE(rr::is_conflict(e.status()));
      REQUIRE(attempt < 20);
    }
  }
  while (!stopped && std::chrono::steady_clock::now() - begin < 1500ms) std::this_thread::sleep_for(5ms);
  CHECK(stopped);  // run() returned by itself
  runner.join();
  CHECK(a.leader() == "intruder");
  CHECK(stored_lease(*client).spec->holder_identity == "intruder");  // release left it alone
}

namespace {

// A ClusterClient that answers every read with the API server's 403.
class ForbiddenReadClient : public rr::ClusterClient {
 public:
  using rr::ClusterClient::ClusterClient;

 protected:
  rr::Json do_get(const rr::KindInfo&, const rr::ObjectKey& key) override {
    throw rr::ApiError(rr::api_errors::forbidden(
        "leases", "coordination.k8s.io", key.name,
        "User \"system:serviceaccount:ns:sa\" cannot get resource \"leases\" in API group \"coordination.k8s.io\" "
        "in the namespace \"kube-system\""));
  }
};

}  // namespace

TEST_CASE("run reports each round that ends on a failed API call") {
  auto client = std::make_shared<ForbiddenReadClient>(lease_cluster());
  auto c = config_for("a");
  c.lease_duration = 300ms;
  c.renew_deadline = 200ms;
  c.retry_period = 20ms;
  rr::LeaderElector a(client, c);
  std::mutex mutex;
  std::vector<std::pair<std::string, std::string>> errors;
  rr::LeaderElectionCallbacks callbacks;
  callbacks.on_error = [&](const std::string& what, const std::string& error) {
    std::lock_guard guard(mutex);
    errors.emplace_back(what, error);
  };
  const auto begin = std::chrono::steady_clock::now();
  {
    std::jthread runner([&](std::stop_token stop) { a.run(stop, callbacks); });
    for (bool enough = false; !enough && std::chrono::steady_clock::now() - begin < 2s;) {
      std::this_thread::sleep_for(5ms);
      std::lock_guard guard(mutex);
      enough = errors.size() >= 2;
    }
  }
  std::lock_guard guard(mutex);
  REQUIRE(errors.size() >= 2);  // every round, not only the first
  CHECK(errors.front().first == "error retrieving resource lock kube-system/my-operator");
  CHECK(errors.front().second.find("cannot get resource \"leases\"") != std::string::npos);
  CHECK_FALSE(a.is_leader());
}
