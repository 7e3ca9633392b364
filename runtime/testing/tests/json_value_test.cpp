// rr::testing::JsonValue (the boxed document AnyObject and Reaction hold) and AnyObject over it.
#include "rr/testing/json_value.hpp"

#include <doctest/doctest.h>

#include "rr/core/json.hpp"
#include "rr/testing/any_object.hpp"
#include "rr/testing/reactor.hpp"
#include "rrtest/v1/test_child.hpp"

using rr::Json;
using rr::testing::AnyObject;
using rr::testing::JsonValue;

TEST_CASE("JsonValue: null by default, holds the document it is given") {
  CHECK(JsonValue().get().is_null());
  const JsonValue v(Json{{"a", 1}});
  CHECK(v.get() == Json{{"a", 1}});
}

TEST_CASE("JsonValue: copies are deep, assignment replaces the document") {
  JsonValue a(Json{{"a", 1}});
  JsonValue b = a;
  b.get()["a"] = 2;
  CHECK(a.get() == Json{{"a", 1}});
  CHECK(b.get() == Json{{"a", 2}});

  a = b;
  b.get()["a"] = 3;
  CHECK(a.get() == Json{{"a", 2}});
}

TEST_CASE("JsonValue: a moved-from value can be assigned to again") {
  JsonValue a(Json{{"a", 1}});
  JsonValue b = std::move(a);
  CHECK(b.get() == Json{{"a", 1}});
  a = JsonValue(Json{{"c", 3}});
  CHECK(a.get() == Json{{"c", 3}});
  JsonValue c(Json{{"d", 4}});
  JsonValue moved = std::move(c);
  c = moved;  // copy into the moved-from value
  CHECK(c.get() == Json{{"d", 4}});
}

TEST_CASE("AnyObject of a typed object holds its JSON document, its kind and its key; copies are independent") {
  rrtest::v1::TestChild child;
  child.metadata.namespace_ = "ns";
  child.metadata.name = "c";
  child.data = std::map<std::string, std::string>{{"k", "v"}};
  const AnyObject object(child);
  CHECK(object.json()["data"] == Json{{"k", "v"}});
  CHECK(object.json()["metadata"]["name"] == "c");
  CHECK(object.kind().gvk.kind == "TestChild");
  CHECK(object.key().name == "c");
  CHECK(object.as<rrtest::v1::TestChild>().data == child.data);

  AnyObject copy = object;
  copy.json()["data"]["k"] = "w";
  CHECK(object.json()["data"]["k"] == "v");
  CHECK(copy.json()["data"]["k"] == "w");
}

TEST_CASE("Reaction::respond holds the answer") {
  const auto reaction = rr::testing::Reaction::respond(Json{{"kind", "TestChild"}});
  CHECK(reaction.handled);
  REQUIRE(reaction.result.has_value());
  CHECK(reaction.result->get() == Json{{"kind", "TestChild"}});
  CHECK_FALSE(rr::testing::Reaction::stop().result.has_value());
}
