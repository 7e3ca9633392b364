#include <doctest/doctest.h>

#include <stdexcept>

#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/terminal_error.hpp"

namespace {

rr::Status not_found_status() {
  rr::Status s;
  s.message = "testresources.testing.rrgen.dev \"missing\" not found";
  s.reason = "NotFound";
  s.code = 404;
  return s;
}

}  // namespace

TEST_CASE("Error: empty is success, make carries the message") {
  rr::Error ok;
  CHECK(ok.ok());
  CHECK_FALSE(ok);
  CHECK(ok.message().empty());

  rr::Error e = rr::Error::make("boom");
  CHECK(e);
  CHECK_FALSE(e.ok());
  CHECK(e.message() == "boom");
}

TEST_CASE("Error: wrap prefixes the message and keeps the wrapped error reachable") {
  const rr::Error inner = rr::Error::make("inner");
  const rr::Error outer = inner.wrap("outer");
  CHECK(outer.message() == "outer: inner");
  CHECK(outer.is(inner));
  CHECK_FALSE(inner.is(outer));
  CHECK(outer.wrap("top").message() == "top: outer: inner");
  CHECK(outer.wrap("top").is(inner));
  CHECK(rr::Error{}.wrap("nothing").ok());
}

TEST_CASE("Error: is() compares identity, not text") {
  const rr::Error a = rr::Error::make("same text");
  const rr::Error b = rr::Error::make("same text");
  CHECK(a.is(a));
  CHECK_FALSE(a.is(b));
  const rr::Error copy = a;
  CHECK(copy.same(a));
  CHECK(copy.is(a));
  CHECK(rr::Error{}.is(rr::Error{}));
  CHECK_FALSE(a.is(rr::Error{}));
}

TEST_CASE("Error: join drops empties, prints one message per line, is() searches every branch") {
  const rr::Error a = rr::Error::make("a");
  const rr::Error b = rr::Error::make("b");
  CHECK(rr::Error::join({}).ok());
  CHECK(rr::Error::join({rr::Error{}, rr::Error{}}).ok());
  CHECK(rr::Error::join({rr::Error{}, a}).same(a));

  const rr::Error joined = rr::Error::join({a, rr::Error{}, b.wrap("wrapped")});
  CHECK(joined.message() == "a\nwrapped: b");
  CHECK(joined.is(a));
  CHECK(joined.is(b));
  REQUIRE(joined.unwrap_joined().size() == 2);
  CHECK(joined.unwrap_joined()[0].same(a));
  CHECK(a.unwrap_joined().empty());
  CHECK(joined.wrap("outer").message() == "outer: a\nwrapped: b");
}

TEST_CASE("Error: API errors keep their Status through wrap and join") {
  const rr::Error api = rr::Error::api(not_found_status());
  CHECK(api.message() == "testresources.testing.rrgen.dev \"missing\" not found");
  CHECK(rr::is_not_found(api));
  CHECK_FALSE(rr::is_conflict(api));
  CHECK(rr::reason_of(api) == "NotFound");

  const rr::Error wrapped = rr::Error::join({rr::Error::make("first"), api.wrap("get")});
  REQUIRE(wrapped.status().has_value());
  CHECK(wrapped.status()->code == 404);
  CHECK(rr::is_not_found(wrapped));
  CHECK(rr::reason_of(rr::Error::make("plain")).empty());
  CHECK_FALSE(rr::is_not_found(rr::Error::make("plain")));
  CHECK_FALSE(rr::Error::make("plain").status().has_value());
}

TEST_CASE("Error: from exceptions") {
  SUBCASE("ApiError keeps its Status") {
    rr::Error e;
    try {
      throw rr::ApiError(not_found_status());
    } catch (...) {
      e = rr::Error::from_current_exception();
    }
    CHECK(rr::is_not_found(e));
    CHECK(e.status()->message == not_found_status().message);
  }
  SUBCASE("std::exception keeps what()") {
    rr::Error e;
    try {
      throw std::runtime_error("it broke");
    } catch (...) {
      e = rr::Error::from_current_exception();
    }
    CHECK(e.message() == "it broke");
    CHECK_FALSE(e.status().has_value());
  }
  SUBCASE("anything else gets a generic message") {
    rr::Error e;
    try {
      throw 42;
    } catch (...) {
      e = rr::Error::from_current_exception();
    }
    CHECK(e);
    CHECK(e.message() == "unknown exception");
  }
  SUBCASE("from() on a caught exception") {
    const rr::Error e = rr::Error::from(std::logic_error("logic"));
    CHECK(e.message() == "logic");
  }
  SUBCASE("outside a catch block it still answers an error") {
    CHECK(rr::Error::from_current_exception());
  }
}

TEST_CASE("Error: sentinels") {
  CHECK(rr::err_quiet().same(rr::err_quiet()));
  CHECK(rr::err_halt_sub_reconcilers().is(rr::err_quiet()));
  CHECK_FALSE(rr::err_quiet().is(rr::err_halt_sub_reconcilers()));
  CHECK(rr::err_halt_sub_reconcilers().message() ==
        "stop processing SubReconcilers, without returning an error: "
        "quiet errors are returned as errors, but not logged or recorded");
  CHECK_FALSE(rr::err_skip_status_update().is(rr::err_quiet()));

  CHECK(rr::err_durable().is(rr::err_quiet()));
  CHECK(rr::err_durable().is(rr::err_halt_sub_reconcilers()));
  CHECK(rr::err_durable().unwrap_joined().size() == 2);

  // A user error wrapping a sentinel is still recognised.
  const rr::Error user = rr::err_halt_sub_reconcilers().wrap("waiting for the image");
  CHECK(user.is(rr::err_halt_sub_reconcilers()));
  CHECK(user.is(rr::err_quiet()));
  CHECK_FALSE(user.is(rr::err_skip_status_update()));
}

TEST_CASE("terminal_error: marks the cause terminal and keeps its Status and sentinels reachable") {
  const rr::Error cause = rr::Error::api(rr::api_errors::invalid("widgets", "example.dev", "w", {}));
  const rr::Error terminal = rr::terminal_error(cause.wrap("validating"));
  CHECK(terminal.is(rr::err_terminal()));
  CHECK(rr::is_invalid(terminal));
  CHECK(terminal.message() == "terminal error\nvalidating: " + cause.message());
  CHECK(rr::terminal_error(rr::Error()).same(rr::err_terminal()));
  CHECK_FALSE(cause.is(rr::err_terminal()));
  CHECK(rr::terminal_error(rr::err_quiet()).is(rr::err_quiet()));
}
