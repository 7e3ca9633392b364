#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/reconcilers/context.hpp"

namespace {
rr::Context make_context() { return rr::Context(rr::ContextOptions{}); }
}  // namespace

TEST_CASE("Stash: store, has, find, clear") {
  rr::Stash stash;
  CHECK_FALSE(stash.has("k"));
  CHECK(stash.find("k") == nullptr);
  stash.store("k", std::string("v"));
  CHECK(stash.has("k"));
  REQUIRE(stash.find("k") != nullptr);
  CHECK(std::any_cast<std::string>(*stash.find("k")) == "v");

  std::any previous = stash.clear("k");
  CHECK(std::any_cast<std::string>(previous) == "v");
  CHECK_FALSE(stash.has("k"));
  CHECK_FALSE(stash.clear("k").has_value());
  CHECK(stash.values().empty());
}

TEST_CASE("Stasher: typed access, missing vs wrong type") {
  rr::Context ctx = make_context();
  const rr::Stasher<std::vector<int>> numbers("test:numbers");
  CHECK(numbers.key() == "test:numbers");

  CHECK_FALSE(numbers.has(ctx));
  CHECK_FALSE(numbers.retrieve(ctx).has_value());
  CHECK(numbers.retrieve_or_empty(ctx).empty());
  CHECK_THROWS_WITH_AS(numbers.retrieve_or_die(ctx), "stash: no value for key \"test:numbers\"", rr::StashError);

  numbers.store(ctx, {1, 2});
  CHECK(numbers.has(ctx));
  CHECK(numbers.retrieve(ctx) == std::vector<int>{1, 2});
  numbers.retrieve_or_die(ctx).push_back(3);  // a reference into the stash
  CHECK(numbers.retrieve_or_empty(ctx) == std::vector<int>{1, 2, 3});

  numbers.clear(ctx);
  CHECK_FALSE(numbers.has(ctx));

  ctx.stash().store("test:numbers", std::string("not numbers"));
  CHECK_THROWS_AS(numbers.retrieve(ctx), rr::StashError);
  CHECK_THROWS_WITH(numbers.retrieve_or_die(ctx), "stash: value for key \"test:numbers\" holds another type");
}
