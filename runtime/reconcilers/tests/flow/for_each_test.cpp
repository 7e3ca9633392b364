#include <stdexcept>

#include <doctest/doctest.h>

#include "flow_support.hpp"
#include "rr/reconcilers/flow.hpp"
#include "rr/reconcilers/sequence.hpp"

using namespace flowtest;

namespace {
struct Container {
  std::string name;
  std::vector<std::string> mounts;
  bool operator==(const Container&) const = default;
};
struct Mount {
  std::string path;
  bool operator==(const Mount&) const = default;
};

std::vector<std::string> images_of(const TestResource& r) {
  std::vector<std::string> out;
  if (r.spec && r.spec->fields) {
    for (const auto& [k, v] : *r.spec->fields) out.push_back(v);
  }
  return out;
}

TestResource with_fields(std::map<std::string, std::string> fields) {
  TestResource r;
  r.spec.emplace();
  r.spec->fields = std::move(fields);
  return r;
}
}  // namespace

TEST_CASE("ForEach calls the reconciler per item with a cursor on the item") {
  std::vector<rr::Cursor<std::string>> seen;
  Step<> step;
  step.fn = [&](rr::Context& ctx, TestResource&) {
    seen.push_back(rr::cursor_stasher<std::string>().retrieve_or_die(ctx));
    return rr::Outcome{requeue_after(4s)};
  };
  rr::ForEach<TestResource, std::string> each{
      .items = [](rr::Context&, const TestResource& r) { return images_of(r); },
      .reconciler = step,
  };
  auto ctx = make_context();
  TestResource r = with_fields({{"a", "nginx"}, {"b", "redis"}});
  CHECK_FALSE(rr::retrieve_cursor<std::string>(ctx).has_value());
  rr::Outcome out = each.reconcile(ctx, r);
  CHECK(out.error.ok());
  CHECK(out.result.requeue_after == 4s);
  CHECK(seen == std::vector<rr::Cursor<std::string>>{{0, 2, "nginx"}, {1, 2, "redis"}});
  CHECK_FALSE(rr::retrieve_cursor<std::string>(ctx).has_value());  // gone once the loop ends
  CHECK(each.display_name() == "ForEach");
}

TEST_CASE("ForEach cursor keys name the item type") {
  const std::string key = rr::cursor_stasher<Mount>().key();
  CHECK(key.rfind("reconciler.io/runtime:cursor:", 0) == 0);
  CHECK(key.find("Mount") != std::string::npos);
  CHECK(rr::cursor_stasher<Mount>().key() != rr::cursor_stasher<Container>().key());
}

TEST_CASE("Nested ForEach over different item types sees both cursors") {
  std::vector<std::string> seen;
  Step<> step;
  step.fn = [&](rr::Context& ctx, TestResource&) {
    auto c = rr::retrieve_cursor<Container>(ctx);
    auto m = rr::retrieve_cursor<Mount>(ctx);
    seen.push_back(c->item.name + ":" + m->item.path + " " + std::to_string(m->index) + "/" + std::to_string(m->length));
    return rr::Outcome{};
  };
  rr::ForEach<TestResource, Container> containers{
      .items = [](rr::Context&, TestResource&) {
        return std::vector<Container>{{"app", {"/data", "/cache"}}, {"sidecar", {"/logs"}}};
      },
      .reconciler =
          rr::ForEach<TestResource, Mount>{
              .items =
                  [](rr::Context& ctx, TestResource&) {
                    std::vector<Mount> mounts;
                    for (const auto& p : rr::cursor_stasher<Container>().retrieve_or_die(ctx).item.mounts) mounts.push_back({p});
                    return mounts;
                  },
              .reconciler = step,
          },
  };
  auto ctx = make_context();
  TestResource r;
  CHECK(containers.reconcile(ctx, r).error.ok());
  CHECK(seen == std::vector<std::string>{"app:/data 0/2", "app:/cache 1/2", "sidecar:/logs 0/1"});
}

TEST_CASE("Nested ForEach over the same item type: the outer cursor comes back after the inner loop") {
  std::vector<std::string> seen;
  Step<> after_inner;
  after_inner.fn = [&](rr::Context& ctx, TestResource&) {
    seen.push_back("outer " + rr::retrieve_cursor<std::string>(ctx)->item);
    return rr::Outcome{};
  };
  Step<> in_inner;
  in_inner.fn = [&](rr::Context& ctx, TestResource&) {
    seen.push_back("inner " + rr::retrieve_cursor<std::string>(ctx)->item);
    return rr::Outcome{};
  };
  rr::ForEach<TestResource, std::string> inner{
      .items = [](rr::Context&, TestResource&) { return std::vector<std::string>{"x"}; },
      .reconciler = in_inner,
  };
  rr::ForEach<TestResource, std::string> outer{
      .items = [](rr::Context&, TestResource&) { return std::vector<std::string>{"a", "b"}; },
      .reconciler = rr::Sequence<TestResource>{inner, after_inner},
  };
  auto ctx = make_context();
  TestResource r;
  CHECK(outer.reconcile(ctx, r).error.ok());
  CHECK(seen == std::vector<std::string>{"inner x", "outer a", "inner x", "outer b"});
}

TEST_CASE("ForEach: the first error stops the loop and returns the results of the earlier iterations") {
  int calls = 0;
  Step<> step;
  step.fn = [&](rr::Context& ctx, TestResource&) {
    ++calls;
    if (rr::retrieve_cursor<std::string>(ctx)->index == 1) return rr::Outcome{requeue(), rr::Error::make("second failed")};
    return rr::Outcome{requeue_after(9s)};
  };
  rr::ForEach<TestResource, std::string> each{
      .items = [](rr::Context&, TestResource&) { return std::vector<std::string>{"a", "b", "c"}; },
      .reconciler = step,
  };
  auto ctx = make_context();
  TestResource r;
  rr::Outcome out = each.reconcile(ctx, r);
  CHECK(calls == 2);
  CHECK(out.error.message() == "second failed");
  CHECK(out.result == requeue_after(9s));  // the failing iteration's requeue is not in it
  CHECK_FALSE(rr::retrieve_cursor<std::string>(ctx).has_value());
}

TEST_CASE("ForEach: items that throw is the error, and the reconciler does not run") {
  std::vector<std::string> trace;
  rr::ForEach<TestResource, std::string> each{
      .items = [](rr::Context&, TestResource&) -> std::vector<std::string> { throw std::runtime_error("no items"); },
      .reconciler = traced(trace, "step"),
  };
  auto ctx = make_context();
  TestResource r;
  CHECK(each.reconcile(ctx, r).error.message() == "no items");
  CHECK(trace.empty());
}

TEST_CASE("ForEach validation and setup") {
  rr::ForEach<TestResource, int> empty{};
  CHECK(findings(empty) ==
        std::vector<std::string>{"ForEach: ForEach must implement items", "ForEach: ForEach must implement reconciler"});
  Step<> watching;
  watching.watches = child_kind();
  bool own_setup = false;
  rr::ForEach<TestResource, int> each{
      .on_setup = [&](rr::Setup&) { own_setup = true; },
      .items = [](rr::Context&, TestResource&) { return std::vector<int>{}; },
      .reconciler = watching,
  };
  CHECK(watches_of(each).size() == 1);
  CHECK(own_setup);
}
