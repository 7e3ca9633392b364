// RFC 7386 JSON Merge Patch: the RFC's examples, and create_merge_patch.
#include <doctest/doctest.h>

#include "rr/client/patch.hpp"

namespace {

using rr::Json;

struct MergeCase {
  const char* target;
  const char* patch;
  const char* result;
};

}  // namespace

TEST_CASE("apply_merge_patch: RFC 7386 appendix A") {
  const MergeCase cases[] = {
      {R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
      {R"({"a":"b"})", R"({"a":null})", R"({})"},
      {R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
      {R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
      {R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
      {R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})", R"({"a":{"b":"d"}})"},
      {R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
      {R"(["a","b"])", R"(["c","d"])", R"(["c","d"])"},
      {R"({"a":"b"})", R"(["c"])", R"(["c"])"},
      {R"({"a":"foo"})", R"(null)", R"(null)"},
      {R"({"a":"foo"})", R"("bar")", R"("bar")"},
      {R"({"e":null})", R"({"a":1})", R"({"e":null,"a":1})"},
      {R"([1,2])", R"({"a":"b","c":null})", R"({"a":"b"})"},
      {R"({})", R"({"a":{"bb":{"ccc":null}}})", R"({"a":{"bb":{}}})"},
  };
  for (const MergeCase& c : cases) {
    CAPTURE(c.target);
    CAPTURE(c.patch);
    CHECK(rr::apply_merge_patch(Json::parse(c.target), Json::parse(c.patch)) == Json::parse(c.result));
  }
}

TEST_CASE("apply_merge_patch: RFC 7386 section 3 example") {
  const Json target = Json::parse(R"({
    "title": "Goodbye!",
    "author": {"givenName": "John", "familyName": "Doe"},
    "tags": ["example", "sample"],
    "content": "This will be unchanged"
  })");
  const Json patch = Json::parse(R"({
    "title": "Hello!",
    "phoneNumber": "+01-123-456-7890",
    "author": {"familyName": null},
    "tags": ["example"]
  })");
  const Json expected = Json::parse(R"({
    "title": "Hello!",
    "author": {"givenName": "John"},
    "tags": ["example"],
    "content": "This will be unchanged",
    "phoneNumber": "+01-123-456-7890"
  })");
  const Json before = target;
  CHECK(rr::apply_merge_patch(target, patch) == expected);
  CHECK(target == before);  // the input is not modified
}

TEST_CASE("apply_merge_patch: nulls inside arrays and replaced values are kept") {
  CHECK(rr::apply_merge_patch(Json::parse(R"({"a":1})"), Json::parse(R"({"a":[null,{"b":null}]})")) ==
        Json::parse(R"({"a":[null,{"b":null}]})"));
  CHECK(rr::apply_merge_patch(Json::parse(R"({"a":{"b":1}})"), Json::parse(R"({"a":{"b":{"c":null,"d":2}}})")) ==
        Json::parse(R"({"a":{"b":{"d":2}}})"));
  CHECK(rr::apply_merge_patch(Json::parse(R"({"a":1})"), Json::parse("{}")) == Json::parse(R"({"a":1})"));
  CHECK(rr::apply_merge_patch(Json::parse("3"), Json::parse("{}")) == Json::parse("{}"));
}

TEST_CASE("create_merge_patch: smallest patch, nulls for removed members") {
  const MergeCase cases[] = {
      // from, to, expected patch
      {R"({"a":1})", R"({"a":1})", R"({})"},
      {R"({"a":1})", R"({"a":2})", R"({"a":2})"},
      {R"({"a":1,"b":2})", R"({"b":2})", R"({"a":null})"},
      {R"({})", R"({"x":{"y":[1]}})", R"({"x":{"y":[1]}})"},
      {R"({"m":{"a":1,"b":2}})", R"({"m":{"a":1,"b":3,"c":4}})", R"({"m":{"b":3,"c":4}})"},
      {R"({"m":{"a":1}})", R"({"m":{}})", R"({"m":{"a":null}})"},
      {R"({"m":{"a":1}})", R"({"m":[1]})", R"({"m":[1]})"},
      {R"({"m":[1,2]})", R"({"m":[1,3]})", R"({"m":[1,3]})"},
      {R"({"m":"s"})", R"({"m":{"k":"v"}})", R"({"m":{"k":"v"}})"},
      {R"([1])", R"([2])", R"([2])"},
      {R"("x")", R"({"a":1})", R"({"a":1})"},
      {R"({"a":1})", R"(7)", R"(7)"},
      {R"({"a":1})", R"({"a":1.0})", R"({})"},  // numerically equal
  };
  for (const MergeCase& c : cases) {
    CAPTURE(c.target);
    CAPTURE(c.patch);
    const Json from = Json::parse(c.target);
    const Json to = Json::parse(c.patch);
    const Json patch = rr::create_merge_patch(from, to);
    CHECK(patch == Json::parse(c.result));
    CHECK(rr::apply_merge_patch(from, patch) == to);
  }
}

TEST_CASE("create_merge_patch: serialises with sorted keys") {
  const Json patch = rr::create_merge_patch(Json::parse(R"({"z":1,"a":1,"m":1})"), Json::parse(R"({"z":2,"b":1})"));
  CHECK(patch.dump() == R"({"a":null,"b":1,"m":null,"z":2})");
}
