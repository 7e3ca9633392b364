// The in-process cluster's client and a reconcile's deadline (rr/client/call_deadline.hpp): a call
// made once the deadline has passed fails as the HTTP client's does and changes nothing.
#include "rr/client/call_deadline.hpp"

#include "rr/client/api_error.hpp"
#include "test_support.hpp"

using namespace cluster_test;
using namespace std::chrono_literals;

TEST_CASE("a ClusterClient call after the thread's deadline fails with context deadline exceeded") {
  auto cluster = make_cluster();
  rr::ClusterClient client(cluster);
  client.create(config_map_kind(), config_map("default", "before"));
  {
    rr::CallDeadline deadline(std::chrono::steady_clock::now() - 1ms);
    const rr::Status failed = failure_of([&] { client.create(config_map_kind(), config_map("default", "late")); });
    CHECK(failed.reason == "Timeout");
    CHECK(failed.code == 0);
    CHECK(failed.message == "create configmaps: context deadline exceeded");
    CHECK(failure_of([&] { client.get(config_map_kind(), {"default", "before"}); }).message ==
          "get configmaps \"default/before\": context deadline exceeded");
    CHECK(failure_of([&] { client.remove(config_map_kind(), {"default", "before"}); }).reason == "Timeout");
  }
  // Nothing reached the cluster; once the deadline is closed, calls go through again.
  CHECK_THROWS_AS(cluster->get(config_map_kind(), {"default", "late"}), rr::ApiError);
  CHECK(client.get(config_map_kind(), {"default", "before"})["metadata"]["name"] == "before");
}

TEST_CASE("a ClusterClient call before the thread's deadline is served") {
  auto cluster = make_cluster();
  rr::ClusterClient client(cluster);
  rr::CallDeadline deadline(std::chrono::steady_clock::now() + 1h);
  CHECK(client.create(config_map_kind(), config_map("default", "a"))["metadata"]["name"] == "a");
}
