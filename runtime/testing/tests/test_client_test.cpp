#include "rr/testing/test_client.hpp"

#include <doctest/doctest.h>

#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"
#include "rrtest/v1/test_child.hpp"
#include "rrtest/v1/test_resource.hpp"

using rr::testing::Action;
using rr::testing::Reaction;
using rr::testing::TestClient;
using rrtest::v1::TestChild;
using rrtest::v1::TestResource;

namespace {

std::shared_ptr<rr::Cluster> new_cluster() {
  rr::ClusterOptions options;
  options.clock = [] { return std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000)); };
  return std::make_shared<rr::Cluster>(std::move(options));
}

TestChild client_child(std::string name) {
  TestChild c;
  c.metadata.namespace_ = "ns";
  c.metadata.name = std::move(name);
  return c;
}

TestResource resource() {
  TestResource r;
  r.metadata.namespace_ = "ns";
  r.metadata.name = "r";
  r.spec.emplace().image = "a";
  return r;
}

}  // namespace

TEST_CASE("TestClient records a create as submitted: before the reactors and before generateName") {
  TestClient client(new_cluster(), {.reactors = {{"create", "*", [](Action& a) {
                                                    (*a.object)["metadata"]["labels"]["touched"] = "yes";
                                                    return Reaction::pass();
                                                  }}}});
  TestChild submitted = client_child("");
  submitted.metadata.generate_name = "child-";

  TestChild first = client.create(submitted);
  TestChild second = client.create(submitted);

  CHECK(first.metadata.name == "child-001");
  CHECK(second.metadata.name == "child-002");
  CHECK(first.metadata.labels.at("touched") == "yes");
  REQUIRE(client.creates().size() == 2);
  CHECK(client.creates()[0] == rr::to_object_json(submitted));
}

TEST_CASE("TestClient: gets and lists only meet the reactors; a list carries the list kind") {
  std::vector<std::string> seen;
  TestClient client(new_cluster(), {.reactors = {{"*", "*", [&seen](Action& a) {
                                                    seen.push_back(a.verb + " " + a.kind);
                                                    return Reaction::pass();
                                                  }}}});
  client.add_given(client_child("c"));
  CHECK(client.get<TestChild>("ns", "c").metadata.name == "c");
  rr::ListOptions in_ns;
  in_ns.namespace_ = "ns";
  CHECK(client.list<TestChild>(in_ns).size() == 1);
  CHECK(seen == std::vector<std::string>{"get TestChild", "list TestChildList"});
  CHECK(client.creates().empty());
  CHECK(client.updates().empty());
}

TEST_CASE("TestClient: a reactor error carrying a Status is an ApiError, any other a plain exception") {
  TestClient client(
      new_cluster(),
      {.reactors = {rr::testing::induce_failure(
                        "get", "TestChild",
                        {.error = rr::Error::api(rr::api_errors::not_found("testchildren", "testing.rrgen.dev", "c"))}),
                    rr::testing::induce_failure("delete", "TestChild")}});
  client.add_given(client_child("c"));
  CHECK_FALSE(client.try_get<TestChild>({"ns", "c"}).has_value());
  CHECK_THROWS_WITH_AS(client.remove(client_child("c")), "inducing failure for delete TestChild", std::runtime_error);
  CHECK(client.deletes().size() == 1);  // recorded although it failed
}

TEST_CASE("TestClient: a reactor can answer a call without the store (Q11)") {
  TestChild ghost = client_child("ghost");
  ghost.data = std::map<std::string, std::string>{{"k", "v"}};
  TestClient client(
      new_cluster(),
      {.reactors = {{"get", "TestChild", [ghost](Action&) { return Reaction::respond(rr::to_object_json(ghost)); }},
                    {"create", "TestChild", [](Action& a) { return Reaction::respond(*a.object); }}}});
  CHECK(client.get<TestChild>("ns", "ghost").data == ghost.data);
  client.create(client_child("made"));
  CHECK(client.creates().size() == 1);
  CHECK_THROWS_AS(client.cluster()->get(rr::kind_info_of<TestChild>(), {"ns", "made"}), rr::ApiError);
}

TEST_CASE("TestClient records status updates, patches, deletes and collection deletes apart") {
  TestClient client(new_cluster());
  client.add_given(resource());
  TestResource stored = client.get<TestResource>("ns", "r");
  stored.status.emplace().latest_image = "img";

  client.update_status(stored);
  client.patch<TestResource>({"ns", "r"}, rr::PatchType::Merge, R"({"metadata":{"labels":{"a":"b"}}})");
  client.patch<TestResource>({"ns", "r"}, rr::PatchType::Merge, R"({"status":{"latestImage":"x"}})", "status");
  client.remove(stored);
  rr::ListOptions selected;
  selected.namespace_ = "ns";
  selected.label_selector = "b=2,a=1";
  client.remove_collection(rr::kind_info_of<TestChild>(), selected, {});

  REQUIRE(client.status_updates().size() == 1);
  CHECK(client.status_updates()[0] == rr::to_object_json(stored));
  CHECK(client.updates().empty());
  CHECK(client.patches() ==
        std::vector<rr::testing::PatchRef>{{"testing.rrgen.dev", "TestResource", "ns", "r", "", rr::PatchType::Merge,
                                            R"({"metadata":{"labels":{"a":"b"}}})"}});
  CHECK(client.status_patches() ==
        std::vector<rr::testing::PatchRef>{{"testing.rrgen.dev", "TestResource", "ns", "r", "status",
                                            rr::PatchType::Merge, R"({"status":{"latestImage":"x"}})"}});
  CHECK(client.deletes() == std::vector<rr::testing::DeleteRef>{{"testing.rrgen.dev", "TestResource", "ns", "r"}});
  CHECK(client.delete_collections() ==
        std::vector<rr::testing::DeleteCollectionRef>{{"testing.rrgen.dev", "TestChild", "ns", "a=1,b=2", ""}});
}

TEST_CASE("TestClient::add_given: resourceVersion 999 and creationTimestamp 1970-01-01T00:00:01Z by default") {
  TestClient client(new_cluster());
  TestChild own = client_child("own");
  own.metadata.resource_version = "42";
  own.metadata.creation_timestamp = rr::Time("2020-01-01T00:00:00Z");
  client.add_given(client_child("plain"));
  client.add_given(own);

  TestChild plain = client.get<TestChild>("ns", "plain");
  CHECK(plain.metadata.resource_version == "999");
  CHECK(plain.metadata.creation_timestamp.str() == "1970-01-01T00:00:01Z");
  TestChild kept = client.get<TestChild>("ns", "own");
  CHECK(kept.metadata.resource_version == "42");
  CHECK(kept.metadata.creation_timestamp.str() == "2020-01-01T00:00:00Z");
}

TEST_CASE("TestClient: status_subresource_types overrides each kind's own has_status") {
  TestClient defaults(new_cluster());
  defaults.register_kind(rr::kind_info_of<TestResource>());
  CHECK(defaults.cluster()->find_kind(rr::kind_info_of<TestResource>().gvk)->has_status);

  TestClient overridden(new_cluster(), {.status_subresource_types = std::vector<rr::GroupVersionKind>{}});
  overridden.add_given(resource());
  CHECK_FALSE(overridden.cluster()->find_kind(rr::kind_info_of<TestResource>().gvk)->has_status);
}
