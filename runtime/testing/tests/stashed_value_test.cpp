#include "rr/testing/stashed_value.hpp"

#include <doctest/doctest.h>

#include "rr/core/json.hpp"
#include "rrtest/v1/test_child.hpp"

using rr::testing::StashedValue;
using rrtest::v1::TestChild;

namespace {

struct Plain {  // no JSON conversion, only operator==
  int n = 0;
  bool operator==(const Plain&) const = default;
};

struct Opaque {  // neither: needs an equality of its own
  int n = 0;
};

TestChild child(std::string rv) {
  TestChild c;
  c.metadata.namespace_ = "ns";
  c.metadata.name = "c";
  c.metadata.resource_version = std::move(rv);
  return c;
}

}  // namespace

TEST_CASE("StashedValue::of an object compares like a create (resourceVersion ignored)") {
  StashedValue expected = StashedValue::of(child("1"));
  std::any same = child("2");
  CHECK(expected.compare(&same).empty());

  TestChild changed = child("2");
  changed.data = std::map<std::string, std::string>{{"k", "v"}};
  std::any different = changed;
  CHECK(expected.compare(&different) == R"(  data: -(absent) +{"k":"v"})");
}

TEST_CASE("StashedValue::of a JSON-able value compares as JSON") {
  StashedValue expected = StashedValue::of(std::vector<std::string>{"a", "b"});
  std::any actual = std::vector<std::string>{"a", "c"};
  CHECK(expected.compare(&actual) == R"(  [1]: -"b" +"c")");
  CHECK(expected.describe() == R"(["a","b"])");
}

TEST_CASE("StashedValue::of a value with operator== only") {
  StashedValue expected = StashedValue::of(Plain{1});
  std::any same = Plain{1};
  std::any other = Plain{2};
  CHECK(expected.compare(&same).empty());
  CHECK_FALSE(expected.compare(&other).empty());
}

TEST_CASE("StashedValue::of with an equality of its own") {
  StashedValue expected = StashedValue::of(Opaque{1}, [](const Opaque& a, const Opaque& b) { return a.n == b.n; });
  std::any same = Opaque{1};
  CHECK(expected.compare(&same).empty());
}

TEST_CASE("StashedValue: a missing key or another type is a difference") {
  StashedValue expected = StashedValue::of(42);
  std::any text = std::string("42");
  CHECK(expected.compare(nullptr) == "  -(a int) +(absent)");
  CHECK(expected.compare(&text).find("+(a std::") != std::string::npos);
}

TEST_CASE("StashedValue::absent expects the key not to be stashed") {
  StashedValue absent = StashedValue::absent();
  std::any something = 1;
  CHECK(absent.compare(nullptr).empty());
  CHECK(absent.compare(&something) == "  -(absent) +(a int)");
}

TEST_CASE("StashedValue::of a string literal stores a std::string") {
  StashedValue v = StashedValue::of("text");
  CHECK(std::any_cast<std::string>(&v.value()) != nullptr);
}
