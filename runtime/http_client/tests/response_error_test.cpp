#include <doctest/doctest.h>

#include "discovery.hpp"
#include "rate_limiter.hpp"
#include "response_error.hpp"
#include "transport.hpp"

using namespace rr::http_detail;

TEST_CASE("a Status body is the error, its code filled in from the answer when missing") {
  const rr::Status s = status_from_response(
      409,
      R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Conflict","message":"m",
          "details":{"name":"w","kind":"widgets","causes":[{"reason":"FieldManagerConflict","message":"c","field":".spec.x"}]}})",
      std::nullopt);
  CHECK(s.code == 409);
  CHECK(s.reason == "Conflict");
  CHECK(s.message == "m");
  CHECK(s.details_name == "w");
  REQUIRE(s.causes.size() == 1);
  CHECK(s.causes[0].type == "FieldManagerConflict");
  CHECK(rr::is_conflict(s));
}

TEST_CASE("a body that is not a Status: reason and wording from the code, as client-go") {
  rr::Status s = status_from_response(404, "<html>nope</html>", std::nullopt);
  CHECK(s.code == 404);
  CHECK(s.reason == "NotFound");
  CHECK(s.message == "the server could not find the requested resource");
  REQUIRE(s.causes.size() == 1);
  CHECK(s.causes[0].type == "UnexpectedServerResponse");
  CHECK(s.causes[0].message == "<html>nope</html>");
  CHECK(rr::is_not_found(s));

  s = status_from_response(502, "  bad gateway\n", std::nullopt);
  CHECK(s.reason == "InternalError");
  CHECK(s.message == "an error on the server (\"bad gateway\") has prevented the request from succeeding");

  s = status_from_response(429, "", 7);
  CHECK(s.reason == "TooManyRequests");
  CHECK(s.retry_after_seconds == 7);
  CHECK(s.causes.empty());

  s = status_from_response(500, R"({"kind":"Other"})", std::nullopt);
  CHECK(s.reason == "InternalError");
  CHECK(status_from_response(422, "", std::nullopt).reason == "Invalid");
  CHECK(status_from_response(503, "", std::nullopt).reason == "ServiceUnavailable");
  CHECK(status_from_response(504, "", std::nullopt).reason == "Timeout");
  CHECK(status_from_response(401, "", std::nullopt).reason == "Unauthorized");
  CHECK(status_from_response(410, "", std::nullopt).reason == "Gone");
  CHECK(rr::is_gone(status_from_response(410, "", std::nullopt)));
}

TEST_CASE("Retry-After and transport failures") {
  CHECK(parse_retry_after(" 3\r\n") == 3);
  CHECK(parse_retry_after("0") == 0);
  CHECK_FALSE(parse_retry_after("-1"));
  CHECK_FALSE(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"));
  const rr::Status s = transport_failure("GET", "https://h:1/api", "Couldn't connect to server");
  CHECK(s.code == 0);
  CHECK(s.reason == "ServiceUnavailable");
  CHECK(s.message == "GET \"https://h:1/api\": Couldn't connect to server");
  CHECK_FALSE(rr::is_not_found(s));
}

TEST_CASE("discovery: top-level resources become KindInfos, /status marks has_status") {
  const auto kinds = kinds_of_resource_list("example.dev", "v1", rr::Json::parse(R"({
    "kind":"APIResourceList","groupVersion":"example.dev/v1","resources":[
      {"name":"widgets","singularName":"widget","namespaced":true,"kind":"Widget","verbs":["get"]},
      {"name":"widgets/status","singularName":"","namespaced":true,"kind":"Widget","verbs":["get"]},
      {"name":"gadgets","singularName":"gadget","namespaced":false,"kind":"Gadget","verbs":["get"]}]})"));
  REQUIRE(kinds.size() == 2);
  CHECK(kinds[0] == rr::KindInfo{{"example.dev", "v1", "Widget"}, "widgets", "WidgetList", rr::Scope::Namespaced, true});
  CHECK(kinds[1] == rr::KindInfo{{"example.dev", "v1", "Gadget"}, "gadgets", "GadgetList", rr::Scope::Cluster, false});
  CHECK(kinds_of_resource_list("", "v1", rr::Json::object()).empty());
}

TEST_CASE("rate limiter: a burst, then one token per 1/qps") {
  RateLimiter limiter(10.0, 2);
  const auto t0 = RateLimiter::clock::now();
  CHECK(limiter.reserve(t0) == RateLimiter::clock::duration::zero());
  CHECK(limiter.reserve(t0) == RateLimiter::clock::duration::zero());
  const auto wait = limiter.reserve(t0);
  CHECK(wait > std::chrono::milliseconds(99));
  CHECK(wait < std::chrono::milliseconds(101));
  CHECK(limiter.reserve(t0) > std::chrono::milliseconds(199));  // waiters queue up
  // 1 s later the bucket is full again (capped at the burst).
  CHECK(limiter.reserve(t0 + std::chrono::seconds(1)) == RateLimiter::clock::duration::zero());

  RateLimiter off(0.0, 1);
  for (int i = 0; i < 100; ++i) CHECK(off.reserve(t0) == RateLimiter::clock::duration::zero());
}

TEST_CASE("Warning header values: code, agent, quoted text with escapes, optional date, several per line") {
  using V = std::vector<std::string>;
  CHECK(parse_warning_header(" 299 - \"unknown field \\\"spec.foo\\\"\"\r\n") == V{"unknown field \"spec.foo\""});
  CHECK(parse_warning_header("299 - \"a\" \"Wed, 21 Oct 2015 07:28:00 GMT\", 299 - \"b\"") == V{"a", "b"});
  CHECK(parse_warning_header("299 apiserver \"x\\\\y\"") == V{"x\\y"});
  CHECK(parse_warning_header("299 - \"unterminated").empty());
  CHECK(parse_warning_header("garbage").empty());
}
