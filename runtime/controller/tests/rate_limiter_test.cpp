// The rate limiters of client-go's DefaultControllerRateLimiter.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "test_util.hpp"

using namespace std::chrono_literals;
using rr::test::key;

TEST_CASE("rate limiter: item exponential failure doubles from 5 ms and caps at 1000 s") {
  auto limiter = rr::make_item_exponential_failure_rate_limiter(5ms, 1000s);
  std::chrono::nanoseconds expected = 5ms;
  for (int failure = 0; failure < 18; ++failure) {  // 5 ms · 2^17 = 655.36 s, the last below the cap
    CAPTURE(failure);
    CHECK(limiter->when(key("a")) == expected);
    expected *= 2;
  }
  for (int failure = 18; failure < 2000; ++failure) REQUIRE(limiter->when(key("a")) == 1000s);
  CHECK(limiter->num_requeues(key("a")) == 2000);
}

TEST_CASE("rate limiter: item exponential failure counts each key apart; forget resets one") {
  auto limiter = rr::make_item_exponential_failure_rate_limiter(5ms, 1000s);
  CHECK(limiter->when(key("a")) == 5ms);
  CHECK(limiter->when(key("a")) == 10ms);
  CHECK(limiter->when(key("b")) == 5ms);
  CHECK(limiter->num_requeues(key("a")) == 2);
  CHECK(limiter->num_requeues(key("b")) == 1);
  limiter->forget(key("a"));
  CHECK(limiter->num_requeues(key("a")) == 0);
  CHECK(limiter->when(key("a")) == 5ms);
  CHECK(limiter->when(key("b")) == 10ms);
}

TEST_CASE("rate limiter: bucket gives the burst at once, then one token per 1/qps") {
  rr::FakeClock clock;
  auto limiter = rr::make_bucket_rate_limiter(10, 100, clock);
  for (int i = 0; i < 100; ++i) REQUIRE(limiter->when(key(std::to_string(i).c_str())) == 0ms);
  CHECK(limiter->when(key("x")) == 100ms);
  CHECK(limiter->when(key("y")) == 200ms);
  CHECK(limiter->num_requeues(key("x")) == 0);
  clock.advance(1s);  // 10 tokens: the two borrowed, then 8 free
  for (int i = 0; i < 8; ++i) REQUIRE(limiter->when(key("z")) == 0ms);
  CHECK(limiter->when(key("z")) == 100ms);
  clock.advance(1h);  // refills to the burst, not beyond
  for (int i = 0; i < 100; ++i) REQUIRE(limiter->when(key("z")) == 0ms);
  CHECK(limiter->when(key("z")) == 100ms);
}

TEST_CASE("rate limiter: the default controller limiter is the larger of backoff and bucket") {
  rr::FakeClock clock;
  auto limiter = rr::make_default_controller_rate_limiter(clock);
  CHECK(limiter->when(key("a")) == 5ms);
  CHECK(limiter->when(key("a")) == 10ms);
  for (int i = 0; i < 98; ++i) REQUIRE(limiter->when(key(std::to_string(i).c_str())) == 5ms);
  // The bucket's burst of 100 is spent: a fresh key now waits for a token, longer than its backoff.
  CHECK(limiter->when(key("fresh")) == 100ms);
  CHECK(limiter->num_requeues(key("a")) == 2);
  limiter->forget(key("a"));
  CHECK(limiter->num_requeues(key("a")) == 0);
}
