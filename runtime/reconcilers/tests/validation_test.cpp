#include <doctest/doctest.h>

#include <string>

#include "rr/reconcilers/sub_reconciler.hpp"

namespace {

// A reconciler of int with a nested one, to walk validate_reconciler and SubReconciler handles.
struct Leaf {
  std::string name{};
  bool broken = false;
  rr::Outcome reconcile(rr::Context&, int& value) const {
    ++value;
    return {};
  }
  void validate(rr::Validation& v) const {
    if (broken) v.fail("Leaf must implement sync");
  }
  void setup(rr::Setup& s) const { s.owns(rr::KindInfo{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList"}); }
  std::string display_name() const { return name.empty() ? "Leaf" : name; }
};

struct Parent {
  std::string name{};
  rr::SubReconciler<int> child{};
  rr::Outcome reconcile(rr::Context& ctx, int& value) const { return child.reconcile(ctx, value); }
  void validate(rr::Validation& v) const {
    if (name.empty()) v.warn("no name");
    if (v.recursive()) child.validate(v);
  }
  void setup(rr::Setup& s) const { child.setup(s); }
  std::string display_name() const { return name.empty() ? "Parent" : name; }
};

}  // namespace

TEST_CASE("Validation: findings carry the dotted path") {
  rr::Validation v;
  v.fail("at the top");
  {
    auto outer = v.enter("Widget");
    {
      auto inner = v.enter("ChildImage");
      CHECK(v.path() == "Widget.ChildImage");
      v.fail("ChildReconciler must implement desired_child");
      v.warn("consider a name");
    }
    CHECK(v.path() == "Widget");
  }
  CHECK(v.path().empty());
  REQUIRE(v.errors().size() == 2);
  CHECK(v.errors()[0] == "at the top");
  CHECK(v.errors()[1] == "Widget.ChildImage: ChildReconciler must implement desired_child");
  REQUIRE(v.warnings().size() == 1);
  CHECK(v.warnings()[0] == "Widget.ChildImage: consider a name");
  CHECK_THROWS_WITH_AS(v.throw_if_failed(),
                       "at the top\nWidget.ChildImage: ChildReconciler must implement desired_child",
                       rr::ValidationError);
}

TEST_CASE("Validation: warnings alone do not fail") {
  rr::Validation v;
  v.warn("only a warning");
  CHECK_NOTHROW(v.throw_if_failed());
}

TEST_CASE("validate_reconciler walks nested reconcilers through SubReconciler handles") {
  CHECK_NOTHROW(rr::validate_reconciler(Parent{.name = "Top", .child = Leaf{}}));
  CHECK_THROWS_WITH_AS(rr::validate_reconciler(Parent{.name = "Top", .child = Leaf{.name = "Image", .broken = true}}),
                       "Top.Image: Leaf must implement sync", rr::ValidationError);

  rr::Validation shallow(false);
  Parent{.name = "Top", .child = Leaf{.broken = true}}.validate(shallow);
  CHECK(shallow.errors().empty());
}

TEST_CASE("SubReconciler: empty handle does nothing; a filled one forwards") {
  rr::Context ctx{rr::ContextOptions{}};
  int value = 0;
  rr::SubReconciler<int> empty;
  CHECK_FALSE(empty);
  CHECK(empty.reconcile(ctx, value).result.empty());
  CHECK(empty.display_name().empty());

  rr::SubReconciler<int> handle = Parent{.child = Leaf{}};
  CHECK(handle);
  CHECK(handle.display_name() == "Parent");
  handle.reconcile(ctx, value);
  CHECK(value == 1);
}

TEST_CASE("Setup: watches are deduplicated per kind and mode") {
  rr::Setup setup;
  const rr::KindInfo cm{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList"};
  Parent{.child = Leaf{}}.setup(setup);
  Parent{.child = Leaf{}}.setup(setup);
  setup.watches_tracked(cm);
  setup.for_kind(cm);
  setup.watches_tracked(cm);
  REQUIRE(setup.watches().size() == 3);
  CHECK(setup.watches()[0] == rr::WatchRequest{cm, rr::WatchRequest::Mode::Owns});
  CHECK(setup.watches()[1] == rr::WatchRequest{cm, rr::WatchRequest::Mode::Tracked});
  CHECK(setup.watches()[2] == rr::WatchRequest{cm, rr::WatchRequest::Mode::For});
}

TEST_CASE("call_hook turns exceptions into errors") {
  CHECK(rr::call_hook([]() -> rr::Error { return {}; }).ok());
  CHECK(rr::call_hook([]() -> rr::Error { return rr::Error::make("returned"); }).message() == "returned");
  CHECK(rr::call_hook([]() -> rr::Error { throw std::runtime_error("thrown"); }).message() == "thrown");
}
