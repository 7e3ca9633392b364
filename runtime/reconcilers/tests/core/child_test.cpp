// ChildReconciler: lookup, owner references, desired/none/only-status, reflected errors and the
// AlreadyExists handling, validation and setup.
#include "rr/reconcilers/child.hpp"

#include <doctest/doctest.h>

#include "support.hpp"

using namespace coretest;

namespace {

void merge_child(TestChild& current, const TestChild& desired) {
  current.metadata.labels = desired.metadata.labels;
  current.spec = desired.spec;
}

// What reflect_child_status_on_parent was called with.
struct Reflected {
  int calls = 0;
  std::optional<TestChild> child;
  rr::Error error;
};

using DesiredFn = std::function<rr::Desired<TestChild>(rr::Context&, const TestResource&)>;

rr::ChildReconciler<TestResource, TestChild> child_reconciler(Reflected& seen, DesiredFn desired) {
  return {
      .desired_child = std::move(desired),
      .child_object_manager = rr::UpdatingObjectManager<TestChild>{.merge_before_update = merge_child},
      .reflect_child_status_on_parent =
          [&seen](rr::Context&, TestResource& parent, const TestChild* child, const rr::Error& err) {
            ++seen.calls;
            seen.child = child ? std::optional<TestChild>(*child) : std::nullopt;
            seen.error = err;
            rr::ensure_status(parent).latest_image = child && child->spec ? child->spec->image : std::nullopt;
          },
  };
}

// The desired child "child" (image:2), without an owner reference: the reconciler sets it.
DesiredFn wants(std::string name = "child", std::string image = "image:2") {
  return [name, image](rr::Context&, const TestResource& parent) -> rr::Desired<TestChild> {
    TestChild c = make_child(parent, name, image, false);
    c.spec->mode.reset();
    return c;
  };
}

struct ChildFixture {
  Env env;
  TestResource parent = env.seed(make_resource());
  rr::Context ctx = env.context();
  Reflected seen;
};

}  // namespace

TEST_CASE_FIXTURE(ChildFixture, "ChildReconciler: creates the desired child with a controller reference (7.1 #12)") {
  auto r = child_reconciler(seen, wants());
  rr::Outcome out = r.reconcile(ctx, parent);
  REQUIRE_FALSE(out.error);
  CHECK(env.client->writes() == std::vector<std::string>{"create TestChild child"});
  const rr::Json sent = env.client->calls_of("create").at(0).body;
  REQUIRE(sent["metadata"]["ownerReferences"].size() == 1);
  const rr::Json ref = sent["metadata"]["ownerReferences"][0];
  CHECK(ref["apiVersion"] == "testing.rrgen.dev/v1");
  CHECK(ref["kind"] == "TestResource");
  CHECK(ref["name"] == "test-resource");
  CHECK(ref["uid"] == parent.metadata.uid);
  CHECK(ref["controller"] == true);
  CHECK(ref["blockOwnerDeletion"] == true);
  // Reflected as persisted.
  CHECK(seen.calls == 1);
  REQUIRE(seen.child);
  CHECK(seen.child->spec->mode == "standard");
  CHECK_FALSE(seen.error);
  CHECK(parent.status->latest_image == "image:2");
  CHECK(env.recorder->lines() == std::vector<std::string>{"Normal Created Created TestChild \"child\""});
}

TEST_CASE_FIXTURE(ChildFixture,
                  "ChildReconciler: lookup keeps children controlled by the parent's UID and our_child (7.1 #12)") {
  TestChild ours = env.seed(make_child(parent, "child", "image:1"));
  TestResource other_parent = parent;
  other_parent.metadata.uid = "another-uid";
  env.seed(make_child(other_parent, "foreign", "image:1"));
  env.seed(make_child(parent, "orphan", "image:1", false));

  SUBCASE("the controlled child is updated; the others are not touched") {
    auto r = child_reconciler(seen, wants());
    REQUIRE_FALSE(r.reconcile(ctx, parent).error);
    CHECK(env.client->writes() == std::vector<std::string>{"update TestChild child"});
    CHECK(env.stored<TestChild>({std::string(test_namespace), "child"})->spec->image == "image:2");
  }
  SUBCASE("our_child narrows the candidates further") {
    auto r = child_reconciler(seen, wants("second"));
    r.our_child = [](const TestResource&, const TestChild& c) { return c.metadata.name == "second"; };
    REQUIRE_FALSE(r.reconcile(ctx, parent).error);
    CHECK(env.client->writes() == std::vector<std::string>{"create TestChild second"});
  }
  SUBCASE("list_options choose where to look") {
    auto r = child_reconciler(seen, wants());
    r.list_options = [](rr::Context&, const TestResource&) {
      rr::ListOptions o;
      o.namespace_ = "elsewhere";
      return o;
    };
    rr::Outcome out = r.reconcile(ctx, parent);
    // Not seen there: a create, which finds ours in the way (a stale view), so it is retried.
    CHECK(rr::is_already_exists(out.error));
    CHECK(env.client->calls_of("list").at(0).key.namespace_ == "elsewhere");
    CHECK(seen.calls == 0);
  }
  SUBCASE("no child desired: ours is deleted, reflected as none") {
    auto r = child_reconciler(seen, [](rr::Context&, const TestResource&) -> rr::Desired<TestChild> { return std::nullopt; });
    REQUIRE_FALSE(r.reconcile(ctx, parent).error);
    CHECK(env.client->writes() == std::vector<std::string>{"remove TestChild child"});
    CHECK(seen.calls == 1);
    CHECK_FALSE(seen.child);
    CHECK_FALSE(seen.error);
  }
  SUBCASE("err_only_reconcile_child_status: nothing written, the existing child reflected") {
    auto r = child_reconciler(seen, [](rr::Context&, const TestResource&) -> rr::Desired<TestChild> {
      return rr::err_only_reconcile_child_status();
    });
    REQUIRE_FALSE(r.reconcile(ctx, parent).error);
    CHECK(env.client->writes().empty());
    REQUIRE(seen.child);
    CHECK(*seen.child == ours);
  }
}

TEST_CASE_FIXTURE(ChildFixture, "ChildReconciler: extra children are all deleted (7.1 #12)") {
  env.seed(make_child(parent, "a"));
  env.seed(make_child(parent, "b"));
  auto r = child_reconciler(seen, wants("c"));
  REQUIRE_FALSE(r.reconcile(ctx, parent).error);
  CHECK(env.client->writes() ==
        std::vector<std::string>{"remove TestChild a", "remove TestChild b", "create TestChild c"});
  CHECK(env.recorder->lines() == std::vector<std::string>{"Normal Deleted Deleted TestChild \"a\"",
                                                          "Normal Deleted Deleted TestChild \"b\"",
                                                          "Normal Created Created TestChild \"c\""});
}

TEST_CASE_FIXTURE(ChildFixture, "ChildReconciler: a terminating parent wants no child and reflects nothing") {
  env.seed(make_child(parent, "child"));
  parent.metadata.deletion_timestamp = terminating_since();
  bool asked = false;
  auto r = child_reconciler(seen, [&](rr::Context&, const TestResource&) -> rr::Desired<TestChild> {
    asked = true;
    return std::nullopt;
  });
  REQUIRE_FALSE(r.reconcile(ctx, parent).error);
  CHECK_FALSE(asked);
  CHECK(env.client->writes() == std::vector<std::string>{"remove TestChild child"});
  CHECK(seen.calls == 0);

  SUBCASE("errors are returned, not reflected") {
    env.seed(make_child(parent, "child"));
    env.client->fail("remove", "TestChild", rr::api_errors::forbidden("testchildren", "testing.rrgen.dev", "child", "no"));
    CHECK(rr::is_forbidden(r.reconcile(ctx, parent).error));
    CHECK(seen.calls == 0);
  }
}

TEST_CASE_FIXTURE(ChildFixture,
                  "ChildReconciler: AlreadyExists for someone else's object is reflected, tracked (7.1 #13)") {
  TestChild squatter = env.seed(make_child(parent, "child", "image:1", false));
  auto r = child_reconciler(seen, wants());
  rr::Outcome out = r.reconcile(ctx, parent);
  CHECK_FALSE(out.error);
  CHECK(seen.calls == 1);
  CHECK_FALSE(seen.child);
  CHECK(rr::is_already_exists(seen.error));
  // Read through the uncached reader to decide.
  CHECK(env.reader->calls_of("get", "TestChild").size() == 1);
  // Its deletion re-drives the parent.
  CHECK(env.tracker->get_observers(rr::to_object_json(squatter)) == std::vector<rr::ObjectKey>{rr::key_of(parent)});
  CHECK(env.recorder->lines().at(0).rfind("Warning CreationFailed Failed to create TestChild \"child\": ", 0) == 0);
}

TEST_CASE_FIXTURE(ChildFixture, "ChildReconciler: a squatter that cannot be read is foreign, and why is logged") {
  env.seed(make_child(parent, "child", "image:1", false));
  const std::string refused =
      "User \"system:serviceaccount:ns:sa\" cannot get resource \"testchildren\" in API group \"testing.rrgen.dev\"";
  env.reader->fail("get", "TestChild",
                   rr::api_errors::forbidden("testchildren", "testing.rrgen.dev", "child", refused));
  std::vector<rr::LogRecord> records;
  auto sink = std::make_shared<const rr::LogSink>([&](const rr::LogRecord& r) { records.push_back(r); });
  rr::Context logged(rr::ContextOptions{
      env.config(), rr::key_of(parent), rr::kind_info_of<TestResource>(), rr::Logger(sink), env.now, nullptr, {}});
  auto r = child_reconciler(seen, wants());
  CHECK_FALSE(r.reconcile(logged, parent).error);
  CHECK(rr::is_already_exists(seen.error));  // reported as someone else's
  int read_errors = 0;
  for (const auto& record : records) {
    if (record.message != "unable to read the conflicting child") continue;
    ++read_errors;
    CHECK(record.level == rr::LogLevel::Error);
    CHECK(record.error.find(refused) != std::string::npos);
  }
  CHECK(read_errors == 1);
}

TEST_CASE_FIXTURE(ChildFixture,
                  "ChildReconciler: AlreadyExists for our own child (a stale cache) is returned (7.1 #13)") {
  env.seed(make_child(parent, "child", "image:1"));
  env.client->hidden = {"child"};  // the cache has not seen our create yet; the reader has
  auto r = child_reconciler(seen, wants());
  rr::Outcome out = r.reconcile(ctx, parent);
  CHECK(rr::is_already_exists(out.error));
  CHECK(seen.calls == 0);
  CHECK(env.tracker->get_observers(rr::to_object_json(make_child(parent, "child"))).empty());
}

TEST_CASE_FIXTURE(ChildFixture, "ChildReconciler: reflected error reasons (7.1 #14)") {
  auto r = child_reconciler(seen, wants());

  SUBCASE("Invalid is reflected") {
    env.client->fail("create", "TestChild",
                     rr::api_errors::invalid("TestChild", "testing.rrgen.dev", "child",
                                             {rr::StatusCause{"FieldValueInvalid", "bad image", "spec.image"}}));
    CHECK_FALSE(r.reconcile(ctx, parent).error);
    CHECK(rr::is_invalid(seen.error));
  }
  SUBCASE("Forbidden is reflected") {
    env.client->fail("create", "TestChild", rr::api_errors::forbidden("testchildren", "testing.rrgen.dev", "child", "quota"));
    CHECK_FALSE(r.reconcile(ctx, parent).error);
    CHECK(rr::is_forbidden(seen.error));
  }
  SUBCASE("other errors are returned") {
    env.client->fail("create", "TestChild", rr::api_errors::internal_error("boom"));
    CHECK(rr::reason_of(r.reconcile(ctx, parent).error) == "InternalError");
    CHECK(seen.calls == 0);
  }
  SUBCASE("the list can be replaced") {
    r.reflected_child_error_reasons = std::vector<std::string>{"InternalError"};
    env.client->fail("create", "TestChild", rr::api_errors::internal_error("boom"));
    CHECK_FALSE(r.reconcile(ctx, parent).error);
    CHECK(seen.calls == 1);
    env.client->clear_failures();
    env.client->fail("create", "TestChild", rr::api_errors::forbidden("testchildren", "testing.rrgen.dev", "child", "q"));
    CHECK(rr::is_forbidden(r.reconcile(ctx, parent).error));
  }
  SUBCASE("a desired_child error is returned, and so is a thrown one") {
    auto failing = child_reconciler(seen, [](rr::Context&, const TestResource&) -> rr::Desired<TestChild> {
      return rr::Error::make("cannot decide");
    });
    CHECK(failing.reconcile(ctx, parent).error.message() == "cannot decide");
    auto throwing = child_reconciler(seen, [](rr::Context&, const TestResource&) -> rr::Desired<TestChild> {
      throw std::runtime_error("thrown");
    });
    CHECK(throwing.reconcile(ctx, parent).error.message() == "thrown");
    CHECK(seen.calls == 0);
  }
}

TEST_CASE_FIXTURE(ChildFixture, "ChildReconciler: a desired child controlled by someone else is AlreadyOwned (Q14)") {
  auto r = child_reconciler(seen, [](rr::Context&, const TestResource& p) -> rr::Desired<TestChild> {
    TestResource other = p;
    other.metadata.name = "other-parent";
    return make_child(other, "child");
  });
  rr::Outcome out = r.reconcile(ctx, parent);
  CHECK(out.error.message() == "Object test-namespace/child is already owned by another TestResource controller other-parent");
  CHECK(env.client->writes().empty());
}

TEST_CASE_FIXTURE(ChildFixture, "ChildReconciler: skip_owner_reference finds the child by our_child and list_options") {
  env.seed(make_child(parent, "child", "image:1", false));
  auto r = child_reconciler(seen, wants());
  r.skip_owner_reference = true;
  r.our_child = [](const TestResource& p, const TestChild& c) {
    auto it = c.metadata.labels.find("app");
    return it != c.metadata.labels.end() && it->second == p.metadata.name;
  };
  r.list_options = [](rr::Context&, const TestResource& p) {
    rr::ListOptions o;
    o.namespace_ = p.metadata.namespace_;
    o.label_selector = "app=" + p.metadata.name;
    return o;
  };
  REQUIRE_FALSE(r.reconcile(ctx, parent).error);
  CHECK(env.client->writes() == std::vector<std::string>{"update TestChild child"});
  CHECK(env.client->calls_of("update").at(0).body["metadata"].count("ownerReferences") == 0);
}

TEST_CASE("ChildReconciler: validation (Q17) and setup") {
  Reflected seen;
  SUBCASE("required hooks") {
    rr::ChildReconciler<TestResource, TestChild> r{.name = "Child"};
    rr::Validation v;
    r.validate(v);
    CHECK(v.errors() == std::vector<std::string>{"ChildReconciler \"Child\" must implement desired_child",
                                                 "ChildReconciler \"Child\" must implement reflect_child_status_on_parent",
                                                 "ChildReconciler \"Child\" must implement child_object_manager"});
    CHECK(r.display_name() == "Child");
    r.name.clear();
    CHECK(r.display_name() == "TestChildChildReconciler");
  }
  SUBCASE("the object manager is validated with it") {
    auto r = child_reconciler(seen, wants());
    r.child_object_manager = rr::UpdatingObjectManager<TestChild>{};
    rr::Validation v;
    r.validate(v);
    // Reported under the manager's name.
    CHECK(v.errors() == std::vector<std::string>{"TestChildUpdatingObjectManager: UpdatingObjectManager "
                                                 "\"TestChildUpdatingObjectManager\" must define merge_before_update"});
  }
  SUBCASE("skip_owner_reference needs our_child and list_options, and a tracking manager (warning)") {
    auto r = child_reconciler(seen, wants());
    r.skip_owner_reference = true;
    rr::Validation v;
    r.validate(v);
    CHECK(v.errors() == std::vector<std::string>{
                            "ChildReconciler \"TestChildChildReconciler\" must implement our_child since owner "
                            "references are not used",
                            "ChildReconciler \"TestChildChildReconciler\" must implement list_options since owner "
                            "references are not used"});
    REQUIRE(v.warnings().size() == 1);
    CHECK(v.warnings()[0].find("does not track the child") != std::string::npos);

    r.child_object_manager = rr::UpdatingObjectManager<TestChild>{.track_desired = true,
                                                                  .merge_before_update = merge_child};
    rr::Validation tracked;
    r.validate(tracked);
    CHECK(tracked.warnings().empty());
  }
  SUBCASE("setup: owns the child kind and tracks it; without owner references only the manager's watch") {
    auto r = child_reconciler(seen, wants());
    r.on_setup = [](rr::Setup& s) { s.watches_tracked(rr::kind_info_of<TestResourceNoStatus>()); };
    rr::Setup s;
    r.setup(s);
    CHECK(s.watches() == std::vector<rr::WatchRequest>{
                             {rr::kind_info_of<TestChild>(), rr::WatchRequest::Mode::Owns},
                             {rr::kind_info_of<TestChild>(), rr::WatchRequest::Mode::Tracked},
                             {rr::kind_info_of<TestResourceNoStatus>(), rr::WatchRequest::Mode::Tracked}});
    r.skip_owner_reference = true;
    r.on_setup = nullptr;
    r.child_object_manager = rr::UpdatingObjectManager<TestChild>{.track_desired = true,
                                                                  .merge_before_update = merge_child};
    rr::Setup skipped;
    r.setup(skipped);
    CHECK(skipped.watches() ==
          std::vector<rr::WatchRequest>{{rr::kind_info_of<TestChild>(), rr::WatchRequest::Mode::Tracked}});
  }
}
