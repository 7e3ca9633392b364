// Status errors as the client sees them over HTTP (404, 409 AlreadyExists, 409 Conflict, 422
// Invalid, unknown kinds), the read-modify-write retry a 409 calls for, and injected 429/500s.
#include <doctest/doctest.h>

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "live_cluster.hpp"

using namespace rr;
using namespace rr::integration;

namespace {

// client-go's retry.RetryOnConflict: get, change, update; again from a fresh read on a 409.
// Returns how many attempts it took.
int update_with_retry(HttpClient& client, const KindInfo& kind, const ObjectKey& key,
                      const std::function<void(Json&)>& change, int max_attempts = 50) {
  for (int attempt = 1;; ++attempt) {
    Json object = client.get(kind, key);
    change(object);
    try {
      client.update(kind, object);
      return attempt;
    } catch (const ApiError& e) {
      if (!is_conflict(e.status()) || attempt == max_attempts) throw;
    }
  }
}

Json deployment_without_selector() {
  return Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"namespace":"default","name":"bad"},
    "spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx"}]}}}})");
}

}  // namespace

TEST_CASE("404 NotFound, 409 AlreadyExists, 409 Conflict and 422 Invalid carry the server's Status") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());

  const Status missing = status_of([&] { client->get(cm, {"default", "nope"}); });
  CHECK(is_not_found(missing));
  CHECK(missing.code == 404);
  CHECK(missing.message == "configmaps \"nope\" not found");
  CHECK(missing.details_name == "nope");
  CHECK(missing.details_kind == "configmaps");
  CHECK(is_not_found(status_of([&] { client->remove(cm, {"default", "nope"}); })));
  CHECK(is_not_found(status_of([&] { client->update(cm, config_map("default", "nope")); })));

  const Json first = client->create(cm, config_map("default", "one", {{"v", "1"}}));
  const Status exists = status_of([&] { client->create(cm, config_map("default", "one")); });
  CHECK(is_already_exists(exists));
  CHECK(exists.code == 409);
  CHECK(exists.message == "configmaps \"one\" already exists");

  // A stale resourceVersion: the second writer of the same read loses.
  Json mine = first;
  Json theirs = first;
  theirs["data"]["v"] = "theirs";
  client->update(cm, theirs);
  mine["data"]["v"] = "mine";
  const Status stale = status_of([&] { client->update(cm, mine); });
  CHECK(is_conflict(stale));
  CHECK(stale.code == 409);
  CHECK(stale.message == "Operation cannot be fulfilled on configmaps \"one\": " +
                             std::string(api_errors::optimistic_lock_message));
  // A delete precondition on the old resourceVersion is a conflict too.
  CHECK(is_conflict(status_of([&] {
    client->remove(cm, {"default", "one"},
                   DeleteOptions{.precondition_resource_version = first["metadata"]["resourceVersion"].get<std::string>()});
  })));
  CHECK(client->get(cm, {"default", "one"})["data"]["v"] == "theirs");

  // Admission of a typed built-in kind: apps/v1 Deployment requires spec.selector.
  const KindInfo deployments = client->kind_info(deployment_gvk());
  const Status invalid = status_of([&] { client->create(deployments, deployment_without_selector()); });
  CHECK(is_invalid(invalid));
  CHECK(invalid.code == 422);
  CHECK(invalid.reason == "Invalid");
  CHECK(invalid.details_kind == "Deployment");
  CHECK(invalid.message.find("Deployment.apps \"bad\" is invalid") == 0);
  bool names_selector = false;
  for (const StatusCause& cause : invalid.causes) names_selector |= cause.field == "spec.selector";
  CHECK_MESSAGE(names_selector, invalid.message);
  CHECK(is_not_found(status_of([&] { live.cluster().get(deployments, {"default", "bad"}); })));

  // A kind nobody serves: discovery says so with client-go's wording.
  const Status unknown = status_of([&] { client->kind_info({"nowhere.dev", "v1", "Thing"}); });
  CHECK(is_not_found(unknown));
  // An empty name is refused before anything is sent.
  CHECK(is_bad_request(status_of([&] { client->get(cm, {"default", ""}); })));
}

TEST_CASE("a 409 on a stale update is resolved by re-reading and retrying (read-modify-write)") {
  LiveCluster live;
  auto alice = live.client();
  auto bob = live.client();
  const KindInfo cm = alice->kind_info(config_map_gvk());
  alice->create(cm, config_map("default", "shared", {{"alice", "0"}, {"bob", "0"}}));

  // Deterministic interleaving: both read, bob writes first, alice's first write conflicts.
  int alice_attempts = 0;
  bool bob_wrote = false;
  alice_attempts = update_with_retry(*alice, cm, {"default", "shared"}, [&](Json& o) {
    if (!bob_wrote) {
      bob_wrote = true;
      CHECK(update_with_retry(*bob, cm, {"default", "shared"}, [](Json& b) { b["data"]["bob"] = "1"; }) == 1);
    }
    o["data"]["alice"] = "1";
  });
  CHECK(alice_attempts == 2);
  CHECK(alice->get(cm, {"default", "shared"})["data"] == Json{{"alice", "1"}, {"bob", "1"}});

  // Four threads increment one counter 10 times each through the loop: no increment is lost.
  alice->patch(cm, {"default", "shared"}, PatchType::Merge, R"({"data":{"n":"0"}})");
  std::atomic<int> conflicts{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&] {
      auto client = live.client();
      for (int i = 0; i < 10; ++i) {
        conflicts += update_with_retry(*client, cm, {"default", "shared"}, [](Json& o) {
                       o["data"]["n"] = std::to_string(std::stoi(o["data"]["n"].get<std::string>()) + 1);
                     }) - 1;
      }
    });
  }
  for (auto& w : writers) w.join();
  CHECK(alice->get(cm, {"default", "shared"})["data"]["n"] == "40");
  MESSAGE("conflicts retried by 4 concurrent writers: " << conflicts.load());
}

TEST_CASE("injected 429s with Retry-After are retried transparently, writes included") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());  // discovery is never failed
  FaultOptions faults;
  faults.fail_rate = 0.5;
  faults.fail_codes = {429};
  faults.retry_after_seconds = 0;  // honoured: retried at once
  faults.seed = 7;
  live.server().set_faults(faults);

  for (int i = 0; i < 20; ++i) client->create(cm, config_map("default", "cm-" + std::to_string(i)));
  for (int i = 0; i < 20; ++i) client->get(cm, {"default", "cm-" + std::to_string(i)});
  const auto injected = live.server().fault_counters().failures[429];
  CHECK(injected > 5);
  live.server().set_faults({});
  // A 429 was never processed: exactly one object per create, none lost.
  CHECK(client->list(cm, {.namespace_ = "default"})["items"].size() == 20);
  MESSAGE("429s injected and retried: " << injected);
}

TEST_CASE("injected 500s: a GET is retried up to max_retries, a POST is not (it may have been applied)") {
  LiveCluster live;
  HttpClientOptions options = quick_retries();
  options.retry.max_retries = 2;
  auto client = live.client(options);
  const KindInfo cm = client->kind_info(config_map_gvk());
  client->create(cm, config_map("default", "x"));
  FaultOptions faults;
  faults.fail_rate = 1;
  faults.fail_codes = {500};
  live.server().set_faults(faults);

  const Status get_failed = status_of([&] { client->get(cm, {"default", "x"}); });
  CHECK(get_failed.code == 500);
  CHECK(get_failed.reason == "InternalError");
  CHECK(live.server().fault_counters().failures[500] == 3);  // 1 attempt + 2 retries

  CHECK(status_of([&] { client->create(cm, config_map("default", "y")); }).code == 500);
  CHECK(live.server().fault_counters().failures[500] == 4);  // no retry
}

TEST_CASE("slow: a 429 with Retry-After: 1 waits a second before the retry") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());
  client->create(cm, config_map("default", "x"));
  FaultOptions faults;
  faults.fail_rate = 1;
  faults.fail_codes = {429};
  faults.retry_after_seconds = 1;
  live.server().set_faults(faults);
  // Lift the fault while the client waits out the first Retry-After.
  std::thread lift([&] {
    wait_until([&] { return live.server().fault_counters().failures[429] >= 1; });
    live.server().set_faults({});
  });
  const auto started = std::chrono::steady_clock::now();
  CHECK(client->get(cm, {"default", "x"})["metadata"]["name"] == "x");
  const auto waited = std::chrono::steady_clock::now() - started;
  lift.join();
  CHECK(waited >= std::chrono::milliseconds(950));
  CHECK(waited < std::chrono::seconds(3));
  CHECK(live.server().fault_counters().failures[429] == 1);
}
