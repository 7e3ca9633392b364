#include <doctest/doctest.h>

#include "rr/reconcilers/result.hpp"

using namespace std::chrono_literals;

TEST_CASE("aggregate_results: requeue is OR'ed") {
  CHECK_FALSE(rr::aggregate_results(rr::Result{}, rr::Result{}).requeue);
  CHECK(rr::aggregate_results(rr::Result{.requeue = true}, rr::Result{}).requeue);
  CHECK(rr::aggregate_results(rr::Result{}, rr::Result{.requeue = true}).requeue);
}

TEST_CASE("aggregate_results: requeue_after is the smallest non-zero") {
  const rr::Result none{};
  const rr::Result one_min{.requeue_after = 1min};
  const rr::Result five_sec{.requeue_after = 5s};
  CHECK(rr::aggregate_results(none, none).requeue_after == 0s);
  CHECK(rr::aggregate_results(none, one_min).requeue_after == 1min);
  CHECK(rr::aggregate_results(one_min, none).requeue_after == 1min);
  CHECK(rr::aggregate_results(one_min, five_sec).requeue_after == 5s);
  CHECK(rr::aggregate_results(five_sec, one_min).requeue_after == 5s);
  CHECK(rr::aggregate_results(one_min, none, rr::Result{.requeue = true}, five_sec) ==
        rr::Result{.requeue = true, .requeue_after = 5s});
}

TEST_CASE("Result::empty and Outcome constructors") {
  CHECK(rr::Result{}.empty());
  CHECK_FALSE(rr::Result{.requeue = true}.empty());
  CHECK_FALSE(rr::Result{.requeue_after = 1s}.empty());

  const rr::Outcome from_result = rr::Result{.requeue = true};
  CHECK(from_result.result.requeue);
  CHECK(from_result.error.ok());
  const rr::Outcome from_error = rr::Error::make("x");
  CHECK(from_error.result.empty());
  CHECK(from_error.error.message() == "x");
}

TEST_CASE("aggregate_results: the highest priority set wins; unset stays unset") {
  CHECK_FALSE(rr::aggregate_results(rr::Result{}, rr::Result{}).priority);
  CHECK(rr::aggregate_results(rr::Result{.priority = -100}, rr::Result{}).priority == -100);
  CHECK(rr::aggregate_results(rr::Result{}, rr::Result{.priority = 3}).priority == 3);
  CHECK(rr::aggregate_results(rr::Result{.priority = -100}, rr::Result{.priority = 3}).priority == 3);
  CHECK(rr::aggregate_results(rr::Result{.priority = 5}, rr::Result{.requeue = true, .priority = 3}).priority == 5);
}
