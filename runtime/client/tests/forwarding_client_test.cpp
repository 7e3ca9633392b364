// rr::ForwardingClient: every verb reaches the inner client unchanged; a decorator overrides only
// what it changes.
#include "rr/client/forwarding_client.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_client.hpp"

using clienttest::FakeClient;
using clienttest::gizmo;
using clienttest::Gizmo;

namespace {

// Hides some names from get (a cache that has not seen them yet); every other verb is forwarded.
class Hiding final : public rr::ForwardingClient {
 public:
  using ForwardingClient::ForwardingClient;
  std::set<std::string> hidden;

 protected:
  rr::Json do_get(const rr::KindInfo& kind, const rr::ObjectKey& key) override {
    if (hidden.contains(key.name)) throw rr::ApiError(rr::api_errors::not_found(kind.plural, kind.gvk.group, key.name));
    return ForwardingClient::do_get(kind, key);
  }
};

}  // namespace

TEST_CASE("ForwardingClient sends every verb, with its arguments, to the inner client") {
  auto inner = std::make_shared<FakeClient>();
  rr::ForwardingClient client(inner);
  CHECK(client.inner() == inner);

  const rr::KindInfo kind = client.kind_info(rr::kind_info_of<Gizmo>().gvk);
  CHECK(kind == rr::kind_info_of<Gizmo>());
  CHECK_THROWS_AS(client.kind_info({"example.dev", "v1", "Nope"}), rr::ApiError);

  const rr::Json object = rr::to_object_json(gizmo("ns", "a"));
  rr::WriteOptions write;
  write.dry_run = true;
  write.field_manager = "fm";
  CHECK(client.create(kind, object, write)["metadata"]["uid"] == "uid-1");
  CHECK(inner->last_write.dry_run);
  CHECK(inner->last_write.field_manager == "fm");
  CHECK(client.get(kind, {"ns", "a"})["metadata"]["name"] == "a");

  rr::ListOptions list;
  list.namespace_ = "ns";
  list.label_selector = "tier=gold";
  CHECK(client.list(kind, list)["items"].size() == 1);
  CHECK(inner->last_list.label_selector == "tier=gold");

  write.field_manager = "other";
  client.update(kind, object, write);
  CHECK(inner->last_write.field_manager == "other");
  client.update_status(kind, object);
  CHECK(client.patch(kind, {"ns", "a"}, rr::PatchType::Merge, R"({"status":{"phase":"Up"}})", "status")["status"] ==
        rr::Json{{"phase", "Up"}});

  auto watch = client.watch(kind, list);
  REQUIRE(watch);
  auto event = watch->next(std::chrono::milliseconds(0));
  REQUIRE(event.has_value());
  CHECK(event->type == rr::WatchEventType::Added);

  rr::DeleteOptions remove;
  remove.precondition_uid = "uid-1";
  CHECK(client.remove(kind, {"ns", "a"}, remove)["metadata"]["name"] == "a");
  CHECK(inner->last_delete.precondition_uid == "uid-1");
  remove.dry_run = true;
  client.remove_collection(kind, list, remove);
  CHECK(inner->last_delete.dry_run);

  CHECK(inner->calls == std::vector<std::string>{"create gizmos ns/a", "get gizmos ns/a", "list gizmos ns",
                                                 "update gizmos ns/a", "update_status gizmos ns/a",
                                                 "patch status gizmos ns/a", "watch gizmos ns", "remove gizmos ns/a",
                                                 "remove_collection gizmos ns"});
}

TEST_CASE("A decorator over ForwardingClient overrides only the verbs it changes") {
  FakeClient inner;
  Hiding client(inner);
  client.create(gizmo("ns", "a"));
  client.create(gizmo("ns", "b"));
  client.hidden = {"b"};

  CHECK(client.try_get<Gizmo>({"ns", "a"}).has_value());
  CHECK_FALSE(client.try_get<Gizmo>({"ns", "b"}).has_value());       // the override
  CHECK(client.list<Gizmo>().size() == 2);                            // forwarded
  CHECK(inner.calls == std::vector<std::string>{"create gizmos ns/a", "create gizmos ns/b", "get gizmos ns/a",
                                                "list gizmos "});
}

TEST_CASE("ForwardingClient: a null inner client is refused; one given by reference is not owned") {
  CHECK_THROWS_AS(rr::ForwardingClient(std::shared_ptr<rr::Client>{}), std::invalid_argument);

  FakeClient inner;
  rr::ForwardingClient client(inner);
  CHECK(client.inner().get() == &inner);
  CHECK(client.inner().use_count() == 0);
}
