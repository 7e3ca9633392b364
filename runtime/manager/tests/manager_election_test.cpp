// Leader election through the manager: two managers on one in-process cluster, short durations
// (lease 1 s, renew 0.5 s, retry 0.1 s). Only the leader runs the leader-election runnables; a
// released lease passes at once; a lost lease ends run() at once with exit code 1.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "k8s/coordination/v1/lease.hpp"
#include "manager_test_util.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/manager/manager.hpp"

using namespace std::chrono_literals;
using k8s::coordination::v1::Lease;
using rr::test::eventually;
using rr::test::FakeRunnable;
using rr::test::http_get;
using rr::test::LogCapture;
using rr::test::Running;

namespace {

// A cluster client whose writes can be made to fail, to take a leader's lease away.
class FlakyClient : public rr::ClusterClient {
 public:
  using rr::ClusterClient::ClusterClient;
  std::atomic<bool> fail_writes{false};

 protected:
  rr::Json do_update(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override {
    if (fail_writes) throw std::runtime_error("injected: connection refused");
    return rr::ClusterClient::do_update(kind, object, opts);
  }
  rr::Json do_create(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override {
    if (fail_writes) throw std::runtime_error("injected: connection refused");
    return rr::ClusterClient::do_create(kind, object, opts);
  }
};

std::shared_ptr<rr::Cluster> lease_cluster() {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<Lease>();
  return cluster;
}

rr::ManagerOptions elected_options() {
  rr::ManagerOptions options = rr::test::loopback_options();
  options.leader_elect = true;
  options.leader_election_id = "op-lock";
  options.leader_election_namespace = "op-system";
  options.lease_duration = 1s;
  options.renew_deadline = 500ms;
  options.retry_period = 100ms;
  return options;
}

struct Replica {
  Replica(const std::shared_ptr<rr::Client>& client, rr::ManagerOptions options = elected_options())
      : manager(options, client, logs.logger()) {
    manager.add(cache);
    manager.add(controller);
  }
  LogCapture logs;
  rr::Manager manager;
  std::shared_ptr<FakeRunnable> cache = std::make_shared<FakeRunnable>("cache", false);
  std::shared_ptr<FakeRunnable> controller = std::make_shared<FakeRunnable>("controller", true);
};

std::string holder(rr::Client& client) {
  const Lease lease = client.get<Lease>("op-system", "op-lock");
  return lease.spec && lease.spec->holder_identity ? *lease.spec->holder_identity : std::string();
}

bool master_status(rr::Manager& manager, int value) {
  const std::string line = "leader_election_master_status{name=\"op-lock\"} " + std::to_string(value) + "\n";
  return http_get(manager.metrics_port(), "/metrics").body.find(line) != std::string::npos;
}

}  // namespace

TEST_CASE("two managers: only the leader runs controllers, and a released lease passes to the other") {
  auto cluster = lease_cluster();
  auto client = std::make_shared<rr::ClusterClient>(cluster);
  Replica a(client);
  Replica b(client);
  CHECK(a.manager.identity() != b.manager.identity());
  CHECK(a.manager.identity().find('_') != std::string::npos);

  auto run_a = std::make_unique<Running>(a.manager);
  REQUIRE(eventually([&] { return a.controller->running.load(); }));
  CHECK(a.manager.is_leader());
  CHECK(holder(*client) == a.manager.identity());

  Running run_b(b.manager);
  CHECK(eventually([&] { return b.cache->running.load(); }));  // no leader election needed
  std::this_thread::sleep_for(600ms);  // several retry periods: b keeps trying and failing
  CHECK_FALSE(b.manager.is_leader());
  CHECK(b.controller->starts == 0);
  CHECK(holder(*client) == a.manager.identity());
  CHECK(master_status(a.manager, 1));
  CHECK(master_status(b.manager, 0));
  // A follower is ready: its controllers have not started, which does not hold readiness back.
  CHECK(http_get(b.manager.health_probe_port(), "/readyz").status == 200);

  // a stops: its controller is stopped, then the lease released; b takes over within a few retries.
  const auto stopped_at = std::chrono::steady_clock::now();
  CHECK(run_a->stop() == 0);
  CHECK(a.controller->returned);
  CHECK(eventually([&] { return b.controller->running.load(); }, 3s));
  CHECK(std::chrono::steady_clock::now() - stopped_at < 1s);  // well within the lease duration
  CHECK(b.manager.is_leader());
  CHECK(holder(*client) == b.manager.identity());
  CHECK(master_status(b.manager, 1));
  CHECK(b.logs.has("successfully acquired lease op-system/op-lock"));
  CHECK(a.controller->starts == 1);

  CHECK(run_b.stop() == 0);
  CHECK(holder(*client).empty());  // released on a clean stop
}

TEST_CASE("losing the lease ends run() at once with exit code 1, without the grace period") {
  auto cluster = lease_cluster();
  auto client = std::make_shared<FlakyClient>(cluster);
  Replica a(client);
  a.controller->stop_delay = 2s;  // would hold a graceful shutdown up
  Running running(a.manager);
  REQUIRE(eventually([&] { return a.controller->running.load(); }));

  client->fail_writes = true;  // renewals fail; after the 0.5 s renew deadline leadership is lost
  const auto failing_since = std::chrono::steady_clock::now();
  REQUIRE(eventually([&] { return running.done(); }, 3s));
  CHECK(running.wait() == 1);
  CHECK(std::chrono::steady_clock::now() - failing_since < 1500ms);
  CHECK_FALSE(a.manager.is_leader());
  CHECK(a.logs.has("problem running manager", "leader election lost"));
  CHECK(eventually([&] { return a.controller->returned.load(); }, 3s));  // it was told to stop
}

TEST_CASE("leader election needs an id, a namespace, a client and sane durations") {
  auto client = std::make_shared<rr::ClusterClient>(lease_cluster());
  rr::ManagerOptions options = elected_options();
  CHECK_NOTHROW(rr::Manager(options, client, rr::Logger()));
  CHECK_THROWS_AS(rr::Manager(options, nullptr, rr::Logger()), std::invalid_argument);

  rr::ManagerOptions no_id = options;
  no_id.leader_election_id.clear();
  CHECK_THROWS_WITH_AS(rr::Manager(no_id, client, rr::Logger()),
                       "LeaderElectionID must be configured (--leader-election-id)", std::invalid_argument);

  rr::ManagerOptions bad_durations = options;
  bad_durations.renew_deadline = bad_durations.lease_duration;
  CHECK_THROWS_WITH_AS(rr::Manager(bad_durations, client, rr::Logger()),
                       "leaseDuration must be greater than renewDeadline", std::invalid_argument);

  rr::ManagerOptions no_namespace = options;
  no_namespace.leader_election_namespace.clear();
  if (!std::ifstream("/var/run/secrets/kubernetes.io/serviceaccount/namespace")) {
    CHECK_THROWS_AS(rr::Manager(no_namespace, client, rr::Logger()), std::invalid_argument);
  }
}
