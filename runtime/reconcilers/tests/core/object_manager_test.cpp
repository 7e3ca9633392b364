// UpdatingObjectManager: the create / update / delete table, events, finalizer, tracking and the
// mutation cache (Q3), called directly.
#include "rr/reconcilers/object_manager.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <stdexcept>

#include "support.hpp"

using namespace coretest;
using namespace std::chrono_literals;

namespace {

void merge_managed(TestChild& current, const TestChild& desired) {
  current.metadata.labels = desired.metadata.labels;
  current.spec = desired.spec;
}

rr::UpdatingObjectManager<TestChild> manager() { return {.merge_before_update = merge_managed}; }

// A desired child without the server-defaulted spec.mode.
TestChild desired_child(const TestResource& parent, std::string name, std::string image) {
  TestChild c = make_child(parent, std::move(name), std::move(image));
  c.spec->mode.reset();
  return c;
}

struct ObjectManagerFixture {
  Env env;
  TestResource parent = env.seed(make_resource());
  rr::Context ctx = env.context();
};

}  // namespace

TEST_CASE_FIXTURE(ObjectManagerFixture, "UpdatingObjectManager: absent and not desired → nothing, finalizer cleared") {
  auto m = manager();
  m.finalizer = "test.finalizer";
  SUBCASE("no finalizer to clear: no call") {
    rr::Managed<TestChild> out = m.manage(ctx, parent, nullptr, nullptr);
    CHECK_FALSE(out.error);
    CHECK_FALSE(out.object);
    CHECK(env.client->writes().empty());
  }
  SUBCASE("the finalizer is cleared from the parent") {
    parent.metadata.finalizers = {"test.finalizer"};
    env.seed(parent);
    parent = *env.stored<TestResource>(rr::key_of(parent));
    CHECK_FALSE(m.manage(ctx, parent, nullptr, nullptr).error);
    CHECK(env.client->writes() == std::vector<std::string>{"patch TestResource test-resource"});
    CHECK(parent.metadata.finalizers.empty());
    CHECK(env.stored<TestResource>(rr::key_of(parent))->metadata.finalizers.empty());
  }
}

TEST_CASE_FIXTURE(ObjectManagerFixture, "UpdatingObjectManager: exists and not desired → deleted") {
  auto m = manager();
  TestChild actual = env.seed(make_child(parent, "child"));

  SUBCASE("deleted, Normal Deleted on the parent") {
    rr::Managed<TestChild> out = m.manage(ctx, parent, &actual, nullptr);
    CHECK_FALSE(out.error);
    CHECK_FALSE(out.object);
    CHECK(env.client->writes() == std::vector<std::string>{"remove TestChild child"});
    CHECK_FALSE(env.stored<TestChild>(rr::key_of(actual)));
    REQUIRE(env.recorder->events.size() == 1);
    CHECK(env.recorder->lines()[0] == "Normal Deleted Deleted TestChild \"child\"");
    CHECK(env.recorder->events[0].regarding == rr::event_target_of(parent));
  }
  SUBCASE("a failed delete → Warning DeleteFailed and the error") {
    const rr::Status failure = rr::api_errors::internal_error("nope");
    env.client->fail("remove", "TestChild", failure);
    rr::Managed<TestChild> out = m.manage(ctx, parent, &actual, nullptr);
    CHECK(rr::reason_of(out.error) == "InternalError");
    CHECK(first_event(env) == "Warning DeleteFailed Failed to delete TestChild \"child\": " + rr::Error::api(failure).message());
  }
  SUBCASE("already terminating: left alone, the finalizer stays until it is gone") {
    parent.metadata.finalizers = {"test.finalizer"};
    env.seed(parent);
    parent = *env.stored<TestResource>(rr::key_of(parent));
    actual.metadata.deletion_timestamp = terminating_since();
    actual.metadata.finalizers = {"other"};
    m.finalizer = "test.finalizer";
    CHECK_FALSE(m.manage(ctx, parent, &actual, nullptr).error);
    CHECK(env.client->writes().empty());
    CHECK(parent.metadata.finalizers == std::vector<std::string>{"test.finalizer"});
  }
}

TEST_CASE_FIXTURE(ObjectManagerFixture,
                  "UpdatingObjectManager: desired and absent → created (finalizer first, tracked after)") {
  auto m = manager();
  m.finalizer = "test.finalizer";
  m.track_desired = true;
  TestChild desired = desired_child(parent, "", "image:1");
  desired.metadata.generate_name = "child-";

  rr::Managed<TestChild> out = m.manage(ctx, parent, nullptr, &desired);
  REQUIRE_FALSE(out.error);
  REQUIRE(out.object);
  CHECK(out.object->metadata.name == "child-001");
  CHECK(out.object->spec->mode == "standard");  // as persisted: the server's default included
  CHECK(env.client->writes() ==
        std::vector<std::string>{"patch TestResource test-resource", "create TestChild "});
  CHECK(parent.metadata.finalizers == std::vector<std::string>{"test.finalizer"});
  CHECK(env.recorder->lines() == std::vector<std::string>{"Normal FinalizerPatched Patched finalizer \"test.finalizer\"",
                                                          "Normal Created Created TestChild \"child-001\""});
  // Tracked under its generated name.
  CHECK(env.tracker->get_observers(rr::to_object_json(*out.object)) ==
        std::vector<rr::ObjectKey>{rr::key_of(parent)});
}

TEST_CASE_FIXTURE(ObjectManagerFixture, "UpdatingObjectManager: a failed create → Warning CreationFailed, no track") {
  auto m = manager();
  m.track_desired = true;
  TestChild desired = desired_child(parent, "child", "image:1");
  const rr::Status failure = rr::api_errors::forbidden("testchildren", "testing.rrgen.dev", "child", "quota");
  env.client->fail("create", "TestChild", failure);
  rr::Managed<TestChild> out = m.manage(ctx, parent, nullptr, &desired);
  CHECK(rr::is_forbidden(out.error));
  CHECK(first_event(env) ==
        "Warning CreationFailed Failed to create TestChild \"child\": " + rr::Error::api(failure).message());
  CHECK(env.tracker->get_observers(rr::to_object_json(desired)).empty());
}

TEST_CASE_FIXTURE(ObjectManagerFixture, "UpdatingObjectManager: no creationTimestamp means absent (Q18)") {
  auto m = manager();
  TestChild desired = desired_child(parent, "child", "image:1");
  TestChild not_created = desired;  // e.g. an empty object standing for "none found"
  rr::Managed<TestChild> out = m.manage(ctx, parent, &not_created, &desired);
  REQUIRE_FALSE(out.error);
  CHECK(env.client->writes() == std::vector<std::string>{"create TestChild child"});
  CHECK_FALSE(out.object->metadata.creation_timestamp.str().empty());
}

TEST_CASE_FIXTURE(ObjectManagerFixture, "UpdatingObjectManager: desired and existing → updated unless in sync") {
  auto m = manager();
  TestChild actual = env.seed(make_child(parent, "child", "image:1"));

  SUBCASE("in sync after the merge: no update, actual returned") {
    TestChild desired = make_child(parent, "child", "image:1");
    rr::Managed<TestChild> out = m.manage(ctx, parent, &actual, &desired);
    REQUIRE_FALSE(out.error);
    CHECK(out.object == actual);
    CHECK(env.client->writes().empty());
    CHECK(env.recorder->events.empty());
  }
  SUBCASE("different: updated, Normal Updated") {
    TestChild desired = make_child(parent, "child", "image:2");
    std::vector<std::string> order;
    m.harmonize_immutable_fields = [&](const TestChild& current, TestChild& d) {
      order.push_back("harmonize");
      d.metadata.labels["immutable"] = current.metadata.labels.at("app");
    };
    m.merge_before_update = [&](TestChild& current, const TestChild& d) {
      order.push_back("merge");
      merge_managed(current, d);
    };
    rr::Managed<TestChild> out = m.manage(ctx, parent, &actual, &desired);
    REQUIRE_FALSE(out.error);
    CHECK(order.front() == "harmonize");
    CHECK(out.object->spec->image == "image:2");
    CHECK(out.object->metadata.labels.at("immutable") == "test-resource");
    CHECK(out.object->metadata.resource_version != actual.metadata.resource_version);
    CHECK(env.client->writes() == std::vector<std::string>{"update TestChild child"});
    CHECK(env.recorder->lines() == std::vector<std::string>{"Normal Updated Updated TestChild \"child\""});
    CHECK(env.stored<TestChild>(rr::key_of(actual))->spec->image == "image:2");
  }
  SUBCASE("the finalizer is added before an update") {
    m.finalizer = "test.finalizer";
    TestChild desired = make_child(parent, "child", "image:2");
    REQUIRE_FALSE(m.manage(ctx, parent, &actual, &desired).error);
    CHECK(env.client->writes() ==
          std::vector<std::string>{"patch TestResource test-resource", "update TestChild child"});
    CHECK(env.stored<TestResource>(rr::key_of(parent))->metadata.finalizers ==
          std::vector<std::string>{"test.finalizer"});
  }
  SUBCASE("a failed update → Warning UpdateFailed") {
    TestChild desired = make_child(parent, "child", "image:2");
    const rr::Status failure = rr::api_errors::conflict("testchildren", "testing.rrgen.dev", "child", "modified");
    env.client->fail("update", "TestChild", failure);
    rr::Managed<TestChild> out = m.manage(ctx, parent, &actual, &desired);
    CHECK(rr::is_conflict(out.error));
    CHECK(first_event(env) == "Warning UpdateFailed Failed to update TestChild \"child\": " + rr::Error::api(failure).message());
  }
  SUBCASE("track_desired tracks before the update") {
    m.track_desired = true;
    TestChild desired = make_child(parent, "child", "image:1");
    CHECK_FALSE(m.manage(ctx, parent, &actual, &desired).error);
    CHECK(env.tracker->get_observers(rr::to_object_json(actual)) == std::vector<rr::ObjectKey>{rr::key_of(parent)});
  }
  SUBCASE("a throwing hook is an error, nothing written") {
    m.merge_before_update = [](TestChild&, const TestChild&) { throw std::runtime_error("bad merge"); };
    TestChild desired = make_child(parent, "child", "image:2");
    CHECK(m.manage(ctx, parent, &actual, &desired).error.message() == "bad merge");
    CHECK(env.client->writes().empty());
  }
}

TEST_CASE_FIXTURE(ObjectManagerFixture, "UpdatingObjectManager: the mutation cache absorbs server defaults (Q3)") {
  rr::ObjectManager<TestChild> m = manager();
  const TestChild desired = desired_child(parent, "child", "image:1");  // no spec.mode: the server defaults it

  rr::Managed<TestChild> created = m.manage(ctx, parent, nullptr, &desired);
  REQUIRE_FALSE(created.error);
  REQUIRE(created.object->spec->mode == "standard");

  // The create already taught the manager the server's defaults: the next manage with the same
  // desired object is in sync although the merge alone would drop spec.mode (no update churn).
  rr::Managed<TestChild> first = m.manage(ctx, parent, &*created.object, &desired);
  REQUIRE_FALSE(first.error);
  CHECK(env.client->calls_of("update").empty());
  CHECK(first.object == created.object);

  SUBCASE("the next manage is in sync: the default reads as desired") {
    rr::ObjectManager<TestChild> copy = m;  // copies share the cache
    rr::Managed<TestChild> second = copy.manage(ctx, parent, &*first.object, &desired);
    REQUIRE_FALSE(second.error);
    CHECK(env.client->calls_of("update").empty());
    CHECK(second.object == first.object);
  }
  SUBCASE("a real change still updates, and keeps the default") {
    TestChild changed = desired_child(parent, "child", "image:2");
    rr::Managed<TestChild> second = m.manage(ctx, parent, &*first.object, &changed);
    REQUIRE_FALSE(second.error);
    REQUIRE(env.client->calls_of("update").size() == 1);
    CHECK(env.client->calls_of("update").back().body["spec"] == rr::Json{{"image", "image:2"}, {"mode", "standard"}});
  }
  SUBCASE("another generation of the object: the patch is not applied") {
    TestChild moved = *first.object;
    moved.spec->image = "image:0";
    moved = env.client->update(moved);  // someone else changed the spec: generation + 1
    REQUIRE(moved.metadata.generation == first.object->metadata.generation + 1);
    CHECK_FALSE(m.manage(ctx, parent, &moved, &desired).error);
    CHECK(env.client->calls_of("update").size() == 2);
    CHECK(env.client->calls_of("update").back().body["spec"] == rr::Json{{"image", "image:1"}});
  }
  SUBCASE("an hour later the patch has expired") {
    env.now += 2h;
    rr::Context later = env.context();
    CHECK_FALSE(m.manage(later, parent, &*first.object, &desired).error);
    CHECK(env.client->calls_of("update").size() == 1);
  }
  SUBCASE("a patch that does not apply fails open") {
    TestChild no_spec = desired;
    no_spec.spec.reset();  // "add /spec/mode" has no parent to add to
    rr::Managed<TestChild> out = m.manage(ctx, parent, &*first.object, &no_spec);
    CHECK_FALSE(out.error);
    CHECK(env.client->calls_of("update").size() == 1);
  }
}

TEST_CASE_FIXTURE(ObjectManagerFixture, "UpdatingObjectManager: sanitize replaces the object in logs") {
  std::vector<rr::LogRecord> records;
  auto sink = std::make_shared<const rr::LogSink>([&](const rr::LogRecord& r) { records.push_back(r); });
  rr::Context logged(rr::ContextOptions{env.config(), rr::key_of(parent), rr::kind_info_of<TestResource>(),
                                        rr::Logger(sink), env.now, nullptr, {}});
  auto m = manager();
  m.sanitize = [](const TestChild& c) { return rr::Json{{"image", *c.spec->image}}; };
  TestChild desired = desired_child(parent, "child", "image:secret");
  REQUIRE_FALSE(m.manage(logged, parent, nullptr, &desired).error);
  bool found = false;
  for (const auto& r : records) {
    if (r.message != "creating resource") continue;
    found = true;
    REQUIRE(r.values.size() == 1);
    CHECK(r.values[0].second == R"({"image":"image:secret"})");
  }
  CHECK(found);
}

TEST_CASE("UpdatingObjectManager: a sanitizer is set by a callable, and not by an empty one") {
  rr::Sanitizer<TestChild> none;
  CHECK_FALSE(none);
  CHECK_FALSE(rr::Sanitizer<TestChild>(nullptr));
  // What a generated wiring hands over when the hooks lack the sanitize hook, or a user's unset
  // std::function: no sanitizer, so the whole object is logged.
  CHECK_FALSE(rr::Sanitizer<TestChild>(std::function<rr::Json(const TestChild&)>()));
  rr::Json (*no_function)(const TestChild&) = nullptr;
  CHECK_FALSE(rr::Sanitizer<TestChild>(no_function));
  const rr::Sanitizer<TestChild> name_only = std::function<rr::Json(const TestChild&)>([](const TestChild& c) {
    return rr::Json{{"name", c.metadata.name}};
  });
  REQUIRE(name_only);
  TestChild child;
  child.metadata.name = "c";
  CHECK(name_only(child) == R"({"name":"c"})");
  // A callable that throws: the exception reaches the caller (the manager's call_hook).
  const rr::Sanitizer<TestChild> throws = [](const TestChild&) -> rr::Json { throw std::runtime_error("boom"); };
  CHECK_THROWS_AS(throws(child), std::runtime_error);
}

TEST_CASE_FIXTURE(ObjectManagerFixture, "UpdatingObjectManager: a logger that discards gets no serialised object") {
  rr::Context quiet = env.context();
  REQUIRE_FALSE(quiet.log().enabled());
  auto m = manager();
  int sanitized = 0;
  m.sanitize = [&](const TestChild& c) {
    ++sanitized;
    return rr::Json{{"image", *c.spec->image}};
  };
  TestChild desired = desired_child(parent, "child", "image:1");
  rr::Managed<TestChild> created = m.manage(quiet, parent, nullptr, &desired);
  REQUIRE_FALSE(created.error);
  TestChild changed = desired_child(parent, "child", "image:2");
  REQUIRE_FALSE(m.manage(quiet, parent, &*created.object, &changed).error);
  CHECK(env.client->calls_of("create").size() == 1);
  CHECK(env.client->calls_of("update").size() == 1);
  CHECK(sanitized == 0);  // the create and the update were made, the object was not rendered for a log
}

TEST_CASE("UpdatingObjectManager: validation, setup and name") {
  rr::UpdatingObjectManager<TestChild> m;
  CHECK(m.display_name() == "TestChildUpdatingObjectManager");
  rr::Validation v;
  m.validate(v);
  CHECK(v.errors() ==
        std::vector<std::string>{"UpdatingObjectManager \"TestChildUpdatingObjectManager\" must define merge_before_update"});

  rr::Setup s;
  m.setup(s);
  CHECK(s.watches().empty());
  m.track_desired = true;
  rr::ObjectManager<TestChild> handle = m;
  CHECK(handle.tracks_desired());
  handle.setup(s);
  CHECK(s.watches() == std::vector<rr::WatchRequest>{{rr::kind_info_of<TestChild>(), rr::WatchRequest::Mode::Tracked}});
}
