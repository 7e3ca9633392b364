// RFC 6902 JSON Patch: the RFC's appendix A, RFC 6901 pointers, errors and atomicity.
#include <doctest/doctest.h>

#include <string>

#include "rr/client/patch.hpp"

namespace {

using rr::Json;

Json apply(const char* doc, const char* patch) { return rr::apply_json_patch(Json::parse(doc), Json::parse(patch)); }

std::string error_of(const char* doc, const char* patch) {
  try {
    (void)apply(doc, patch);
  } catch (const rr::PatchError& e) {
    return e.what();
  }
  return "no error";
}

struct PatchCase {
  const char* name;
  const char* doc;
  const char* patch;
  const char* result;
};

}  // namespace

TEST_CASE("apply_json_patch: RFC 6902 appendix A") {
  const PatchCase cases[] = {
      {"A.1 adding an object member", R"({"foo":"bar"})", R"([{"op":"add","path":"/baz","value":"qux"}])",
       R"({"baz":"qux","foo":"bar"})"},
      {"A.2 adding an array element", R"({"foo":["bar","baz"]})", R"([{"op":"add","path":"/foo/1","value":"qux"}])",
       R"({"foo":["bar","qux","baz"]})"},
      {"A.3 removing an object member", R"({"baz":"qux","foo":"bar"})", R"([{"op":"remove","path":"/baz"}])",
       R"({"foo":"bar"})"},
      {"A.4 removing an array element", R"({"foo":["bar","qux","baz"]})", R"([{"op":"remove","path":"/foo/1"}])",
       R"({"foo":["bar","baz"]})"},
      {"A.5 replacing a value", R"({"baz":"qux","foo":"bar"})", R"([{"op":"replace","path":"/baz","value":"boo"}])",
       R"({"baz":"boo","foo":"bar"})"},
      {"A.6 moving a value", R"({"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}})",
       R"([{"op":"move","from":"/foo/waldo","path":"/qux/thud"}])",
       R"({"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}})"},
      {"A.7 moving an array element", R"({"foo":["all","grass","cows","eat"]})",
       R"([{"op":"move","from":"/foo/1","path":"/foo/3"}])", R"({"foo":["all","cows","eat","grass"]})"},
      {"A.8 testing a value: success", R"({"baz":"qux","foo":["a",2,"c"]})",
       R"([{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}])",
       R"({"baz":"qux","foo":["a",2,"c"]})"},
      {"A.10 adding a nested member object", R"({"foo":"bar"})",
       R"([{"op":"add","path":"/child","value":{"grandchild":{}}}])", R"({"foo":"bar","child":{"grandchild":{}}})"},
      {"A.11 ignoring unrecognized elements", R"({"foo":"bar"})",
       R"([{"op":"add","path":"/baz","value":"qux","xyz":123}])", R"({"foo":"bar","baz":"qux"})"},
      {"A.14 ~ escape ordering", R"({"/":9,"~1":10})", R"([{"op":"test","path":"/~01","value":10}])",
       R"({"/":9,"~1":10})"},
      {"A.16 adding an array value", R"({"foo":["bar"]})", R"([{"op":"add","path":"/foo/-","value":["abc","def"]}])",
       R"({"foo":["bar",["abc","def"]]})"},
  };
  for (const PatchCase& c : cases) {
    CAPTURE(c.name);
    CHECK(apply(c.doc, c.patch) == Json::parse(c.result));
  }
}

TEST_CASE("apply_json_patch: RFC 6902 appendix A error cases") {
  // A.9 testing a value: error
  CHECK(error_of(R"({"baz":"qux"})", R"([{"op":"test","path":"/baz","value":"bar"}])") ==
        R"(JSON patch operation 0 (test /baz): test failed: "/baz" is "qux", not "bar")");
  // A.12 adding to a nonexistent target
  CHECK(error_of(R"({"foo":"bar"})", R"([{"op":"add","path":"/baz/bat","value":"qux"}])") ==
        R"(JSON patch operation 0 (add /baz/bat): path "/baz" does not exist)");
  // A.15 comparing strings and numbers
  CHECK(error_of(R"({"/":9,"~1":10})", R"([{"op":"test","path":"/~01","value":"10"}])") ==
        R"(JSON patch operation 0 (test /~01): test failed: "/~01" is 10, not "10")");
  // A.13 (duplicate "op" members) cannot be expressed: a parsed DOM keeps one member per name.
}

TEST_CASE("apply_json_patch: RFC 6901 pointer examples") {
  const char* doc = R"({"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8})";
  const std::pair<const char*, const char*> pointers[] = {
      {"", nullptr},    {"/foo", R"(["bar","baz"])"}, {"/foo/0", R"("bar")"}, {"/", "0"},   {"/a~1b", "1"},
      {"/c%d", "2"},    {"/e^f", "3"},                {"/g|h", "4"},          {"/i\\j", "5"}, {"/k\"l", "6"},
      {"/ ", "7"},      {"/m~0n", "8"},
  };
  for (const auto& row : pointers) {
    const auto& [pointer, value] = row;
    CAPTURE(row.first);  // clang 14 cannot capture a structured binding
    const Json whole = Json::parse(doc);
    Json op = {{"op", "test"}, {"path", pointer}, {"value", value ? Json::parse(value) : whole}};
    CHECK(rr::apply_json_patch(whole, Json::array({op})) == whole);
  }
}

TEST_CASE("apply_json_patch: each operation") {
  SUBCASE("add replaces an existing member and the whole document") {
    CHECK(apply(R"({"a":1})", R"([{"op":"add","path":"/a","value":2}])") == Json::parse(R"({"a":2})"));
    CHECK(apply(R"({"a":1})", R"([{"op":"add","path":"","value":[1]}])") == Json::parse("[1]"));
    CHECK(apply(R"({"a":[1,2]})", R"([{"op":"add","path":"/a/2","value":3}])") == Json::parse(R"({"a":[1,2,3]})"));
    CHECK(apply(R"({"a":[1,2]})", R"([{"op":"add","path":"/a/0","value":0}])") == Json::parse(R"({"a":[0,1,2]})"));
    CHECK(apply(R"({})", R"([{"op":"add","path":"/n","value":null}])") == Json::parse(R"({"n":null})"));
    CHECK(apply(R"({})", R"([{"op":"add","path":"/","value":1}])") == Json::parse(R"({"":1})"));
  }
  SUBCASE("remove") {
    CHECK(apply(R"({"a":{"b":[1,2,3]}})", R"([{"op":"remove","path":"/a/b/2"}])") == Json::parse(R"({"a":{"b":[1,2]}})"));
    CHECK(apply(R"({"a":null})", R"([{"op":"remove","path":"/a"}])") == Json::parse("{}"));
  }
  SUBCASE("replace") {
    CHECK(apply(R"({"a":[1,2]})", R"([{"op":"replace","path":"/a/1","value":{"x":1}}])") ==
          Json::parse(R"({"a":[1,{"x":1}]})"));
    CHECK(apply(R"({"a":1})", R"([{"op":"replace","path":"","value":"s"}])") == Json::parse(R"("s")"));
  }
  SUBCASE("move") {
    CHECK(apply(R"({"a":{"b":1}})", R"([{"op":"move","from":"/a/b","path":"/a"}])") == Json::parse(R"({"a":1})"));
    CHECK(apply(R"({"a":1})", R"([{"op":"move","from":"/a","path":"/a"}])") == Json::parse(R"({"a":1})"));
    CHECK(apply(R"({"a":[1,2,3]})", R"([{"op":"move","from":"/a/0","path":"/a/-"}])") ==
          Json::parse(R"({"a":[2,3,1]})"));
    CHECK(apply(R"({"a":1,"b":2})", R"([{"op":"move","from":"/a","path":"/b"}])") == Json::parse(R"({"b":1})"));
  }
  SUBCASE("copy") {
    CHECK(apply(R"({"a":{"x":[1]}})", R"([{"op":"copy","from":"/a","path":"/b"}])") ==
          Json::parse(R"({"a":{"x":[1]},"b":{"x":[1]}})"));
    CHECK(apply(R"({"a":[1,2]})", R"([{"op":"copy","from":"/a/1","path":"/a/0"}])") == Json::parse(R"({"a":[2,1,2]})"));
    CHECK(apply(R"({"a":{"b":1}})", R"([{"op":"copy","from":"/a","path":"/a/c"}])") ==
          Json::parse(R"({"a":{"b":1,"c":{"b":1}}})"));
  }
  SUBCASE("test compares numbers by value and documents deeply") {
    CHECK_NOTHROW(apply(R"({"a":1})", R"([{"op":"test","path":"/a","value":1.0}])"));
    CHECK_NOTHROW(apply(R"({"a":{"x":[1,{"y":null}]}})", R"([{"op":"test","path":"/a","value":{"x":[1,{"y":null}]}}])"));
    CHECK_NOTHROW(apply(R"({"a":null})", R"([{"op":"test","path":"/a","value":null}])"));
    CHECK_NOTHROW(apply(R"([1])", R"([{"op":"test","path":"","value":[1]}])"));
  }
  SUBCASE("an empty patch changes nothing") { CHECK(apply(R"({"a":1})", "[]") == Json::parse(R"({"a":1})")); }
}

TEST_CASE("apply_json_patch: malformed patches and failing operations") {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"op":"add"})", "a JSON patch must be an array of operations, not an object"},
      {R"(["add"])", "JSON patch operation 0: an operation must be an object, not a string"},
      {R"([{"path":"/a"}])", R"(JSON patch operation 0: "op" is missing)"},
      {R"([{"op":1,"path":"/a"}])", R"(JSON patch operation 0: "op" must be a string, not a number)"},
      {R"([{"op":"merge","path":"/a"}])",
       R"(JSON patch operation 0 (merge /a): unknown op "merge" (expected add, remove, replace, move, copy or test))"},
      {R"([{"op":"add","value":1}])", R"(JSON patch operation 0 (add): "path" is missing (required by "add"))"},
      {R"([{"op":"add","path":3,"value":1}])", R"(JSON patch operation 0 (add): "path" must be a string, not a number)"},
      {R"([{"op":"add","path":"/b"}])", R"(JSON patch operation 0 (add /b): "value" is missing (required by "add"))"},
      {R"([{"op":"replace","path":"/a"}])",
       R"(JSON patch operation 0 (replace /a): "value" is missing (required by "replace"))"},
      {R"([{"op":"test","path":"/a"}])", R"(JSON patch operation 0 (test /a): "value" is missing (required by "test"))"},
      {R"([{"op":"move","path":"/b"}])", R"(JSON patch operation 0 (move /b): "from" is missing (required by "move"))"},
      {R"([{"op":"copy","path":"/b","from":false}])",
       R"(JSON patch operation 0 (copy /b): "from" must be a string, not a boolean)"},
      {R"([{"op":"add","path":"a","value":1}])",
       R"(JSON patch operation 0 (add a): invalid JSON pointer "a": must be empty or start with '/')"},
      {R"([{"op":"add","path":"/a~2","value":1}])",
       R"(JSON patch operation 0 (add /a~2): invalid JSON pointer "/a~2": '~' at offset 2 must be followed by '0' or '1')"},
      {R"([{"op":"add","path":"/a~","value":1}])",
       R"(JSON patch operation 0 (add /a~): invalid JSON pointer "/a~": '~' at offset 2 must be followed by '0' or '1')"},
      {R"([{"op":"remove","path":"/missing"}])", R"(JSON patch operation 0 (remove /missing): path "/missing" does not exist)"},
      {R"([{"op":"replace","path":"/missing","value":1}])",
       R"(JSON patch operation 0 (replace /missing): path "/missing" does not exist)"},
      {R"([{"op":"test","path":"/missing","value":null}])",
       R"(JSON patch operation 0 (test /missing): path "/missing" does not exist)"},
      {R"([{"op":"remove","path":""}])", R"(JSON patch operation 0 (remove ""): cannot remove the whole document)"},
      {R"([{"op":"add","path":"/arr/01","value":1}])",
       R"(JSON patch operation 0 (add /arr/01): "01" is not an array index at "/arr/01")"},
      {R"([{"op":"add","path":"/arr/-1","value":1}])",
       R"(JSON patch operation 0 (add /arr/-1): "-1" is not an array index at "/arr/-1")"},
      {R"([{"op":"add","path":"/arr/x","value":1}])",
       R"(JSON patch operation 0 (add /arr/x): "x" is not an array index at "/arr/x")"},
      {R"([{"op":"add","path":"/arr/99999999999999999999999","value":1}])",
       R"(JSON patch operation 0 (add /arr/99999999999999999999999): "99999999999999999999999" is not an array index at "/arr/99999999999999999999999")"},
      {R"([{"op":"add","path":"/arr/3","value":1}])",
       R"(JSON patch operation 0 (add /arr/3): index 3 at "/arr/3" is out of range (the array has 2 elements))"},
      {R"([{"op":"remove","path":"/arr/2"}])",
       R"(JSON patch operation 0 (remove /arr/2): index 2 at "/arr/2" is out of range (the array has 2 elements))"},
      {R"([{"op":"remove","path":"/arr/-"}])",
       R"(JSON patch operation 0 (remove /arr/-): "-" at "/arr/-" names no existing element)"},
      {R"([{"op":"add","path":"/s/x","value":1}])",
       R"(JSON patch operation 0 (add /s/x): cannot add at "/s/x": "/s" is a string, not an object or array)"},
      {R"([{"op":"test","path":"/s/x","value":1}])",
       R"(JSON patch operation 0 (test /s/x): path "/s/x" does not exist ("/s" is a string, not an object or array))"},
      {R"([{"op":"move","from":"/obj","path":"/obj/inner"}])",
       R"(JSON patch operation 0 (move /obj/inner): cannot move "/obj" into its own child "/obj/inner")"},
      {R"([{"op":"move","from":"/missing","path":"/missing"}])",
       R"(JSON patch operation 0 (move /missing): path "/missing" does not exist)"},
      {R"([{"op":"copy","from":"/missing","path":"/b"}])",
       R"(JSON patch operation 0 (copy /b): path "/missing" does not exist)"},
      {R"([{"op":"add","path":"/ok","value":1},{"op":"remove","path":"/nope"}])",
       R"(JSON patch operation 1 (remove /nope): path "/nope" does not exist)"},
  };
  for (const auto& row : cases) {
    const auto& [patch, message] = row;
    CAPTURE(row.first);  // clang 14 cannot capture a structured binding
    CHECK(error_of(R"({"arr":[1,2],"s":"text","obj":{"k":1}})", patch) == message);
  }
}

TEST_CASE("apply_json_patch: atomic, the target is untouched when an operation fails") {
  const Json target = Json::parse(R"({"a":1,"list":[1,2]})");
  const Json before = target;
  const Json patch = Json::parse(R"([
    {"op":"replace","path":"/a","value":2},
    {"op":"add","path":"/list/-","value":3},
    {"op":"test","path":"/a","value":1}
  ])");
  CHECK_THROWS_AS(rr::apply_json_patch(target, patch), rr::PatchError);
  CHECK(target == before);
}

TEST_CASE("create_json_patch: deterministic operations") {
  struct Case {
    const char* from;
    const char* to;
    const char* patch;
  };
  const Case cases[] = {
      {R"({"a":1})", R"({"a":1})", "[]"},
      {R"({"a":1})", R"({"a":2})", R"([{"op":"replace","path":"/a","value":2}])"},
      {R"({"a":1,"c":3})", R"({"b":2,"c":3})",
       R"([{"op":"remove","path":"/a"},{"op":"add","path":"/b","value":2}])"},
      {R"({"x":{"a/b":1,"m~n":1}})", R"({"x":{}})",
       R"([{"op":"remove","path":"/x/a~1b"},{"op":"remove","path":"/x/m~0n"}])"},
      {R"({"l":[1,2,3]})", R"({"l":[1,5,3]})", R"([{"op":"replace","path":"/l/1","value":5}])"},
      {R"({"l":[1,2,3]})", R"({"l":[1,2]})", R"([{"op":"replace","path":"/l","value":[1,2]}])"},
      {R"({"l":[{"k":1}]})", R"({"l":[{"k":1,"v":2}]})", R"([{"op":"add","path":"/l/0/v","value":2}])"},
      {R"({"a":{"b":1}})", R"({"a":"s"})", R"([{"op":"replace","path":"/a","value":"s"}])"},
      {R"([1])", R"({"a":1})", R"([{"op":"replace","path":"","value":{"a":1}}])"},
      {R"({"a":null})", R"({"a":0})", R"([{"op":"replace","path":"/a","value":0}])"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.from);
    CAPTURE(c.to);
    const Json from = Json::parse(c.from);
    const Json to = Json::parse(c.to);
    const Json patch = rr::create_json_patch(from, to);
    CHECK(patch == Json::parse(c.patch));
    CHECK(rr::apply_json_patch(from, patch) == to);
  }
}
