// ChildSetReconciler: IDs, order, reflect, known children, finalizer (7.1 #17).
#include "rr/reconcilers/child_set.hpp"

#include <doctest/doctest.h>

#include "support.hpp"

using namespace coretest;

namespace {

void merge_child_set(TestChild& current, const TestChild& desired) {
  current.metadata.labels = desired.metadata.labels;
  current.spec = desired.spec;
}

std::string id_of(const TestChild& c) {
  auto it = c.metadata.labels.find("id");
  return it == c.metadata.labels.end() ? std::string() : it->second;
}

TestChild with_id(const TestResource& parent, const std::string& id, bool controlled = false) {
  TestChild c = make_child(parent, "child-" + id, "image:" + id, controlled);
  c.metadata.labels["id"] = id;
  c.spec->mode.reset();
  return c;
}

struct ChildSetFixture {
  Env env;
  TestResource parent = env.seed(make_resource());
  rr::Context ctx = env.context();
  std::vector<rr::ChildSetResult<TestChild>> reflected;

  rr::ChildSetReconciler<TestResource, TestChild> reconciler(std::vector<std::string> ids) {
    return {
        .desired_children = [ids](rr::Context&, const TestResource& p) -> rr::DesiredChildren<TestChild> {
          std::vector<TestChild> out;
          for (const auto& id : ids) out.push_back(with_id(p, id));
          return out;
        },
        .child_object_manager = rr::UpdatingObjectManager<TestChild>{.merge_before_update = merge_child_set},
        .reflect_children_status_on_parent =
            [this](rr::Context&, TestResource&, const rr::ChildSetResult<TestChild>& result) {
              reflected.push_back(result);
            },
        .identify_child = id_of,
    };
  }
  std::vector<std::string> reflected_ids() const {
    std::vector<std::string> out;
    for (const auto& c : reflected.at(0).children) out.push_back(c.id);
    return out;
  }
};

}  // namespace

TEST_CASE_FIXTURE(ChildSetFixture, "ChildSetReconciler: the sorted union of desired and known IDs") {
  env.seed(with_id(parent, "b", true));
  auto r = reconciler({"c", "a"});
  rr::Outcome out = r.reconcile(ctx, parent);
  REQUIRE_FALSE(out.error);
  CHECK(env.client->writes() ==
        std::vector<std::string>{"create TestChild child-a", "remove TestChild child-b", "create TestChild child-c"});
  REQUIRE(reflected.size() == 1);
  CHECK(reflected_ids() == std::vector<std::string>{"a", "b", "c"});
  const auto& children = reflected[0].children;
  CHECK(children[0].child->metadata.name == "child-a");
  CHECK_FALSE(children[1].child);  // deleted
  CHECK(children[2].child->spec->mode == "standard");
  CHECK_FALSE(reflected[0].aggregate_error());
  // Children get owner references.
  CHECK(rr::is_controlled_by(env.stored<TestChild>({std::string(test_namespace), "child-a"})->metadata, parent.metadata));
}

TEST_CASE_FIXTURE(ChildSetFixture,
                  "ChildSetReconciler: known children are listed once and stashed for desired_children") {
  env.seed(with_id(parent, "a", true));
  env.seed(with_id(parent, "z", false));  // not ours: not known
  auto r = reconciler({});
  std::optional<std::vector<TestChild>> seen;
  r.desired_children = [&](rr::Context& c, const TestResource&) -> rr::DesiredChildren<TestChild> {
    seen = rr::retrieve_known_children<TestChild>(c);
    return *seen;  // keep them as they are
  };
  REQUIRE_FALSE(r.reconcile(ctx, parent).error);
  REQUIRE(seen);
  REQUIRE(seen->size() == 1);
  CHECK(seen->at(0).metadata.name == "child-a");
  CHECK(env.client->calls_of("list").size() == 1);
  CHECK(env.client->writes().empty());  // in sync
  CHECK_FALSE(rr::retrieve_known_children<TestChild>(ctx));  // only for the call
}

TEST_CASE_FIXTURE(ChildSetFixture, "ChildSetReconciler: empty and duplicate IDs are errors, nothing reflected") {
  SUBCASE("empty") {
    auto r = reconciler({"a", ""});
    CHECK(r.reconcile(ctx, parent).error.message() == "desired child id may not be empty");
  }
  SUBCASE("duplicate") {
    auto r = reconciler({"a", "b", "a"});
    CHECK(r.reconcile(ctx, parent).error.message() == "duplicate child id found: a");
  }
  CHECK(env.client->writes().empty());
  CHECK(reflected.empty());
}

TEST_CASE_FIXTURE(ChildSetFixture, "ChildSetReconciler: reflect is always called, a child's error stops the rest") {
  auto r = reconciler({"a", "b", "c"});
  SUBCASE("a returned error") {
    env.client->fail("create", "TestChild", rr::api_errors::internal_error("boom"));
    rr::Outcome out = r.reconcile(ctx, parent);
    CHECK(rr::reason_of(out.error) == "InternalError");
    REQUIRE(reflected.size() == 1);
    CHECK(reflected[0].children.empty());
    CHECK(env.client->calls_of("create").size() == 1);  // a failed, b and c not tried
  }
  SUBCASE("a reflected error: recorded for its child, the others go on") {
    env.client->fail("create", "TestChild", rr::api_errors::forbidden("testchildren", "testing.rrgen.dev", "child-b", "quota"));
    rr::Outcome out = r.reconcile(ctx, parent);
    CHECK_FALSE(out.error);
    REQUIRE(reflected.size() == 1);
    CHECK(reflected_ids() == std::vector<std::string>{"a", "b", "c"});
    CHECK(rr::is_forbidden(reflected[0].aggregate_error()));
    CHECK(env.client->calls_of("create").size() == 3);
  }
  SUBCASE("a throwing reflect hook is joined with the outcome") {
    r.reflect_children_status_on_parent = [](rr::Context&, TestResource&, const rr::ChildSetResult<TestChild>&) {
      throw std::runtime_error("reflect failed");
    };
    CHECK(r.reconcile(ctx, parent).error.message() == "reflect failed");
  }
}

TEST_CASE_FIXTURE(ChildSetFixture, "ChildSetReconciler: err_only_reconcile_child_status applies to every child") {
  env.seed(with_id(parent, "a", true));
  auto r = reconciler({});
  r.desired_children = [](rr::Context&, const TestResource& p) -> rr::DesiredChildren<TestChild> {
    return {{with_id(p, "a"), with_id(p, "b")}, rr::err_only_reconcile_child_status()};
  };
  REQUIRE_FALSE(r.reconcile(ctx, parent).error);
  CHECK(env.client->writes().empty());
  CHECK(reflected_ids() == std::vector<std::string>{"a", "b"});
  CHECK(reflected[0].children[0].child->spec->image == "image:a");
  CHECK_FALSE(reflected[0].children[1].child);
}

TEST_CASE_FIXTURE(ChildSetFixture, "ChildSetReconciler: a finalizer implies skip_owner_reference") {
  auto r = reconciler({"a"});
  r.finalizer = "test.finalizer";
  r.our_child = [](const TestResource& p, const TestChild& c) { return c.metadata.labels.count("app") && c.metadata.labels.at("app") == p.metadata.name; };
  r.list_options = [](rr::Context&, const TestResource& p) {
    rr::ListOptions o;
    o.namespace_ = p.metadata.namespace_;
    return o;
  };
  r.child_object_manager = rr::UpdatingObjectManager<TestChild>{.track_desired = true,
                                                                .merge_before_update = merge_child_set};
  rr::Validation v;
  r.validate(v);
  CHECK(v.errors().empty());
  CHECK(v.warnings().empty());

  REQUIRE_FALSE(r.reconcile(ctx, parent).error);
  CHECK(env.client->writes() ==
        std::vector<std::string>{"patch TestResource test-resource", "create TestChild child-a"});
  CHECK(parent.metadata.finalizers == std::vector<std::string>{"test.finalizer"});
  CHECK(env.stored<TestChild>({std::string(test_namespace), "child-a"})->metadata.owner_references.empty());

  SUBCASE("terminating: children deleted, then the finalizer cleared") {
    parent = *env.stored<TestResource>(rr::key_of(parent));
    parent.metadata.deletion_timestamp = terminating_since();
    env.client->calls.clear();
    REQUIRE_FALSE(r.reconcile(ctx, parent).error);
    CHECK(env.client->writes() ==
          std::vector<std::string>{"remove TestChild child-a", "patch TestResource test-resource"});
    CHECK(parent.metadata.finalizers.empty());
  }
}

TEST_CASE("ChildSetReconciler: validation and setup") {
  rr::ChildSetReconciler<TestResource, TestChild> r{.skip_owner_reference = true};
  rr::Validation v;
  r.validate(v);
  const std::string self = "ChildSetReconciler \"TestChildChildSetReconciler\"";
  CHECK(v.errors() == std::vector<std::string>{self + " must implement desired_children",
                                               self + " must implement reflect_children_status_on_parent",
                                               self + " must implement identify_child",
                                               self + " must implement child_object_manager",
                                               self + " must implement our_child since owner references are not used",
                                               self + " must implement list_options since owner references are not used"});

  rr::ChildSetReconciler<TestResource, TestChild> owned{
      .child_object_manager = rr::UpdatingObjectManager<TestChild>{.merge_before_update = merge_child_set}};
  rr::Setup s;
  owned.setup(s);
  CHECK(s.watches() == std::vector<rr::WatchRequest>{{rr::kind_info_of<TestChild>(), rr::WatchRequest::Mode::Owns},
                                                     {rr::kind_info_of<TestChild>(), rr::WatchRequest::Mode::Tracked}});
}
