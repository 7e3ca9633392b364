// rr::Api<T>: typed verbs bound to a namespace, and Client's typed templates, which are its calls.
#include "rr/client/api.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "fake_client.hpp"

using clienttest::FakeClient;
using clienttest::gizmo;
using clienttest::Gizmo;

namespace {

std::vector<std::string> names(const std::vector<Gizmo>& gizmos) {
  std::vector<std::string> out;
  for (const Gizmo& g : gizmos) out.push_back(g.metadata.namespace_ + "/" + g.metadata.name);
  return out;
}

}  // namespace

TEST_CASE("Api<T> bound to a namespace addresses its objects by name") {
  FakeClient client;
  const rr::Api<Gizmo> gizmos(client, "ns");
  CHECK(gizmos.namespace_() == "ns");
  CHECK(&gizmos.client() == &client);
  CHECK(gizmos.kind() == rr::kind_info_of<Gizmo>());

  Gizmo created = gizmos.create(gizmo("", "a"));  // no namespace: the Api's
  CHECK(created.metadata.namespace_ == "ns");
  CHECK(created.metadata.uid == "uid-1");  // the object as persisted
  CHECK(gizmos.get("a") == created);

  created.color = "blue";
  CHECK(gizmos.update(created).color == "blue");
  created.phase = "Ready";
  const Gizmo with_status = gizmos.update_status(created);
  CHECK(with_status.phase == "Ready");
  CHECK(with_status.color == "blue");
  CHECK(gizmos.patch("a", rr::PatchType::Merge, R"({"spec":{"color":"green"}})").color == "green");
  gizmos.remove("a");
  CHECK_FALSE(gizmos.try_get("a").has_value());

  CHECK(client.calls == std::vector<std::string>{"create gizmos ns/a", "get gizmos ns/a", "update gizmos ns/a",
                                                 "update_status gizmos ns/a", "patch gizmos ns/a",
                                                 "remove gizmos ns/a", "get gizmos ns/a"});
}

TEST_CASE("Api<T>: list and watch use the Api's namespace; an Api without one spans them all") {
  FakeClient client;
  client.put(gizmo("a", "one"));
  client.put(gizmo("b", "two"));
  client.put(gizmo("b", "three"));

  const rr::Api<Gizmo> in_b(client, "b");
  CHECK(names(in_b.list()) == std::vector<std::string>{"b/three", "b/two"});
  rr::ListOptions opts;
  opts.label_selector = "tier=gold";
  in_b.list(opts);
  CHECK(client.last_list.namespace_ == "b");
  CHECK(client.last_list.label_selector == "tier=gold");  // the rest of the options pass through

  const rr::Api<Gizmo> everywhere(client);
  CHECK(names(everywhere.list()) == std::vector<std::string>{"a/one", "b/three", "b/two"});

  auto watch = in_b.watch();
  std::vector<std::string> seen;
  while (auto event = watch->next(std::chrono::milliseconds(0))) {
    CHECK(event->type == rr::WatchEventType::Added);
    seen.push_back(rr::key_of(rr::from_object_json<Gizmo>(event->object)).str());
  }
  CHECK(seen == std::vector<std::string>{"b/three", "b/two"});
  CHECK(client.last_list.namespace_ == "b");
}

TEST_CASE("Api<T>: a namespace other than the Api's is refused before any request") {
  FakeClient client;
  const rr::Api<Gizmo> in_a(client, "a");
  try {
    in_a.create(gizmo("b", "x"));
    FAIL("expected a BadRequest");
  } catch (const rr::ApiError& e) {
    CHECK(rr::is_bad_request(e.status()));
    CHECK(e.status().message == "the namespace of the provided object does not match the namespace sent on the request");
  }
  CHECK_THROWS_AS(in_a.update(gizmo("b", "x")), rr::ApiError);
  CHECK_THROWS_AS(in_a.update_status(gizmo("b", "x")), rr::ApiError);
  rr::ListOptions other;
  other.namespace_ = "b";
  CHECK_THROWS_AS(in_a.list(other), rr::ApiError);
  CHECK_THROWS_AS(in_a.watch(other), rr::ApiError);
  CHECK(client.calls.empty());

  // The Api's own namespace, named again, is fine.
  CHECK(in_a.create(gizmo("a", "x")).metadata.namespace_ == "a");
  other.namespace_ = "a";
  CHECK(in_a.list(other).size() == 1);
}

TEST_CASE("Api<T>::try_get: nullopt on NotFound, any other error thrown") {
  FakeClient client;
  const rr::Api<Gizmo> gizmos(client, "ns");
  CHECK_FALSE(gizmos.try_get("missing").has_value());
  CHECK_THROWS_AS(gizmos.get("missing"), rr::ApiError);
  client.put(gizmo("ns", "here"));
  REQUIRE(gizmos.try_get("here").has_value());
  CHECK(gizmos.try_get("here")->metadata.name == "here");

  client.fail_reads = rr::api_errors::forbidden("gizmos", "example.dev", "here", "not allowed");
  CHECK_THROWS_AS(gizmos.try_get("here"), rr::ApiError);
}

TEST_CASE("Client's typed templates are Api<T>'s calls, in the namespace they name") {
  FakeClient fake;
  rr::Client& client = fake;

  rr::WriteOptions write;
  write.field_manager = "me";
  Gizmo created = client.create(gizmo("ns", "a"), write);
  CHECK(fake.last_write.field_manager == "me");
  CHECK(client.get<Gizmo>("ns", "a") == created);
  CHECK(client.get<Gizmo>(rr::ObjectKey{"ns", "a"}) == created);
  CHECK_FALSE(client.try_get<Gizmo>({"ns", "b"}).has_value());
  rr::ListOptions in_ns;
  in_ns.namespace_ = "ns";
  CHECK(names(client.list<Gizmo>(in_ns)) == std::vector<std::string>{"ns/a"});
  CHECK(client.list<Gizmo>().size() == 1);

  created.color = "blue";
  CHECK(client.update(created).color == "blue");
  created.phase = "Ready";
  CHECK(client.update_status(created).phase == "Ready");
  const Gizmo patched =
      client.patch<Gizmo>({"ns", "a"}, rr::PatchType::Merge, R"({"status":{"phase":"Done"}})", "status");
  CHECK(patched.phase == "Done");
  rr::DeleteOptions foreground;
  foreground.propagation = rr::PropagationPolicy::Foreground;
  client.remove(patched, foreground);
  CHECK(fake.last_delete.propagation == rr::PropagationPolicy::Foreground);

  CHECK(fake.calls == std::vector<std::string>{
                          "create gizmos ns/a", "get gizmos ns/a", "get gizmos ns/a", "get gizmos ns/b",
                          "list gizmos ns", "list gizmos ", "update gizmos ns/a", "update_status gizmos ns/a",
                          "patch status gizmos ns/a", "remove gizmos ns/a"});
}
