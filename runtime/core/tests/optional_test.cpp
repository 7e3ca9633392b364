#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "rr/core/codec.hpp"
#include "rr/core/optional.hpp"

namespace {

// Counts live instances, so a missed or doubled destructor shows.
struct Tracked {
  static inline int live = 0;
  std::string text;
  Tracked(std::string t = {}) : text(std::move(t)) { ++live; }  // NOLINT: implicit for the tests
  Tracked(const Tracked& o) : text(o.text) { ++live; }
  Tracked(Tracked&& o) noexcept : text(std::move(o.text)) { ++live; }
  Tracked& operator=(const Tracked&) = default;
  Tracked& operator=(Tracked&&) noexcept = default;
  ~Tracked() { --live; }
  bool operator==(const Tracked& o) const { return text == o.text; }
};

// Generated types are aggregates with rr::Optional members: designated initialisers must work.
struct Inner {
  rr::Optional<std::int32_t> replicas;
  rr::Optional<std::vector<std::string>> args;
  bool operator==(const Inner&) const = default;
};
struct Outer {
  std::string name;
  rr::Optional<Inner> spec;
  bool operator==(const Outer&) const = default;
};

std::optional<std::int32_t> takes_std(const std::optional<std::int32_t>& v) { return v; }

// A generated struct's shape: an aggregate that declares rr_special_member. The hook counts what
// rr::Optional asks of it, so a special member that bypasses the hook shows.
struct Hooked {
  Tracked value;
  static inline int calls[5] = {};
  static void rr_special_member(rr::SpecialMember op, Hooked* dst, Hooked* src);
  bool operator==(const Hooked&) const = default;
};
void Hooked::rr_special_member(rr::SpecialMember op, Hooked* dst, Hooked* src) {
  ++calls[static_cast<int>(op)];
  rr::special_member(op, dst, src);
}
int hook_calls(rr::SpecialMember op) { return std::exchange(Hooked::calls[static_cast<int>(op)], 0); }
struct HoldsHooked {
  rr::Optional<Hooked> inner;
};
static_assert(std::is_aggregate_v<Hooked> && std::is_aggregate_v<HoldsHooked>);
static_assert(std::is_nothrow_move_constructible_v<HoldsHooked> && std::is_nothrow_move_assignable_v<HoldsHooked>);

}  // namespace

TEST_CASE("rr::Optional: absent, present, and the accessors of std::optional") {
  rr::Optional<std::string> a;
  CHECK_FALSE(a.has_value());
  CHECK_FALSE(static_cast<bool>(a));
  CHECK(a == std::nullopt);
  CHECK(a.value_or("fallback") == "fallback");
  CHECK_THROWS_AS((void)a.value(), std::bad_optional_access);

  a = "text";
  REQUIRE(a.has_value());
  CHECK(*a == "text");
  CHECK(a->size() == 4);
  CHECK(a.value() == "text");
  CHECK(a == std::string("text"));
  CHECK(a != std::string("other"));
  CHECK(a.value_or("fallback") == "text");

  a.emplace(3, 'x');
  CHECK(*a == "xxx");
  a = std::nullopt;
  CHECK_FALSE(a.has_value());
  a.reset();
  CHECK_FALSE(a.has_value());

  const rr::Optional<std::int64_t> n = 5;
  CHECK(n == 5);
  CHECK(n != rr::Optional<std::int64_t>{});
  CHECK(rr::Optional<std::int64_t>{} == rr::Optional<std::int64_t>{});
  CHECK(n != rr::Optional<std::int64_t>{6});

  // `= {}` empties, as with std::optional (not a stored zero or empty string).
  rr::Optional<std::int64_t> z = 0;
  z = {};
  CHECK_FALSE(z.has_value());
  z = 0;
  CHECK(z == 0);
  rr::Optional<std::string> e = "x";
  e = {};
  CHECK_FALSE(e.has_value());
}

TEST_CASE("rr::Optional: copies, moves and destroys its value exactly once") {
  Tracked::live = 0;
  {
    rr::Optional<Tracked> a = Tracked("a");
    CHECK(Tracked::live == 1);
    rr::Optional<Tracked> b = a;
    CHECK(Tracked::live == 2);
    CHECK(b == a);
    rr::Optional<Tracked> c = std::move(b);
    CHECK(Tracked::live == 3);  // a moved-from value stays alive, as std::optional's does
    CHECK(c->text == "a");
    rr::Optional<Tracked> d;
    d = c;  // empty <- present: constructs
    CHECK(Tracked::live == 4);
    d = rr::Optional<Tracked>{};  // present <- empty: destroys
    CHECK(Tracked::live == 3);
    CHECK_FALSE(d.has_value());
    d = Tracked("d");
    c = d;  // present <- present: assigns
    CHECK(Tracked::live == 4);
    CHECK(c->text == "d");
    const rr::Optional<Tracked>& same = c;
    c = same;  // self-assignment keeps the value
    CHECK(c->text == "d");
    d.emplace("e");
    CHECK(Tracked::live == 4);
    CHECK(d->text == "e");
  }
  CHECK(Tracked::live == 0);
}

TEST_CASE("rr::Optional: a generated struct's copies, moves and destruction go through its hook") {
  using Op = rr::SpecialMember;
  Tracked::live = 0;
  {
    HoldsHooked a{.inner = Hooked{.value = Tracked("a")}};  // from a prvalue: moved in
    CHECK(hook_calls(Op::move_construct) == 1);
    HoldsHooked b = a;
    CHECK(hook_calls(Op::copy_construct) == 1);
    CHECK(b.inner->value.text == "a");
    HoldsHooked c = std::move(b);
    CHECK(hook_calls(Op::move_construct) == 1);
    c = a;  // present <- present
    CHECK(hook_calls(Op::copy_assign) == 1);
    c = std::move(a);
    CHECK(hook_calls(Op::move_assign) == 1);
    const Hooked h{.value = Tracked("h")};
    c.inner = h;  // assigning a value, copied
    CHECK(hook_calls(Op::copy_assign) == 1);
    CHECK(c.inner->value.text == "h");
    c.inner = Hooked{.value = Tracked("m")};  // and moved
    CHECK(hook_calls(Op::move_assign) == 1);
    c.inner.reset();
    CHECK(hook_calls(Op::destroy) == 1);
    c.inner = h;  // empty <- value: constructs
    CHECK(hook_calls(Op::copy_construct) == 1);
    c.inner.emplace(h);
    CHECK(hook_calls(Op::destroy) == 1);
    CHECK(hook_calls(Op::copy_construct) == 1);
    CHECK(c.inner == h);
    CHECK(Tracked::live == 4);  // a and b (moved from), c and h; the temporaries are gone
  }
  CHECK(hook_calls(Op::destroy) == 3);  // a, b and c held one each
  CHECK(Tracked::live == 0);
  for (int op = 0; op < 5; ++op) CHECK(Hooked::calls[op] == 0);
}

TEST_CASE("rr::Optional: converts from and to std::optional") {
  rr::Optional<std::int32_t> r = std::optional<std::int32_t>(7);
  CHECK(r == 7);
  r = std::optional<std::int32_t>();
  CHECK_FALSE(r.has_value());
  r = 9;
  const std::optional<std::int32_t> s = r;
  CHECK(s == 9);
  CHECK(takes_std(r) == 9);
  CHECK(r == std::optional<std::int32_t>(9));
  CHECK(r != std::optional<std::int32_t>());
  // A std::optional<bool> holding false converts as a present false, not as its truth value.
  rr::Optional<bool> f = std::optional<bool>(false);
  REQUIRE(f.has_value());
  CHECK_FALSE(*f);
  const std::optional<bool> back = f;
  REQUIRE(back.has_value());
  CHECK_FALSE(*back);
}

TEST_CASE("rr::Optional: aggregates holding it keep designated initialisers and defaulted ==") {
  const Outer o{.name = "web", .spec = {{.replicas = 3, .args = {{"--port", "80"}}}}};
  REQUIRE(o.spec.has_value());
  CHECK(o.spec->replicas == 3);
  REQUIRE(o.spec->args.has_value());
  CHECK(o.spec->args->size() == 2);
  const Outer p{.name = "web", .spec = Inner{.replicas = 3, .args = std::vector<std::string>{"--port", "80"}}};
  CHECK(o == p);
  Outer q = p;
  q.spec->replicas = std::nullopt;
  CHECK(q != p);
  CHECK(Outer{.name = "x", .spec = std::nullopt}.spec == std::nullopt);
}

TEST_CASE("rr::Optional: the JSON codec treats it as std::optional (absent, null, value)") {
  CHECK(rr::encode_text(rr::Optional<std::int64_t>(4)) == "4");
  CHECK(rr::encode_text(rr::Optional<std::int64_t>()) == "null");
  CHECK(rr::decode_text<rr::Optional<std::vector<std::string>>>(R"(["a","b"])") == std::vector<std::string>{"a", "b"});
  CHECK_FALSE(rr::decode_text<rr::Optional<std::string>>("null").has_value());
  rr::Optional<std::int32_t> d;
  rr::set_default(d, "12");
  CHECK(d == 12);
}
